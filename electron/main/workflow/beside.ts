// A parallel run's final documentation beside its end-to-end tests. With two slots or more, a parallel run runs
// steps at once; in the final phase the documentation (the README, the architecture as built) does not need the
// end-to-end tests, nor they it: the final documentation starts with final:testing, in the project folder, as a
// step of its own (its timeline entry, its session, no checkpoint: the one before final:testing covers both), and
// the run reaching final:documentation waits for it instead of running it again. The final review, which reads
// both, runs after both as before. A documentation step beside that did not finish (an error, a stop, the process
// ended) runs again in its place, hearing why. With one slot, or outside a parallel run, nothing runs beside.
import type { WorkflowTimelineEntry } from '../../contract/methods/workflow';
import { executeNext } from './execute';
import { StepAbortedError } from './executor';
import { currentState, startWorkflowActor, type WorkflowActor } from './machine';
import { DEFAULT_PARALLEL_COMPONENTS } from './parallel';
import { PARALLEL_ORCHESTRATION, type StateSpec } from './plan';
import { SHUTDOWN, type RunContext } from './run-context';
import type { RunRecord } from './run-record';

/** The step that runs beside the end-to-end tests, and the one it runs beside. */
export const DOCS_BESIDE = 'final:documentation';
export const BESIDE_OF = 'final:testing';

const INTERRUPTED = 'Erasmus stopped while it ran beside the end-to-end tests (stopped by the user, or its process ended).';

/** The final documentation's latest entry of this final phase (after the schedule update), if any. */
function besideEntry(record: RunRecord): WorkflowTimelineEntry | undefined {
  const from = record.timeline.findLastIndex((e) => e.state === PARALLEL_ORCHESTRATION);
  const at = record.timeline.findLastIndex((e) => e.state === DOCS_BESIDE);
  return from >= 0 && at > from ? record.timeline[at] : undefined;
}

/**
 * Starts the final documentation beside the end-to-end tests when the run may: a parallel run with two slots or
 * more, driven by a process that can hold a step beside (the run's own), and none done or under way already.
 */
export function startDocsBeside(ctx: RunContext, actor: WorkflowActor, specs: Map<string, StateSpec>): void {
  const { record } = ctx;
  const plan = record.plan!;
  if (!ctx.beside || !plan.parallel || (record.parallelComponents ?? DEFAULT_PARALLEL_COMPONENTS) < 2 || currentState(actor) !== BESIDE_OF) return;
  if (ctx.beside.has(DOCS_BESIDE) || besideEntry(record)?.outcome === 'done') return;
  // The step's own record: the run's (its timeline the same array), its state and retry its own.
  const r: RunRecord = { ...record, state: DOCS_BESIDE, retryOf: undefined };
  const side = startWorkflowActor(plan, { ...actor.getPersistedSnapshot(), value: DOCS_BESIDE } as never);
  let entry: WorkflowTimelineEntry | undefined;
  const sctx: RunContext = {
    ...ctx,
    record: r,
    beside: undefined,
    enter: async (state, extra = {}) => {
      entry = { state, ...extra, enteredAt: new Date().toISOString() };
      record.timeline.push(entry);
      await ctx.persist();
      ctx.emit('workflow.step', { runId: record.runId, projectDir: record.projectDir, entry });
      return entry;
    },
    runStep: (step) => ctx.runStep(step, entry),
  };
  const done = executeNext(sctx, side, specs)
    .then(
      () => undefined,
      async (err: Error) => {
        // Closed here (the run's loop closes only its own step); a shutdown leaves it open, as a crash would.
        if (entry && !entry.leftAt && ctx.signal.reason !== SHUTDOWN) await ctx.leave(entry, ctx.signal.aborted ? 'aborted' : 'error', ctx.signal.aborted ? undefined : { note: err.message });
      },
    )
    .finally(() => side.stop());
  ctx.beside.set(DOCS_BESIDE, done);
}

/**
 * At final:documentation: waits for the step beside, if one is under way. True when it is done (the run goes on
 * to the final review); otherwise the step runs here, told why the one beside did not finish.
 */
export async function docsDoneBeside(ctx: RunContext): Promise<boolean> {
  const running = ctx.beside?.get(DOCS_BESIDE);
  if (running) {
    await running;
    ctx.beside!.delete(DOCS_BESIDE);
  }
  // Stopped, or the process is ending: the run stops here too (the step beside closed its entry, or left it open for resume).
  if (ctx.signal.aborted) throw new StepAbortedError(DOCS_BESIDE);
  const e = besideEntry(ctx.record);
  if (!e || e.outcome === 'done') return !!e;
  if (!e.leftAt) await ctx.leave(e, 'interrupted');
  ctx.record.retryOf ??= { state: DOCS_BESIDE, what: e.outcome === 'error' && e.note ? e.note : e.outcome === 'not-done' ? 'it ended without finishing beside the end-to-end tests' : INTERRUPTED };
  return false;
}
