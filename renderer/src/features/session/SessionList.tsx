import type { SessionState } from './sessionState';
import { pendingApprovals } from './sessionState';

const time = (at: number) => new Date(at).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });

/** A session's title: its workflow step, else the task it was given, else its id. */
export function sessionTitle(s: SessionState, labels: ReadonlyMap<string, string>): string {
  const step = labels.get(s.id);
  if (step) return step;
  const task = s.items.find((i) => i.kind === 'user');
  return task && task.kind === 'user' ? task.text.split('\n')[0]!.slice(0, 80) : s.id;
}

function Item({ s, selected, onSelect, labels }: { s: SessionState; selected: boolean; onSelect: (id: string) => void; labels: ReadonlyMap<string, string> }) {
  const waiting = pendingApprovals(s).length;
  return (
    <li>
      <button
        type="button"
        onClick={() => onSelect(s.id)}
        aria-current={selected}
        title={s.id}
        data-testid="session-item"
        className={`w-full rounded px-2 py-1 text-left text-xs focus-visible:outline-2 focus-visible:outline-indigo-500 ${selected ? 'bg-slate-200 dark:bg-slate-800' : 'hover:bg-slate-100 dark:hover:bg-slate-900'}`}
      >
        <span className="flex items-center gap-1">
          <span className={`inline-block h-2 w-2 shrink-0 rounded-full ${s.running ? 'alive bg-sky-500' : s.endReason === 'complete' ? 'bg-emerald-500' : s.endReason ? 'bg-red-500' : 'bg-slate-400'}`} aria-hidden />
          <span className="truncate font-medium">{sessionTitle(s, labels)}</span>
          {waiting ? <span className="ml-auto shrink-0 rounded bg-amber-300 px-1 text-black">{waiting} waiting</span> : null}
        </span>
        <span className="block truncate text-slate-600 dark:text-slate-400">{time(s.startedAt)}{s.model ? ` · ${s.model}` : ''}</span>
      </button>
    </li>
  );
}

/**
 * The sessions this window has seen, grouped: this run's steps in run order, chats in this project
 * (newest first), then those of other projects, one group each. The selected one is shown beside.
 */
export function SessionList({ sessions, selected, onSelect, labels, project }: { sessions: SessionState[]; selected: string | null; onSelect: (id: string) => void; labels: ReadonlyMap<string, string>; project?: string }) {
  const order = [...labels.keys()];
  const steps = sessions.filter((s) => labels.has(s.id)).sort((a, b) => order.indexOf(a.id) - order.indexOf(b.id));
  const chats = sessions.filter((s) => !labels.has(s.id));
  const here = chats.filter((s) => !project || !s.project || s.project === project);
  const elsewhere = chats.filter((s) => !here.includes(s));
  // Other projects' sessions, one group per project (named by its folder).
  const byProject = new Map<string, SessionState[]>();
  for (const s of elsewhere) byProject.set(s.project!, [...(byProject.get(s.project!) ?? []), s]);
  const others: Array<[string, SessionState[]]> = [...byProject].map(([dir, list]) => [`Project ${dir.split(/[\\/]/).filter(Boolean).pop() ?? dir}`, list]);
  const groups: Array<[string, SessionState[]]> = [['Chats', here], ['This run’s steps', steps], ...others];
  return (
    <nav aria-label="Sessions" className="flex w-60 shrink-0 flex-col gap-2 overflow-auto border-r border-slate-200 p-2 dark:border-slate-800">
      <button type="button" onClick={() => onSelect('')} className={`rounded px-2 py-1 text-left text-sm font-medium focus-visible:outline-2 focus-visible:outline-indigo-500 ${selected === null ? 'bg-slate-200 dark:bg-slate-800' : 'hover:bg-slate-100 dark:hover:bg-slate-900'}`}>
        + New session
      </button>
      {groups.map(([title, list], i) =>
        list.length ? (
          <section key={`${i}:${title}`} aria-label={title}>
            <h3 className="px-2 pb-1 text-[11px] font-semibold uppercase tracking-wide text-slate-600 dark:text-slate-400">{title}</h3>
            <ul className="flex flex-col gap-0.5">
              {list.map((s) => <Item key={s.id} s={s} selected={selected === s.id} onSelect={onSelect} labels={labels} />)}
            </ul>
          </section>
        ) : null,
      )}
    </nav>
  );
}
