import type { WorkflowPlan } from '../../../../electron/contract/index';

type Task = WorkflowPlan['components'][number]['tasks'][number];

/** A plan's tasks for a new goal: the ones earlier goals finished (kept done) and the ones this goal adds. */
export function planDelta(plan: WorkflowPlan): { kept: Task[]; added: Task[] } {
  const tasks = plan.components.flatMap((c) => c.tasks);
  return { kept: tasks.filter((t) => t.status === 'done'), added: tasks.filter((t) => t.status !== 'done') };
}

const ids = (tasks: Task[]) => tasks.map((t) => t.id).join(', ');

/** Above the plan review of a new goal on a built project: what it keeps as done, and what it adds (the only work developed). */
export function PlanDelta({ plan, existing = false }: { plan: WorkflowPlan; existing?: boolean }) {
  const { kept, added } = planDelta(plan);
  return (
    <section aria-label="What this goal changes in the plan" className="flex flex-col gap-1 rounded border border-slate-200 p-3 text-sm dark:border-slate-700" data-testid="plan-delta">
      <p className="font-medium">{existing ? 'A new change to an existing project, after earlier goals' : 'A new goal for a project built for earlier goals'}</p>
      <p data-testid="plan-delta-added">
        {added.length ? `New for this goal, to be developed: ${added.length} task${added.length === 1 ? '' : 's'} (${ids(added)}).` : 'This goal adds no open task: the plan has nothing new to develop.'}
      </p>
      <p data-testid="plan-delta-kept">
        {kept.length ? `Kept as done from earlier goals: ${kept.length} task${kept.length === 1 ? '' : 's'} (${ids(kept)}), not developed again.` : 'No task of earlier goals is kept.'}
      </p>
    </section>
  );
}
