import { useState } from 'react';
import type { WorkflowPlan } from '../../../../electron/contract/index';
import { Button } from '../../ui/Button';
import { InlineMarkdown } from '../../ui/Markdown';
import { unplannedWarning } from './labels';
import { applyDraft, draftOf, isEdited, move, setFinalTest, toggle } from './planEdit';

type Task = WorkflowPlan['components'][number]['tasks'][number];

/** A task of the plan: its title rendered, and editable in place (saved to the task list, which the plan is read from). */
function TaskItem({ task, onEdit }: { task: Task; onEdit?: (id: string, title: string) => Promise<void> }) {
  const [editing, setEditing] = useState(false);
  const [title, setTitle] = useState(task.title);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const save = async () => {
    setBusy(true);
    setError(null);
    try {
      await onEdit!(task.id, title);
      setEditing(false);
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  if (editing) {
    return (
      <li className="flex flex-col gap-1" data-testid={`plan-task-${task.id}`}>
        <form className="flex items-center gap-2" onSubmit={(e) => { e.preventDefault(); void save(); }}>
          <label className="sr-only" htmlFor={`task-title-${task.id}`}>Title of task {task.id}</label>
          <span className="font-mono text-xs">{task.id}</span>
          <input id={`task-title-${task.id}`} className="min-w-0 flex-1 rounded border border-slate-300 px-1 py-0.5 dark:border-slate-700 dark:bg-slate-900" value={title} autoFocus
            onChange={(e) => setTitle(e.target.value)} onKeyDown={(e) => { if (e.key === 'Escape') { setEditing(false); setTitle(task.title); } }} data-testid="task-title-input" />
          <Button type="submit" variant="primary" disabled={busy} data-testid="task-title-save">Save</Button>
          <Button type="button" variant="ghost" disabled={busy} onClick={() => { setEditing(false); setTitle(task.title); }}>Cancel</Button>
        </form>
        {error ? <p role="alert" className="text-xs text-red-700 dark:text-red-300">{error}</p> : null}
      </li>
    );
  }
  return (
    <li data-testid={`plan-task-${task.id}`}>
      <span className="font-mono text-xs">{task.id}</span> <InlineMarkdown source={task.title} className="whitespace-pre-wrap" testId="plan-task-title" />
      {task.status === 'done' ? <span className="ml-1 rounded bg-emerald-100 px-1 text-xs text-emerald-900 dark:bg-emerald-900 dark:text-emerald-100" data-testid="plan-task-done">done</span> : null}
      {onEdit ? <Button variant="ghost" className="ml-1 px-1 py-0 text-xs" aria-label={`Edit task ${task.id}`} onClick={() => setEditing(true)} data-testid="task-edit">Edit</Button> : null}
    </li>
  );
}

/** The plan the workflow proposes: components in order with their tasks (rendered, editable in place); reorder, leave out, confirm. */
export function PlanReview({ plan, onConfirm, onEditTask }: { plan: WorkflowPlan; onConfirm: (edited: WorkflowPlan | undefined) => Promise<void>; onEditTask?: (id: string, title: string) => Promise<void> }) {
  const [draft, setDraft] = useState(() => draftOf(plan));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const byId = new Map(plan.components.map((c) => [c.id, c]));
  const confirm = async () => {
    const r = applyDraft(plan, draft);
    if ('error' in r) return setError(r.error);
    setBusy(true);
    setError(null);
    try {
      await onConfirm(isEdited(plan, draft) ? r.plan : undefined);
    } catch (e) {
      setError((e as Error).message);
      setBusy(false);
    }
  };
  return (
    <section aria-label="The plan" className="flex flex-col gap-3 rounded border border-indigo-300 p-4 dark:border-indigo-800" data-testid="plan-review">
      <h3 className="font-medium">The plan — confirm to start development</h3>
      {plan.unplanned?.length ? (
        <p role="note" className="rounded border border-amber-300 bg-amber-50 p-2 text-sm text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100" data-testid="plan-unplanned">
          <InlineMarkdown source={unplannedWarning(plan.unplanned)} />
        </p>
      ) : null}
      <ol className="flex flex-col gap-2">
        {draft.order.map((id, i) => {
          const c = byId.get(id)!;
          const out = draft.excluded.has(id);
          return (
            <li key={id} className={`rounded border border-slate-200 p-2 dark:border-slate-700 ${out ? 'opacity-50' : ''}`} data-testid={`plan-component-${id}`}>
              <div className="flex items-center gap-2">
                <span className="font-mono text-xs text-slate-600 dark:text-slate-400">{i + 1}</span>
                <span className="flex-1 font-medium">{c.title} <span className="font-mono text-xs text-slate-600 dark:text-slate-400">({c.id})</span></span>
                <Button variant="ghost" aria-label={`Move ${c.id} up`} disabled={i === 0} onClick={() => setDraft((d) => move(d, id, -1))}>↑</Button>
                <Button variant="ghost" aria-label={`Move ${c.id} down`} disabled={i === draft.order.length - 1} onClick={() => setDraft((d) => move(d, id, 1))}>↓</Button>
                <label className="flex items-center gap-1 text-xs">
                  <input type="checkbox" checked={!out} onChange={() => setDraft((d) => toggle(d, id))} /> include
                </label>
              </div>
              {c.tasks.length ? (
                <ul className="mt-1 list-disc pl-8 text-sm">
                  {c.tasks.map((t) => <TaskItem key={t.id} task={t} onEdit={onEditTask} />)}
                </ul>
              ) : null}
              {c.testCommand ? <p className="mt-1 pl-6 font-mono text-xs text-slate-600 dark:text-slate-400">tests: {c.testCommand}</p> : null}
              <p className="mt-1 pl-6 text-xs text-slate-600 dark:text-slate-400" data-testid="plan-needs">{needsText(c, draft.order.slice(0, i).filter((x) => !draft.excluded.has(x)).at(-1))}</p>
            </li>
          );
        })}
      </ol>
      <label className="flex flex-col gap-1 text-sm">
        <span>Final test gate — the project&apos;s whole test suite, run after the last component (leave empty to have it found from the project then)</span>
        <input
          type="text"
          className="rounded border border-slate-300 bg-white px-2 py-1 font-mono text-xs dark:border-slate-600 dark:bg-slate-900"
          value={draft.finalTest}
          placeholder="found from the project when the gate runs (package.json test script, pytest, cargo, go)"
          onChange={(e) => setDraft((d) => setFinalTest(d, e.target.value))}
          data-testid="plan-final-test"
        />
      </label>
      {error ? <p role="alert" className="text-sm text-red-700 dark:text-red-300">{error}</p> : null}
      <div>
        <Button variant="primary" onClick={() => void confirm()} disabled={busy} data-testid="confirm-plan">
          {busy ? 'Confirming…' : isEdited(plan, draft) ? 'Confirm the edited plan' : 'Confirm the plan'}
        </Button>
      </div>
    </section>
  );
}

/** What a component waits for, from its task list's `Depends:` line (without one: the component before it); a finished one is not developed. */
export function needsText({ depends, tasks }: Pick<WorkflowPlan['components'][number], 'depends' | 'tasks'>, before: string | undefined): string {
  if (tasks.length && tasks.every((t) => t.status === 'done')) return 'finished for an earlier goal: not developed again';
  if (depends === undefined) return before ? `starts after ${before}` : 'starts first';
  return depends.length ? `needs ${depends.join(', ')}: starts once ${depends.length === 1 ? 'it is' : 'they are'} merged` : 'needs no other component: may run beside the others';
}
