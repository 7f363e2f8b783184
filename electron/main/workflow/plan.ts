import type { WorkflowPlan as Plan } from '../../contract/methods/workflow';
import { hasOpenTask, type TaskList } from './task-list';
import type { ProtocolName } from './protocols';
import { composeFinalCommand } from './test-suite';

/** The plan the user approves: the components in order, as the FSM will run them (schema in the contract). */
export { WorkflowPlan as Plan } from '../../contract/methods/workflow';
export type PlanComponent = Plan['components'][number];

export type Phase =
  | 'development'
  | 'testing'
  | 'debugging'
  | 'review'
  | 'fixes'
  | 'documentation'
  | 'retesting'
  | 'redebugging'
  | 'commit'
  | 'orchestration'
  | 'e2e-testing'
  | 'e2e-debugging'
  | 'final-documentation'
  | 'final-review'
  | 'final-fixes'
  | 'final-redebugging'
  | 'parallel';

/** One state of the FSM and what the driver does in it. */
export interface StateSpec {
  state: string;
  phase: Phase;
  /** Absent for the commit state, which runs git and no model. */
  protocol?: ProtocolName;
  component?: string;
  /** Shell command run after the step; its exit status decides the transition. */
  testCommand?: string;
  /** Debugging states: how many tries before the run blocks (commit states: how many refusals by the hooks). */
  maxAttempts?: number;
  /** Where the step's report goes, relative to the project (review states). */
  report?: string;
  /** Next state when the step is done (and its tests pass). */
  next: string;
  /** Next state when the tests fail (testing states). */
  onFail?: string;
}

export const FINAL_STATE = 'completed';
/** A parallel run's one state for all its components (parallel.ts runs them in worktrees), and its schedule update after. */
export const PARALLEL_STATE = 'parallel:components';
export const PARALLEL_ORCHESTRATION = 'parallel:orchestration';

export function planFromTaskList(list: TaskList, opts: { defaultTestCommand?: string; maxDebugAttempts: number }): Plan {
  return {
    components: list.components.map((c) => ({
      id: c.id,
      title: c.title,
      testCommand: c.testCommand,
      tasks: c.tasks.map((t) => ({ id: t.id, title: t.title, status: t.status })),
      ...(c.depends ? { depends: c.depends } : {}),
    })),
    defaultTestCommand: opts.defaultTestCommand,
    maxDebugAttempts: opts.maxDebugAttempts,
  };
}

/** The components a run develops: those with an open task (finished ones, from earlier goals, stay as they are). */
export function openComponents(plan: Plan): PlanComponent[] {
  return plan.components.filter(hasOpenTask);
}

/**
 * Every state of the plan's FSM, in the order an uninterrupted run visits them when tests pass. Only
 * components with an open task are developed; the final test gate still runs every component's tests.
 */
export function planStates(plan: Plan): StateSpec[] {
  if (plan.documents) return documentStates(plan.documents);
  const out: StateSpec[] = [];
  const max = plan.maxDebugAttempts;
  const open = openComponents(plan);
  if (plan.parallel) {
    // The components run side by side, each in its own worktree through its own states (below, one component each):
    // parallel.ts drives them and merges each in schedule order; then the schedule is brought up to date once.
    out.push(
      { state: PARALLEL_STATE, phase: 'parallel', next: PARALLEL_ORCHESTRATION },
      { state: PARALLEL_ORCHESTRATION, phase: 'orchestration', protocol: 'orchestration', next: 'final:testing' },
    );
  }
  (plan.parallel ? [] : open).forEach((c, i) => {
    const s = (p: string) => `${c.id}:${p}`;
    const test = c.testCommand ?? plan.defaultTestCommand;
    const after = `orchestration:${c.id}`;
    const comp = { component: c.id };
    out.push(
      { state: s('development'), phase: 'development', protocol: 'development', ...comp, next: s('testing') },
      { state: s('testing'), phase: 'testing', protocol: 'testing', ...comp, testCommand: test, next: s('review'), onFail: s('debugging') },
      { state: s('debugging'), phase: 'debugging', protocol: 'debugging', ...comp, testCommand: test, maxAttempts: max, next: s('review') },
      { state: s('review'), phase: 'review', protocol: 'review', ...comp, report: `docs/reviews/${c.id}.md`, next: s('fixes') },
      { state: s('fixes'), phase: 'fixes', protocol: 'development', ...comp, next: s('documentation') },
      { state: s('documentation'), phase: 'documentation', protocol: 'documentation', ...comp, next: s('retesting') },
      { state: s('retesting'), phase: 'retesting', protocol: 'testing', ...comp, testCommand: test, next: s('commit'), onFail: s('redebugging') },
      { state: s('redebugging'), phase: 'redebugging', protocol: 'debugging', ...comp, testCommand: test, maxAttempts: max, next: s('commit') },
      // The repository's hooks may refuse the commit: their output goes to the debugging step, then the commit is tried again.
      { state: s('commit'), phase: 'commit', ...comp, next: after, onFail: s('redebugging'), maxAttempts: max },
    );
    // After every component, the last one too: the schedule is brought up to date before the final steps.
    out.push({ state: after, phase: 'orchestration', protocol: 'orchestration', next: i < open.length - 1 ? `${open[i + 1]!.id}:development` : 'final:testing' });
  });
  const e2e = finalTestCommand(plan);
  out.push(
    { state: 'final:testing', phase: 'e2e-testing', protocol: 'testing', testCommand: e2e, next: 'final:documentation', onFail: 'final:debugging' },
    { state: 'final:debugging', phase: 'e2e-debugging', protocol: 'debugging', testCommand: e2e, maxAttempts: max, next: 'final:documentation' },
    { state: 'final:documentation', phase: 'final-documentation', protocol: 'documentation', next: 'final:review' },
    { state: 'final:review', phase: 'final-review', protocol: 'review', report: 'docs/reviews/final.md', next: 'final:fixes' },
    // The final review is acted on as a component's is: its fixes (passed over when it asks for none), then the final gate again.
    { state: 'final:fixes', phase: 'final-fixes', protocol: 'development', testCommand: e2e, next: 'final:commit', onFail: 'final:redebugging' },
    { state: 'final:redebugging', phase: 'final-redebugging', protocol: 'debugging', testCommand: e2e, maxAttempts: max, next: 'final:commit' },
    // The last phase's work (end-to-end tests, README, final review) is committed: the tree is clean at COMPLETED.
    { state: 'final:commit', phase: 'commit', next: FINAL_STATE, onFail: 'final:debugging', maxAttempts: max },
  );
  return out;
}

/**
 * A documentation run's states: one documentation step per drifted component document, the architecture's (the final
 * documentation) when it drifted, then the commit of what they wrote (Markdown only: no test gate; docs-update.ts).
 */
function documentStates(docs: NonNullable<Plan['documents']>): StateSpec[] {
  const states: StateSpec[] = docs.components.map((c) => ({ state: `${c}:documentation`, phase: 'documentation', protocol: 'documentation', component: c, next: '' }));
  if (docs.architecture) states.push({ state: 'final:documentation', phase: 'final-documentation', protocol: 'documentation', next: '' });
  states.push({ state: 'final:commit', phase: 'commit', next: FINAL_STATE });
  states.forEach((s, i) => i < states.length - 1 && (s.next = states[i + 1]!.state));
  return states;
}

/**
 * The final test gate's command as the plan shows it: the one set at plan review or composed when
 * the plan was made (the project's whole suite and each component's command, each once); the gate
 * composes it again when it runs unless the user set it (test-suite.ts `finalGateCommand`).
 */
export function finalTestCommand(plan: Plan): string | undefined {
  return plan.finalTestCommand?.trim() || composeFinalCommand(plan, undefined);
}
