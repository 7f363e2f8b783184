import { readFile, stat } from 'node:fs/promises';
import { unfenceDocument } from '../../contract/handback';
import { ProjectTrust } from '../project/trust';
import { join } from 'node:path';
import { writeFileAtomic } from '../common/fs';
import { WorkflowError } from './errors';
import { commitChanges, findCommit } from './git';
import { currentState, type WorkflowActor } from './machine';
import type { Phase, Plan, StateSpec } from './plan';
import { buildStepPrompt } from './prompt';
import { loadProtocol } from './protocols';
import type { Next, RunContext } from './run-context';
import { componentSeed, parseTaskListOrThrow, setTaskStatus } from './task-list';

const INSTRUCTIONS: Record<Exclude<Phase, 'commit'>, string> = {
  development: 'Implement the open tasks of this component.',
  testing: 'Write the tests of this component and run them.',
  debugging: 'The tests fail (output below). Fix the code until they pass.',
  review: 'Review this component against the architecture and its tasks. The review report is your final answer.',
  fixes: 'Address every point of the review report below.',
  documentation: 'Document this component.',
  retesting: 'Run the component tests again after the review fixes and documentation; add tests for anything the fixes changed.',
  redebugging: 'The tests fail after the review fixes (output below). Fix the code until they pass.',
  orchestration: 'A component was just completed and committed. Bring the progress schedule (your context document) up to date with the work done and what remains.',
  'e2e-testing': 'All components are complete. Write end-to-end tests that use the product as a user would, where the test command below runs them (for example in a folder that command already runs), and run them.',
  'e2e-debugging': 'The end-to-end tests fail (output below). Fix the code until they pass.',
  'final-documentation': 'Write the final documentation: doc comments and a complete, easy README. Your context document is the architecture: bring it up to date with the product as built (its components, interfaces and test commands as they are now, and any place where the code departed from the plan), so the final review and the people who come next read what exists.',
  'final-review': 'Review the whole product against the architecture. The review report is your final answer.',
};

/** The review protocol's verdict for a component that needs no changes (its own line). */
const NO_CHANGES = /^\W*verdict\W*\s*no changes needed\W*$/im;

/** The first text of the final phase's notes document (end-to-end testing, debugging and review). */
const FINAL_NOTES_SEED = '# End-to-end phase\n\nNotes of the final testing, debugging and review steps: the end-to-end tests and how they are run, failures found and their fixes.\n\n## Notes\n';

/** How much of a test run's output a timeline entry keeps (its end: the summary and the failures). */
const TEST_OUTPUT_TAIL = 4000;

function tail(text: string, max: number): string {
  return text.length <= max ? text : `…${text.slice(text.length - max)}`;
}

async function mtime(path: string): Promise<number | undefined> {
  return stat(path).then((s) => s.mtimeMs, () => undefined);
}

/** One state of the FSM: run its step (or the commit), check the tests, send the event. */
export async function executeNext(ctx: RunContext, actor: WorkflowActor, specs: Map<string, StateSpec>): Promise<Next> {
  const { record } = ctx;
  const plan = record.plan!;
  const snap = actor.getSnapshot();
  if (snap.status === 'done') {
    record.state = 'completed';
    ctx.setStatus('COMPLETED');
    ctx.emit('app.notify', { title: 'Workflow complete', body: `${record.projectDir}: all ${plan.components.length} component(s) done` });
    return 'rest';
  }
  if (snap.context.blocked) throw new WorkflowError('RUNTIME_ERROR', `${snap.context.blocked}. Retry the debugging step or skip it.`);
  const state = currentState(actor);
  const spec = specs.get(state);
  if (!spec) throw new WorkflowError('RUNTIME_ERROR', `the FSM is in ${state}, which the plan does not know`);
  record.state = state;

  if (spec.phase === 'commit') return commitStep(ctx, actor, spec, plan);

  const protocol = await loadProtocol(spec.protocol!, record.projectDir, ctx.protocolsDir, new ProjectTrust(ctx.paths.projectTrustFile));
  const component = plan.components.find((c) => c.id === spec.component);
  // Between components (and after the last) the orchestrator brings the schedule up to date; the final documentation brings the
  // architecture up to date with the product as built; the other final steps (end-to-end testing, debugging, review) share a
  // notes document of their own, ctx/components/final.md ("final" is a reserved component id), so the task list keeps its form.
  const docRef = component
    ? ({ doc: 'component', component: component.id } as const)
    : spec.phase === 'orchestration'
      ? ({ doc: 'progress_schedule' } as const)
      : spec.phase === 'final-documentation'
        ? ({ doc: 'architecture' } as const)
        : ({ doc: 'component', component: 'final' } as const);
  if (component && !(await ctx.docs.exists(docRef))) {
    await ctx.docs.write(docRef, componentSeed({ ...component, description: '', line: 1, tasks: component.tasks.map((t, i) => ({ ...t, line: i + 1 })) }));
  } else if (!component && docRef.doc === 'component' && !(await ctx.docs.exists(docRef))) {
    await ctx.docs.write(docRef, FINAL_NOTES_SEED);
  }
  const contextDocPath = ctx.docs.path(docRef);
  const references: Array<{ title: string; text: string }> = [];
  const arch = docRef.doc === 'architecture' ? undefined : await ctx.docs.text({ doc: 'architecture' });
  if (arch) references.push({ title: 'Architecture', text: arch });
  if (spec.phase === 'orchestration') references.push({ title: 'Task list', text: (await ctx.docs.text({ doc: 'task_list' })) ?? '' });
  if (spec.phase === 'fixes') {
    const report = await readText(join(record.projectDir, 'docs', 'reviews', `${spec.component}.md`));
    // A review that asks for nothing needs no fixes session: the step is passed over, saying why.
    if (report && NO_CHANGES.test(report)) {
      const entry = await ctx.enter(state, { protocol: protocol.name, component: spec.component });
      await ctx.leave(entry, 'skipped', { note: `the review asked for no changes (docs/reviews/${spec.component}.md)` });
      actor.send({ type: 'STEP_DONE' });
      return 'continue';
    }
    if (report) references.push({ title: 'Review report', text: report });
  }
  const needsTests = spec.phase === 'debugging' || spec.phase === 'redebugging' || spec.phase === 'e2e-debugging';
  const entry = await ctx.enter(state, { protocol: protocol.name, component: spec.component });
  const prompt = buildStepPrompt({
    protocol,
    instruction: INSTRUCTIONS[spec.phase],
    goal: record.goal,
    contextDocPath,
    contextDoc: await ctx.docs.text(docRef),
    references,
    testOutput: needsTests ? record.lastTest : undefined,
    ...(spec.testCommand ? { testCommand: spec.testCommand } : {}),
  });
  const reportPath = spec.report ? join(record.projectDir, spec.report) : undefined;
  const reportBefore = reportPath ? await mtime(reportPath) : undefined;
  const result = await ctx.runStep({
    state,
    protocol: protocol.name,
    component: spec.component,
    prompt,
    protocolPrompt: protocol.prompt,
    toolsets: protocol.toolsets,
    access: protocol.access,
    contextDocPath,
    projectDir: record.projectDir,
    budget: protocol.budget,
    answer: spec.report ? 'report' : 'notes',
  });
  if (result.contextDoc !== undefined) await ctx.docs.write(docRef, unfenceDocument(result.contextDoc));
  if (!result.done) {
    await ctx.leave(entry, 'not-done', { usage: result.usage, sessionLog: result.sessionLog });
    throw new WorkflowError('RUNTIME_ERROR', `step ${state} ended without finishing (the model did not say it was done; its budget may have run out). Retry it or skip it; its changes are kept.`);
  }
  if (reportPath && (await mtime(reportPath)) === reportBefore && result.output.trim()) await writeFileAtomic(reportPath, unfenceDocument(result.output).trim() + '\n');
  if (spec.phase === 'orchestration') {
    // The orchestrator edits the task list: a list it broke blocks here (retry the step, or fix the file and skip).
    try {
      parseTaskListOrThrow((await ctx.docs.text({ doc: 'task_list' })) ?? '', ctx.docs.path({ doc: 'task_list' }));
    } catch (err) {
      await ctx.leave(entry, 'error', { usage: result.usage, sessionLog: result.sessionLog, note: (err as Error).message });
      throw err;
    }
  }
  if (spec.testCommand) {
    const test = await ctx.runTests(spec.testCommand, record.projectDir, ctx.signal);
    record.lastTest = { command: test.command, exitCode: test.exitCode, passed: test.passed, output: test.output };
    const t = { command: test.command, exitCode: test.exitCode, passed: test.passed, output: tail(test.output, TEST_OUTPUT_TAIL) };
    await ctx.leave(entry, test.passed ? 'tests-passed' : 'tests-failed', { usage: result.usage, sessionLog: result.sessionLog, test: t });
    actor.send({ type: 'STEP_DONE', testsPassed: test.passed });
  } else {
    await ctx.leave(entry, 'done', { usage: result.usage, sessionLog: result.sessionLog, note: reportPath });
    actor.send({ type: 'STEP_DONE' });
  }
  return 'continue';
}

async function commitStep(ctx: RunContext, actor: WorkflowActor, spec: StateSpec, plan: Plan): Promise<Next> {
  const { record } = ctx;
  const component = spec.component ? plan.components.find((c) => c.id === spec.component) : undefined;
  const entry = await ctx.enter(spec.state, component ? { component: component.id } : {});
  if (component) {
    const taskList = await ctx.docs.text({ doc: 'task_list' });
    if (taskList) await ctx.docs.write({ doc: 'task_list' }, setTaskStatus(taskList, component.tasks.map((t) => t.id), 'done'));
  }
  // The final commit holds the last phase's work: end-to-end tests, the final README, docs/reviews/final.md.
  const what = component ? `component ${component.id}` : 'the final phase';
  const subject = component ? `${component.id}: complete component${component.title ? ` (${component.title})` : ''}` : 'final: end-to-end tests, documentation and review';
  const message = `${subject}\n\nRecorded by the Erasmus workflow: ${what} in run ${record.runId}.`;
  // A crash between the commit and the run file's update must not commit twice or lose the sha.
  const earlier = await findCommit(record.projectDir, `${what} in run ${record.runId}`);
  const outcome = earlier ? ({ kind: 'committed', sha: earlier } as const) : await commitChanges(record.projectDir, message);
  if (outcome.kind === 'committed') await ctx.leave(entry, 'committed', { commit: outcome.sha });
  else await ctx.leave(entry, 'nothing-to-commit', { note: outcome.kind === 'not-a-repository' ? 'the project is not a git repository' : 'no changes' });
  actor.send({ type: 'STEP_DONE' });
  const title = component ? `Component ${component.id} complete` : 'Final phase complete';
  ctx.emit('app.notify', { title, body: outcome.kind === 'committed' ? `committed ${outcome.sha.slice(0, 8)}` : 'complete (nothing to commit)' });
  return 'continue';
}

function readText(path: string): Promise<string | undefined> {
  return readFile(path, 'utf8').catch(() => undefined);
}
