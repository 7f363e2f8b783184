import { useState, type FormEvent } from 'react';
import type { WorkflowRunView } from '../../../../electron/contract/index';
import { Button } from '../../ui/Button';
import { humanState } from './labels';

/**
 * A blocked step's answer box: the user's words go with Retry step (`workflow.retry` with `answer`), and the step run
 * again hears them (what it stopped to ask, or how to go on). Shown only where a step ran and stopped at the run's state:
 * a step that never ran asked nothing. The same as `erasmus workflow retry <dir> --answer TEXT`. The text is the run
 * panel's (`answer`, `onAnswer`): Retry step sends it too when the box is not empty, so words typed are never dropped.
 */
export function RetryAnswer({ view, answer, onAnswer, onRetry }: { view: WorkflowRunView; answer: string; onAnswer: (text: string) => void; onRetry: (answer: string) => Promise<void> }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const ran = view.state !== undefined && view.timeline.some((e) => e.state === view.state && e.leftAt && !e.rewound && e.outcome !== 'skipped');
  if (!ran || !view.state) return null;
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!answer.trim()) return setError('Write the answer first, or use Retry step to run it again without one.');
    setBusy(true);
    setError(null);
    try {
      await onRetry(answer.trim());
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form onSubmit={(e) => void submit(e)} className="flex flex-col gap-2" data-testid="retry-answer">
      <label htmlFor="retry-answer-text" className="text-sm font-medium">Your answer to {humanState(view.state)}</label>
      <textarea
        id="retry-answer-text"
        data-testid="retry-answer-input"
        rows={3}
        value={answer}
        onChange={(e) => onAnswer(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) void submit(e);
        }}
        aria-describedby="retry-answer-help"
        className="rounded border border-slate-300 bg-white p-2 text-sm dark:border-slate-600 dark:bg-slate-900"
      />
      <p id="retry-answer-help" className="text-xs text-slate-600 dark:text-slate-400">The step runs again and hears this with its retry: answer what it asked, or say how to go on.</p>
      {error ? <p role="alert" className="text-sm text-red-700 dark:text-red-300">{error}</p> : null}
      <div>
        <Button type="submit" variant="primary" disabled={busy} data-testid="retry-answer-submit">
          {busy ? 'Retrying…' : 'Retry with this answer'}
        </Button>
      </div>
    </form>
  );
}
