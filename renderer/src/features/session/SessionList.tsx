import { useEffect, useId, useState } from 'react';
import { chatTitle, type ItemStatus, type ListItem, type ProjectGroup, type RunGroup } from './sessionGroups';
import type { SessionState } from './sessionState';
import { pendingApprovals } from './sessionState';

const time = (at: number) => new Date(at).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });

/** A session's title: its workflow step ("adder · testing (attempt 2)"), else the task it was given. */
export function sessionTitle(s: SessionState, labels: ReadonlyMap<string, string>): string {
  return labels.get(s.id) ?? chatTitle(s);
}

const DOT: Record<ItemStatus, string> = {
  running: 'alive bg-sky-500',
  done: 'bg-emerald-500',
  failed: 'bg-red-500',
  asked: 'bg-amber-100 ring-2 ring-inset ring-amber-600',
  idle: 'bg-slate-400',
};
const DOT_WORDS: Record<ItemStatus, string> = { running: 'working', done: 'finished', failed: 'ended without finishing', asked: 'stopped to ask you', idle: 'idle' };

function Item({ item, selected, onSelect }: { item: ListItem; selected: boolean; onSelect: (id: string) => void }) {
  const waiting = item.session ? pendingApprovals(item.session).length : 0;
  const model = item.session?.model;
  return (
    <li>
      <button
        type="button"
        onClick={() => onSelect(item.id)}
        aria-current={selected}
        title={`${item.title} (${DOT_WORDS[item.status]})`}
        data-testid="session-item"
        data-status={item.status}
        className={`w-full rounded px-2 py-1 text-left text-xs focus-visible:outline-2 focus-visible:outline-indigo-500 ${selected ? 'bg-slate-200 dark:bg-slate-800' : 'hover:bg-slate-100 dark:hover:bg-slate-900'}`}
      >
        <span className="flex items-center gap-1">
          <span className={`inline-block h-2 w-2 shrink-0 rounded-full ${DOT[item.status]}`} aria-hidden />
          <span className="truncate font-medium" data-testid="session-item-title">{item.title}</span>
          {waiting ? <span className="ml-auto shrink-0 rounded bg-amber-300 px-1 text-black">{waiting} waiting</span> : null}
        </span>
        <span className="block truncate text-slate-600 dark:text-slate-400">{time(item.startedAt)}{model ? ` · ${model}` : ''}</span>
      </button>
    </li>
  );
}

function Items({ items, selected, onSelect, id }: { items: ListItem[]; selected: string | null; onSelect: (id: string) => void; id?: string }) {
  return (
    <ul id={id} className="flex flex-col gap-0.5">
      {items.map((it) => <Item key={it.id} item={it} selected={selected === it.id} onSelect={onSelect} />)}
    </ul>
  );
}

const subheading = 'px-2 text-[11px] font-semibold text-slate-700 dark:text-slate-300';

/** A run's steps behind a disclosure button (the heading); it opens when one of its steps is selected. */
function Run({ run, initiallyOpen, selected, onSelect }: { run: RunGroup; initiallyOpen: boolean; selected: string | null; onSelect: (id: string) => void }) {
  const [open, setOpen] = useState(initiallyOpen);
  const holdsSelected = !!selected && run.steps.some((s) => s.id === selected);
  useEffect(() => {
    if (holdsSelected) setOpen(true);
  }, [holdsSelected]);
  const listId = useId();
  return (
    <section aria-label={`Run: ${run.title}`} data-testid="session-run" data-run={run.runId}>
      <h4 className="m-0">
        <button
          type="button"
          aria-expanded={open}
          aria-controls={listId}
          onClick={() => setOpen((o) => !o)}
          data-testid="session-run-toggle"
          className={`flex w-full items-start gap-1 rounded py-0.5 text-left hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:hover:bg-slate-900 ${subheading}`}
        >
          <span aria-hidden className="shrink-0">{open ? '▾' : '▸'}</span>
          <span className="min-w-0">
            <span className="block truncate" data-testid="session-run-title">{run.title}</span>
            <span className="block truncate font-normal text-slate-600 dark:text-slate-400">{run.detail}</span>
          </span>
        </button>
      </h4>
      {open ? <Items id={listId} items={run.steps} selected={selected} onSelect={onSelect} /> : null}
    </section>
  );
}

function Project({ group, selected, onSelect }: { group: ProjectGroup; selected: string | null; onSelect: (id: string) => void }) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} data-testid="session-project" data-open={group.open}>
      <h3 id={headingId} title={group.dir || undefined} className="truncate px-2 pb-1 text-[11px] font-semibold uppercase tracking-wide text-slate-600 dark:text-slate-400">
        {group.name}
      </h3>
      <div className="flex flex-col gap-1.5">
        {group.chats.length ? (
          <section aria-label={`Chats in ${group.name}`} data-testid="session-chats">
            <h4 className={`m-0 pb-0.5 ${subheading}`}>Chats</h4>
            <Items items={group.chats} selected={selected} onSelect={onSelect} />
          </section>
        ) : null}
        {group.runs.map((run, i) => (
          // The newest run of the open project starts open; older ones (and other projects' runs) folded.
          <Run key={run.runId} run={run} initiallyOpen={group.open && i === 0} selected={selected} onSelect={onSelect} />
        ))}
        {group.open && !group.chats.length && !group.runs.length ? <p className="px-2 text-xs text-slate-600 dark:text-slate-400">No sessions yet.</p> : null}
      </div>
    </section>
  );
}

/**
 * The sessions list: per project (the open one first), its chats, then its workflow runs (newest
 * first, the newest open) with their steps in run order and attempt numbers. The selected one is
 * shown beside.
 */
export function SessionList({ groups, selected, onSelect }: { groups: ProjectGroup[]; selected: string | null; onSelect: (id: string) => void }) {
  return (
    <nav aria-label="Sessions" className="flex w-60 shrink-0 flex-col gap-3 overflow-auto border-r border-slate-200 p-2 dark:border-slate-800">
      <button type="button" onClick={() => onSelect('')} className={`rounded px-2 py-1 text-left text-sm font-medium focus-visible:outline-2 focus-visible:outline-indigo-500 ${selected === null ? 'bg-slate-200 dark:bg-slate-800' : 'hover:bg-slate-100 dark:hover:bg-slate-900'}`}>
        + New session
      </button>
      {groups.map((g) => <Project key={g.dir || '-'} group={g} selected={selected} onSelect={onSelect} />)}
    </nav>
  );
}
