import { formatCost, formatDuration, formatTokens } from '../../ui/format';
import type { Block } from './lanes';

/** The selected step in words: outcome, time, tokens, test and commit, and a way to its session. */
export function StepDetails({ block, onOpenSession }: { block: Block; onOpenSession: (() => void) | null }) {
  const e = block.entry;
  return (
    <section aria-label="Step details" className="rounded border border-slate-200 p-3 text-sm dark:border-slate-800" data-testid="step-details">
      <h3 className="font-medium">{block.state}{block.attempt > 1 ? ` — attempt ${block.attempt}` : ''}</h3>
      <dl className="mt-2 grid grid-cols-[7rem_1fr] gap-y-1">
        <dt className="text-slate-600 dark:text-slate-400">Outcome</dt><dd>{block.status === 'current' ? 'running' : (e.outcome ?? block.status)}</dd>
        <dt className="text-slate-600 dark:text-slate-400">Time</dt><dd>{formatDuration(e.durationMs ?? block.end - block.start)}</dd>
        {e.usage ? (<><dt className="text-slate-600 dark:text-slate-400">Tokens</dt><dd>{formatTokens(e.usage.inputTokens)} in{e.usage.cacheReadTokens ? ` (${formatTokens(e.usage.cacheReadTokens)} from cache)` : ''} · {formatTokens(e.usage.outputTokens)} out</dd></>) : null}
        {e.usage ? (<><dt className="text-slate-600 dark:text-slate-400">Cost</dt><dd data-testid="step-cost">{e.usage.costUsd !== undefined ? formatCost(e.usage.costUsd) : 'unknown (no prices for this model)'}</dd></>) : null}
        {e.test ? (<><dt className="text-slate-600 dark:text-slate-400">Tests</dt><dd><code className="font-mono">{e.test.command}</code> → {e.test.passed ? 'passed' : `failed (exit ${e.test.exitCode})`}</dd></>) : null}
        {e.commit ? (<><dt className="text-slate-600 dark:text-slate-400">Commit</dt><dd className="font-mono">{e.commit}</dd></>) : null}
        {e.note ? (<><dt className="text-slate-600 dark:text-slate-400">Note</dt><dd className="whitespace-pre-wrap">{e.note}</dd></>) : null}
      </dl>
      {onOpenSession ? (
        <button type="button" onClick={onOpenSession} className="mt-2 text-indigo-700 dark:text-indigo-300 underline focus-visible:outline-2 focus-visible:outline-indigo-500" data-testid="open-step-session">
          Open this step's session
        </button>
      ) : (
        <p className="mt-2 text-xs text-slate-600 dark:text-slate-400">No agent session for this step (written by the workflow itself, or by an external engine).</p>
      )}
    </section>
  );
}
