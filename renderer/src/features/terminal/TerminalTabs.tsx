import { useState, type KeyboardEvent } from 'react';
import { worktreeComponent } from './stepOf';
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
  /** The workflow step a tab ran in (`adder · testing`), to name it by. */
  stepOf?: (tab: TerminalTab) => string | undefined;
}

function status(tab: TerminalTab): string {
  if (tab.running) return 'running';
  if (tab.timedOut) return 'timed out';
  return tab.exitCode === null ? 'stopped' : `exit ${tab.exitCode}`;
}

const time = (at?: number) => (at ? new Date(at).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' }) : '');
/** A tab of the open project (or of no known folder); with no project open, every tab with a folder belongs to another. */
const inside = (cwd: string | undefined, project: string | undefined) => !cwd || (!!project && (cwd === project || cwd.startsWith(`${project}/`)));
const folder = (cwd: string) => cwd.split('/').filter(Boolean).pop() ?? cwd;

/** The project's own tabs first, then each worktree's together, in the order each first appeared (the order is otherwise kept). */
export function groupByWorktree<T extends { cwd?: string }>(tabs: readonly T[]): T[] {
  const order: Array<string | undefined> = [];
  for (const t of tabs) if (!order.includes(worktreeComponent(t.cwd))) order.push(worktreeComponent(t.cwd));
  const rank = (t: T) => (worktreeComponent(t.cwd) === undefined ? -1 : order.indexOf(worktreeComponent(t.cwd)));
  return tabs.map((t, i) => [t, i] as const).sort(([a, i], [b, j]) => rank(a) - rank(b) || i - j).map(([t]) => t);
}

const tone = (tab: TerminalTab) =>
  tab.running ? 'text-sky-800 dark:text-sky-300' : !tab.timedOut && tab.exitCode === 0 ? 'text-emerald-800 dark:text-emerald-300' : 'text-red-800 dark:text-red-300';

/**
 * The terminal view's tab bar: a tab list holding only the tabs (each named by its workflow step or
 * command, with its start time and state; arrow keys move between them), then the toggle for other
 * folders' tabs, the active tab's Stop and Close and "+ New shell", always in sight.
 */
export function TerminalTabs({ tabs: all, project, activeId, onSelect, onKill, onClose, onNewShell, stepOf }: TerminalTabsProps) {
  // The open project's tabs show; those of other folders (a closed project's) wait behind a toggle. The active tab always shows.
  const [showOthers, setShowOthers] = useState(false);
  const own = groupByWorktree(all.filter((t) => inside(t.cwd, project)));
  const others = all.filter((t) => !inside(t.cwd, project));
  const tabs = [...own, ...others.filter((t) => showOthers || t.id === activeId)];
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
            title={`${stepOf?.(tab) ? `${stepOf(tab)}\n` : ''}${tab.command ?? tab.title}${tab.cwd ? `\nin ${tab.cwd}` : ''}${tab.startedAt ? `\nstarted ${time(tab.startedAt)}` : ''}`}
            className={`flex max-w-64 shrink-0 items-center gap-1.5 rounded-t px-2 py-1 ${tab.id === activeId ? 'bg-slate-200 font-medium dark:bg-slate-800' : 'hover:bg-slate-100 dark:hover:bg-slate-900'}`}
            onClick={() => onSelect(tab.id)}
          >
            <span className="truncate">
              {!inside(tab.cwd, project) && tab.cwd ? <span className="text-slate-600 dark:text-slate-400">{folder(tab.cwd)}: </span> : null}
              {worktreeComponent(tab.cwd) && inside(tab.cwd, project) && !stepOf?.(tab) ? <span className="text-slate-600 dark:text-slate-400">{worktreeComponent(tab.cwd)} (worktree): </span> : null}
              {tab.kind === 'shell' ? '❯ ' : ''}{stepOf?.(tab) ?? tab.title}
            </span>
            {tab.startedAt ? <span className="shrink-0 text-slate-600 dark:text-slate-400">{time(tab.startedAt)}</span> : null}
            <span data-testid={`terminal-status-${tab.id}`} className={`shrink-0 ${tone(tab)}`}>{status(tab)}</span>
          </button>
        ))}
      </div>
      {others.length ? (
        <button type="button" aria-pressed={showOthers} data-testid="terminal-others" className="shrink-0 rounded px-2 py-1 text-slate-700 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800" onClick={() => setShowOthers((v) => !v)}>
          {showOthers ? 'Hide' : 'Show'} other folders ({others.length})
        </button>
      ) : null}
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
