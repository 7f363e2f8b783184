import { readFile, realpath, stat } from 'node:fs/promises';
import { unfenceDocument } from '../../contract/handback';
import { humanState } from '../../contract/words';
import { LEFT_OPEN_HEADING, leftOpenOf, NO_CHANGES, openPointsOf, verdictOf } from '../../contract/review-points';
import { builtWords, componentsBuilt } from '../../contract/run-steps';
import { ProjectTrust } from '../project/trust';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { writeFileAtomic } from '../common/fs';
import { answeredWith, debugRetryNote, unfinishedChanges } from './retry-note';
import { beforeStep, lastWordsField, StepAbortedError, type StepResult } from './executor';
import { cannotFinish, cannotFinishMessage } from './agent-executor';
import type { WorkflowTimelineEntry } from '../../contract/methods/workflow';
import { WorkflowError } from './errors';
import { filesChangedSince, repoPath, type FileChange } from './git';
import { asChange } from './commit-phrase';
import { commitRunWork, finalCommitWhat, heldBackNote, TEST_FILE, userChangedFiles, type CommitWhat } from './run-git';
import { savePullRequest, titleOfGoal } from './finish';
import { PROSE_FILE, passOverReason } from './pass-over';
import { keepStamp, stampDocument, withoutStamp } from './drift';
import { changesSince, documentsInstruction, stampUpdatedDocuments } from './docs-update';
import { currentState, type WorkflowActor } from './machine';
import { PARALLEL_ORCHESTRATION, type Phase, type Plan, type StateSpec } from './plan';
import { runParallel } from './parallel';
import { BESIDE_OF, DOCS_BESIDE, docsDoneBeside, startDocsBeside } from './beside';
import { componentsStatus, SCHEDULE_BY_ERASMUS, scheduleWithStatus } from './schedule-status';
import { buildStepPrompt } from './prompt';
import { loadProtocol } from './protocols';
import type { Next, RunContext } from './run-context';
import type { RunRecord } from './run-record';
import { componentSeed, parseTaskList, parseTaskListOrThrow, setTaskStatus, syncComponentHeading, syncTaskLines } from './task-list';

const HOOKS_REFUSED = "The repository's commit hooks refused the commit (their output below). Fix what they report in the code, not the hooks; the commit is tried again when the tests pass.";

/** What a fixes step says at the end of its work, so the run's completion can list what nobody addressed. */
function leftOpenAsk(what: string): string {
  return `In your final answer, add a section \`## ${LEFT_OPEN_HEADING}\` that lists each point of the ${what} you did not address and why, one per line starting with \`- \`, or the one line \`- none\` when you addressed them all.`;
}
import { discardReport, prepareReport, readReport } from './test-report';
import { onceEachFailure } from './test-output';
import { userChangesFor } from './user-changes';
import { finalGateCommand } from './test-suite';
import { keptReviewFile } from './kept-reviews';
import { namesTask, tasksWithoutPassingTest } from '../../contract/trace';

/** The naming convention that ties a test to the task it verifies (trace.ts), as the testing steps are taught it. */
export const TEST_NAMING =
  "Name every test after the task it verifies: the test's name, or its describe block or test class, begins with the task's id, for example `CORE-1: lowercases words` (where names cannot hold '-' or ':', as in Python or Go: `test_CORE_1_lowercases_words`, `class TestCORE_1`, `TestCORE_1_Lowercases`). Several tests may name one task. Erasmus runs the test command itself and reads each test's result from the test runner's report; the component is committed only when each of its tasks has at least one passing test that names it.";

/** How many times in a row a testing step is asked again for tasks without a passing test, before the run blocks. */
export const TRACE_CORRECTIONS = 2;

const INSTRUCTIONS: Record<Exclude<Phase, 'commit' | 'parallel'>, string> = {
  development: 'Implement the open tasks of this component.',
  testing: `Write the tests of this component and run them. ${TEST_NAMING}`,
  debugging: 'The tests fail (output below). Fix the code until they pass.',
  review: 'Review this component against the architecture and its tasks. The review report is your final answer.',
  fixes: `Address every point of the review report below, those about tests too: change the tests it names here (what your protocol leaves to the testing step is the component's own test tasks, not a review's points). ${leftOpenAsk('report')}`,
  documentation: 'Document this component.',
  retesting: `Run the component tests again after the review fixes and documentation; add tests for anything the fixes changed. ${TEST_NAMING}`,
  redebugging: 'The tests fail after the review fixes (output below). Fix the code until they pass.',
  orchestration: 'A component was just completed and committed. Bring the progress schedule (your context document) up to date with the work done and what remains.',
  'e2e-testing': 'All components are complete. Write end-to-end tests that use the product as a user would, where the test command below runs them (for example in a folder that command already runs), and run them.',
  'e2e-debugging': 'The end-to-end tests fail (output below). Fix the code until they pass.',
  'final-documentation': 'Write the final documentation: a complete, easy README (Markdown files only). Your context document is the architecture: bring it up to date with the product as built (its components, interfaces and test commands as they are now, and any place where the code departed from the plan), so the final review and the people who come next read what exists.',
  'final-review': 'Review the whole product against the architecture. The review report is your final answer.',
  'final-fixes': `The final review asked for changes: address every point of its report below, those about tests too (change the tests it names here). The end-to-end test command below runs after you. ${leftOpenAsk('report')}`,
  'final-redebugging': 'The end-to-end tests fail after the final review fixes (output below). Fix the code until they pass.',
};

/** A retest after a review that asked for no changes: no fixes were made, so it is not told of them (played: "after the review fixes" sent a model looking for some). */
const RETEST_WITHOUT_FIXES = `Run the component tests again after the documentation step (the review asked for no changes, so no review fixes were made); add tests for any code that step changed. ${TEST_NAMING}`;

/** Whether the component's last review-fixes step was passed over (its review asked for no changes). */
function fixesPassedOver(timeline: RunRecord['timeline'], componentId: string): boolean {
  return timeline.findLast((e) => e.state === `${componentId}:fixes` && !e.rewound)?.outcome === 'skipped';
}

/** The reference that lists the files a run changed (a new goal, or an existing project's change). */
const CHANGES_TITLE = 'What this goal changed';

/** For a new goal on a built project, the final documentation and review start from what this goal changed. */
const GOAL_CHANGES: Partial<Record<Phase, string>> = {
  'final-documentation': `This run's goal is a new one for a project that had earlier goals: document what it changed first (the files are listed below under "${CHANGES_TITLE}"), and keep what still holds from before.`,
  'final-review': `This run's goal is a new one for a project that had earlier goals: review what it changed first (the files are listed below under "${CHANGES_TITLE}"), and the rest of the product where those changes touch it.`,
};

/** The fixes step is done when the review is answered, point by point (its protocol's "Done when" is the development one). */
const FIXES_DONE = 'Every point of the review report is addressed: changed in the project, or answered in your notes (what you did not change, and why).';

/** The end-to-end pass is done when the product's own tests pass across components (its protocol's "Done when" is the component one, whose tasks it has none of). */
const E2E_DONE = 'End-to-end tests that use the product as a user would, across components, are run by this step\'s test command (under "Test command") and pass, and the context document records the command and the result.';

/** Where an existing project's step differs: its documentation and end-to-end tests are the project's own, touched only where the change needs it. */
const EXISTING_INSTRUCTIONS: Partial<Record<Exclude<Phase, 'commit' | 'parallel'>, string>> = {
  documentation: 'Document what this component adds or changes, where and how the project already documents such things; leave the rest of its documentation as it is.',
  'final-documentation':
    'Bring the project\'s documentation up to date with the change, only where it documents what changed (a README section, a docs page, a changelog if it keeps one). Your context document is the architecture: bring it up to date with the project as it now is, so the final review and the people who come next read what exists.',
  // The final gate of an existing project runs its own tests (no end-to-end suite is written): the steps after it say so.
  'e2e-debugging': 'The project\'s own tests fail at the final gate, run over the whole project after its components (output below). Fix the code until they pass.',
  'final-fixes': `The final review asked for changes: address every point of its report below, those about tests too (change the tests it names here). The project's own test command below runs after you. ${leftOpenAsk('report')}`,
  'final-redebugging': 'The project\'s own tests fail after the final review fixes (output below). Fix the code until they pass.',
};

/** An existing project's final review, when the files its goal changed are listed (not "the whole product": what was there before is its maintainers', and the fixes step after this one acts on every point). */
const EXISTING_FINAL_REVIEW = `Review the change against the architecture: the files this goal changed (listed below under "${CHANGES_TITLE}"), and the rest of the project only where the change touches it; what was there before and the change leaves alone is not this review's to judge. The review report is your final answer.`;


/** The final documentation pass (the protocol's own "Done when" is a component's). */
const FINAL_DOCS_DONE = 'The README describes the product as it now is, and the context document you hand back is the architecture as built.';

/** A step asked again for tests that name its tasks (a debugging step's own "Done when" speaks of fixes). */
const UNTRACED_DONE = 'Each task named above has at least one passing test that names it, the test command (under "Test command") passes, and the context document records the command and the result.';

/** A debugging step's retry whose tests Erasmus ran first and found passing: no session was needed. */
const RETRY_TESTS_PASS = 'the tests pass now (Erasmus ran them before asking the model again)';

/** The first text of the final phase's notes document (end-to-end testing, debugging and review). */
const FINAL_NOTES_SEED = '# End-to-end phase\n\nNotes of the final testing, debugging, review and fixes steps: the end-to-end tests and how they are run, failures found and their fixes.\n\n## Notes\n';
/** The same for an existing project, whose final gate runs its own tests (no end-to-end suite is written). */
const EXISTING_FINAL_NOTES_SEED = '# End-to-end phase\n\nNotes of the final testing, debugging, review and fixes steps: the project\'s own tests run at the final gate, failures found and their fixes.\n\n## Notes\n';

/** How much of a test run's output a timeline entry keeps (its end: the summary and the failures). */
const TEST_OUTPUT_TAIL = 4000;
const RETEST_GATE_ONLY = 'only Markdown changed since the tests passed: Erasmus ran them again itself, without a model session';
const MARKDOWN_FILE = /\.(md|markdown)$/i;

/**
 * Whether every step since this component's tests last passed changed Markdown files only (or nothing):
 * its files are known (steps answered in this process) and none is code. Then a retest needs no model.
 */
function onlyMarkdownSinceTestsPassed(timeline: RunRecord['timeline'], componentId: string): boolean {
  for (let i = timeline.length - 1; i >= 0; i--) {
    const e = timeline[i]!;
    if (!e.state.startsWith(`${componentId}:`)) continue; // another component's step (a parallel run's other lane)
    if (e.outcome === 'tests-passed') return true;
    if (e.outcome !== 'skipped' && (e.files === undefined || e.files.some((f) => !MARKDOWN_FILE.test(f.path)))) return false;
  }
  return false;
}
/** The steps the final gate follows (the final fixes too): each runs the project's whole suite as it is when the step ends. */
const FINAL_GATE_PHASES: ReadonlySet<Phase> = new Set<Phase>(['e2e-testing', 'e2e-debugging', 'final-fixes', 'final-redebugging']);

/** git's own words in a command's output: its `fatal:`/`error:` lines, else the output's last lines. */
export function gitWords(output: string): string {
  const lines = output.split(/\r?\n/).map((l) => l.trim()).filter(Boolean);
  const said = lines.filter((l) => /^(fatal|error|hint):/.test(l));
  return tail((said.length ? said : lines.slice(-3)).join(' ') || 'it said nothing', 1500);
}

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
    // The pull request's title and body, ready to copy (and the squash commit's subject if the user merges).
    await savePullRequest(ctx.paths, record).catch(() => undefined);
    await ctx.completing?.();
    ctx.setStatus('COMPLETED');
    ctx.emit('app.notify', { title: 'Workflow complete', body: `${record.projectDir}: ${plan.documents ? 'the drifted documents are up to date' : builtWords(plan.components.length, componentsBuilt(record.timeline))}` });
    return 'rest';
  }
  if (snap.context.blocked) throw new WorkflowError('RUNTIME_ERROR', `${snap.context.blocked}.`);
  const state = currentState(actor);
  const spec = specs.get(state);
  if (!spec) throw new WorkflowError('RUNTIME_ERROR', `the FSM is in ${state}, which the plan does not know`);
  record.state = state;

  if (spec.phase === 'commit') return commitStep(ctx, actor, spec, plan);
  if (spec.phase === 'parallel') {
    // The components side by side, each in its own worktree (parallel.ts); a pause asked meanwhile stops here.
    if ((await runParallel(ctx, plan)) === 'done') actor.send({ type: 'STEP_DONE' });
    return 'continue';
  }
  // With two slots or more, a parallel run's final documentation runs beside its end-to-end tests (beside.ts).
  if (state === BESIDE_OF) startDocsBeside(ctx, actor, specs);
  if (state === DOCS_BESIDE && plan.parallel && (await docsDoneBeside(ctx))) {
    actor.send({ type: 'STEP_DONE' });
    return 'continue';
  }
  if (state === PARALLEL_ORCHESTRATION) {
    // Every component is merged: Erasmus marks them finished in the schedule itself (schedule-status.ts), no model session.
    const entry = await ctx.enter(state, { protocol: spec.protocol });
    await ctx.docs.update({ doc: 'progress_schedule' }, (text) => scheduleWithStatus(text, componentsStatus(plan, record.lanes ?? []), (record.lanes ?? []).map((l) => l.component)));
    await ctx.leave(entry, 'done', { note: SCHEDULE_BY_ERASMUS });
    actor.send({ type: 'STEP_DONE' });
    return 'continue';
  }
  // A step the component does not need (tests for a docs or declarations component, docs for a docs component) is passed over, saying why.
  const passOver = passOverReason(record, spec);
  if (passOver) {
    const entry = await ctx.enter(state, { protocol: spec.protocol, component: spec.component });
    await ctx.leave(entry, 'skipped', { note: passOver });
    actor.send({ type: 'STEP_DONE' });
    return 'continue';
  }

  // The project's own protocols (a parallel run's component works in a worktree of it: ctx.docs knows the project).
  // Its protocol unreadable or invalid: the step could not start, and its retry is not told of an attempt (executor.ts beforeStep).
  const protocol = await loadProtocol(spec.protocol!, ctx.docs.projectDir, ctx.protocolsDir, new ProjectTrust(ctx.paths.projectTrustFile)).catch((err: unknown) => {
    throw beforeStep(err);
  });
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
  if (component) {
    // The component's document shows its tasks as the task list has them now: finished ones [x], ones a later goal added.
    const tasks = await componentTasks(ctx, component);
    const doc = await ctx.docs.text(docRef);
    const synced = doc?.trim() ? syncComponentHeading(syncTaskLines(doc, tasks), component) : undefined;
    if (synced === undefined) await ctx.docs.write(docRef, componentSeed({ ...component, description: '', line: 1, tasks: tasks.map((t, i) => ({ ...t, line: i + 1 })) }));
    else if (synced !== doc) await ctx.docs.write(docRef, synced);
  } else if (!component && docRef.doc === 'component' && !(await ctx.docs.exists(docRef))) {
    await ctx.docs.write(docRef, record.existing ? EXISTING_FINAL_NOTES_SEED : FINAL_NOTES_SEED);
  }
  const contextDocPath = ctx.docs.path(docRef);
  const references: Array<{ title: string; text: string }> = [];
  const arch = docRef.doc === 'architecture' ? undefined : await ctx.docs.text({ doc: 'architecture' });
  if (arch) references.push({ title: 'Architecture', text: arch });
  if (spec.phase === 'orchestration') references.push({ title: 'Task list', text: (await ctx.docs.text({ doc: 'task_list' })) ?? '' });
  const fixes = spec.phase === 'fixes' || spec.phase === 'final-fixes';
  if (fixes) {
    const reviewed = spec.component ?? 'final';
    // (A run begun before reports were kept per run may have its review in the shared file.)
    const reportFile = record.reviews === 'home' ? await keptReviewFile(ctx.paths, ctx.docs.projectDir, record.runId, reviewed) : reportPathOf(ctx, `docs/reviews/${reviewed}.md`);
    if (record.reviews !== 'home') await refuseReportOutside(record.projectDir, reportFile, `docs/reviews/${reviewed}.md`);
    const report = await readText(reportFile);
    // A review that asks for nothing needs no fixes session (nor, in the final phase, another test gate): the step is passed over, saying why.
    if (report && NO_CHANGES.test(report)) {
      const entry = await ctx.enter(state, { protocol: protocol.name, component: spec.component });
      await ctx.leave(entry, 'skipped', { note: `the review asked for no changes (${record.reviews === 'home' ? reportFile : `docs/reviews/${reviewed}.md`})` });
      actor.send({ type: 'STEP_DONE' });
      return 'continue';
    }
    if (report) references.push({ title: 'Review report', text: report });
  }
  // A documentation run (docs-update.ts): the step reads what changed since its document's commit, and brings the documentation up to date.
  const since = plan.documents ? await changesSince(ctx.docs, docRef) : undefined;
  if (since) references.push({ title: 'Changed since the document was written', text: since.text });
  // The final documentation and review are shown what this goal changed: a new goal's since its documents' commit, an existing
  // project's first goal's since the run started (its review is then of the change: EXISTING_FINAL_REVIEW says so on its own).
  const listsChanges = !!GOAL_CHANGES[spec.phase] && (!!record.goalUpdate || (!!record.existing && !!record.startCommit));
  const changeReview = listsChanges && record.existing && spec.phase === 'final-review';
  const goalChanges = record.goalUpdate && !changeReview ? GOAL_CHANGES[spec.phase] : undefined;
  if (listsChanges) references.push({ title: CHANGES_TITLE, text: await goalChangeList(record.projectDir, record.goalUpdate ? record.goalUpdate.baseCommit : record.startCommit) });
  const needsTests = spec.phase === 'debugging' || spec.phase === 'redebugging' || spec.phase === 'e2e-debugging' || spec.phase === 'final-redebugging';
  // A debugging step after the repository's commit hooks refused the commit: the output is theirs, not the tests'.
  const hooks = needsTests && record.lastTest?.command === 'git commit' && !record.lastTest.passed;
  // The final gate runs the project's whole suite as it is now (or the command set at plan review); the plan shows what runs.
  const testCommand = FINAL_GATE_PHASES.has(spec.phase) ? await finalGateCommand(plan, record.projectDir) : spec.testCommand;
  if (testCommand !== spec.testCommand && testCommand && !plan.finalTestCommandByUser) record.plan = { ...plan, finalTestCommand: testCommand };
  if (spec.phase === 'e2e-testing' && record.existing && testCommand) {
    // An existing project keeps its own tests: no new end-to-end suite is written; the gate runs the project's tests.
    const entry = await ctx.enter(state, { protocol: protocol.name });
    // Traced as any gate: the report credits each task whose named test passed here (an earlier goal's too).
    const { test: t } = await runTestGate(ctx, testCommand, undefined);
    await ctx.leave(entry, t.passed ? 'tests-passed' : 'tests-failed', { test: t, note: 'an existing project: no new end-to-end tests; its own tests ran' });
    actor.send({ type: 'STEP_DONE', testsPassed: t.passed });
    return 'continue';
  }
  if (spec.phase === 'retesting' && testCommand && component && record.untraced?.state !== state && onlyMarkdownSinceTestsPassed(record.timeline, component.id)) {
    // Nothing but Markdown changed since this component's tests last passed (the review asked for no changes, the
    // documentation wrote .md files): Erasmus runs the tests again itself; no model session is needed.
    const entry = await ctx.enter(state, { protocol: protocol.name, component: component.id });
    const { test: t, missing } = await runTestGate(ctx, testCommand, component);
    if (missing.length) {
      // Cannot be after a traced pass, but if it is, the step is asked with the tasks named, as any testing step.
      await ctx.leave(entry, 'tests-untraced', { test: t, note: `tests passed, but no passing test names ${missing.join(', ')}` });
      record.untraced = { state, tasks: missing, asked: 1 };
      return 'continue';
    }
    await ctx.leave(entry, t.passed ? 'tests-passed' : 'tests-failed', { test: t, note: RETEST_GATE_ONLY });
    actor.send({ type: 'STEP_DONE', testsPassed: t.passed });
    return 'continue';
  }
  const entry = await ctx.enter(state, { protocol: protocol.name, component: spec.component, ...answeredWith(record.retryOf, state) });
  // Tests passed but some tasks had none that names them: the step is asked again, naming those tasks.
  const untraced = record.untraced?.state === state ? record.untraced : undefined;
  if (needsTests && !hooks && testCommand && !untraced && record.retryOf?.state === state) {
    // A debugging step run again (the blocked run said "fix the cause, then run the step again"): the project may have
    // changed since the tests last ran. Erasmus runs them first; passing, no model session is needed; failing, the session
    // reads this run's output, not the one from before.
    const { test: t, missing } = await runTestGate(ctx, testCommand, component);
    if (t.passed) {
      if (missing.length) {
        await ctx.leave(entry, 'tests-untraced', { test: t, note: `${RETRY_TESTS_PASS}, but no passing test names ${missing.join(', ')}` });
        record.untraced = { state, tasks: missing, asked: 1 };
        return 'continue';
      }
      // The notes of the attempts before say the tests fail: the steps after this one read that they pass now, and why.
      const doc = await ctx.docs.text(docRef);
      if (doc !== undefined) await ctx.docs.write(docRef, keepStamp(doc, `${withoutStamp(doc)}\n- \`${testCommand}\` passes now: the project changed after the tests last failed (by the user, or by an attempt that was interrupted) and before this step ran again, so no debugging session was needed; notes above that say the tests fail are out of date.\n`));
      await ctx.leave(entry, 'tests-passed', { test: t, note: RETRY_TESTS_PASS });
      actor.send({ type: 'STEP_DONE', testsPassed: true });
      return 'continue';
    }
  }
  const base = since
    ? documentsInstruction(docRef, since.commit)
    : changeReview
      ? EXISTING_FINAL_REVIEW
      : spec.phase === 'retesting' && component && fixesPassedOver(record.timeline, component.id)
        ? RETEST_WITHOUT_FIXES
        : (record.existing && EXISTING_INSTRUCTIONS[spec.phase]) || INSTRUCTIONS[spec.phase];
  // (Said on its own, not after a debugging step's "the tests fail": they passed.)
  const instruction = untraced
    ? `The tests passed, but these tasks of the component have no passing test that names them, so the component cannot be committed: ${untraced.tasks.join(', ')}.${passingNames(record.timeline, state, component?.tasks.map((t) => t.id) ?? untraced.tasks)} Write at least one test for each of them whose name (or describe block or test class) begins with the task's id, where the test command below runs it, and run it. ${TEST_NAMING} ${untracedChances(untraced.asked)}`
    : base;
  const skippedDebug = spec.phase === 'review' || spec.phase === 'final-review' ? skippedDebugging(record.timeline, spec.component ?? 'final') : undefined;
  if (skippedDebug?.output) references.push(skippedDebug.output);
  // What the user changed while the run was stopped at a step of this component (or of the final phase), until it is committed.
  const userChanged = userChangesFor(record, spec.component ?? state.split(':')[0]!);
  const retry = needsTests && !hooks ? debugRetryNote(record.timeline, state, actor.getSnapshot().context.attempts[state] ?? 0, spec.maxAttempts) : undefined;
  const prompt = buildStepPrompt({
    protocol,
    instruction: hooks ? HOOKS_REFUSED : [instruction, goalChanges, retry, spec.phase === 'review' && component ? unverifiedNote(record.timeline, component) : undefined, skippedDebug?.note].filter(Boolean).join(' '),
    existing: record.existing,
    userFiles: userChangedFiles(record),
    goal: record.goal,
    newGoal: !!record.goalUpdate,
    ...(record.retryOf?.state === state ? { retryOf: record.retryOf.what, retrySaid: record.retryOf.said, retryAnswer: record.retryOf.answer, retryChanges: await unfinishedChanges(record.timeline, state, record.projectDir, ctx.checkpointTrees, userChanged) } : {}),
    ...(userChanged.length ? { userChanges: userChanged.map(({ state: at, kind, text }) => ({ state: at, kind, text })) } : {}),
    ...(fixes ? { done: FIXES_DONE } : untraced ? { done: UNTRACED_DONE } : spec.phase === 'e2e-testing' ? { done: E2E_DONE } : spec.phase === 'final-documentation' ? { done: FINAL_DOCS_DONE } : {}),
    contextDocPath,
    contextDoc: await ctx.docs.text(docRef),
    references,
    testOutput: needsTests ? record.lastTest : undefined,
    ...(testCommand ? { testCommand } : {}),
  });
  const reportPath = spec.report ? reportPathOf(ctx, spec.report) : undefined;
  if (reportPath && record.reviews !== 'home') await refuseReportOutside(record.projectDir, reportPath, spec.report!);
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
    ...(fixes ? { leftOpen: true } : {}),
    ...(record.durable ? { database: record.durable.database } : {}),
  });
  if (result.contextDoc !== undefined) await ctx.docs.write(docRef, keepStamp(await ctx.docs.text(docRef), unfenceDocument(result.contextDoc)));
  if (!result.done) {
    const why = askedOf(ctx, entry, result);
    await ctx.leave(entry, 'not-done', { usage: result.usage, sessionLog: result.sessionLog, ...lastWordsField(result), ...(why.asks ? { asked: true } : {}) });
    throw new WorkflowError('RUNTIME_ERROR', why.notDoneBecause ?? `step ${state} ended without finishing (the model did not say it was done; its budget may have run out). Retry it or skip it; its changes are kept.`, why.asks ? { asks: true } : undefined);
  }
  // The development step implemented the component's open tasks: they read as in progress from here on, in the task list and the
  // component's document ([x] only once committed: a task about tests is the testing step's to do, and reads as not done before it).
  if (spec.phase === 'development' && component) await markTasks(ctx, component.id, component.tasks.map((t) => t.id), 'in_progress');
  // Again after the step: Erasmus writes (and then reads) the report itself, outside the sandbox; a link made meanwhile must not lead it out.
  if (reportPath && record.reviews !== 'home') await refuseReportOutside(record.projectDir, reportPath, spec.report!);
  if (reportPath && (await mtime(reportPath)) === reportBefore && result.output.trim()) {
    await writeFileAtomic(reportPath, unfenceDocument(result.output).trim() + '\n');
    // Written after the step's last snapshot: named here, so the component's commit holds it (a report kept in the project).
    const path = record.reviews === 'home' ? undefined : await repoPath(record.projectDir, spec.report!).catch(() => undefined);
    if (path && entry.files && !entry.files.some((f) => f.path === path)) entry.files.push({ path, change: reportBefore === undefined ? 'added' : 'modified' });
  }
  // What the review said and what its fixes left open stay on the timeline: the completion lists any point left open.
  const reportText = reportPath ? ((await readText(reportPath)) ?? '') : undefined;
  const verdict = reportText !== undefined ? verdictOf(reportText) : undefined;
  // A fixes step's points left open; a review asking for no changes, the points it still names open (nobody addresses them).
  const named = reportText !== undefined ? openPointsOf(reportText) : [];
  const openPoints = fixes ? leftOpenOf(result.output) : named.length ? named : undefined;
  const said = { ...(verdict ? { verdict } : {}), ...(openPoints ? { openPoints } : {}) };
  if (spec.phase === 'orchestration') {
    // The orchestrator edits the task list: a list it broke blocks here (retry the step, or fix the file and skip).
    try {
      parseTaskListOrThrow((await ctx.docs.text({ doc: 'task_list' })) ?? '', ctx.docs.path({ doc: 'task_list' }));
    } catch (err) {
      await ctx.leave(entry, 'error', { usage: result.usage, sessionLog: result.sessionLog, note: (err as Error).message, ...lastWordsField(result) });
      throw err;
    }
  }
  if (testCommand) {
    const { test, missing } = await runTestGate(ctx, testCommand, component);
    const extra = { usage: result.usage, sessionLog: result.sessionLog, test, ...said, ...(result.note ? { note: result.note } : {}) };
    if (missing.length) {
      const asked = record.untraced?.state === state ? record.untraced.asked : 0;
      const note = `tests passed, but no passing test names ${missing.join(', ')}`;
      await ctx.leave(entry, 'tests-untraced', { ...extra, note, ...lastWordsField(result) });
      if (asked >= TRACE_CORRECTIONS) {
        record.untraced = { state, tasks: missing, asked: 0 }; // a retry asks the step again, as many times
        throw new WorkflowError(
          'RUNTIME_ERROR',
          `component ${component!.id} is not committed: ${missing.length === 1 ? 'task' : 'tasks'} ${missing.join(', ')} ${missing.length === 1 ? 'has' : 'have'} no passing test that names ${missing.length === 1 ? 'it' : 'them'} after ${asked + 1} test runs of ${state}. A test names a task when its name, or its describe block or test class, begins with the task's id (\`${missing[0]}: …\`, or \`test_${missing[0]!.replace(/[^A-Za-z0-9]+/g, '_')}_…\` where names cannot hold '-' or ':', as in Python). Add such tests and retry the step, or skip it: the run goes on without them, and its report does not count these tasks verified.`,
        );
      }
      record.untraced = { state, tasks: missing, asked: asked + 1 };
      return 'continue'; // the same state runs again, its prompt naming the tasks
    }
    if (record.untraced?.state === state) record.untraced = undefined;
    // The end-to-end testing step wrote no test: its gate ran only the tests there were, which says nothing of the product as a whole.
    if (spec.phase === 'e2e-testing' && entry.files && !entry.files.some((f) => TEST_FILE.test(f.path))) extra.note = [NO_E2E_TEST, extra.note].filter(Boolean).join('; ');
    await ctx.leave(entry, test.passed ? 'tests-passed' : 'tests-failed', { ...extra, ...(test.passed ? {} : lastWordsField(result)) });
    actor.send({ type: 'STEP_DONE', testsPassed: test.passed });
  } else {
    // A report kept in the project is named as the project has it (a component's worktree is gone once it is merged).
    const shown = reportPath && record.reviews !== 'home' ? spec.report : reportPath;
    const note = [shown, result.note].filter(Boolean).join('; ') || undefined;
    await ctx.leave(entry, 'done', { usage: result.usage, sessionLog: result.sessionLog, note, ...said });
    actor.send({ type: 'STEP_DONE' });
  }
  return 'continue';
}

/**
 * A step's test gate: the runner writes its own report of each test (test-report.ts) and its exit status
 * gates. Records the run as the last test, and names the component's tasks that no passing test names.
 */
/** The passing tests the last run of this step reported that name no task of the component (with the suites around them): the model sees which names missed. */
function passingNames(timeline: RunRecord['timeline'], state: string, taskIds: string[]): string {
  const last = [...timeline].reverse().find((e) => e.state === state && e.outcome === 'tests-untraced');
  const names = (last?.test?.tests ?? []).filter((t) => t.passed && !taskIds.some((id) => namesTask(t, id))).map((t) => `\`${t.suite ? `${t.suite} > ` : ''}${t.name}\``);
  if (!names.length) return '';
  const shown = names.length > 20 ? `${names.slice(0, 20).join(', ')} and ${names.length - 20} more` : names.join(', ');
  return ` These passing tests the test runner reported name no task: ${shown}.`;
}

/**
 * A component review after its tasks went without a test that names them (the user skipped the testing step that
 * asked for them): the reviewer is told which, so it checks them by reading and the report says they are not verified.
 */
function unverifiedNote(timeline: RunRecord['timeline'], component: Plan['components'][number]): string | undefined {
  const last = [...timeline].reverse().find((e) => e.component === component.id && !e.rewound && e.test?.traced && e.test.passed);
  const missing = last ? tasksWithoutPassingTest(component.tasks.map((t) => t.id), last.test!.tests ?? []) : [];
  if (!missing.length) return undefined;
  return `No passing test names ${missing.join(', ')} (the step that asked for such tests was skipped): check ${missing.length === 1 ? 'that task' : 'those tasks'} by reading the code, and say in the report that ${missing.length === 1 ? 'it is' : 'they are'} not verified by a test.`;
}

/** Said on a final testing step that added or changed no test file (timeline, CLI, completion). */
export const NO_E2E_TEST = 'this step added or changed no test file: the gate ran only the tests the components wrote, and no end-to-end test checks the product as a whole';

/**
 * A review after the user skipped a debugging step whose tests still failed (no test passed since): the reviewer is told
 * the tests fail and sees their last output, so its report says so instead of reading the code as working.
 */
function skippedDebugging(timeline: RunRecord['timeline'], part: string): { note: string; output?: { title: string; text: string } } | undefined {
  for (let i = timeline.length - 1; i >= 0; i--) {
    const e = timeline[i]!;
    if (e.rewound || (e.component ?? e.state.split(':')[0]) !== part) continue;
    if (e.test?.passed) return undefined;
    if (e.outcome !== 'skipped' || !e.state.endsWith('debugging') || !e.note?.startsWith('by the user')) continue;
    const failing = timeline.slice(0, i).findLast((t) => !t.rewound && (t.component ?? t.state.split(':')[0]) === part && t.test && !t.test.passed)?.test;
    const ran = failing ? ` (\`${failing.command}\` exited ${failing.exitCode ?? 'without a status'}; its last output is below)` : '';
    return {
      note: `The user skipped ${humanState(e.state)} while the tests still failed${ran}: they fail now. Do not report the tests as passing; say in the report that they fail, what fails and why, as a point to fix.`,
      ...(failing ? { output: { title: `The last test run (failed): ${failing.command}`, text: onceEachFailure(failing.output ?? '').slice(-4000) } } : {}),
    };
  }
  return undefined;
}

/** How many more test runs the step has before the run stops for the user (the gate blocks after TRACE_CORRECTIONS asks). */
function untracedChances(asked: number): string {
  const left = TRACE_CORRECTIONS - asked;
  return left <= 0
    ? 'This is the last try: if a task still has no passing test that names it when this step ends, the run stops here for the user.'
    : `If a task still has no passing test that names it when this step ends, the step is asked again (${left === 1 ? 'once more' : `${left} more times`} at most), then the run stops for the user.`;
}

async function runTestGate(ctx: RunContext, command: string, component: Plan['components'][number] | undefined) {
  const setup = await prepareReport(ctx.record.projectDir, command);
  const run = await ctx.runTests(setup.command, ctx.record.projectDir, ctx.signal, { env: setup.env }).catch(async (err: unknown) => {
    await discardReport(setup);
    throw err;
  });
  if (ctx.signal.aborted) {
    // Stopped while the tests ran: their failure is the stop's, not the code's (no debugging step is sent after it).
    await discardReport(setup);
    throw new StepAbortedError(ctx.record.state ?? 'tests');
  }
  const report = await readReport(setup, run);
  ctx.record.lastTest = { command, exitCode: run.exitCode, passed: run.passed, output: run.output };
  const test = { command, exitCode: run.exitCode, passed: run.passed, output: tail(run.output, TEST_OUTPUT_TAIL), traced: report.traced, tests: report.tests, ...(report.note ? { traceNote: report.note } : {}) };
  const missing = component && run.passed && report.traced ? tasksWithoutPassingTest(component.tasks.map((x) => x.id), report.tests) : [];
  return { test, missing };
}

async function commitStep(ctx: RunContext, actor: WorkflowActor, spec: StateSpec, plan: Plan): Promise<Next> {
  const { record } = ctx;
  const component = spec.component ? plan.components.find((c) => c.id === spec.component) : undefined;
  const entry = await ctx.enter(spec.state, component ? { component: component.id } : {});
  if (component) await markTasks(ctx, component.id, component.tasks.map((t) => t.id), 'done');
  // The final commit holds the last phase's work (end-to-end tests, the README, the final review).
  const what = (files: string[], changes: FileChange[]): CommitWhat => {
    if (!component) return finalCommitWhat(files, record.timeline);
    const doneBefore = record.goalUpdate?.doneTasks;
    // New in this commit: no task of it was done before, and the code it holds is all added (not a change to code that was).
    const code = changes.filter((f) => !PROSE_FILE.test(f.path) && !TEST_FILE.test(f.path));
    const added = !component.tasks.some((t) => doneBefore?.includes(t.id)) && code.length > 0 && code.every((f) => f.change === 'added');
    const title = commitTitle(component, doneBefore, goalOfOnly(plan, component.id, doneBefore, record.goal), added);
    return { title, type: files.length && files.every((f) => PROSE_FILE.test(f)) ? 'docs' : 'feat', names: [component.id] };
  };
  const outcome = await commitRunWork(record, spec.state, what, ctx.runTests, () => ctx.persist(), ctx.signal);
  if (outcome.kind === 'refused') {
    // The repository's hooks said no: their output goes to the debugging step, as a failed test run would.
    const t = outcome.test;
    // git itself stopped (exit 128: a lock, a merge or cherry-pick under way, a broken repository), not the hooks: no
    // debugging step can change that, so the run blocks with git's own words.
    if (t.exitCode === 128) {
      entry.test = { command: t.command, exitCode: t.exitCode, passed: false, output: tail(t.output, TEST_OUTPUT_TAIL) };
      throw new WorkflowError('RUNTIME_ERROR', `git could not make the commit (exit 128): ${gitWords(t.output).replace(/\.$/, '')}. This is the repository's state, not the tests or the hooks: set it right as git says (in ${record.projectDir}), then retry.`);
    }
    record.lastTest = { command: t.command, exitCode: t.exitCode, passed: false, output: t.output };
    await ctx.leave(entry, 'tests-failed', { test: { command: t.command, exitCode: t.exitCode, passed: false, output: tail(t.output, TEST_OUTPUT_TAIL) }, note: `the repository's hooks refused the commit: ${gitWords(t.output)}` });
    // A documentation run has no debugging step to send it to: it blocks with the hooks' words.
    if (plan.documents) throw new WorkflowError('RUNTIME_ERROR', `the repository's hooks refused the documentation commit: ${tail(t.output, 2000).trim() || `exit ${t.exitCode}`}. Fix what they report and retry, or commit the documentation yourself.`);
    actor.send({ type: 'STEP_DONE', testsPassed: false });
    return 'continue';
  }
  if (plan.documents) {
    // A documentation run: each document it brought up to date describes this commit (HEAD when there was nothing to commit).
    await stampUpdatedDocuments(ctx.docs, record, outcome.kind === 'committed' ? outcome.sha : undefined);
  } else if (outcome.kind === 'committed') {
    // The document records the commit it describes (drift.ts): the component's context document, or the architecture at the end.
    await stampDocument(ctx.docs, component ? { doc: 'component', component: component.id } : { doc: 'architecture' }, outcome.sha);
  }
  const heldBack = outcome.heldBack?.length ? heldBackNote(outcome.heldBack) : undefined;
  if (outcome.kind === 'committed') await ctx.leave(entry, 'committed', { commit: outcome.sha, files: outcome.files, ...(heldBack ? { note: heldBack } : {}) });
  else await ctx.leave(entry, 'nothing-to-commit', { note: heldBack ? `${outcome.why}; ${heldBack}` : outcome.why });
  actor.send({ type: 'STEP_DONE' });
  const title = component ? `Component ${component.id} complete` : 'Final phase complete';
  // A side-by-side component's commit is made on its lane: the run's branch gets it when it is merged (its own notice names that commit).
  const committed = outcome.kind === 'committed' ? (entry.worktree ? `committed on its lane as ${outcome.sha.slice(0, 8)}; to be merged into the run's branch in schedule order` : `committed ${outcome.sha.slice(0, 8)}`) : 'nothing to commit';
  ctx.emit('app.notify', { title, body: committed });
  return 'continue';
}

/**
 * What a component's commit says it does, as a change (commit-phrase.ts): its one task of this run; for a later goal's
 * several tasks on a component built before, that goal (the component's title says what an earlier goal built); else
 * its title (without a trailing parenthesis of file names), else its id. `added`: the component's code is new in it.
 */
export function commitTitle(c: Plan['components'][number], doneBefore: readonly string[] = [], goal?: string, added = false): string {
  // A trailing aside goes ("Convert Celsius (convert.py)"), not a call's parentheses ("count_words(text)" keeps them).
  const clean = (t: string | undefined) => (t ?? '').replace(/\s+\([^()]*\)\s*$/, '').trim();
  const change = (t: string) => asChange(t, { name: c.id, names: [c.id], added });
  const fresh = c.tasks.filter((t) => !doneBefore.includes(t.id));
  const later = fresh.length < c.tasks.length;
  // A later goal's several tasks here: the goal when it changes this component alone, else the tasks themselves (the
  // goal would name another component's work too; the component's title names what an earlier goal built).
  const tasks = later && fresh.length > 1 ? fresh.map((t) => clean(t.title)).filter(Boolean).map(change).join('; ') : '';
  const one = fresh.length === 1 ? clean(fresh[0]!.title) : '';
  if (one) return change(one);
  const ofGoal = later ? titleOfGoal(goal) : '';
  if (ofGoal) return change(ofGoal);
  if (tasks) return tasks;
  return change(clean(c.title) || c.id);
}

/** The goal, for a component's commit title, when this goal changes that component alone (none else has new tasks). */
export function goalOfOnly(plan: Plan, componentId: string, doneBefore: readonly string[] = [], goal?: string): string | undefined {
  const changed = plan.components.filter((c) => c.tasks.some((t) => !doneBefore.includes(t.id)));
  return changed.length === 1 && changed[0]!.id === componentId ? goal : undefined;
}

/** Where a review report goes: `report` in the project, or with the context documents, per run, when the run keeps them there. */
/**
 * A review report kept in the project must stay in it: Erasmus writes and reads it itself, outside the sandbox, so a
 * symbolic link a step made (`docs/reviews` → a folder elsewhere) would have it write the model's text outside the
 * project. Blocks the step, naming the link and what to do.
 */
async function refuseReportOutside(projectDir: string, file: string, shown: string): Promise<void> {
  const root = await realpath(projectDir).catch(() => resolve(projectDir));
  // The report itself when it exists (a link), else its nearest existing folder.
  for (let p = file; ; p = dirname(p)) {
    let real: string;
    try {
      real = await realpath(p);
    } catch {
      if (dirname(p) === p) return;
      continue;
    }
    if (real === root || real.startsWith(`${root}${sep}`)) return;
    throw new WorkflowError(
      'RUNTIME_ERROR',
      `the review report ${shown} leads outside the project, to ${real} (${relative(projectDir, p) || '.'} leads there through a symbolic link): Erasmus writes and reads nothing through it. Remove the link from the project (the folder or file it points to is not touched), then retry the step, or skip it.`,
    );
  }
}

function reportPathOf(ctx: RunContext, report: string): string {
  return ctx.record.reviews === 'home' ? ctx.paths.reviewReport(ctx.docs.projectDir, ctx.record.runId, basename(report, '.md')) : join(ctx.record.projectDir, report);
}

/** The component's tasks as the task list has them now (the plan's, when the list cannot be read). */
async function componentTasks(ctx: RunContext, component: Plan['components'][number]): Promise<Plan['components'][number]['tasks']> {
  const r = parseTaskList((await ctx.docs.text({ doc: 'task_list' })) ?? '');
  return (r.ok ? r.list.components.find((c) => c.id === component.id)?.tasks : undefined) ?? component.tasks;
}

/** Marks tasks ([~] or [x]) in the task list and in the component's context document. */
async function markTasks(ctx: RunContext, componentId: string, taskIds: string[], status: 'in_progress' | 'done'): Promise<void> {
  // Through update: the components of a parallel run mark their tasks in the one task list at once.
  await ctx.docs.update({ doc: 'task_list' }, (list) => list && setTaskStatus(list, taskIds, status));
  await ctx.docs.update({ doc: 'component', component: componentId }, (doc) => doc && setTaskStatus(doc, taskIds, status));
}

/** The files this goal's run changed since its first commit, committed or not, one per line. */
async function goalChangeList(projectDir: string, base: string | undefined): Promise<string> {
  const files = base ? await filesChangedSince(projectDir, base).catch(() => undefined) : undefined;
  if (!files) return base ? '(git could not list the changes)' : '(the project had no commit when this goal began: every file is new)';
  return files.length ? files.map((f) => `- ${f.change}: ${f.path}`).join('\n') : '(no file changed)';
}

function readText(path: string): Promise<string | undefined> {
  return readFile(path, 'utf8').catch(() => undefined);
}

/**
 * Why a step that is not done stopped, for the run's error: the executor's words (the agent path's), else, where its answer
 * says it cannot finish (an external engine's or a step command's `done` false with a `Cannot finish:` line), the same
 * words the agent path gives, naming the project's folder (a component side by side works in a worktree of it, and is named).
 */
export function askedOf(ctx: RunContext, entry: WorkflowTimelineEntry, result: StepResult): Pick<StepResult, 'notDoneBecause' | 'asks'> {
  if (result.notDoneBecause !== undefined) return { notDoneBecause: result.notDoneBecause, ...(result.asks ? { asks: true } : {}) };
  const why = cannotFinish(result.output);
  if (why === undefined) return {};
  return { notDoneBecause: cannotFinishMessage(entry.state, why, [], result.sessionLog, ctx.docs.projectDir, entry.worktree ? entry.component : undefined, ctx.record.durable?.database), asks: true };
}
