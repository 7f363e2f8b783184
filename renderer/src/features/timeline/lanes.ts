import type { WorkflowRunView, WorkflowTimelineEntry } from '../../../../electron/contract/index';

/**
 * How a step ended, for the eye: `waiting` is a running step held by a question to the user; `fixed`
 * is a failed test run that a later run of the same component passed (not a failure of the run).
 */
export type BlockStatus = 'current' | 'waiting' | 'done' | 'failed' | 'fixed' | 'skipped' | 'interrupted';

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
  entry: WorkflowTimelineEntry;
}

export interface Lane {
  id: string;
  blocks: Block[];
}

const FAILED = new Set(['tests-failed', 'tests-untraced', 'not-done', 'error', 'aborted']);

export function statusOf(e: WorkflowTimelineEntry, isCurrent: boolean): BlockStatus {
  if (!e.leftAt) return isCurrent ? 'current' : 'interrupted';
  if (e.outcome === 'skipped') return 'skipped';
  if (e.outcome === 'interrupted') return 'interrupted';
  if (e.outcome && FAILED.has(e.outcome)) return 'failed';
  return 'done';
}

/** The lane of an entry: its component, else the prefix of its state (`prepare`, `final`). */
export function laneOf(e: WorkflowTimelineEntry): string {
  return e.component ?? e.state.split(':')[0] ?? e.state;
}

/**
 * Lays a run out as lanes (components, in the order they first ran) of blocks in the order the steps
 * ran: one equal column per step, so waits (plan review, approvals, a stopped run) take no room and
 * nothing overlaps; each block's `share` tells its time. `now` is the end of a step still running;
 * `waiting(entry)` says a running step waits for the user.
 */
export function layout(view: Pick<WorkflowRunView, 'timeline' | 'state' | 'status'>, now: number, waiting: (e: WorkflowTimelineEntry) => boolean = () => false): Lane[] {
  const entries = view.timeline;
  if (entries.length === 0) return [];
  const times = entries.map((e) => Date.parse(e.enteredAt));
  const ends = entries.map((e, i) => (e.leftAt ? Date.parse(e.leftAt) : Math.max(now, times[i]!)));
  const longest = Math.max(1, ...ends.map((end, i) => end - times[i]!));
  const lanes = new Map<string, Block[]>();
  const attempts = new Map<string, number>();
  const live = view.status !== 'COMPLETED' && view.status !== 'STOPPED';
  entries.forEach((e, index) => {
    const id = laneOf(e);
    const attempt = (attempts.get(e.state) ?? 0) + 1;
    attempts.set(e.state, attempt);
    const isCurrent = live && !e.leftAt && e.state === view.state;
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
      left: index / entries.length,
      width: 1 / entries.length,
      share: (end - s) / longest,
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
