import type { KeyboardEvent } from 'react';
import type { TerminalTab } from './store';

export interface TerminalTabsProps {
  tabs: readonly TerminalTab[];
  /** The open project's folder: its tabs come first; others are named by their folder. */
  project?: string;
  activeId: string | null;
  onSelect(id: string): void;
  onKill(id: string): void;
  onClose(id: string): void;
  onNewShell(): void;
}

function status(tab: TerminalTab): string {
  if (tab.running) return 'running';
  if (tab.timedOut) return 'timed out';
  return tab.exitCode === null ? 'stopped' : `exit ${tab.exitCode}`;
}

const time = (at?: number) => (at ? new Date(at).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' }) : '');
const inside = (cwd: string | undefined, project: string | undefined) => !project || !cwd || cwd === project || cwd.startsWith(`${project}/`);
const folder = (cwd: string) => cwd.split('/').filter(Boolean).pop() ?? cwd;

const tone = (tab: TerminalTab) =>
  tab.running ? 'text-sky-800 dark:text-sky-300' : !tab.timedOut && tab.exitCode === 0 ? 'text-emerald-800 dark:text-emerald-300' : 'text-red-800 dark:text-red-300';

/**
 * The terminal view's tab bar: a tab list holding only the tabs (each with its state; arrow keys move
 * between them), then the active tab's Stop and Close and "+ New shell", always in sight.
 */
export function TerminalTabs({ tabs: all, project, activeId, onSelect, onKill, onClose, onNewShell }: TerminalTabsProps) {
  const tabs = [...all.filter((t) => inside(t.cwd, project)), ...all.filter((t) => !inside(t.cwd, project))];
  const active = tabs.find((t) => t.id === activeId);
  const onKeyDown = (e: KeyboardEvent<HTMLElement>) => {
    const i = tabs.findIndex((t) => t.id === activeId);
    const next = e.key === 'ArrowRight' ? i + 1 : e.key === 'ArrowLeft' ? i - 1 : -2;
    if (next === -2 || !tabs.length) return;
    e.preventDefault();
    const tab = tabs[(next + tabs.length) % tabs.length]!;
    onSelect(tab.id);
    e.currentTarget.querySelector<HTMLElement>(`[data-tab="${tab.id}"]`)?.focus();
  };
  return (
    <div className="flex items-center gap-1 border-b border-slate-200 px-2 text-xs dark:border-slate-800">
      <div role="tablist" aria-label="Terminals" className="flex min-w-0 flex-1 items-center gap-1 overflow-x-auto" onKeyDown={onKeyDown}>
        {tabs.map((tab) => (
          <button
            key={tab.id}
            type="button"
            role="tab"
            data-tab={tab.id}
            aria-selected={tab.id === activeId}
            tabIndex={tab.id === activeId ? 0 : -1}
            title={`${tab.command ?? tab.title}${tab.cwd ? `\nin ${tab.cwd}` : ''}${tab.startedAt ? `\nstarted ${time(tab.startedAt)}` : ''}`}
            className={`flex max-w-64 shrink-0 items-center gap-1.5 rounded-t px-2 py-1 ${tab.id === activeId ? 'bg-slate-200 font-medium dark:bg-slate-800' : 'hover:bg-slate-100 dark:hover:bg-slate-900'}`}
            onClick={() => onSelect(tab.id)}
          >
            <span className="truncate">
              {!inside(tab.cwd, project) && tab.cwd ? <span className="text-slate-600 dark:text-slate-400">{folder(tab.cwd)}: </span> : null}
              {tab.kind === 'shell' ? '❯ ' : ''}{tab.title}
            </span>
            {tab.startedAt ? <span className="shrink-0 text-slate-600 dark:text-slate-400">{time(tab.startedAt)}</span> : null}
            <span data-testid={`terminal-status-${tab.id}`} className={`shrink-0 ${tone(tab)}`}>{status(tab)}</span>
          </button>
        ))}
      </div>
      {active?.running ? (
        <button type="button" className="shrink-0 rounded px-2 py-1 hover:bg-red-100 dark:hover:bg-red-950" onClick={() => onKill(active.id)}>
          ■ Stop<span className="sr-only"> {active.title}</span>
        </button>
      ) : null}
      {active ? (
        <button type="button" className="shrink-0 rounded px-2 py-1 hover:bg-slate-100 dark:hover:bg-slate-800" onClick={() => onClose(active.id)}>
          × Close<span className="sr-only"> {active.title}</span>
        </button>
      ) : null}
      <button type="button" title="Open a shell in the project folder" className="shrink-0 rounded px-2 py-1 font-medium hover:bg-slate-100 dark:hover:bg-slate-800" onClick={onNewShell}>
        + New shell
      </button>
    </div>
  );
}
