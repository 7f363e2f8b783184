import { z } from 'zod';
import { parseTaskList } from '../../../main/workflow/task-list';
import { planFromTaskList } from '../../../main/workflow/plan';
import type { WorkflowPlan } from '../../../contract/index';
import { analyzePlan, describeAnalysis } from '../fsm';
import type { CoreLink } from '../link';
import { defineTool, errorResult, textResult, type ToolSpec } from '../registry';
import { workflowFailure } from './workflow';

const Source = z
  .object({
    project: z.string().min(1).optional().describe("a project folder: its ctx/orchestration/task_list.md is used"),
    task_list: z.string().max(1_000_000).optional().describe('the text of a task list, instead of a project'),
  })
  .strict();

const issueSchema = z.object({ line: z.number().optional(), message: z.string() });
const ValidationOutput = z.object({ valid: z.boolean(), source: z.string(), components: z.array(z.object({ id: z.string(), title: z.string(), tasks: z.number(), testCommand: z.string().optional() })), issues: z.array(issueSchema) });
const FsmOutput = z.object({
  initial: z.string(),
  components: z.array(z.string()),
  states: z.array(z.object({ name: z.string(), phase: z.string().optional(), protocol: z.string().optional(), component: z.string().optional(), testCommand: z.string().optional(), final: z.boolean() })),
  transitions: z.array(z.object({ from: z.string(), event: z.string(), to: z.string().optional().describe('the next state; absent when the machine stays where it is'), when: z.string().optional() })),
});

type Loaded = { ok: true; text: string; source: string } | { ok: false; result: ReturnType<typeof errorResult> };

async function loadTaskList(link: () => Promise<CoreLink>, a: z.output<typeof Source>): Promise<Loaded> {
  if ((a.project === undefined) === (a.task_list === undefined)) return { ok: false, result: errorResult('give exactly one of "project" and "task_list"') };
  if (a.task_list !== undefined) return { ok: true, text: a.task_list, source: '(task_list argument)' };
  try {
    const doc = await (await link()).request('workflow.docs.read', { projectDir: a.project!, doc: 'task_list' });
    if (!doc.exists) return { ok: false, result: errorResult(`PARSE_ERROR: ${a.project} has no task list yet (${doc.path}); the orchestration step writes it`) };
    return { ok: true, text: doc.text, source: doc.path };
  } catch (err) {
    return { ok: false, result: workflowFailure(err) };
  }
}

/** analyze_fsm and validate_task_list: look at a workflow before running it. */
export function analysisTools(link: () => Promise<CoreLink>): ToolSpec[] {
  return [
    defineTool({
      name: 'validate_task_list',
      description: 'Check a task list (ctx/orchestration/task_list.md format: "## Component: <id>", "Test: <command>", "- [ ] ID: title") and report every bad line.',
      input: Source,
      outputSchema: ValidationOutput,
      annotations: { readOnlyHint: true },
      async run(a) {
        const loaded = await loadTaskList(link, a);
        if (!loaded.ok) return loaded.result;
        const r = parseTaskList(loaded.text);
        if (!r.ok) {
          const text = `invalid task list ${loaded.source}:\n${r.issues.map((i) => `- ${i.line ? `line ${i.line}: ` : ''}${i.message}`).join('\n')}`;
          return textResult(text, { valid: false, source: loaded.source, components: [], issues: r.issues });
        }
        const components = r.list.components.map((c) => ({ id: c.id, title: c.title, tasks: c.tasks.length, ...(c.testCommand ? { testCommand: c.testCommand } : {}) }));
        return textResult(`valid task list (${loaded.source}): ${components.map((c) => `${c.id} (${c.tasks} task(s))`).join(', ')}`, { valid: true, source: loaded.source, components, issues: [] });
      },
    }),
    defineTool({
      name: 'analyze_fsm',
      description: "The states, transitions and initial state of a project's workflow FSM (built from its task list, or from a run's approved plan), as text and structured content.",
      input: Source.extend({
        runId: z.string().regex(/^[A-Za-z0-9._-]{1,128}$/).optional().describe("a run: its plan (as approved) instead of a task list"),
        max_debug_attempts: z.number().int().min(1).max(50).default(3),
      }).strict(),
      outputSchema: FsmOutput,
      annotations: { readOnlyHint: true },
      async run(a) {
        let plan: WorkflowPlan | null | undefined;
        if (a.runId) {
          try {
            plan = (await (await link()).request('workflow.plan', { runId: a.runId })).plan;
          } catch (err) {
            return workflowFailure(err);
          }
          if (!plan) return errorResult(`INVALID_STATE: run ${a.runId} has no plan yet`);
        } else {
          const loaded = await loadTaskList(link, a);
          if (!loaded.ok) return loaded.result;
          const r = parseTaskList(loaded.text);
          if (!r.ok) return errorResult(`PARSE_ERROR: invalid task list ${loaded.source}: ${r.issues.map((i) => `${i.line ? `line ${i.line}: ` : ''}${i.message}`).join('; ')}`);
          plan = planFromTaskList(r.list, { maxDebugAttempts: a.max_debug_attempts });
        }
        const analysis = analyzePlan(plan);
        return textResult(describeAnalysis(analysis), analysis);
      },
    }),
  ];
}
