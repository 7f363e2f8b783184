import { addWorkflowUsage, sessionIdOfLog, type Usage, type WorkflowRunView, type WorkflowUsage } from '../../../electron/contract/index';

/**
 * Components done out of those planned: finished for earlier goals (every task of theirs done when this run planned),
 * or committed by this run (a rewound commit no longer counts); null before there is a plan.
 */
export function runProgress(view: Pick<WorkflowRunView, 'plan' | 'timeline' | 'status'>): { done: number; total: number } | null {
  if (!view.plan) return null;
  const total = view.plan.components.length;
  if (view.status === 'COMPLETED') return { done: total, total };
  const finished = new Set([
    ...view.plan.components.filter((c) => c.tasks.every((t) => t.status === 'done')).map((c) => c.id),
    ...view.timeline.filter((e) => e.component && !e.rewound && /:commit$/.test(e.state) && (e.outcome === 'committed' || e.outcome === 'nothing-to-commit')).map((e) => e.component!),
  ]);
  return { done: Math.min(total, finished.size), total };
}

/**
 * The run's tokens and cost as of now: its totals (finished steps) plus the live usage of each step
 * still running, read from that step's session, so the status bar, the timeline and the session's
 * header count the same tokens at the same moment. An interrupted run counts its totals only, as a reload shows it.
 */
export function liveTotals(view: Pick<WorkflowRunView, 'totals' | 'timeline' | 'interrupted'>, sessions: Readonly<Record<string, { usage?: Usage } | undefined>>): WorkflowUsage {
  let t = view.totals;
  // Nothing drives an interrupted run: no step of it is running, whatever a session seen before the restart said.
  if (view.interrupted) return t;
  for (const e of view.timeline) {
    if (e.leftAt || e.usage) continue;
    const id = sessionIdOfLog(e.sessionLog);
    const u = id ? sessions[id]?.usage : undefined;
    if (u) t = addWorkflowUsage(t, u);
  }
  return t;
}
