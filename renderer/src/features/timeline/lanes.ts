import type { WorkflowRunView, WorkflowTimelineEntry } from '../../../../electron/contract/index';

export type BlockStatus = 'current' | 'done' | 'failed' | 'skipped' | 'interrupted';

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
  /** Position along the run's time, 0..1. */
  left: number;
  width: number;
  entry: WorkflowTimelineEntry;
}

export interface Lane {
  id: string;
  blocks: Block[];
}

const FAILED = new Set(['tests-failed', 'not-done', 'error', 'aborted']);

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
 * Lays a run out as lanes (components, in the order they first ran) of blocks along time. `now` is
 * the end of a step still running. Blocks get at least `minWidth` of the width so short steps stay visible.
 */
export function layout(view: Pick<WorkflowRunView, 'timeline' | 'state' | 'status'>, now: number, minWidth = 0.015): Lane[] {
  const entries = view.timeline;
  if (entries.length === 0) return [];
  const times = entries.map((e) => Date.parse(e.enteredAt));
  const start = Math.min(...times);
  const ends = entries.map((e, i) => (e.leftAt ? Date.parse(e.leftAt) : Math.max(now, times[i]!)));
  const span = Math.max(1, Math.max(...ends) - start);
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
    const block: Block = {
      key: `${index}`,
      index,
      state: e.state,
      step: e.state.includes(':') ? e.state.slice(e.state.indexOf(':') + 1) : (e.protocol ?? e.state),
      protocol: e.protocol,
      status: statusOf(e, isCurrent),
      attempt,
      start: s,
      end,
      left: (s - start) / span,
      width: Math.max(minWidth, (end - s) / span),
      entry: e,
    };
    if (!lanes.has(id)) lanes.set(id, []);
    lanes.get(id)!.push(block);
  });
  return [...lanes].map(([id, blocks]) => ({ id, blocks }));
}
