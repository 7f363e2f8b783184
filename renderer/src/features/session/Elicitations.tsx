import { useServices, type Services } from '../../app/services';
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
    askingStep(runState.kind === 'run' ? runState.view : null, (server) => sessions.ownerOf(server, r.approval?.cwd), { server: r.server, ...(r.approval?.cwd ? { cwd: r.approval.cwd } : {}) });
  useStore(sessions, (s) => s); // ownership follows the sessions' running calls
  const mine = (r: ElicitationRequest) => !!sessionId && sessions.ownerOf(r.server, r.approval?.cwd) === sessionId;
  const shown = show === undefined ? waiting : waiting.filter((r) => (show === 'mine') === mine(r));
  if (!shown.length) return null;
  return (
    <section aria-label="Questions from servers" className={`flex flex-col gap-2 ${className}`} data-testid="elicitations">
      {shown.map((r) => <ElicitationCard key={r.id} request={r} step={stepOf(r)} onSettled={(_, action, always) => settleQuestion({ sessions, elicitations }, r, action, always)} />)}
    </section>
  );
}

/**
 * A question leaves the waiting list and stays in the transcript of the session whose call it interrupted,
 * with its answer; `gone` when no live process asks it any more (nothing was done, whatever was clicked).
 */
export function settleQuestion({ sessions, elicitations }: Pick<Services, 'sessions' | 'elicitations'>, r: ElicitationRequest, answer: 'accept' | 'decline' | 'cancel' | 'gone', always?: string): void {
  const id = sessions.ownerOf(r.server, r.approval?.cwd);
  const yesNo = r.mode === 'form' && !Object.keys((r.requestedSchema?.properties as object | undefined) ?? {}).length;
  const since = elicitations.receivedAt(r.id);
  if (id) {
    sessions.addQuestion(id, {
      id: r.id,
      server: r.server,
      message: r.message,
      answer,
      yesNo,
      ...(r.approval ? { action: r.approval.action } : {}),
      ...(always ? { always } : {}),
      ...(since !== undefined && answer !== 'gone' ? { waitedMs: Date.now() - since } : {}),
    });
  }
  elicitations.settle(r.id);
}

/**
 * Back from a dropped connection (`erasmus serve` may have been restarted): what this window shows as
 * waiting or working is read again from the core. A question no live process asks any more is closed
 * "not asked any more", and a session the core no longer runs is cut off, as a reload would show them.
 */
export async function resyncLive(services: Pick<Services, 'sessions' | 'elicitations'>): Promise<void> {
  for (const r of await services.elicitations.resync()) settleQuestion(services, r, 'gone');
  await services.sessions.resync();
}
