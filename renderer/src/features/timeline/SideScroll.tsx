import { useCallback, useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';

/** Room the sticky lane names take on the left of the scrolled lanes (w-28 plus the gap). */
const LANE_NAME_PX = 120;

/**
 * A run's lanes when they are wider than the window: they scroll sideways, with a visible scrollbar, buttons for
 * the earlier and later steps (a scrollbar the system hides until used is no cue), and the step `focus` (its
 * `data-index`) kept in sight whenever it changes.
 */
export function SideScroll({ focus, children }: { focus: number | undefined; children: ReactNode }) {
  const box = useRef<HTMLDivElement>(null);
  const [more, setMore] = useState({ before: false, after: false });
  const measure = useCallback(() => {
    const el = box.current;
    if (!el) return;
    const before = el.scrollLeft > 1;
    const after = el.scrollLeft + el.clientWidth < el.scrollWidth - 1;
    setMore((m) => (m.before === before && m.after === after ? m : { before, after }));
  }, []);
  useEffect(() => {
    const el = box.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const watch = new ResizeObserver(measure);
    watch.observe(el);
    if (el.firstElementChild) watch.observe(el.firstElementChild);
    return () => watch.disconnect();
  }, [measure]);
  useLayoutEffect(() => {
    const el = box.current;
    const step = focus === undefined ? null : el?.querySelector<HTMLElement>(`[data-index="${focus}"]`);
    if (!el || !step) return measure();
    const b = step.getBoundingClientRect();
    const c = el.getBoundingClientRect();
    const hiddenLeft = c.left + LANE_NAME_PX - b.left;
    const hiddenRight = b.right - c.right;
    if (hiddenLeft > 0) el.scrollLeft -= hiddenLeft + 8;
    else if (hiddenRight > 0) el.scrollLeft += hiddenRight + 8;
    measure();
  }, [focus, measure]);
  const by = (dir: 1 | -1) => {
    const el = box.current;
    el?.scrollBy({ left: dir * Math.max(200, el.clientWidth - LANE_NAME_PX - 40), behavior: 'smooth' });
  };
  const cue = 'rounded border border-slate-300 px-2 py-0.5 text-xs focus-visible:outline-2 focus-visible:outline-indigo-500 disabled:opacity-40 dark:border-slate-700';
  return (
    <div className="flex flex-col gap-1">
      {more.before || more.after ? (
        <div className="flex justify-between" data-testid="timeline-scroll-cues">
          <button type="button" className={cue} disabled={!more.before} onClick={() => by(-1)} data-testid="timeline-earlier">← Earlier steps</button>
          <button type="button" className={cue} disabled={!more.after} onClick={() => by(1)} data-testid="timeline-later">Later steps →</button>
        </div>
      ) : null}
      <div ref={box} onScroll={measure} className="side-scroll overflow-x-auto pb-1" data-testid="timeline-scroll">
        {children}
      </div>
    </div>
  );
}
