// A parallel run's schedule update (`parallel:orchestration`), written by Erasmus from the run record instead of
// by a model step: once every component of the goal is merged there is nothing left to plan. Each milestone is
// finished, and what comes next is the final phase, whose steps are the workflow's own; where the code departed
// from the architecture is the final documentation step's to say (it brings the architecture up to date with the
// product as built). A model step here only cost the wait for it, serial after every component.
import { keepStamp, withoutStamp } from './drift';

const STAMP_LINE = /^<!-- erasmus: describes commit /;
import type { Plan } from './plan';
import type { LaneRecord } from './run-record';

/** The heading of the part of the progress schedule Erasmus writes; a later parallel run replaces that part. */
export const SCHEDULE_STATUS_HEADING = '## Status after the components (written by Erasmus)';

/** The timeline's note on the step. */
export const SCHEDULE_BY_ERASMUS = 'every component is merged: Erasmus marked them finished in the progress schedule itself, without a model session (the final documentation brings the architecture up to date with the product as built)';

/** The status part: each of the run's components, finished, with its commit on the run's branch and its tasks; then what is next. */
export function componentsStatus(plan: Plan, lanes: LaneRecord[]): string {
  const lines = lanes.map((lane) => {
    const c = plan.components.find((x) => x.id === lane.component);
    const tasks = c?.tasks.map((t) => t.id).join(', ');
    const title = c?.title ? ` — ${c.title}` : '';
    const commit = lane.commit ? `committed and merged into the run's branch as ${lane.commit.slice(0, 8)}` : 'it had nothing to commit';
    return `- ${lane.component}${title}${tasks ? ` (tasks ${tasks})` : ''}: finished; ${commit}.`;
  });
  return [
    SCHEDULE_STATUS_HEADING,
    '',
    `Every milestone of this goal's components is finished: each component was developed, tested, reviewed, documented and committed in its own git worktree, then merged into the run's branch in schedule order. This part is what happened; the milestones above were planned before the components ran.`,
    '',
    ...lines,
    '',
    "After them, the run's final phase: end-to-end tests across the components, the README and the architecture as built, the final review. No component of this goal is left.",
  ].join('\n');
}

/** A line of the schedule that says what comes next ("Next: slugify and count_words (none finished)."): stale once every component is finished. */
const NEXT_LINE = /^[ \t]*(?:[-*][ \t]+)?(?:\*\*|__)?Next(?:\*\*|__)?[ \t]*(?::|\*\*:|:\*\*)[^\n]*\n?/gim;

/** A status the model wrote for a milestone before it ran ("… entry. Not started.", "core: next", "(pending)"): after a separator, ending the line. */
const PLANNED_STATUS = /(?<=[:(—–.-][ \t]*)(?:\*\*|_)?(?:not started(?: yet)?|not yet started|pending|to ?do|in progress|next|planned)(?:\*\*|_)?(?=\)?\.?[ \t]*$)/gim;

/**
 * A milestone line naming a finished component (its id as a word) with a status written before the run ("Not started"):
 * that status now reads "finished", so the schedule does not say both.
 */
function markFinished(text: string, finished: readonly string[]): string {
  if (!finished.length) return text;
  const names = new RegExp(`(?<![\\w-])(?:${finished.map((c) => c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})(?![\\w-])`, 'i');
  return text
    .split('\n')
    .map((line) => (names.test(line) ? line.replace(PLANNED_STATUS, (m) => (m[0] === m[0]!.toUpperCase() && m[0] !== m[0]!.toLowerCase() ? 'Finished' : 'finished')) : line))
    .join('\n');
}

/**
 * The schedule with its status part set to `status`: an earlier one (a parallel run of an earlier goal) replaced,
 * otherwise added at its end. The model's own "Next: …" lines, written before the components ran, go: every
 * component is finished now, and two different "Next" lines would leave the next step to guess which holds. A
 * milestone line naming one of the `finished` components that says it is not started (or next, pending) says finished.
 */
export function scheduleWithStatus(schedule: string | undefined, status: string, finished: readonly string[] = []): string {
  const body = markFinished(withoutStamp(schedule ?? ''), finished)
    .replace(NEXT_LINE, '')
    .replace(/\n{3,}/g, '\n\n');
  const at = body.indexOf(SCHEDULE_STATUS_HEADING);
  let next: string;
  if (at < 0) next = `${body.trimEnd()}${body.trim() ? '\n\n' : ''}${status}\n`;
  else {
    // The part runs to the next heading of its level or higher, or to the end.
    const after = body.slice(at + SCHEDULE_STATUS_HEADING.length);
    const end = after.search(/\n#{1,2} /);
    next = `${body.slice(0, at)}${status}\n${end < 0 ? '' : `${after.slice(end)}\n`}`;
  }
  return keepStamp(schedule, next);
}

/**
 * The schedule once the run is squashed into `base` as `squash`: each commit of the run it names (`runCommits`, full
 * ids; named by any prefix of 7 or more) names the squash commit instead, which holds that work on the user's branch
 * (the run's commits stay only on its own branch, which the user may delete); Erasmus's own "merged into the run's
 * branch as …" says where the work is now. A stamp line (Erasmus's bookkeeping, drift.ts) is left as it is.
 */
export function squashedSchedule(text: string, runCommits: readonly string[], squash: string, base: string): string {
  const ofRun = (hex: string) => hex.length >= 7 && runCommits.some((c) => c.startsWith(hex.toLowerCase()));
  const shown = (hex: string) => squash.slice(0, Math.max(hex.length, 8));
  return text
    .split('\n')
    .map((line) => {
      if (STAMP_LINE.test(line)) return line;
      return line
        .replace(/committed and merged into the run's branch as ([0-9a-f]{7,40})\b/g, (m, hex: string) => (ofRun(hex) ? `committed, then squashed into ${base} as ${shown(hex)}` : m))
        .replace(/(?<![0-9A-Za-z])[0-9a-f]{7,40}(?![0-9A-Za-z])/g, (hex) => (ofRun(hex) ? shown(hex) : hex));
    })
    .join('\n');
}
