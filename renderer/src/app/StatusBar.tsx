import { useServices } from './services';
import { useStore } from '../ui/store';
import { formatCost, formatDuration, formatTokens } from '../ui/format';
import { useNow } from '../features/timeline/useNow';
import { pendingApprovals } from '../features/session/sessionState';
import type { Sessions } from '../features/session/sessionStore';
import { liveTotals, runProgress } from './progress';
import { SandboxNotice } from './SandboxNotice';
import { runElapsed, runIsLive } from '../../../electron/contract/index';
import { humanState, runStatusWords } from '../features/project/labels';

const waitingCount = (s: Sessions) => Object.values(s.byId).reduce((n, x) => n + pendingApprovals(x).length, 0);
const runningCount = (s: Sessions) => Object.values(s.byId).filter((x) => x.running).length;

/** The current state, elapsed time, tokens, progress, and approvals waiting — always visible. */
export function StatusBar({ face, onApprovals, disconnected = false, sandbox }: { face: string; onApprovals: () => void; disconnected?: boolean; sandbox?: { available: boolean; detail: string } }) {
  const { run, sessions, elicitations } = useServices();
  const state = useStore(run.store, (s) => s);
  const waiting = useStore(sessions, waitingCount) + useStore(elicitations, (e) => e.length);
  const working = useStore(sessions, runningCount);
  const view = state.kind === 'run' ? state.view : null;
  // With the core gone nothing is live: no ticking clock, no "working".
  const live = !disconnected && !!view && runIsLive(view);
  const now = useNow(live);
  // The same clock as the timeline's header (runElapsed).
  const elapsed = view ? runElapsed(view, now, live) : undefined;
  const progress = view ? runProgress(view) : null;
  const byId = useStore(sessions, (s) => s.byId);
  const totals = view ? liveTotals(view, byId) : null;
  return (
    <footer className="flex items-center gap-4 border-t border-slate-200 px-4 py-1 text-xs text-slate-600 dark:border-slate-800 dark:text-slate-400" data-testid="status-bar">
      {view ? (
        <>
          <span data-testid="status-state" className={live ? 'font-medium text-sky-700 dark:text-sky-400' : 'font-medium'}>{runStatusWords(view)}{view.state && view.status !== 'COMPLETED' ? ` — ${humanState(view.state)}` : ''}</span>
          {elapsed !== undefined ? <span>{formatDuration(elapsed)}</span> : null}
          <span data-testid="status-tokens" title="This run's tokens and cost so far, the step running now included">{formatTokens(totals!.totalTokens)} tokens {formatCost(totals!.costUsd)}</span>
          {progress ? (
            <label className="flex items-center gap-1">
              <progress max={progress.total} value={progress.done} className="h-2 w-24" aria-label="Components done" />
              {progress.done}/{progress.total}
            </label>
          ) : null}
        </>
      ) : <span>No run</span>}
      {working && !disconnected ? <span className="alive">{working} agent session{working > 1 ? 's' : ''} working</span> : null}
      {waiting && !disconnected ? (
        <button type="button" onClick={onApprovals} className="rounded bg-amber-400 px-2 text-black focus-visible:outline-2 focus-visible:outline-indigo-500" data-testid="status-approvals">
          {waiting} approval{waiting > 1 ? 's' : ''} waiting
        </button>
      ) : null}
      {disconnected ? null : <SandboxNotice sandbox={sandbox} />}
      <span className="ml-auto">{face}</span>
    </footer>
  );
}
