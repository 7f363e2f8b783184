import { useState } from 'react';
import type { WorkflowReport, WorkflowRunView } from '../../../../electron/contract/index';
import { useClient } from '../../api/context';
import { Button } from '../../ui/Button';
import { ErrorBanner } from '../../ui/ErrorBanner';

type PullRequest = NonNullable<WorkflowReport['pullRequest']>;

/**
 * A completed run's way back into the user's history: its pull request (title and body, to copy; saved beside
 * the run; from the run's report, which the summary reads) and, for a run on its own branch, the choice to squash and
 * merge it where it started or keep it. (The review reports are read where the summary lists the reviews.)
 */
export function RunFinish({ view, pr, onFinished }: { view: WorkflowRunView; pr: PullRequest | null; onFinished: () => void }) {
  const client = useClient();
  const [busy, setBusy] = useState(false);
  const [said, setSaid] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const g = view.git;
  const finish = async (choice: 'squash' | 'keep') => {
    setBusy(true);
    setError(null);
    try {
      setSaid((await client.request('workflow.finish', { runId: view.runId, choice })).message);
      onFinished();
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };
  const text = pr ? `${pr.title}\n\n${pr.body}` : '';
  return (
    <div className="flex flex-col gap-2" data-testid="run-finish">
      {g?.mode === 'branch' && g.branch ? (
        g.finished ? (
          <p data-testid="finish-done">
            {g.finished.choice === 'squash' ? <>Squashed into <code className="font-mono text-xs">{g.base}</code>{g.finished.commit ? <> as <code className="font-mono text-xs">{g.finished.commit.slice(0, 10)}</code></> : null}.</> : <>Branch <code className="font-mono text-xs">{g.branch}</code> kept for a pull request.</>}
          </p>
        ) : (
          <>
            <p>
              The run's work is on branch <code className="font-mono text-xs">{g.branch}</code>
              {g.startedFrom ? (
                <>
                  , started from the unfinished run's branch <code className="font-mono text-xs">{g.startedFrom.branch}</code> (at <code className="font-mono text-xs">{g.startedFrom.commit.slice(0, 10)}</code>): its commits come along{g.base ? <> into <code className="font-mono text-xs">{g.base}</code></> : null}
                </>
              ) : g.base ? (
                <>
                  , started from <code className="font-mono text-xs">{g.base}</code>
                </>
              ) : null}
              .
            </p>
            <div className="flex flex-wrap gap-2">
              {g.base ? (
                <Button variant="primary" disabled={busy} onClick={() => void finish('squash')} data-testid="finish-squash">
                  Squash and merge into {g.base}
                </Button>
              ) : null}
              <Button disabled={busy} onClick={() => void finish('keep')} data-testid="finish-keep">
                Keep the branch
              </Button>
            </div>
          </>
        )
      ) : null}
      {said ? <p role="status" data-testid="finish-said">{said}</p> : null}
      <ErrorBanner message={error} onDismiss={() => setError(null)} />
      {pr ? (
        <details data-testid="pull-request">
          <summary className="cursor-pointer">Pull request: {pr.title}</summary>
          <p className="mt-1 text-xs text-slate-600 dark:text-slate-400">Saved in <code className="font-mono">{pr.file}</code></p>
          <textarea readOnly aria-label="Pull request title and body" className="mt-1 h-48 w-full rounded border border-slate-300 bg-white p-2 font-mono text-xs dark:border-slate-700 dark:bg-slate-900" value={text} />
          <Button onClick={() => void navigator.clipboard?.writeText(text)}>Copy</Button>
        </details>
      ) : null}
    </div>
  );
}
