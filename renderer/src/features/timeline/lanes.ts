import type { WorkflowRunView, WorkflowTimelineEntry } from '../../../../electron/contract/index';

/**
 * How a step ended, for the eye: `waiting` is a running step held by a question to the user; `fixed`
 * is a failed test run that a later run of the same component passed (not a failure of the run); `asked`, a step
 * whose model stopped to ask the user something only they can settle (played as a user: it was drawn red, "failed").
 */
export type BlockStatus = 'current' | 'waiting' | 'done' | 'failed' | 'fixed' | 'skipped' | 'interrupted' | 'asked';

export interface Block {
  key: string;
  index: number;
  state: string;
  /** The step's name within its lane (`testing`, `architecture`). */
  step: string;
  protocol?: string;
  status: BlockStatus;
  /** 1 for the first time this state ran in the run, 2 for the first retry, … */
  attempt: number;
  start: number;
  end: number;
  /** Position in the run's order of steps, 0..1: one column per step, so blocks never overlap. */
  left: number;
  width: number;
  /** The step's duration against the longest step's, 0..1 (time as the secondary axis). */
  share: number;
  /** A parallel run's component step: the steps of other components that ran at the same time (their states). */
  alongside?: string[];
  entry: WorkflowTimelineEntry;
}

export interface Lane {
  id: string;
  blocks: Block[];
}

const FAILED = new Set(['tests-failed', 'tests-untraced', 'not-done', 'error']);
/** Ended by the user (stop, pause) or by Erasmus stopping: the step did not fail, it runs again on resume. */
const CUT_SHORT = new Set(['interrupted', 'aborted']);

export function statusOf(e: WorkflowTimelineEntry, isCurrent: boolean): BlockStatus {
  if (!e.leftAt) return isCurrent ? 'current' : 'interrupted';
  if (e.outcome === 'skipped') return 'skipped';
  if (e.outcome && CUT_SHORT.has(e.outcome)) return 'interrupted';
  if (e.outcome === 'not-done' && e.asked) return 'asked';
  if (e.outcome && FAILED.has(e.outcome)) return 'failed';
  return 'done';
}

/** The lane of an entry: its component, else the prefix of its state (`prepare`, `final`). */
export function laneOf(e: WorkflowTimelineEntry): string {
  return e.component ?? e.state.split(':')[0] ?? e.state;
}

/** A parallel run's state while its components run side by side (workflow/plan.ts). */
const PARALLEL_STATE = 'parallel:components';

/**
 * The column of each step: the next one in run order, except that a step running at the same time as an
 * earlier step of another lane (`together`) shares the first such step's column, if its own lane has not passed it.
 */
export function columnsOf(laneIds: string[], together: (i: number, j: number) => boolean): number[] {
  const out: number[] = [];
  const last = new Map<string, number>();
  let max = -1;
  laneIds.forEach((lane, i) => {
    const shared = out.findIndex((_, j) => together(i, j));
    const col = shared >= 0 ? Math.max(out[shared]!, (last.get(lane) ?? -1) + 1) : max + 1;
    out.push(col);
    last.set(lane, col);
    max = Math.max(max, col);
  });
  return out;
}

/**
 * Lays a run out as lanes (components, in the order they first ran) of blocks in the order the steps
 * ran: one equal column per step, so waits (plan review, approvals, a stopped run) take no room and
 * nothing overlaps (steps of a parallel run's components that ran at once share a column, each in its own
 * lane); each block's `share` tells its time. `now` is the end of a step still running;
 * `waiting(entry)` says a running step waits for the user.
 */
export function layout(view: Pick<WorkflowRunView, 'timeline' | 'state' | 'status' | 'interrupted'>, now: number, waiting: (e: WorkflowTimelineEntry) => boolean = () => false): Lane[] {
  const entries = view.timeline;
  if (entries.length === 0) return [];
  const times = entries.map((e) => Date.parse(e.enteredAt));
  const ends = entries.map((e, i) => (e.leftAt ? Date.parse(e.leftAt) : Math.max(now, times[i]!)));
  const longest = Math.max(1, ...ends.map((end, i) => end - times[i]!));
  const lanes = new Map<string, Block[]>();
  const attempts = new Map<string, number>();
  // A run at rest has no step running: one left open was cut off (stopped, interrupted, abandoned for a newer goal).
  const live = view.status !== 'COMPLETED' && view.status !== 'STOPPED' && view.status !== 'ABANDONED' && !view.interrupted;
  // Components of a parallel run work at once, each in its worktree: steps of other components that overlap in time.
  const together = (i: number, j: number) => i !== j && !!entries[i]!.worktree && !!entries[j]!.worktree && laneOf(entries[i]!) !== laneOf(entries[j]!) && times[i]! < ends[j]! && times[j]! < ends[i]!;
  const columns = columnsOf(entries.map(laneOf), together);
  const count = Math.max(...columns) + 1;
  entries.forEach((e, index) => {
    const id = laneOf(e);
    const attempt = (attempts.get(e.state) ?? 0) + 1;
    attempts.set(e.state, attempt);
    // In a parallel run every component's open step is running (the run's own state is the parallel phase).
    const isCurrent = live && !e.leftAt && (e.state === view.state || (!!e.worktree && view.state === PARALLEL_STATE));
    const alongside = entries.filter((_, j) => together(index, j)).map((x) => x.state);
    const s = times[index]!;
    const end = ends[index]!;
    const status = statusOf(e, isCurrent);
    const block: Block = {
      key: `${index}`,
      index,
      state: e.state,
      step: e.state.includes(':') ? e.state.slice(e.state.indexOf(':') + 1) : (e.protocol ?? e.state),
      protocol: e.protocol,
      status: status === 'current' && waiting(e) ? 'waiting' : status,
      attempt,
      start: s,
      end,
      left: columns[index]! / count,
      width: 1 / count,
      share: (end - s) / longest,
      ...(alongside.length ? { alongside } : {}),
      entry: e,
    };
    if (!lanes.has(id)) lanes.set(id, []);
    lanes.get(id)!.push(block);
  });
  // A failed test run that a later test run of the same component passed was fixed, not failed.
  for (const blocks of lanes.values()) {
    blocks.forEach((b, i) => {
      const failedTests = b.entry.outcome === 'tests-failed' || b.entry.outcome === 'tests-untraced' || b.entry.test?.passed === false;
      if (b.status === 'failed' && failedTests && blocks.slice(i + 1).some((x) => x.entry.outcome === 'tests-passed' || x.entry.test?.passed)) b.status = 'fixed';
    });
  }
  return [...lanes].map(([id, blocks]) => ({ id, blocks }));
}

/**
 * The step to keep in sight in a run that scrolls sideways: the latest one running (or waiting for the user), else,
 * in a blocked run, the latest that failed or asked, else the latest step.
 */
export function focusOf(lanes: Lane[], blocked: boolean): Block | undefined {
  const all = lanes.flatMap((l) => l.blocks).sort((a, b) => a.index - b.index);
  return all.findLast((b) => b.status === 'current' || b.status === 'waiting') ?? (blocked ? all.findLast((b) => b.status === 'failed' || b.status === 'asked') : undefined) ?? all.at(-1);
}
