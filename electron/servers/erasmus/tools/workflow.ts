import { z } from 'zod';
import { RpcError, WorkflowPlan, WorkflowStepResult, type WorkflowTask } from '../../../contract/index';
import { reportText } from '../../../contract/report-text';
import type { CoreLink } from '../link';
import { defineTool, errorResult, textResult, type ToolSpec } from '../registry';

/** The workflow error kinds by their contract codes (electron/main/workflow/errors.ts). */
const KIND_BY_CODE: Record<number, string> = {
  [-32010]: 'RUN_NOT_FOUND',
  [-32011]: 'EXECUTION_NOT_FOUND',
  [-32012]: 'INVALID_STATE',
  [-32013]: 'PARSE_ERROR',
  [-32014]: 'RUNTIME_ERROR',
};

/**
 * A failed workflow call as a tool error the calling model can act on: the kind (run not found,
 * execution not found, invalid state, parse error, runtime error) first, then the core's message.
 */
export function workflowFailure(err: unknown): ReturnType<typeof errorResult> {
  const message = err instanceof Error ? err.message : String(err);
  const code = err instanceof RpcError ? err.code : undefined;
  const data = err instanceof RpcError && err.data && typeof err.data === 'object' ? (err.data as Record<string, unknown>) : {};
  const kind = (typeof data.kind === 'string' ? data.kind : undefined) ?? (code !== undefined ? KIND_BY_CODE[code] : undefined) ?? 'RUNTIME_ERROR';
  return errorResult(`${kind}: ${message}`, { error: { ...data, kind, message, ...(code !== undefined ? { code } : {}) } });
}

const runId = z.string().regex(/^[A-Za-z0-9._-]{1,128}$/, 'a run id from workflow_load');

function describeTask(t: WorkflowTask): string {
  switch (t.status) {
    case 'AWAITING_COGNITIVE_RESULT':
      return `AWAITING_COGNITIVE_RESULT (${t.step.state}): answer this prompt with workflow_submit_task.\n\n${t.prompt}`;
    case 'COMPLETED':
      return `COMPLETED\n\n${t.output.join('\n')}`;
    case 'AWAITING_GOAL':
      return 'AWAITING_GOAL: the run needs a goal (the project has no architecture document yet, or every task of it is done); load the run again with a goal.';
    case 'AWAITING_APPROVAL':
      return `AWAITING_APPROVAL: confirm the plan with workflow_approve.\n\n${t.plan.components.map((c) => `- ${c.id}: ${c.title} (${c.tasks.length} task(s)${c.tasks.every((x) => x.status === 'done') ? ', all done: not developed again' : ''})`).join('\n')}`;
    case 'BLOCKED':
      return `BLOCKED${t.error ? `: ${t.error.kind}: ${t.error.message}` : ''}\n\n${RECOVER}`;
    default:
      return `${t.status}${t.error ? `: ${t.error.kind}: ${t.error.message}` : ''}\n\nContinue with workflow_resume.`;
  }
}

/** Every BLOCKED answer says how to go on, with tools this server has. */
/** A side-by-side component whose blocked step a retry or skip is for (its message names it); default: the first blocked one. */
const COMPONENT = z.string().min(1).max(200).optional().describe('components side by side: the blocked component whose step this is for (the blocked message names it); default: the first blocked one');

export const RECOVER =
  'To recover: workflow_retry runs the blocked step again (after you fixed what the error names; where the step stopped to ask something, pass the user\'s answer as `answer`); workflow_skip goes on without it (FSM states only); workflow_resume continues from the last state. Then call workflow_get_task.';

/** getTask's structured answer without the prompt, which the text already carries (a prompt is sent once). */
function taskData(t: WorkflowTask): Record<string, unknown> {
  if (t.status !== 'AWAITING_COGNITIVE_RESULT') return t;
  const { prompt: _prompt, ...rest } = t;
  return rest;
}

/** The cognitive-engine tools: another model drives the workflow through these. */
export function workflowTools(link: () => Promise<CoreLink>): ToolSpec[] {
  const call = async <T extends Record<string, unknown>>(fn: (l: CoreLink) => Promise<T>, text: (r: T) => string) => {
    try {
      const r = await fn(await link());
      return textResult(text(r), r);
    } catch (err) {
      return workflowFailure(err);
    }
  };
  return [
    defineTool({
      name: 'workflow_load',
      description: 'Create a workflow run for a project folder (and its goal, when the project has no architecture document yet). Returns the run id. The run waits for an external model: drive it with workflow_get_task and workflow_submit_task.',
      input: z
        .object({
          project: z.string().min(1).describe('absolute path of the project folder'),
          goal: z.string().max(100_000).optional().describe('what to build'),
          dirtyTree: z.enum(['commit', 'stash', 'include']).optional().describe('the project has uncommitted changes: commit them first, stash them, or include them (never committed by the run)'),
          branch: z.enum(['branch', 'current']).optional().describe('branch (default): work on a new erasmus/<goal> branch; current: on the branch checked out'),
          documents: z
            .literal('drifted')
            .optional()
            .describe('drifted: instead of a goal, a documentation run that brings the documents whose code changed since the commit they describe up to date (one documentation step each, then one commit; on the branch checked out unless branch says otherwise); refused when none drifted'),
        })
        .strict(),
      run: (a) =>
        call(
          (l) => l.request('workflow.load', { projectDir: a.project, goal: a.goal, executor: 'external', dirtyTree: a.dirtyTree, branch: a.branch, ...(a.documents ? { documents: a.documents } : {}) }),
          (r) => `run ${r.runId} loaded for ${a.project}`,
        ),
    }),
    defineTool({
      name: 'workflow_start',
      description: 'Start a loaded run (workflow_get_task also starts it).',
      input: z.object({ runId }).strict(),
      run: (a) => call((l) => l.request('workflow.start', { runId: a.runId }), (r) => `run ${a.runId}: ${r.status}`),
    }),
    defineTool({
      name: 'workflow_get_task',
      description: 'Run until the next step that needs a model. Returns AWAITING_COGNITIVE_RESULT with the prompt to answer, COMPLETED with the output, or the state the run rests in (AWAITING_APPROVAL, BLOCKED, …).',
      input: z.object({ runId, timeoutMs: z.number().int().min(0).max(3_600_000).optional() }).strict(),
      run: async (a) => {
        try {
          const t = await (await link()).request('workflow.getTask', { runId: a.runId, timeoutMs: a.timeoutMs });
          return textResult(describeTask(t), taskData(t));
        } catch (err) {
          return workflowFailure(err);
        }
      },
    }),
    defineTool({
      name: 'workflow_submit_task',
      description:
        "Submit the answer to the step that awaits it, as its prompt's \"How to answer\" says: result.output (not empty: the document, the report, or what you did), result.done (false: the step's done-criteria are not met), result.contextDoc (the complete new text of the step's context document). An empty or malformed result is refused and the step stays open; an answer that lacks a part the step requires (a notes step's contextDoc, a fixes step's `## Left open` section) is sent back once, naming what is missing, and the step stays open. Returns the run's status after the step (the next step waiting, or where the run rests).",
      input: z.object({ runId, state: z.string().optional().describe('the step you answer (step.state of workflow_get_task); an answer for a step that no longer waits is refused, not applied to another'), result: WorkflowStepResult }).strict(),
      run: (a) =>
        call(
          (l) => l.request('workflow.submitTask', { runId: a.runId, state: a.state, result: a.result }),
          (r) => r.followUp ? `still ${r.status} (run ${a.runId})\n\n${r.followUp}` : `submitted; run ${a.runId} is ${r.status}${r.status === 'BLOCKED' ? `\n\n${RECOVER}` : r.status === 'AWAITING_COGNITIVE_RESULT' ? ': call workflow_get_task for the next step' : ''}`,
        ),
    }),
    ...(['retry', 'skip', 'resume'] as const).map((name) =>
      defineTool({
        name: `workflow_${name}`,
        description: {
          retry: 'Run the current (blocked) step of a run again, e.g. after fixing what its error names. Then call workflow_get_task.',
          skip: 'Skip the current (blocked) step of a run and go on with the next one (FSM states only, not the preparation). Then call workflow_get_task.',
          resume: 'Continue a paused, stopped, blocked or interrupted run from its last state. Then call workflow_get_task.',
        }[name],
        input:
          name === 'retry'
            ? z.object({ runId, answer: z.string().optional().describe("the user's answer to what the step stopped to ask (the step run again hears it); only for a step that ran and stopped"), component: COMPONENT }).strict()
            : name === 'skip'
              ? z.object({ runId, component: COMPONENT }).strict()
              : z.object({ runId }).strict(),
        run: (a: { runId: string; answer?: string; component?: string }) =>
          call((l) => l.request(`workflow.${name}`, { runId: a.runId, ...(name === 'retry' && a.answer !== undefined ? { answer: a.answer } : {}), ...(name !== 'resume' && a.component !== undefined ? { component: a.component } : {}) }), (r) => `run ${a.runId}: ${r.status}; call workflow_get_task`),
      }),
    ),
    defineTool({
      name: 'workflow_approve',
      description: 'Confirm the plan of a run that is AWAITING_APPROVAL (optionally edited: fewer or reordered components).',
      input: z.object({ runId, plan: WorkflowPlan.optional() }).strict(),
      run: (a) => call((l) => l.request('workflow.approve', { runId: a.runId, plan: a.plan }), (r) => `run ${a.runId}: ${r.status}`),
    }),
    defineTool({
      name: 'workflow_status',
      description: 'State of a run: status, FSM state, position in the plan, component, pending prompt, timeline and usage.',
      input: z.object({ runId }).strict(),
      annotations: { readOnlyHint: true },
      run: (a) =>
        call(
          (l) => l.request('workflow.status', { runId: a.runId }),
          (r) => {
            const states = r.timeline.map((t) => t.state);
            // A step that stopped to ask says so (not a bare not-done), and one run with the user's answer names it.
            const recent = r.timeline.slice(-5).map((t) => `- ${t.state}${t.outcome ? ` → ${t.asked && t.outcome === 'not-done' ? 'stopped to ask the user' : t.outcome}` : ''}${t.answer ? ` (ran with the user's answer: ${JSON.stringify(t.answer.trim())})` : ''}${t.note ? `: ${t.note}` : ''}`);
            const comp = r.pending?.step.component ?? r.timeline.at(-1)?.component;
            return [`run ${r.runId} (${r.projectDir}): ${r.status}${r.state ? ` in ${r.state}` : ''}`, comp ? `component: ${comp}` : '', `steps so far: ${states.length}`, ...recent, r.error ? `error: ${r.error.kind}: ${r.error.message}` : '']
              .filter(Boolean)
              .join('\n');
          },
        ),
    }),
    defineTool({
      name: 'workflow_report',
      description:
        "What a run verified: each task of its plan with the tests Erasmus ran that name it (read from the test runner's own report) and the commit that holds its component. `verified` is true only when every task has passing tests. Structured content: {goal, verified, tasks: [{id, component, title, tests: [{name, file, passed}], commit}], untraced}.",
      input: z.object({ runId }).strict(),
      annotations: { readOnlyHint: true },
      run: (a) => call((l) => l.request('workflow.report', { runId: a.runId }), (r) => reportText(r)),
    }),
    defineTool({
      name: 'workflow_list',
      description: 'Workflow runs known to Erasmus, newest first (optionally of one project).',
      input: z.object({ project: z.string().min(1).optional() }).strict(),
      annotations: { readOnlyHint: true },
      run: (a) => call((l) => l.request('workflow.list', { projectDir: a.project }), (r) => (r.runs.length ? r.runs.map((x) => `${x.runId}  ${x.status}${x.state ? ` (${x.state})` : ''}  ${x.projectDir}`).join('\n') : 'no runs')),
    }),
  ];
}
