import { readFile } from 'node:fs/promises';
import { unfenceDocument } from '../../contract/handback';
import { readmeGoal } from '../project/readme';
import { ProjectTrust } from '../project/trust';
import { join } from 'node:path';
import { WorkflowError } from './errors';
import { beforeStep, lastWordsField } from './executor';
import type { OrchestrationDoc } from './documents';
import { planFromTaskList } from './plan';
import { withUnplanned } from './architecture-components';
import { projectOverview } from './project-overview';
import { buildStepPrompt } from './prompt';
import { userChangedFiles } from './run-git';
import { loadProtocol, loadProtocols } from './protocols';
import type { Next, RunContext } from './run-context';
import { goalUpdateIssues, hasOpenTask, parseTaskList, parseTaskListOrThrow } from './task-list';
import { headCommit } from './git';
import { earlierWork, earlierWorkNote } from './earlier-work';
import { answeredWith } from './retry-note';
import { RunStore } from './run-record';
import type { DocumentIssue } from './errors';
import { composeFinalCommand, projectTestCommand } from './test-suite';

/** How many times in a row the task list step is asked to correct a list that does not parse, before the run blocks. */
export const TASK_LIST_CORRECTIONS = 2;

const DOC_STEPS: Array<{ doc: OrchestrationDoc; protocol: 'design' | 'orchestration'; instruction: string; update: string }> = [
  {
    doc: 'architecture',
    protocol: 'design',
    instruction: 'Write the architecture document for the goal below.',
    update:
      'The project already has an architecture (your context document), written for its earlier goals and kept up to date as built. Update it for the new goal below: keep what stands, change and add what the goal needs, and hand back the whole document.',
  },
  {
    doc: 'progress_schedule',
    protocol: 'orchestration',
    instruction: 'Break the architecture into a progress schedule.',
    update:
      'The progress schedule (your context document) records the work of the project\'s earlier goals. Update it for the new goal below and the updated architecture: keep finished milestones marked finished, and add the work the new goal needs, in order.',
  },
  {
    doc: 'task_list',
    protocol: 'orchestration',
    instruction: 'Turn the progress schedule into a task list in the exact format of your protocol, each component with its Test: and Depends: lines.',
    update:
      'The task list (your context document) holds the components and tasks of the project\'s earlier goals; finished tasks are marked [x]. Keep every finished task as it is, marked [x], and add what the new goal below needs: new components, or new open tasks ("- [ ] ID: title", with ids not used before) on existing components. Only components with an open task are developed. Hand back the whole task list in the exact format of your protocol.',
  },
];

/** The ids of the finished tasks of a task list (none when it is missing or does not parse). */
function doneTaskIds(text: string | undefined): string[] {
  const r = text === undefined ? undefined : parseTaskList(text);
  return r?.ok ? r.list.components.flatMap((c) => c.tasks.filter((t) => t.status === 'done').map((t) => t.id)) : [];
}

/** What is wrong with a task list: its form, and for a new goal, finished tasks dropped or no open task. */
function taskListIssues(text: string, record: RunContext['record']): DocumentIssue[] | undefined {
  const r = parseTaskList(text);
  if (!r.ok) return r.issues;
  if (!record.goalUpdate) return undefined;
  const issues = goalUpdateIssues(record.goalUpdate.doneTasks, r.list);
  return issues.length ? issues : undefined;
}

/** The preparation's instructions when the goal is a change to an existing project: plan the change, not a product. */
const EXISTING_INSTRUCTIONS: Record<OrchestrationDoc, string> = {
  architecture:
    'Write the architecture document for the change asked for below: first what exists that the change touches (read it from "The project as it is" and the files themselves: its purpose, layout, conventions and its test command), then the change: its components (a small change is one component), their interfaces, and how each is tested with the project\'s own test command.',
  progress_schedule: 'Break the change in the architecture into a progress schedule (a small change is one milestone).',
  task_list: 'Turn the progress schedule into a task list in the exact format of your protocol, covering the change only; each component\'s Test: line is the project\'s own test command.',
};

/**
 * The preparation before the FSM exists: each missing orchestration document is written by its
 * protocol's step, existing ones are loaded; then the task list becomes the plan, which waits for
 * the user's approval. A goal new to a project that has documents (its earlier goals) updates each
 * of them instead: the architecture for the goal, the schedule, and the task list keeping its
 * finished tasks and adding open ones. Returns 'rest' when the run waits (goal, approval).
 */
export async function prepareNext(ctx: RunContext): Promise<Next> {
  const { record, docs } = ctx;
  await loadProtocols(record.projectDir, ctx.protocolsDir, new ProjectTrust(ctx.paths.projectTrustFile)); // a bad protocol file stops the run here, before any step
  let corrections = 0;
  for (let i = 0; i < DOC_STEPS.length; i++) {
    const step = DOC_STEPS[i]!;
    const state = `prepare:${step.doc}`;
    const existing = await docs.text({ doc: step.doc });
    const seen = record.timeline.some((e) => e.state === state && !e.rewound);
    if (step.doc === 'architecture' && existing?.trim() && !seen && !record.goalUpdate) {
      const taskList = await docs.text({ doc: 'task_list' });
      if (record.goal) {
        // Decided once, before this run writes anything: the goal is new to the documents of earlier goals.
        record.goalUpdate = { baseCommit: await headCommit(record.projectDir), doneTasks: doneTaskIds(taskList) };
        await ctx.persist();
      } else if (allTasksDone(taskList)) {
        // Every task of the project is done: running its plan again would redo finished work; the run asks what comes next.
        record.state = state;
        record.nextGoal = true;
        ctx.setStatus('AWAITING_GOAL');
        ctx.emit('workflow.goalRequired', { runId: record.runId, projectDir: record.projectDir });
        return 'rest';
      }
    }
    const update = record.goalUpdate !== undefined && existing !== undefined && !record.timeline.some((e) => e.state === state && e.outcome === 'written' && !e.rewound);
    // A task list the workflow cannot parse (or, for a new goal, one that dropped finished tasks or adds nothing) goes back to its
    // step with the lines to fix (the model hears what was wrong), a bounded number of times; then planStep blocks the run with them.
    const issues = step.doc === 'task_list' && existing !== undefined && !update && corrections < TASK_LIST_CORRECTIONS ? taskListIssues(existing, record) : undefined;
    if (existing !== undefined && !issues && !update) {
      if (!seen) {
        const entry = await ctx.enter(state);
        await ctx.leave(entry, 'loaded', { note: docs.path({ doc: step.doc }) });
      }
      continue;
    }
    if (step.doc === 'architecture' && !record.goal) {
      record.state = state;
      const suggested = await readmeGoal(record.projectDir);
      if (suggested) record.suggestedGoal = suggested;
      ctx.setStatus('AWAITING_GOAL');
      ctx.emit('workflow.goalRequired', { runId: record.runId, projectDir: record.projectDir });
      return 'rest';
    }
    const protocol = await loadProtocol(step.protocol, record.projectDir, ctx.protocolsDir, new ProjectTrust(ctx.paths.projectTrustFile)).catch((err: unknown) => {
      throw beforeStep(err);
    });
    const contextDocPath = docs.path({ doc: step.doc });
    const references: Array<{ title: string; text: string }> = [];
    for (const ref of ['architecture', 'progress_schedule'] as const) {
      if (ref === step.doc) break;
      references.push({ title: ref === 'architecture' ? 'Architecture' : 'Progress schedule', text: (await docs.text({ doc: ref })) ?? '' });
    }
    // An existing project: the architecture step reads what exists (manifests, README, layout, the files the goal names).
    if (record.existing && step.doc === 'architecture') references.push({ title: 'The project as it is', text: await projectOverview(record.projectDir, record.goal) });
    if (issues) corrections++;
    const instruction = issues
      ? `The task list (your context document below) ${record.goalUpdate ? 'cannot be used for the new goal yet' : 'does not follow the form of your protocol, so the workflow cannot read it'}:\n${issues.map((x) => `- ${x.line ? `line ${x.line}: ` : ''}${x.message}`).join('\n')}\n\nHand back the whole task list, corrected, in the exact form of your protocol.`
      : update
        ? `${step.update}${earlierWorkNote(step.doc, earlierWork(await docs.text({ doc: 'task_list' }), await new RunStore(ctx.paths).forProject(record.projectDir), record.runId))}`
        : record.existing
          ? EXISTING_INSTRUCTIONS[step.doc]
          : step.instruction;
    const entry = await ctx.enter(state, { protocol: protocol.name, ...answeredWith(record.retryOf, state) });
    const prompt = buildStepPrompt({ protocol, instruction, goal: record.goal, newGoal: !!record.goalUpdate,
      ...(record.retryOf?.state === state ? { retryOf: record.retryOf.what, retrySaid: record.retryOf.said, retryAnswer: record.retryOf.answer } : {}), contextDocPath, contextDoc: existing ?? '', references, existing: record.existing, userFiles: userChangedFiles(record) });
    const result = await ctx.runStep({ state, protocol: protocol.name, prompt, protocolPrompt: protocol.prompt, toolsets: protocol.toolsets, access: protocol.access, contextDocPath, projectDir: record.projectDir, budget: protocol.budget, answer: 'document', ...(record.durable ? { database: record.durable.database } : {}) });
    if (!result.done) {
      await ctx.leave(entry, 'not-done', { usage: result.usage, sessionLog: result.sessionLog, ...lastWordsField(result), ...(result.asks ? { asked: true } : {}) });
      throw new WorkflowError('RUNTIME_ERROR', result.notDoneBecause ?? `step ${state} ended without finishing (the model did not say it was done; its budget may have run out). Retry it, or write ${contextDocPath} yourself and retry.`, result.asks ? { asks: true } : undefined);
    }
    // Written unless someone else wrote the document meanwhile (an external engine through the documents API).
    if ((await docs.text({ doc: step.doc })) === existing) {
      const text = unfenceDocument(result.contextDoc ?? result.output);
      if (!text.trim()) {
        await ctx.leave(entry, 'error', { usage: result.usage });
        throw new WorkflowError('RUNTIME_ERROR', `step ${state} produced no document`);
      }
      await docs.write({ doc: step.doc }, text);
    }
    await ctx.leave(entry, 'written', { usage: result.usage, sessionLog: result.sessionLog, note: [contextDocPath, result.note].filter(Boolean).join('; ') });
    if (step.doc === 'task_list') i--; // read the new list again: it loads, or goes back for a correction
  }
  return planStep(ctx);
}

/** True when the task list parses and every one of its tasks is done. */
function allTasksDone(text: string | undefined): boolean {
  const r = text === undefined ? undefined : parseTaskList(text);
  return !!r?.ok && !r.list.components.some(hasOpenTask);
}

async function planStep(ctx: RunContext): Promise<Next> {
  const { record, docs } = ctx;
  const file = docs.path({ doc: 'task_list' });
  const list = parseTaskListOrThrow((await docs.text({ doc: 'task_list' })) ?? '', file);
  const debugging = await loadProtocol('debugging', record.projectDir, ctx.protocolsDir, new ProjectTrust(ctx.paths.projectTrustFile));
  // Plan review warns about components the architecture names and the task list leaves out (none of them would be built).
  const plan = withUnplanned(planFromTaskList(list, { defaultTestCommand: await defaultTestCommand(record.projectDir), maxDebugAttempts: debugging.maxAttempts }), await docs.text({ doc: 'architecture' }));
  if (record.goalUpdate && !list.components.some(hasOpenTask)) {
    throw new WorkflowError('PARSE_ERROR', `the task list ${file} has no open task for the new goal: add its components or tasks ("- [ ] ID: title") and retry`, { file });
  }
  const finalCommand = composeFinalCommand(plan, await projectTestCommand(record.projectDir));
  if (finalCommand) plan.finalTestCommand = finalCommand;
  record.plan = plan;
  record.state = 'prepare:plan';
  ctx.setStatus('AWAITING_APPROVAL');
  ctx.emit('workflow.plan', { runId: record.runId, projectDir: record.projectDir, plan });
  return 'rest';
}

/** `npm test` when the project's package.json has a test script. */
async function defaultTestCommand(projectDir: string): Promise<string | undefined> {
  try {
    const pkg = JSON.parse(await readFile(join(projectDir, 'package.json'), 'utf8')) as { scripts?: Record<string, string> };
    return pkg.scripts?.test ? 'npm test --silent' : undefined;
  } catch {
    return undefined;
  }
}
