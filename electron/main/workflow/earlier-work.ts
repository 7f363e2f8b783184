// A new goal's documents hold what earlier goals planned and did not build: open tasks in the task list, the
// architecture's description of them, the schedule's milestones. Every open task left in the list is developed by the
// new run, so the preparation steps are told whose those tasks are (the earlier run's goal, and whether it was
// abandoned) and that they are not part of the new goal unless it asks for them.
import type { OrchestrationDoc } from './documents';
import type { RunRecord } from './run-record';
import { parseTaskList } from './task-list';

/** A component of an earlier goal with open tasks, and the earlier run that planned them, when its record is found. */
export interface EarlierWork {
  component: string;
  tasks: string[];
  goal?: string;
  status?: RunRecord['status'];
  /** Where that run kept the component's unmerged work (`refs/erasmus/kept/…`). */
  kept?: string;
}

/** The task list's components with open tasks, each with the newest other run whose plan held those tasks. */
export function earlierWork(taskList: string | undefined, runs: RunRecord[], runId: string): EarlierWork[] {
  const r = taskList === undefined ? undefined : parseTaskList(taskList);
  if (!r?.ok) return [];
  const newestFirst = [...runs].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  return r.list.components.flatMap((c) => {
    const tasks = c.tasks.filter((t) => t.status !== 'done').map((t) => t.id);
    if (!tasks.length) return [];
    const run = newestFirst.find((x) => x.runId !== runId && x.plan?.components.some((p) => p.id === c.id && p.tasks.some((t) => tasks.includes(t.id))));
    const kept = run?.lanes?.find((l) => l.component === c.id)?.kept;
    return [{ component: c.id, tasks, ...(run?.goal ? { goal: run.goal } : {}), ...(run ? { status: run.status } : {}), ...(kept ? { kept } : {}) }];
  });
}

function whose(w: EarlierWork): string {
  const goal = w.goal ? `planned for the goal "${w.goal}"` : 'planned for an earlier goal';
  const run = w.status === 'ABANDONED' ? ', whose run was abandoned before building it' : w.status === undefined ? '' : ', whose run did not finish it';
  const kept = w.kept ? ` (its unmerged work is kept under ${w.kept})` : '';
  return `${w.component} (open tasks ${w.tasks.join(', ')}), ${goal}${run}${kept}`;
}

/**
 * What a preparation step of a new goal is told about the earlier goals' unbuilt work, or '' when there is none:
 * the architecture and the schedule describe it as planned, and the task list's open tasks would be developed now.
 */
export function earlierWorkNote(doc: OrchestrationDoc, work: EarlierWork[]): string {
  if (!work.length) return '';
  const one = work.length === 1;
  const list = work.map(whose).join('; ');
  const head = ` The documents hold work of earlier goals that was not built: ${list}. The project may not have ${one ? 'its' : 'their'} files, and ${one ? 'it is' : 'they are'} not part of this goal unless the goal below asks for ${one ? 'it' : 'them'}.`;
  if (doc === 'architecture') return `${head} Read the project, and leave ${one ? 'that part' : 'those parts'} out of the document or describe ${one ? 'it' : 'them'} as not built; do not describe ${one ? 'it' : 'them'} as this change.`;
  if (doc === 'progress_schedule') return `${head} Mark ${one ? 'its milestone' : 'their milestones'} as not built and not next (dropped with ${one ? 'its' : 'their'} goal), unless the goal below asks for that work.`;
  return `${head} Every open task left in the task list is developed in this run: remove those open tasks (and a component left without a task), unless the goal below asks for that work.`;
}
