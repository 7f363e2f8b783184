import type { WorkflowRunView, WorkflowTimelineEntry } from './methods/workflow';

/** How much of a failing step's last words its timeline entry keeps (the end: where a model says what it needs). */
export const LAST_WORDS_MAX = 600;

/** The end of what a model said, cut at a word, for a timeline entry's `lastWords`; undefined when it said nothing. */
export function lastWordsOf(text: string | undefined): WorkflowTimelineEntry['lastWords'] {
  const whole = (text ?? '').trim();
  if (!whole) return undefined;
  if (whole.length <= LAST_WORDS_MAX) return { text: whole, chars: whole.length };
  const end = whole.slice(-LAST_WORDS_MAX + 1);
  const space = end.search(/\s/);
  return { text: `…${space >= 0 && space < 80 ? end.slice(space).trimStart() : end}`, chars: whole.length };
}

/** The part of a run a step belongs to: its component, else its state's prefix (`final`, `prepare`). */
const partOf = (e: Pick<WorkflowTimelineEntry, 'component' | 'state'>) => e.component ?? e.state.split(':')[0];

/**
 * A blocked run's model's last words: those of the last step of the part that blocked (a side-by-side run's blocked component,
 * else the run's state's), when that step kept any. The step's session log holds all of them.
 */
export function blockedLastWords(view: Pick<WorkflowRunView, 'status' | 'state' | 'lanes' | 'timeline'>): (NonNullable<WorkflowTimelineEntry['lastWords']> & { state: string; sessionLog?: string }) | undefined {
  if (view.status !== 'BLOCKED') return undefined;
  const lane = view.lanes?.find((l) => l.status === 'blocked');
  const part = lane?.component ?? (view.state ? partOf({ state: view.state }) : undefined);
  if (!part) return undefined;
  const last = view.timeline.findLast((e) => !e.rewound && e.leftAt && partOf(e) === part);
  if (!last?.lastWords) return undefined;
  return { ...last.lastWords, state: last.state, ...(last.sessionLog ? { sessionLog: last.sessionLog } : {}) };
}

/** How much of them is shown, in words: "" when all of it, else "the last 600 of 2345 characters". */
export function lastWordsCut(w: { text: string; chars: number }): string {
  const shown = w.text.replace(/^…/, '').length;
  return shown < w.chars ? `the last ${shown} of ${w.chars} characters` : '';
}

/**
 * A run blocked at a side-by-side component's merge into the run's branch that git refused (no merge step with a model
 * ran for it): that component, for the words on how to go on (no model to "try again"); undefined otherwise.
 */
export function blockedAtMerge(v: Pick<WorkflowRunView, 'status' | 'state' | 'lanes' | 'timeline'>): string | undefined {
  if (v.status !== 'BLOCKED' || v.state !== 'parallel:components' || !v.lanes || v.lanes.some((l) => l.status === 'blocked')) return undefined;
  // Merged in schedule order: the first not merged is the one whose merge stopped.
  const lane = v.lanes.find((l) => l.status !== 'merged');
  if (lane?.status !== 'ready') return undefined;
  return v.timeline.some((e) => !e.rewound && e.state === `${lane.component}:merge`) ? undefined : lane.component;
}

/** How to go on from `blockedAtMerge`: what retry does there, in every face. */
export function mergeRetryWords(component: string, retry: string): string {
  return `fix the cause in the project folder (the error names what is in the way: commit, stash or move those files), then ${retry}: it merges component ${component}'s commit into the run's branch again (no model runs at a merge)`;
}
