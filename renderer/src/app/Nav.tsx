import type { KeyboardEvent } from 'react';
import { VIEWS, type ViewId } from './views';

/** The view switcher: a tab list (arrow keys, Home, End move between views); Alt+1…6 from anywhere. */
export function Nav({ current, onSelect, badges }: { current: ViewId; onSelect: (v: ViewId) => void; badges: Partial<Record<ViewId, number>> }) {
  const onKeyDown = (e: KeyboardEvent<HTMLElement>) => {
    const i = VIEWS.findIndex((v) => v.id === current);
    const next = e.key === 'ArrowRight' ? (i + 1) % VIEWS.length : e.key === 'ArrowLeft' ? (i + VIEWS.length - 1) % VIEWS.length : e.key === 'Home' ? 0 : e.key === 'End' ? VIEWS.length - 1 : -1;
    if (next < 0) return;
    e.preventDefault();
    onSelect(VIEWS[next]!.id);
    e.currentTarget.querySelector<HTMLElement>(`[data-testid="nav-${VIEWS[next]!.id}"]`)?.focus();
  };
  return (
    <nav role="tablist" aria-label="Views" className="flex gap-1" onKeyDown={onKeyDown}>
      {VIEWS.map((v, i) => (
        <button
          key={v.id}
          role="tab"
          type="button"
          aria-selected={current === v.id}
          tabIndex={current === v.id ? 0 : -1}
          aria-keyshortcuts={`Alt+${i + 1}`}
          title={`${v.label} (Alt+${i + 1})`}
          onClick={() => onSelect(v.id)}
          data-testid={`nav-${v.id}`}
          className={`rounded px-3 py-1 text-sm focus-visible:outline-2 focus-visible:outline-indigo-500 ${current === v.id ? 'bg-slate-200 font-medium dark:bg-slate-800' : 'text-slate-600 hover:bg-slate-100 dark:text-slate-400 dark:hover:bg-slate-900'}`}
        >
          {v.label}
          {badges[v.id] ? <span className="ml-1 rounded-full bg-amber-400 px-1.5 text-xs text-black">{badges[v.id]}</span> : null}
        </button>
      ))}
    </nav>
  );
}
