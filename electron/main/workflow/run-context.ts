import type { WorkflowTimelineEntry } from '../../contract/methods/workflow';
import type { Paths } from '../paths/index';
import type { ContextDocs } from './documents';
import type { StepExecutor, StepRequest, StepResult } from './executor';
import type { RunRecord } from './run-record';
import type { WorkflowEmit } from './events';
import type { TestRunner } from './verify';

/** The abort reason of a process shutting down (not a stop): steps in flight stay open, as after a crash, and resume as interrupted. */
export const SHUTDOWN = 'erasmus: shutting down';

/** What the phase functions (prepare, execute) get from the run that drives them. */
export interface RunContext {
  readonly record: RunRecord;
  readonly paths: Paths;
  readonly docs: ContextDocs;
  readonly executor: StepExecutor;
  readonly signal: AbortSignal;
  readonly protocolsDir?: string;
  readonly runTests: TestRunner;
  emit: WorkflowEmit;
  /** Opens a timeline entry for a state and persists. */
  enter(state: string, extra?: Partial<WorkflowTimelineEntry>): Promise<WorkflowTimelineEntry>;
  /** Closes it with an outcome, adds usage to the totals, persists. */
  leave(entry: WorkflowTimelineEntry, outcome: NonNullable<WorkflowTimelineEntry['outcome']>, extra?: Partial<WorkflowTimelineEntry>): Promise<void>;
  /** Runs a model step through the executor; `entry` is its timeline entry (default: the last one; a parallel run has several open). */
  runStep(step: Omit<StepRequest, 'signal' | 'runId'>, entry?: WorkflowTimelineEntry): Promise<StepResult>;
  /** A pause was asked for: a phase that runs several steps at once starts no new one (parallel.ts). */
  pausing?(): boolean;
  persist(): Promise<void>;
  setStatus(status: RunRecord['status']): void;
}

/** What a phase function tells the loop: keep going, or stop here (the run waits for someone). */
export type Next = 'continue' | 'rest';
