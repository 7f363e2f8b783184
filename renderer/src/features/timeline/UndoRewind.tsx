import type { WorkflowRunView } from '../../../../electron/contract/index';
import { useRequest } from '../../api/useRequest';
import { humanState } from '../project/labels';
import { RewindToHere } from './RewindToHere';

/**
 * "Undo the rewind" while a rewound run rests (paused, blocked, stopped or completed) and nothing has run since the
 * rewind: the newest checkpoint is then the one the rewind took of what it left, and a rewind to it puts the project
 * and the run back (the CLI prints the same as `erasmus workflow rewind … --to <id>`). Read from the run's checkpoints,
 * so it holds after a reload or a restart of the core, not only in the tab that rewound.
 */
export function UndoRewind({ view, onUndone }: { view: WorkflowRunView; onUndone: () => void }) {
  if (view.status === 'RUNNING' || !view.timeline.some((e) => e.rewound)) return null;
  return <LastRewind view={view} onUndone={onUndone} />;
}

function LastRewind({ view, onUndone }: { view: WorkflowRunView; onUndone: () => void }) {
  const list = useRequest('workflow.checkpoints', { runId: view.runId }, `${view.updatedAt}:${view.timeline.length}`);
  const last = list.status === 'ok' ? list.data.checkpoints.at(-1) : undefined;
  if (!last || last.kind !== 'rewind') return null;
  return (
    <div className="rounded border border-amber-500 p-2 text-sm" data-testid="undo-rewind">
      <p>A rewind put the project and the run back{view.state && view.status !== 'COMPLETED' ? ` to before ${humanState(view.state)}` : ''}; what they were before it is kept as a checkpoint.</p>
      <RewindToHere key={last.id} undo runId={view.runId} checkpointId={last.id} running={false} onRewound={onUndone} />
    </div>
  );
}
