import { useState, type FormEvent } from 'react';
import { Button } from '../../ui/Button';

type Executor = 'agent' | 'external';

/** No run yet: choose who does the work and start the workflow (the goal question comes next). */
export function StartRun({ onStart }: { onStart: (executor: Executor, autoApprove: boolean) => Promise<void> }) {
  const [executor, setExecutor] = useState<Executor>('agent');
  const [unattended, setUnattended] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await onStart(executor, executor === 'agent' && unattended);
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form onSubmit={(e) => void submit(e)} className="flex flex-col gap-3 rounded border border-slate-200 p-4 dark:border-slate-800" data-testid="start-run">
      <h3 className="font-medium">No workflow for this project yet</h3>
      <fieldset className="flex flex-col gap-1 text-sm">
        <legend className="mb-1 text-slate-600 dark:text-slate-400">Who does the work</legend>
        <label className="flex items-center gap-2">
          <input type="radio" name="executor" checked={executor === 'agent'} onChange={() => setExecutor('agent')} /> Erasmus's agent (the configured model)
        </label>
        <label className="flex items-center gap-2">
          <input type="radio" name="executor" checked={executor === 'external'} onChange={() => setExecutor('external')} /> An external cognitive engine (another MCP client answers each step)
        </label>
      </fieldset>
      {executor === 'agent' ? (
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" checked={unattended} onChange={(e) => setUnattended(e.target.checked)} data-testid="unattended" />
          Unattended: approve tool calls the command policy does not refuse, without asking
        </label>
      ) : null}
      {error ? <p role="alert" className="text-sm text-red-700 dark:text-red-300">{error}</p> : null}
      <div>
        <Button type="submit" variant="primary" disabled={busy} data-testid="start-workflow">
          {busy ? 'Starting…' : 'Start the workflow'}
        </Button>
      </div>
    </form>
  );
}
