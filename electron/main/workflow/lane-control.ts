// A component side by side that blocks while others still run: the user retries or skips it at once, without
// waiting for the others to finish (the run itself blocks only once nothing runs). The run's process reopens the
// lane here and rings the bell the components' loop (parallel.ts runParallel) waits on beside the steps in flight.
import type { WorkflowTimelineEntry } from '../../contract/methods/workflow';
import { skipWords } from '../../contract/words';
import type { LaneRecord, RunRecord } from './run-record';

/** Wakes the components' loop: `wait()` resolves at the next `ring()`. */
export class LaneBell {
  private waiting: Promise<void>;
  private wake!: () => void;

  constructor() {
    this.waiting = this.next();
  }

  private next(): Promise<void> {
    return new Promise<void>((resolve) => (this.wake = resolve));
  }

  wait(): Promise<void> {
    return this.waiting;
  }

  ring(): void {
    const wake = this.wake;
    this.waiting = this.next();
    wake();
  }
}

/** The blocked lane a retry or skip is about: the one named, else the first blocked; undefined when none is. */
export function blockedLane(record: RunRecord, component?: string): LaneRecord | undefined {
  return record.lanes?.find((l) => l.status === 'blocked' && (component === undefined || l.component === component));
}

/** The refusal of a retry or skip that names a component not blocked: which ones are, if any (a mistyped name is seen at once). */
export function notBlocked(record: RunRecord, component: string, verb: 'retry' | 'skip'): string {
  const blocked = (record.lanes ?? []).filter((l) => l.status === 'blocked').map((l) => l.component);
  const known = record.lanes?.some((l) => l.component === component) || record.plan?.components.some((c) => c.id === component);
  const which = blocked.length ? `the blocked one${blocked.length > 1 ? 's are' : ' is'} ${blocked.join(', ')}` : record.lanes ? 'no component is blocked' : "this run's components do not run side by side";
  return `component ${component} is not blocked: nothing to ${verb} (${known ? '' : 'the plan has no such component; '}${which}). ${blocked.length ? `Name a blocked one, or leave --component out for the run's step` : `Leave --component out: it names a component side by side that is blocked`}`;
}

/** The component whose merge step stopped the run (its conflicts in the project folder): a retry's answer is for that step. */
export function mergingLane(record: RunRecord): LaneRecord | undefined {
  return record.lanes?.find((l) => l.status === 'ready' && l.retryOf?.state === `${l.component}:merge`);
}

/** A blocked component goes on: its step runs again (it hears why it failed: its retryOf), or its next one if skipped. */
export function reopenLane(lane: LaneRecord): void {
  lane.status = lane.commit ? 'ready' : 'running';
  lane.error = undefined;
  lane.held = undefined;
}

/**
 * The run goes on from a retry or skip (not while it runs): a component named goes on alone, the other blocked ones
 * stay blocked (`held`); none named, every blocked one runs its step again.
 */
export function holdOthers(record: RunRecord, component: string | undefined): void {
  for (const l of record.lanes ?? []) if (l.status === 'blocked') l.held = component !== undefined && l.component !== component ? true : undefined;
}

/** The timeline entry of a skipped step (it took no time: nothing ran). */
export function skippedEntry(state: string, component?: string): WorkflowTimelineEntry {
  const now = new Date().toISOString();
  return { state, ...(component ? { component } : {}), enteredAt: now, leftAt: now, durationMs: 0, outcome: 'skipped', note: `by the user: ${skipWords(state)}` };
}
