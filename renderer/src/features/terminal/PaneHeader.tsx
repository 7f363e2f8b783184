import type { TerminalTab } from './store';
import { status, tone } from './TerminalTabs';

/** Where a terminal ran, as the user reads it: inside the open project relative to it, else the full path. */
export function whereWords(cwd: string | undefined, project: string | undefined): string | undefined {
  if (!cwd) return undefined;
  if (project && cwd === project) return 'the project folder';
  if (project && cwd.startsWith(`${project}/`)) return cwd.slice(project.length + 1);
  return cwd;
}

/**
 * Above the active terminal's output: the command that ran there, whole (the tab shows its first line only), the
 * folder it ran in and how it ended, as the CLI's "runners: <command> → exit N" line says; a shell tab: its folder.
 */
export function PaneHeader({ tab, project, step }: { tab: TerminalTab; project?: string; step?: string }) {
  const where = whereWords(tab.cwd, project);
  const command = tab.kind === 'command' ? tab.command?.trim() || tab.title : undefined;
  return (
    <div className="flex items-start gap-3 border-b border-slate-200 px-2 py-1 text-xs dark:border-slate-800" data-testid="terminal-pane-header">
      <div className="min-w-0 flex-1">
        {step ? <p className="text-slate-600 dark:text-slate-400" data-testid="terminal-pane-step">{step}</p> : null}
        {command !== undefined ? (
          <pre className="max-h-20 overflow-auto whitespace-pre-wrap break-all font-mono text-slate-900 dark:text-slate-100" aria-label="Command" data-testid="terminal-pane-command">
            <span aria-hidden="true" className="select-none text-slate-500">$ </span>
            {command}
          </pre>
        ) : (
          <p className="font-medium">Shell</p>
        )}
        {where ? <p className="truncate text-slate-600 dark:text-slate-400" title={tab.cwd} data-testid="terminal-pane-cwd">in {where}</p> : null}
      </div>
      <span data-testid="terminal-pane-exit" className={`shrink-0 ${tone(tab)}`}>{status(tab)}</span>
    </div>
  );
}
