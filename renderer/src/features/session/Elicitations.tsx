import { useServices } from '../../app/services';
import { useStore } from '../../ui/store';
import { askingStep } from './askingStep';
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
  // The step a question belongs to: the component's running step by the question's folder, else the step whose session makes the call.
  const stepOf = (r: ElicitationRequest): string | undefined =>
    askingStep(runState.kind === 'run' ? runState.view : null, (server) => sessions.ownerOf(server), { server: r.server, ...(r.approval?.cwd ? { cwd: r.approval.cwd } : {}) });
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
