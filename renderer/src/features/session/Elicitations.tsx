import { useServices } from '../../app/services';
import { useStore } from '../../ui/store';
import { ElicitationCard } from './ElicitationCard';

/** Every question a server is waiting on, above the transcript, so it is seen whichever session is open. */
export function Elicitations() {
  const { elicitations } = useServices();
  const waiting = useStore(elicitations, (s) => s);
  if (!waiting.length) return null;
  return (
    <section aria-label="Questions from servers" className="flex flex-col gap-2 border-b border-slate-200 p-3 dark:border-slate-800" data-testid="elicitations">
      {waiting.map((r) => <ElicitationCard key={r.id} request={r} onSettled={(id) => elicitations.settle(id)} />)}
    </section>
  );
}
