import type { WorkflowTimelineEntry } from '../../contract/methods/workflow';
import type { Paths } from '../paths/index';
import type { ContextDocs } from './documents';
import type { Plan, PlanComponent } from './plan';
import type { StepExecutor, StepRequest, StepResult } from './executor';
import type { LaneRecord, RunRecord } from './run-record';
import type { WorkflowEmit } from './events';
import type { TestRunner } from './verify';
import type { KeptLane } from './worktrees';
import type { LaneBell } from './lane-control';

/** The abort reason of a process shutting down (not a stop): steps in flight stay open, as after a crash, and resume as interrupted. */
export const SHUTDOWN = 'erasmus: shutting down';

/**
 * A project's files as its checkpoints see them (checkpoints/workflow.ts): the tree of the checkpoint taken as a step
 * entered stands for the files the step found, so no second snapshot of the project is taken for it. Paths are
 * relative to the project folder; trees live in the checkpoints' shadow repository, not in the project's.
 */
export interface CheckpointTrees {
  /** Files that differ from `tree` to the project's files now. */
  changedSince(projectDir: string, tree: string): Promise<Array<{ path: string; change: 'added' | 'modified' | 'deleted' }>>;
  /** The diff from `tree` to the project's files now (`--stat` when `stat`), or '' when they are the same. */
  diffSince(projectDir: string, tree: string, stat?: boolean): Promise<string>;
  /** The project's files now, as a tree among the checkpoints'. */
  tree(projectDir: string): Promise<string>;
  /** The diff from one such tree to another (`--stat` when `stat`). */
  diffBetween(projectDir: string, from: string, to: string, stat?: boolean): Promise<string>;
}

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
  /** Rung when a blocked component is retried or skipped while others run: the components' loop starts it again (lane-control.ts). */
  lanesBell?: LaneBell;
  /** Drives one component of a parallel run to its commit (ready) somewhere else: a durable run's workers (durable/remote-lane.ts). */
  driveLane?(ctx: RunContext, plan: Plan, lane: LaneRecord, component: PlanComponent): Promise<void>;
  /**
   * The components' phase starts again after a rewind to before it: a durable run cancels the rewound attempt's
   * workflows, keeps their work no branch holds, and deletes its refs on origin (durable/leave.ts).
   */
  lanesRewound?(): Promise<{ kept: KeptLane[]; note?: string }>;
  setStatus(status: RunRecord['status']): void;
  /**
   * Steps running beside the run's current one, by state (a parallel run's final documentation beside its end-to-end
   * tests: beside.ts), held by the process driving the run across its loop's steps; absent where none may run beside.
   */
  beside?: Map<string, Promise<void>>;
  /** Just before the run completes: a durable run pushes its branch to origin (durable/remote-lane.ts). A failure blocks the run; retry does it again. */
  completing?(): Promise<void>;
  /** The checkpoints' trees, where steps take checkpoints: a step whose `startTree` is one (`startTreeIn: 'checkpoints'`) is diffed there (retry-note.ts). */
  checkpointTrees?: CheckpointTrees;
}

/** What a phase function tells the loop: keep going, or stop here (the run waits for someone). */
export type Next = 'continue' | 'rest';
