import type { WorkflowErrorInfo, WorkflowRunView, WorkflowTimelineEntry } from './methods/workflow';

/** Words for people in place of the workflow's internal names (`AWAITING_GOAL`, `prepare:architecture`). */
const STATUS: Record<WorkflowRunView['status'], string> = {
  LOADED: 'Ready',
  RUNNING: 'Running',
  AWAITING_GOAL: 'Waiting for your goal',
  AWAITING_APPROVAL: 'Waiting for your plan review',
  AWAITING_COGNITIVE_RESULT: 'Waiting for the external engine',
  PAUSED: 'Paused',
  BLOCKED: 'Blocked — needs you',
  STOPPED: 'Stopped',
  COMPLETED: 'Completed',
  ABANDONED: 'Abandoned for a newer goal',
};

export function humanStatus(status: WorkflowRunView['status'], interrupted?: boolean): string {
  // Recorded RUNNING with nobody driving it (the process was killed): it says so instead of "Running" forever.
  if (interrupted) return 'Interrupted — nothing is driving it';
  return STATUS[status] ?? status;
}

const STEP: Record<string, string> = {
  architecture: 'architecture',
  progress_schedule: 'schedule',
  task_list: 'task list',
  e2e_testing: 'end-to-end tests',
};

/** `prepare:architecture` → "Preparation · architecture"; `adder:testing` → "adder · testing"; `final:review` → "Final · review"; `orchestration:adder` → "adder · schedule update". */
export function humanState(state: string): string {
  const at = state.indexOf(':');
  if (at < 0) return state.replace(/_/g, ' ');
  const lane = state.slice(0, at);
  const step = state.slice(at + 1);
  const stepWords = STEP[step] ?? step.replace(/_/g, ' ');
  // `orchestration:adder` is the schedule brought up to date after that component.
  if (lane === 'orchestration') return `${step} · schedule update`;
  const laneWords = lane === 'prepare' ? 'Preparation' : lane === 'final' ? 'Final' : lane;
  return `${laneWords} · ${stepWords}`;
}

const ERROR: Record<WorkflowErrorInfo['kind'], string> = {
  RUN_NOT_FOUND: 'The run was not found',
  EXECUTION_NOT_FOUND: 'The step’s executor was not found',
  INVALID_STATE: 'That cannot be done now',
  PARSE_ERROR: 'A document could not be read',
  RUNTIME_ERROR: 'A step failed',
};

/** A workflow error in words, with the core's own message verbatim after it. */
export function humanError(e: WorkflowErrorInfo): string {
  return `${ERROR[e.kind] ?? e.kind}: ${e.message}${e.file ? ` (${e.file})` : ''}`;
}

const OUTCOME: Record<NonNullable<WorkflowTimelineEntry['outcome']>, string> = {
  done: 'done',
  'not-done': 'not finished',
  'tests-passed': 'tests passed',
  'tests-failed': 'tests failed',
  skipped: 'skipped',
  committed: 'committed',
  'nothing-to-commit': 'nothing to commit',
  interrupted: 'interrupted',
  aborted: 'stopped',
  error: 'failed',
  written: 'written',
  loaded: 'kept as it was',
};

/** How a step ended, in words (`tests-failed` → "tests failed"). */
export function humanOutcome(outcome: NonNullable<WorkflowTimelineEntry['outcome']>): string {
  return OUTCOME[outcome] ?? outcome;
}
