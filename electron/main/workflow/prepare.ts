import { readFile } from 'node:fs/promises';
import { unfenceDocument } from '../../contract/handback';
import { readmeGoal } from '../project/readme';
import { ProjectTrust } from '../project/trust';
import { join } from 'node:path';
import { WorkflowError } from './errors';
import type { OrchestrationDoc } from './documents';
import { planFromTaskList } from './plan';
import { buildStepPrompt } from './prompt';
import { loadProtocol, loadProtocols } from './protocols';
import type { Next, RunContext } from './run-context';
import { parseTaskList, parseTaskListOrThrow } from './task-list';

/** How many times in a row the task list step is asked to correct a list that does not parse, before the run blocks. */
export const TASK_LIST_CORRECTIONS = 2;

const DOC_STEPS: Array<{ doc: OrchestrationDoc; protocol: 'design' | 'orchestration'; instruction: string }> = [
  {
    doc: 'architecture',
    protocol: 'design',
    instruction: 'Write the architecture document for the goal below.',
  },
  {
    doc: 'progress_schedule',
    protocol: 'orchestration',
    instruction: 'Break the architecture into a progress schedule.',
  },
  {
    doc: 'task_list',
    protocol: 'orchestration',
    instruction: 'Turn the progress schedule into a task list in the exact format of your protocol.',
  },
];

/**
 * The preparation before the FSM exists: each missing orchestration document is written by its
 * protocol's step, existing ones are loaded; then the task list becomes the plan, which waits for
 * the user's approval. Returns 'rest' when the run waits (goal, approval).
 */
export async function prepareNext(ctx: RunContext): Promise<Next> {
  const { record, docs } = ctx;
  await loadProtocols(record.projectDir, ctx.protocolsDir, new ProjectTrust(ctx.paths.projectTrustFile)); // a bad protocol file stops the run here, before any step
  let corrections = 0;
  for (let i = 0; i < DOC_STEPS.length; i++) {
    const step = DOC_STEPS[i]!;
    const state = `prepare:${step.doc}`;
    const existing = await docs.text({ doc: step.doc });
    // A task list the workflow cannot parse goes back to its step with the lines to fix (the model
    // hears what was wrong), a bounded number of times; then planStep blocks the run with them.
    const broken = step.doc === 'task_list' && existing !== undefined && corrections < TASK_LIST_CORRECTIONS ? parseTaskList(existing) : undefined;
    const issues = broken && !broken.ok ? broken.issues : undefined;
    if (existing !== undefined && !issues) {
      if (!record.timeline.some((e) => e.state === state)) {
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
    const protocol = await loadProtocol(step.protocol, record.projectDir, ctx.protocolsDir, new ProjectTrust(ctx.paths.projectTrustFile));
    const contextDocPath = docs.path({ doc: step.doc });
    const references: Array<{ title: string; text: string }> = [];
    for (const ref of ['architecture', 'progress_schedule'] as const) {
      if (ref === step.doc) break;
      references.push({ title: ref === 'architecture' ? 'Architecture' : 'Progress schedule', text: (await docs.text({ doc: ref })) ?? '' });
    }
    if (issues) corrections++;
    const instruction = issues
      ? `The task list (your context document below) does not follow the form of your protocol, so the workflow cannot read it:\n${issues.map((x) => `- ${x.line ? `line ${x.line}: ` : ''}${x.message}`).join('\n')}\n\nHand back the whole task list, corrected, in the exact form of your protocol.`
      : step.instruction;
    const entry = await ctx.enter(state, { protocol: protocol.name });
    const prompt = buildStepPrompt({ protocol, instruction, goal: record.goal, contextDocPath, contextDoc: existing ?? '', references });
    const result = await ctx.runStep({ state, protocol: protocol.name, prompt, protocolPrompt: protocol.prompt, toolsets: protocol.toolsets, access: protocol.access, contextDocPath, projectDir: record.projectDir, budget: protocol.budget, answer: 'document' });
    if (!result.done) {
      await ctx.leave(entry, 'not-done', { usage: result.usage, sessionLog: result.sessionLog });
      throw new WorkflowError('RUNTIME_ERROR', `step ${state} ended without finishing (the model did not say it was done; its budget may have run out). Retry it, or write ${contextDocPath} yourself and retry.`);
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
    await ctx.leave(entry, 'written', { usage: result.usage, sessionLog: result.sessionLog, note: contextDocPath });
    if (step.doc === 'task_list') i--; // read the new list again: it loads, or goes back for a correction
  }
  return planStep(ctx);
}

async function planStep(ctx: RunContext): Promise<Next> {
  const { record, docs } = ctx;
  const file = docs.path({ doc: 'task_list' });
  const list = parseTaskListOrThrow((await docs.text({ doc: 'task_list' })) ?? '', file);
  const debugging = await loadProtocol('debugging', record.projectDir, ctx.protocolsDir, new ProjectTrust(ctx.paths.projectTrustFile));
  const plan = planFromTaskList(list, { defaultTestCommand: await defaultTestCommand(record.projectDir), maxDebugAttempts: debugging.maxAttempts });
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
