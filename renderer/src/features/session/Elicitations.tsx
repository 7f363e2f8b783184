import { sessionIdOfLog } from '../../../../electron/contract/run-steps';
import { useServices } from '../../app/services';
import { humanState } from '../project/labels';
import { useStore } from '../../ui/store';
import { ElicitationCard } from './ElicitationCard';
import type { ElicitationRequest } from './elicitationStore';

/**
 * Questions servers are waiting on. With `sessionId`, `show` picks which: those asked during that
 * session's calls ('mine', shown at the end of its transcript) or all the others ('others', shown above
 * it). An answered question stays in its session's transcript with the answer.
 */
export function Elicitations({ sessionId, show, className = '' }: { sessionId?: string | null; show?: 'mine' | 'others'; className?: string }) {
  const { elicitations, sessions, run } = useServices();
  const waiting = useStore(elicitations, (s) => s);
  const runState = useStore(run.store, (s) => s);
  // The step a question belongs to: the run's step whose session is making the call to that server.
  const stepOf = (r: ElicitationRequest): string | undefined => {
    if (runState.kind !== 'run') return undefined;
    // A parallel run's components ask from their own worktrees: the question's folder names the component's running step.
    const cwd = r.approval?.cwd;
    const inLane = cwd ? runState.view.timeline.findLast((e) => !!e.worktree && !e.leftAt && (cwd === e.worktree || cwd.startsWith(`${e.worktree}/`))) : undefined;
    if (inLane) return humanState(inLane.state);
    const owner = sessions.ownerOf(r.server);
    if (!owner) return undefined;
    const entry = runState.view.timeline.findLast((e) => sessionIdOfLog(e.sessionLog) === owner);
    return entry ? humanState(entry.state) : undefined;
  };
  useStore(sessions, (s) => s); // ownership follows the sessions' running calls
  const mine = (r: ElicitationRequest) => !!sessionId && sessions.ownerOf(r.server) === sessionId;
  const shown = show === undefined ? waiting : waiting.filter((r) => (show === 'mine') === mine(r));
  if (!shown.length) return null;
  const settle = (r: ElicitationRequest, action: 'accept' | 'decline' | 'cancel', always?: string) => {
    const id = sessions.ownerOf(r.server);
    const yesNo = r.mode === 'form' && !Object.keys((r.requestedSchema?.properties as object | undefined) ?? {}).length;
    const since = elicitations.receivedAt(r.id);
    if (id) {
      sessions.addQuestion(id, {
        id: r.id,
        server: r.server,
        message: r.message,
        answer: action,
        yesNo,
        ...(r.approval ? { action: r.approval.action } : {}),
        ...(always ? { always } : {}),
        ...(since !== undefined ? { waitedMs: Date.now() - since } : {}),
      });
    }
    elicitations.settle(r.id);
  };
  return (
    <section aria-label="Questions from servers" className={`flex flex-col gap-2 ${className}`} data-testid="elicitations">
      {shown.map((r) => <ElicitationCard key={r.id} request={r} step={stepOf(r)} onSettled={(_, action, always) => settle(r, action, always)} />)}
    </section>
  );
}
