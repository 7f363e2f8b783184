import type { SessionState } from './sessionState';
import { pendingApprovals } from './sessionState';

/** The sessions this window has seen; the selected one is shown beside. */
export function SessionList({ sessions, selected, onSelect, labels }: { sessions: SessionState[]; selected: string | null; onSelect: (id: string) => void; labels: ReadonlyMap<string, string> }) {
  return (
    <nav aria-label="Sessions" className="flex w-56 shrink-0 flex-col gap-1 overflow-auto border-r border-slate-200 p-2 dark:border-slate-800">
      <button type="button" onClick={() => onSelect('')} className={`rounded px-2 py-1 text-left text-sm focus-visible:outline-2 focus-visible:outline-indigo-500 ${selected === null ? 'bg-slate-200 dark:bg-slate-800' : ''}`}>
        + New session
      </button>
      {sessions.map((s) => {
        const waiting = pendingApprovals(s).length;
        return (
          <button
            key={s.id}
            type="button"
            onClick={() => onSelect(s.id)}
            aria-current={selected === s.id}
            className={`rounded px-2 py-1 text-left text-xs focus-visible:outline-2 focus-visible:outline-indigo-500 ${selected === s.id ? 'bg-slate-200 dark:bg-slate-800' : ''}`}
          >
            <span className={`mr-1 inline-block h-2 w-2 rounded-full ${s.running ? 'alive bg-sky-500' : s.endReason === 'complete' ? 'bg-emerald-500' : 'bg-slate-400'}`} aria-hidden />
            <span className="font-mono">{labels.get(s.id) ?? s.id.slice(0, 18)}</span>
            {waiting ? <span className="ml-1 rounded bg-amber-400 px-1 text-black">{waiting} waiting</span> : null}
            {s.model ? <span className="block truncate text-slate-600 dark:text-slate-400">{s.model}</span> : null}
          </button>
        );
      })}
    </nav>
  );
}
