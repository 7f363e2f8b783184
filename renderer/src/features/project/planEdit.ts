import type { WorkflowPlan } from '../../../../electron/contract/index';

type Component = WorkflowPlan['components'][number];

/** The user's edits to a proposed plan: the order of components, which ones to leave out, and the final gate's command. */
export interface PlanDraft {
  order: string[];
  excluded: ReadonlySet<string>;
  /** The final gate's command as the user has it (blank: composed from the project when the gate runs). */
  finalTest: string;
}

export function draftOf(plan: WorkflowPlan): PlanDraft {
  return { order: plan.components.map((c) => c.id), excluded: new Set(), finalTest: plan.finalTestCommand ?? '' };
}

export function setFinalTest(d: PlanDraft, finalTest: string): PlanDraft {
  return { ...d, finalTest };
}

export function move(d: PlanDraft, id: string, by: -1 | 1): PlanDraft {
  const i = d.order.indexOf(id);
  const j = i + by;
  if (i < 0 || j < 0 || j >= d.order.length) return d;
  const order = [...d.order];
  [order[i], order[j]] = [order[j]!, order[i]!];
  return { ...d, order };
}

export function toggle(d: PlanDraft, id: string): PlanDraft {
  const excluded = new Set(d.excluded);
  if (excluded.has(id)) excluded.delete(id);
  else excluded.add(id);
  return { ...d, excluded };
}

export function isEdited(plan: WorkflowPlan, d: PlanDraft): boolean {
  return d.excluded.size > 0 || d.order.some((id, i) => plan.components[i]?.id !== id) || d.finalTest.trim() !== (plan.finalTestCommand ?? '').trim();
}

/** The plan to send with workflow.approve; an error message when nothing would be left to build. */
export function applyDraft(plan: WorkflowPlan, d: PlanDraft): { plan: WorkflowPlan } | { error: string } {
  const byId = new Map<string, Component>(plan.components.map((c) => [c.id, c]));
  const components = d.order.filter((id) => !d.excluded.has(id)).map((id) => byId.get(id)).filter((c): c is Component => !!c);
  if (components.length === 0) return { error: 'Keep at least one component: the plan cannot be empty.' };
  return { plan: { ...plan, components, finalTestCommand: d.finalTest.trim() } };
}

/**
 * The task list with one task's title replaced (the line `- [ ] <id>: <title>`), or an error naming
 * what is wrong. The status mark and everything else stay as written.
 */
export function setTaskTitle(taskList: string, id: string, title: string): { text: string } | { error: string } {
  const clean = title.replace(/\s*[\r\n]+\s*/g, ' ').trim(); // one line; spaces inside it stay as written
  if (!clean) return { error: 'A task needs a title.' };
  const escaped = id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const line = new RegExp(`^(\\s*[-*]\\s+\\[[ xX~]\\]\\s+${escaped}\\s*:\\s*).*$`, 'm');
  if (!line.test(taskList)) return { error: `Task ${id} is not in the task list as saved; reload the documents.` };
  return { text: taskList.replace(line, (_, head: string) => `${head}${clean}`) };
}
