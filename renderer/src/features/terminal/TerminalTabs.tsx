import { useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent, type RefObject } from 'react';
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

/** How a terminal's process stands: running, its exit status, or why it ended. */
export function status(tab: Pick<TerminalTab, 'running' | 'exitCode' | 'timedOut'>): string {
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

/** The colour of a terminal's state: running, succeeded, or failed (stopped, timed out, a non-zero exit). */
export const tone = (tab: Pick<TerminalTab, 'running' | 'exitCode' | 'timedOut'>) =>
  tab.running ? 'text-sky-800 dark:text-sky-300' : !tab.timedOut && tab.exitCode === 0 ? 'text-emerald-800 dark:text-emerald-300' : 'text-red-800 dark:text-red-300';

/** Widths the strip lays out by (the classes below give each tab and step label exactly this much). */
export const TAB_PX = 176;
export const LABEL_PX = 128;

/** A tab in the strip, with the step group it belongs to (consecutive tabs of one step share a label). */
export interface Placed {
  /** The step (or worktree) label, shown once before the group's first shown tab; none for a shell or a command outside a run. */
  label?: string;
  /** Consecutive tabs with the same label share a group. */
  group: number;
}

/** Puts consecutive tabs with the same label into one group. */
export function groupSteps(labels: readonly (string | undefined)[]): Placed[] {
  let group = -1;
  return labels.map((label, i) => {
    if (i === 0 || label === undefined || label !== labels[i - 1]) group++;
    return label === undefined ? { group } : { label, group };
  });
}

/**
 * Which tabs the strip shows in `width` pixels: all when they fit, else a run of neighbours around the
 * active tab (the newer side first); the "more" button beside the strip lists the rest. The active tab
 * is always shown.
 */
export function visibleRange(placed: readonly Placed[], active: number, width: number): [number, number] {
  const n = placed.length;
  const cost = (s: number, e: number) => {
    let px = 0;
    for (let i = s; i <= e; i++) px += TAB_PX + (placed[i]!.label !== undefined && (i === s || placed[i - 1]!.group !== placed[i]!.group) ? LABEL_PX : 0);
    return px;
  };
  if (!n || cost(0, n - 1) <= width) return [0, n - 1];
  let s = Math.min(Math.max(active, 0), n - 1);
  let e = s;
  for (;;) {
    if (e + 1 < n && cost(s, e + 1) <= width) e++;
    else if (s > 0 && cost(s - 1, e) <= width) s--;
    else return [s, e];
  }
}

/** The element's width in pixels as it changes; undefined where it cannot be measured (then every tab shows). */
function useWidth(ref: RefObject<HTMLElement | null>): number | undefined {
  const [width, setWidth] = useState<number | undefined>(undefined);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const measure = () => setWidth(el.clientWidth || undefined);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, [ref]);
  return width;
}

/**
 * The terminal view's tab bar: a tab list holding only the tabs, grouped per workflow step (the step
 * named once, each tab by its command, with its start time and state; arrow keys move between them),
 * as many as fit around the active one, the rest in a "more" menu; then the toggle for other folders'
 * tabs, the active tab's Stop and Close and "+ New shell", always in sight.
 */
export function TerminalTabs({ tabs: all, project, activeId, onSelect, onKill, onClose, onNewShell, stepOf }: TerminalTabsProps) {
  // The open project's tabs show; those of other folders (a closed project's) wait behind a toggle. The active tab always shows.
  const [showOthers, setShowOthers] = useState(false);
  const [menuOpen, setMenuOpen] = useState(false);
  const strip = useRef<HTMLDivElement>(null);
  const moreButton = useRef<HTMLButtonElement>(null);
  const focusActive = useRef(false);
  const width = useWidth(strip);
  const own = groupByWorktree(all.filter((t) => inside(t.cwd, project)));
  const others = all.filter((t) => !inside(t.cwd, project));
  const tabs = [...own, ...others.filter((t) => showOthers || t.id === activeId)];
  const active = tabs.find((t) => t.id === activeId);
  const labelOf = (tab: TerminalTab): string | undefined => {
    if (!inside(tab.cwd, project)) return tab.cwd ? folder(tab.cwd) : undefined;
    const step = stepOf?.(tab);
    if (step) return step;
    return worktreeComponent(tab.cwd) ? `${worktreeComponent(tab.cwd)} (worktree)` : undefined;
  };
  const labels = tabs.map(labelOf);
  const placed = groupSteps(labels);
  const activeIndex = tabs.findIndex((t) => t.id === activeId);
  const [from, to] = width === undefined ? [0, tabs.length - 1] : visibleRange(placed, activeIndex < 0 ? tabs.length - 1 : activeIndex, width);
  const hidden = tabs.filter((_, i) => i < from || i > to);
  useEffect(() => {
    if (!focusActive.current) return;
    focusActive.current = false;
    strip.current?.querySelector<HTMLElement>(`[data-tab="${activeId}"]`)?.focus();
  }, [activeId]);
  useEffect(() => {
    if (!hidden.length) setMenuOpen(false);
  }, [hidden.length]);
  const onKeyDown = (e: KeyboardEvent<HTMLElement>) => {
    const i = tabs.findIndex((t) => t.id === activeId);
    const next = e.key === 'ArrowRight' ? i + 1 : e.key === 'ArrowLeft' ? i - 1 : -2;
    if (next === -2 || !tabs.length) return;
    e.preventDefault();
    const tab = tabs[(next + tabs.length) % tabs.length]!;
    focusActive.current = true;
    onSelect(tab.id);
  };
  const title = (tab: TerminalTab, label?: string) =>
    `${label ? `${label}\n` : ''}${tab.command ?? tab.title}${tab.cwd ? `\nin ${tab.cwd}` : ''}${tab.startedAt ? `\nstarted ${time(tab.startedAt)}` : ''}`;
  return (
    <div className="relative flex items-center gap-1 border-b border-slate-200 px-2 text-xs dark:border-slate-800">
      <div ref={strip} role="tablist" aria-label="Terminals" className="flex min-w-0 flex-1 items-center gap-0 overflow-hidden" onKeyDown={onKeyDown}>
        {tabs.map((tab, i) => {
          if (i < from || i > to) return null;
          const label = labels[i];
          const first = label !== undefined && (i === from || placed[i - 1]!.group !== placed[i]!.group);
          return [
            first ? (
              <span key={`label-${tab.id}`} aria-hidden="true" title={label} data-testid="terminal-group" className="w-32 shrink-0 truncate pl-1 pr-1 text-right font-medium text-slate-600 dark:text-slate-400">
                {label}
              </span>
            ) : null,
            <button
              key={tab.id}
              type="button"
              role="tab"
              data-tab={tab.id}
              aria-selected={tab.id === activeId}
              tabIndex={tab.id === activeId ? 0 : -1}
              title={title(tab, label)}
              className={`flex w-44 shrink-0 items-center gap-1.5 rounded-t px-2 py-1 ${tab.id === activeId ? 'bg-slate-200 font-medium dark:bg-slate-800' : 'hover:bg-slate-100 dark:hover:bg-slate-900'}`}
              onClick={() => onSelect(tab.id)}
            >
              <span className="min-w-0 flex-1 truncate text-left">
                {label ? <span className="sr-only">{label}: </span> : null}
                {tab.kind === 'shell' ? '❯ ' : ''}
                {tabText(tab)}
              </span>
              {tab.startedAt ? <span className="shrink-0 text-slate-600 dark:text-slate-400">{time(tab.startedAt)}</span> : null}
              <span data-testid={`terminal-status-${tab.id}`} className={`shrink-0 ${tone(tab)}`}>{status(tab)}</span>
            </button>,
          ];
        })}
      </div>
      {hidden.length ? (
        <button
          ref={moreButton}
          type="button"
          aria-expanded={menuOpen}
          aria-controls={menuOpen ? 'terminal-more-list' : undefined}
          data-testid="terminal-more"
          className="shrink-0 rounded px-2 py-1 text-slate-700 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800"
          onClick={() => setMenuOpen((v) => !v)}
        >
          {hidden.length} more ▾
        </button>
      ) : null}
      {menuOpen && hidden.length ? (
        <div
          id="terminal-more-list"
          data-testid="terminal-more-list"
          className="absolute right-2 top-full z-20 max-h-80 w-96 overflow-y-auto rounded border border-slate-300 bg-white p-1 shadow-lg dark:border-slate-700 dark:bg-slate-900"
          onKeyDown={(e) => {
            if (e.key !== 'Escape') return;
            setMenuOpen(false);
            moreButton.current?.focus();
          }}
        >
          {hidden.map((tab) => {
            const i = tabs.indexOf(tab);
            const heading = labels[i] !== undefined && (i === 0 || placed[i - 1]!.group !== placed[i]!.group || i === to + 1);
            return (
              <div key={tab.id}>
                {heading ? <p className="px-2 pt-1 font-medium text-slate-600 dark:text-slate-400">{labels[i]}</p> : null}
                <button
                  type="button"
                  title={title(tab, labels[i])}
                  className="flex w-full items-center gap-1.5 rounded px-2 py-1 text-left hover:bg-slate-100 dark:hover:bg-slate-800"
                  onClick={() => {
                    onSelect(tab.id);
                    setMenuOpen(false);
                  }}
                >
                  <span className="min-w-0 flex-1 truncate">
                    {labels[i] ? <span className="sr-only">{labels[i]}: </span> : null}
                    {tab.kind === 'shell' ? '❯ ' : ''}
                    {tabText(tab)}
                  </span>
                  {tab.startedAt ? <span className="shrink-0 text-slate-600 dark:text-slate-400">{time(tab.startedAt)}</span> : null}
                  <span className={`shrink-0 ${tone(tab)}`}>{status(tab)}</span>
                </button>
              </div>
            );
          })}
        </div>
      ) : null}
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

/**
 * What a tab shows: a command terminal's command (its first line), which is what the user tells tabs apart by; its
 * title leads with the tool that ran it ("bash_run: …"), which a narrow tab cut to "bash_r…". The hover says both.
 */
export function tabText(tab: Pick<TerminalTab, 'kind' | 'title' | 'command'>): string {
  const first = tab.kind === 'command' ? tab.command?.split('\n').find((l) => l.trim())?.trim() : undefined;
  return first || tab.title;
}
