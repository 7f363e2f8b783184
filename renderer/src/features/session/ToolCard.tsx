import type { SessionItem } from './sessionState';
import { formatDuration } from '../../ui/format';
import { calledUnknownTool } from '../../../../electron/contract/words';
import { toolWords } from './toolWords';

type Tool = Extract<SessionItem, { kind: 'tool' }>;

const tone: Record<Tool['status'], string> = {
  waiting: 'text-amber-800 dark:text-amber-300',
  running: 'text-sky-700 dark:text-sky-300',
  done: 'text-emerald-700 dark:text-emerald-300',
  error: 'text-red-700 dark:text-red-300',
  refused: 'text-red-700 dark:text-red-300',
};

/** A tool call: its arguments, then its result (or error), and how long it took. Collapsible with the keyboard. */
export function ToolCard({ item }: { item: Tool }) {
  return (
    <details className="rounded border border-slate-200 text-sm dark:border-slate-800" data-testid="tool-card" data-status={item.status} open={item.status === 'error' || item.status === 'refused'}>
      <summary className="flex cursor-pointer items-center gap-2 px-3 py-1.5 focus-visible:outline-2 focus-visible:outline-indigo-500">
        {/* The tool in words; its id (`files__write_file`) only in the tooltip. */}
        {/* A tool the session does not have is named as the model wrote it, not read as a tool it has ("Read slug.js" for files__cat). */}
        {/* The words keep their room (up to 60%): a long "not run" reason beside them is what is cut. */}
        <span className="min-w-0 max-w-[60%] shrink-0 truncate" data-testid="tool-words" title={item.name}>
          {item.result !== undefined && calledUnknownTool({ result: item.result, isError: item.status === 'error' }) ? `${item.name} (no such tool)` : toolWords(item.name, item.args, item.status === 'done')}
        </span>
        <span className={`shrink-0 whitespace-nowrap text-xs ${tone[item.status]} ${item.status === 'running' ? 'alive' : ''}`} data-testid="tool-status">{item.notRun !== undefined ? 'not run' : item.status}</span>
        {/* A call that did not run says why in its line, as the CLI's "— not run: why" does (the whole answer is below). */}
        {item.notRun ? <span className="min-w-0 truncate text-xs text-red-700 dark:text-red-300" title={item.notRun} data-testid="tool-not-run">{item.notRun}</span> : null}
        {/* Progress is news only while the call runs: a finished call's last keep-alive ("still running") is not shown. */}
        {item.status === 'running' && item.progress ? <span className="text-xs text-slate-600 dark:text-slate-400" data-testid="tool-progress">{progressText(item.progress)}</span> : null}
        <span className="ml-auto text-xs text-slate-600 dark:text-slate-400" data-testid="tool-duration">
          {/* Time spent waiting for the user is not the call's run time. */}
          {/* A call that did not run has no run time (what passed was the wait for an answer). */}
          {item.notRun !== undefined ? '' : item.durationMs !== undefined ? (item.waitedMs ? `${formatDuration(Math.max(0, item.durationMs - item.waitedMs))} (+ ${formatDuration(item.waitedMs)} waiting for you)` : formatDuration(item.durationMs)) : ''}
        </span>
      </summary>
      <div className="flex flex-col gap-2 border-t border-slate-200 p-3 dark:border-slate-800">
        <details>
          <summary className="cursor-pointer text-xs text-slate-600 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:text-slate-400">Arguments (JSON)</summary>
          <pre className="mt-1 max-h-48 overflow-auto rounded bg-slate-100 p-2 font-mono text-xs dark:bg-slate-900" aria-label="Arguments">{JSON.stringify(item.args, null, 2)}</pre>
        </details>
        {item.result !== undefined ? (
          <pre className={`max-h-72 overflow-auto whitespace-pre-wrap rounded p-2 font-mono text-xs ${item.status === 'done' ? 'bg-slate-100 dark:bg-slate-900' : 'bg-red-50 text-red-800 dark:bg-red-950 dark:text-red-200'}`} aria-label="Result" data-testid="tool-result">
            {item.result}
          </pre>
        ) : null}
      </div>
    </details>
  );
}

/** A running call's progress in words: a share when the server gave a total, else its message (a bare count says nothing). */
export function progressText(p: NonNullable<Tool['progress']>): string {
  const share = p.total ? `${Math.round((100 * p.progress) / p.total)}%` : '';
  return [share, p.message ?? (share ? '' : String(p.progress))].filter(Boolean).join(' ');
}
