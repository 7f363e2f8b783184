import { useServices } from '../../app/services';
import { useStore } from '../../ui/store';
import { ElicitationCard } from './ElicitationCard';
import type { ElicitationRequest } from './elicitationStore';

/**
 * Questions servers are waiting on. With `sessionId`, `show` picks which: those asked during that
 * session's calls ('mine', shown at the end of its transcript) or all the others ('others', shown above
 * it). An answered question stays in its session's transcript with the answer.
 */
export function Elicitations({ sessionId, show, className = '' }: { sessionId?: string | null; show?: 'mine' | 'others'; className?: string }) {
  const { elicitations, sessions } = useServices();
  const waiting = useStore(elicitations, (s) => s);
  useStore(sessions, (s) => s); // ownership follows the sessions' running calls
  const mine = (r: ElicitationRequest) => !!sessionId && sessions.ownerOf(r.server) === sessionId;
  const shown = show === undefined ? waiting : waiting.filter((r) => (show === 'mine') === mine(r));
  if (!shown.length) return null;
  const settle = (r: ElicitationRequest, action: 'accept' | 'decline' | 'cancel') => {
    const id = sessions.ownerOf(r.server);
    if (id) sessions.addQuestion(id, { id: r.id, server: r.server, message: r.message, answer: action });
    elicitations.settle(r.id);
  };
  return (
    <section aria-label="Questions from servers" className={`flex flex-col gap-2 ${className}`} data-testid="elicitations">
      {shown.map((r) => <ElicitationCard key={r.id} request={r} onSettled={(_, action) => settle(r, action)} />)}
    </section>
  );
}
