import type { WorkflowRunView } from '../../../../electron/contract/index';

/** The workflow run of the open project, as the views see it. */
export type RunState =
  | { kind: 'idle' }
  | { kind: 'loading'; projectDir: string }
  | { kind: 'none'; projectDir: string }
  | { kind: 'error'; projectDir: string; message: string }
  | { kind: 'run'; projectDir: string; view: WorkflowRunView };

/** What the project view shows for a run. */
export type RunPhase = 'goal' | 'preparing' | 'plan' | 'running' | 'pausing' | 'external' | 'paused' | 'blocked' | 'stopped' | 'interrupted' | 'completed';

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
      if (view.pausing) return 'pausing';
      return view.approved ? 'running' : 'preparing';
  }
}

/** A parallel run's state while its components run side by side (workflow/plan.ts). */
const PARALLEL_STATE = 'parallel:components';

/**
 * The step Skip would skip, as the core decides it (`WorkflowRun.skip`), or undefined when none can be: the
 * blocked step, or the step a paused run goes on with; never a preparation step, never while steps run, and
 * with components side by side only a blocked component's step.
 */
export function skipTarget(view: WorkflowRunView): string | undefined {
  const phase = phaseOf(view);
  if (phase !== 'blocked' && phase !== 'paused') return undefined;
  if (view.state === PARALLEL_STATE) return view.lanes?.find((l) => l.status === 'blocked' && l.state)?.state;
  if (!view.approved || !view.state || view.state.startsWith('prepare:') || view.state.startsWith('parallel:')) return undefined;
  return view.state;
}

/** Which controls make sense in a phase; Skip only when a step can be skipped (`skipTarget`). */
export type RunAction = 'pause' | 'resume' | 'stop' | 'retry' | 'skip';
export function actionsFor(phase: RunPhase, canSkip = false): RunAction[] {
  const skip: RunAction[] = canSkip ? ['skip'] : [];
  switch (phase) {
    case 'running':
    case 'external':
    case 'preparing':
      return ['pause', 'stop'];
    // Pause was asked: the steps under way end first; Stop ends them now.
    case 'pausing':
      return ['stop'];
    case 'paused':
      return ['resume', 'stop', ...skip];
    // Blocked: Retry step runs it again (Resume would do the same, so it is not offered twice).
    case 'blocked':
      return ['retry', ...skip, 'stop'];
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
