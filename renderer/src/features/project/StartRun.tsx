import { useState, type FormEvent } from 'react';
import type { WorkflowPreflightProblem } from '../../../../electron/contract/index';
import { Button } from '../../ui/Button';
import { DirtyTreeChoices, dirtyFiles, type DirtyTree } from './DirtyTree';

type Executor = 'agent' | 'external';
/** What the core's check before Start said is missing (error data `{ kind: 'PREFLIGHT', problems }`), if that is why it refused. */
function preflightProblems(err: unknown): WorkflowPreflightProblem[] | null {
  const data = (err as { data?: { kind?: unknown; problems?: unknown } }).data;
  return data?.kind === 'PREFLIGHT' && Array.isArray(data.problems) ? (data.problems as WorkflowPreflightProblem[]) : null;
}

const FIX_LABEL: Record<WorkflowPreflightProblem['fix'], string | null> = { providers: 'Open Settings', servers: 'Open Servers', protocols: null };

/** No run yet: choose who does the work and start the workflow (the goal question comes next). */
export function StartRun({
  onStart,
  onOpenSettings = () => {},
  onOpenServers = () => {},
}: {
  onStart: (executor: Executor, autoApprove: boolean, dirtyTree?: DirtyTree) => Promise<void>;
  onOpenSettings?: () => void;
  onOpenServers?: () => void;
}) {
  const [executor, setExecutor] = useState<Executor>('agent');
  const [unattended, setUnattended] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [problems, setProblems] = useState<WorkflowPreflightProblem[] | null>(null);
  const [dirty, setDirty] = useState<string[] | null>(null);
  const begin = async (dirtyTree?: DirtyTree) => {
    setBusy(true);
    setError(null);
    setProblems(null);
    setDirty(null);
    try {
      await onStart(executor, executor === 'agent' && unattended, dirtyTree);
    } catch (err) {
      const missing = preflightProblems(err);
      const files = dirtyFiles(err);
      if (missing) setProblems(missing);
      else if (files) setDirty(files);
      else setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    return begin();
  };
  const open = { providers: onOpenSettings, servers: onOpenServers, protocols: () => {} };
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
      {problems ? (
        <div role="alert" className="flex flex-col gap-2 rounded border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100" data-testid="preflight-problems">
          <p className="font-medium">The workflow cannot start yet: {problems.length === 1 ? 'one thing is' : `${problems.length} things are`} missing.</p>
          <ul className="flex list-disc flex-col gap-2 pl-5">
            {problems.map((p) => (
              <li key={p.message} data-fix={p.fix}>
                {p.message} {p.how}{' '}
                {FIX_LABEL[p.fix] ? (
                  <button type="button" onClick={open[p.fix]} className="text-indigo-700 underline focus-visible:outline-2 focus-visible:outline-indigo-500 dark:text-indigo-300" data-testid={`preflight-fix-${p.fix}`}>
                    {FIX_LABEL[p.fix]}
                  </button>
                ) : null}
              </li>
            ))}
          </ul>
          <p>Then press Start again.</p>
        </div>
      ) : null}
      {dirty ? <DirtyTreeChoices files={dirty} busy={busy} onChoose={(c) => void begin(c)} /> : null}
      {error ? <p role="alert" className="text-sm text-red-700 dark:text-red-300">{error}</p> : null}
      <div>
        <Button type="submit" variant="primary" disabled={busy} data-testid="start-workflow">
          {busy ? 'Starting…' : 'Start the workflow'}
        </Button>
      </div>
    </form>
  );
}
