import type { WorkflowRunView } from '../../../electron/contract/index';

/** Components committed (or completed) out of those planned; null before there is a plan. */
export function runProgress(view: Pick<WorkflowRunView, 'plan' | 'timeline' | 'status'>): { done: number; total: number } | null {
  if (!view.plan) return null;
  const total = view.plan.components.length;
  if (view.status === 'COMPLETED') return { done: total, total };
  const finished = new Set(
    view.timeline.filter((e) => e.component && /:commit$/.test(e.state) && (e.outcome === 'committed' || e.outcome === 'nothing-to-commit')).map((e) => e.component!),
  );
  return { done: Math.min(total, finished.size), total };
}
