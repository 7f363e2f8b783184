import { useState } from 'react';
import type { RewindPreview } from '../../../../electron/contract/methods/checkpoints';
import { branchRemovedWords, laneWorkWords } from '../project/labels';
import { useClient } from '../../api/context';

const sentence = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

const SIGN = { added: 'comes back', modified: 'goes back to how it was', deleted: 'is removed' } as const;
/** A component worktree's uncommitted change, relative to its last commit (not what the rewind does to it). */
const LANE_SIGN = { added: 'new', modified: 'changed', deleted: 'deleted' } as const;

/** The words of a rewind to a step, and of the undo of the last rewind (a rewind to the checkpoint that rewind left). */
const WORDS = {
  step: {
    open: 'Rewind to here',
    group: 'Rewind to before this step',
    question: 'Rewind the project and the run to before this step?',
    failed: 'Could not rewind',
    done: 'Rewound: the run is paused at this step; Resume goes on from here, or “Undo the rewind” at the top of the timeline puts everything back.',
  },
  undo: {
    open: 'Undo the rewind',
    group: 'Undo the rewind',
    question: 'Undo the rewind: put the project and the run back as they were when it was made?',
    failed: 'Could not undo the rewind',
    done: 'The rewind is undone: the project and the run are as they were before it.',
  },
} as const;

type State = { kind: 'idle' } | { kind: 'loading' } | { kind: 'preview'; preview: RewindPreview } | { kind: 'rewinding' } | { kind: 'done'; undo: string; state?: string } | { kind: 'error'; message: string };

/**
 * "Rewind to here" on a timeline step: the files that will change and the commits undone, then a
 * confirmation. The core refuses while the run is being driven (pause or stop it first).
 */
export function RewindToHere({ runId, checkpointId, running, onRewound, undo = false }: { runId: string; checkpointId: string; running: boolean; onRewound: () => void; undo?: boolean }) {
  const client = useClient();
  const w = WORDS[undo ? 'undo' : 'step'];
  const [s, setS] = useState<State>({ kind: 'idle' });
  const open = () => {
    setS({ kind: 'loading' });
    client.request('workflow.rewindPreview', { runId, checkpointId }).then(
      (preview) => setS({ kind: 'preview', preview }),
      (err: Error) => setS({ kind: 'error', message: err.message }),
    );
  };
  const confirm = () => {
    setS({ kind: 'rewinding' });
    client.request('workflow.rewind', { runId, checkpointId }).then(
      (r) => {
        setS({ kind: 'done', undo: r.undo.id, state: r.state });
        onRewound();
      },
      (err: Error) => setS({ kind: 'error', message: err.message }),
    );
  };
  if (running) return <p className="mt-2 text-xs text-slate-600 dark:text-slate-400" data-testid="rewind-running">Pause or stop the run to rewind to this step.</p>;
  return (
    <div className="mt-2" data-testid="rewind">
      {s.kind === 'idle' || s.kind === 'error' ? (
        <button type="button" onClick={open} data-testid="rewind-open" className="rounded border border-slate-300 px-2 py-0.5 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:border-slate-700">
          {w.open}
        </button>
      ) : null}
      {s.kind === 'loading' ? <p className="text-xs">Reading what would change…</p> : null}
      {s.kind === 'error' ? <p role="alert" className="mt-1 text-xs text-red-700 dark:text-red-300">{w.failed}: {s.message}</p> : null}
      {s.kind === 'preview' ? (
        <div role="group" aria-label={w.group} className="mt-1 rounded border border-amber-500 p-2" data-testid="rewind-preview">
          <p className="font-medium">{w.question}</p>
          <p className="text-xs text-slate-600 dark:text-slate-400">What the project is now is kept as a checkpoint, so this can be undone{s.preview.ignored ? `; ${s.preview.ignored === 1 ? 'one file or folder .gitignore ignores is left as it is' : `${s.preview.ignored} files or folders .gitignore ignores are left as they are`}` : ''}.</p>
          {s.preview.files.length ? (
            <ul tabIndex={0} aria-label="Files that will change" className="mt-1 max-h-40 overflow-auto focus-visible:outline-2 focus-visible:outline-indigo-500" data-testid="rewind-files">
              {s.preview.files.map((f) => <li key={f.path}><code className="font-mono">{f.path}</code> <span className="text-slate-600 dark:text-slate-400">{SIGN[f.change]}</span></li>)}
            </ul>
          ) : <p className="mt-1 text-xs">No file changes.</p>}
          {s.preview.commitsUndone.length ? (
            <>
              <p className="mt-1 text-xs">Commits undone (kept under refs/erasmus/rewound/):</p>
              <ul aria-label="Commits undone" data-testid="rewind-commits">
                {s.preview.commitsUndone.map((c) => <li key={c.commit}><code className="font-mono">{c.commit.slice(0, 10)}</code> {c.subject}</li>)}
              </ul>
            </>
          ) : null}
          {s.preview.branchRemoved ? <p className="mt-1 text-xs" data-testid="rewind-branch">{sentence(branchRemovedWords(s.preview.branchRemoved, false))}.</p> : null}
          {(s.preview.lanes ?? []).map((l) => (
            <div key={l.component} className="mt-1 text-xs" data-testid="rewind-lane">
              <p>{sentence(laneWorkWords(l))}{l.files.length ? ':' : '.'}</p>
              {l.files.length ? (
                <ul tabIndex={0} aria-label={`Uncommitted files of component ${l.component}`} className="max-h-40 overflow-auto focus-visible:outline-2 focus-visible:outline-indigo-500">
                  {l.files.map((f) => <li key={f.path}><code className="font-mono">{f.path}</code> <span className="text-slate-600 dark:text-slate-400">{LANE_SIGN[f.change]}</span></li>)}
                </ul>
              ) : null}
            </div>
          ))}
          <div className="mt-2 flex gap-2">
            <button type="button" onClick={confirm} data-testid="rewind-confirm" className="rounded bg-amber-700 px-2 py-0.5 text-white focus-visible:outline-2 focus-visible:outline-indigo-500">{undo ? 'Undo it' : 'Rewind'}</button>
            <button type="button" onClick={() => setS({ kind: 'idle' })} className="rounded border border-slate-300 px-2 py-0.5 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:border-slate-700">Cancel</button>
          </div>
        </div>
      ) : null}
      {s.kind === 'rewinding' ? <p className="text-xs">Rewinding…</p> : null}
      {s.kind === 'done' ? <p role="status" className="text-xs" data-testid="rewind-done">{w.done}</p> : null}
    </div>
  );
}
