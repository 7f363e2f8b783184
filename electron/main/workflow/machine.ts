import { assign, createActor, setup, type Snapshot } from 'xstate';
import { humanState } from '../../contract/words';
import { FINAL_STATE, planStates, type Plan, type StateSpec } from './plan';

/** What the driver tells the machine. */
export type MachineEvent =
  | { type: 'STEP_DONE'; testsPassed?: boolean }
  | { type: 'SKIP' }
  | { type: 'RETRY' };

export interface MachineContext {
  /** Tries used per debugging state. */
  attempts: Record<string, number>;
  /** Set when a debugging state ran out of attempts: the run blocks until RETRY or SKIP. */
  blocked: string | null;
}

const base = setup({
  types: { context: {} as MachineContext, events: {} as MachineEvent },
  guards: {
    passed: ({ event }) => event.type === 'STEP_DONE' && event.testsPassed !== false,
  },
});

type Transitions = Record<string, unknown>;

/**
 * Builds the workflow FSM from the approved plan: one flat state per protocol step, named
 * `<component>:<phase>`, `orchestration:<component>` and `final:<phase>`, ending in `completed`.
 * The driver runs each state's step and sends STEP_DONE (with the test result), SKIP or RETRY.
 */
export function buildWorkflowMachine(plan: Plan) {
  const specs = planStates(plan);
  const states: Record<string, unknown> = {};
  for (const spec of specs) states[spec.state] = { on: transitionsFor(spec) };
  states[FINAL_STATE] = { type: 'final' };
  const config = {
    id: 'workflow',
    initial: specs[0]!.state,
    context: { attempts: {}, blocked: null } as MachineContext,
    states,
  };
  // The states are generated, so the typed config builder cannot check them statically.
  return base.createMachine(config as Parameters<typeof base.createMachine>[0]);
}

function transitionsFor(spec: StateSpec): Transitions {
  const skip = { SKIP: { target: spec.next, actions: assign({ blocked: null }) } };
  const used = (ctx: MachineContext) => ctx.attempts[spec.state] ?? 0;
  const count = assign({ attempts: ({ context }: { context: MachineContext }) => ({ ...context.attempts, [spec.state]: used(context) + 1 }) });
  if (spec.phase === 'commit' && spec.onFail) {
    // Refused by the repository's hooks: to debugging (its attempts kept), at most maxAttempts times, then blocked.
    return {
      ...skip,
      STEP_DONE: [
        { guard: 'passed', target: spec.next, actions: assign({ blocked: null }) },
        { guard: ({ context }: { context: MachineContext }) => used(context) + 1 < (spec.maxAttempts ?? 1), target: spec.onFail, actions: count },
        { actions: [count, assign({ blocked: () => `the repository's hooks still refuse the commit after ${spec.maxAttempts ?? 1} attempt${(spec.maxAttempts ?? 1) === 1 ? '' : 's'} in ${humanState(spec.state)}` })] },
      ],
      RETRY: { actions: assign({ blocked: null, attempts: ({ context }: { context: MachineContext }) => ({ ...context.attempts, [spec.state]: 0 }) }) },
    };
  }
  if (spec.maxAttempts !== undefined) {
    return {
      ...skip,
      STEP_DONE: [
        { guard: 'passed', target: spec.next, actions: assign({ blocked: null }) },
        {
          guard: ({ context }: { context: MachineContext }) => used(context) + 1 < spec.maxAttempts!,
          target: spec.state,
          reenter: true,
          actions: assign({ attempts: ({ context }: { context: MachineContext }) => ({ ...context.attempts, [spec.state]: used(context) + 1 }) }),
        },
        {
          actions: assign({
            attempts: ({ context }: { context: MachineContext }) => ({ ...context.attempts, [spec.state]: used(context) + 1 }),
            blocked: () => `tests still fail after ${spec.maxAttempts} debugging attempt${spec.maxAttempts === 1 ? '' : 's'} in ${humanState(spec.state)}`,
          }),
        },
      ],
      RETRY: { actions: assign({ blocked: null, attempts: ({ context }: { context: MachineContext }) => ({ ...context.attempts, [spec.state]: 0 }) }) },
    };
  }
  if (spec.onFail) {
    return {
      ...skip,
      STEP_DONE: [
        { guard: 'passed', target: spec.next },
        { target: spec.onFail, actions: assign({ attempts: ({ context }: { context: MachineContext }) => ({ ...context.attempts, [spec.onFail!]: 0 }) }) },
      ],
    };
  }
  return { ...skip, STEP_DONE: { target: spec.next } };
}

export type WorkflowMachine = ReturnType<typeof buildWorkflowMachine>;

/** Starts an actor for the plan, from a persisted snapshot when resuming. */
export function startWorkflowActor(plan: Plan, snapshot?: Snapshot<unknown>) {
  const actor = createActor(buildWorkflowMachine(plan), snapshot ? { snapshot: snapshot as never } : undefined);
  actor.start();
  return actor;
}
export type WorkflowActor = ReturnType<typeof startWorkflowActor>;

/** The state the actor is in (flat machine: the value is the state name). */
export function currentState(actor: WorkflowActor): string {
  return String(actor.getSnapshot().value);
}

