import type { WorkflowRunView } from '../../../../electron/contract/index';

/** The workflow run of the open project, as the views see it. */
export type RunState =
  | { kind: 'idle' }
  | { kind: 'loading'; projectDir: string }
  | { kind: 'none'; projectDir: string }
  | { kind: 'error'; projectDir: string; message: string }
  | { kind: 'run'; projectDir: string; view: WorkflowRunView };

/** What the project view shows for a run. */
export type RunPhase = 'goal' | 'preparing' | 'plan' | 'running' | 'external' | 'paused' | 'blocked' | 'stopped' | 'interrupted' | 'completed';

export function phaseOf(view: WorkflowRunView): RunPhase {
  switch (view.status) {
    case 'AWAITING_GOAL':
      return 'goal';
    case 'AWAITING_APPROVAL':
      return 'plan';
    case 'AWAITING_COGNITIVE_RESULT':
      return 'external';
    case 'PAUSED':
      return 'paused';
    case 'BLOCKED':
      return 'blocked';
    case 'STOPPED':
      return 'stopped';
    // Left for a newer goal (ABANDONED): nothing to do with it but start another.
    case 'COMPLETED':
    case 'ABANDONED':
      return 'completed';
    case 'LOADED':
    case 'RUNNING':
      // Nothing drives it (its process was killed): it says so, and Resume takes it up.
      if (view.interrupted) return 'interrupted';
      return view.approved ? 'running' : 'preparing';
  }
}

/** Which controls make sense in a phase. */
export type RunAction = 'pause' | 'resume' | 'stop' | 'retry' | 'skip';
export function actionsFor(phase: RunPhase): RunAction[] {
  switch (phase) {
    case 'running':
    case 'external':
    case 'preparing':
      return ['pause', 'stop', 'skip'];
    case 'paused':
      return ['resume', 'stop', 'skip'];
    // Blocked: Retry step runs it again (Resume would do the same, so it is not offered twice).
    case 'blocked':
      return ['retry', 'skip', 'stop'];
    case 'stopped':
      return ['resume', 'retry'];
    // Resume runs the cut-off steps again (Retry step would do the same, so it is not offered twice).
    case 'interrupted':
      return ['resume'];
    // Nothing runs while the run waits for the goal or the plan review: no Stop to press.
    case 'goal':
    case 'plan':
    case 'completed':
      return [];
  }
}
