import type { WorkflowRunSteps, WorkflowRunView } from './methods/workflow';
import { saysRefused } from './words';

/** A session's id from its log's path (ERASMUS_HOME/sessions/<id>.jsonl); undefined for anything else. */
export function sessionIdOfLog(log: string | undefined): string | undefined {
  const m = log ? /^([A-Za-z0-9._-]{1,128})\.jsonl$/.exec(log.split(/[\\/]/).pop() ?? '') : null;
  return m?.[1];
}

/**
 * A run as the sessions list knows it: its goal's first line, and each step with the session that
 * ran it. One mapping for the core's run records (workflow.runs) and the renderer's live run view.
 */
export function runStepsOf(run: Pick<WorkflowRunView, 'runId' | 'projectDir' | 'status' | 'goal' | 'createdAt' | 'updatedAt' | 'timeline'>): WorkflowRunSteps {
  const goal = run.goal?.trim().split('\n')[0]?.trim().slice(0, 200);
  return {
    runId: run.runId,
    projectDir: run.projectDir,
    status: run.status,
    ...(goal ? { goal } : {}),
    createdAt: run.createdAt,
    updatedAt: run.updatedAt,
    steps: run.timeline.map((e) => {
      const sessionId = sessionIdOfLog(e.sessionLog);
      return {
        state: e.state,
        ...(e.protocol ? { protocol: e.protocol } : {}),
        ...(e.component ? { component: e.component } : {}),
        enteredAt: e.enteredAt,
        ...(e.leftAt ? { leftAt: e.leftAt } : {}),
        ...(e.outcome ? { outcome: e.outcome } : {}),
        ...(sessionId ? { sessionId } : {}),
        ...(saysRefused(e.note) ? { refused: e.note } : {}),
        ...(e.asked ? { asked: true } : {}),
        ...(e.worker ? { worker: e.worker } : {}),
      };
    }),
  };
}

/**
 * The commits a run made, each once, in the order they stand in history: a component developed side by side
 * names its commit on the run's branch at its commit step and again at its merge, so each commit is placed
 * where it was last named (the merge), not where the component happened to finish first.
 */
export function runCommits<E extends Pick<WorkflowRunView['timeline'][number], 'commit' | 'rewound'>>(timeline: readonly E[]): Array<E & { commit: string }> {
  const last = new Map<string, number>();
  // A rewound step's commit was undone (kept under refs/erasmus/rewound/): not the run's any more.
  timeline.forEach((e, i) => e.commit && !e.rewound && last.set(e.commit, i));
  return timeline.filter((e, i): e is E & { commit: string } => !!e.commit && !e.rewound && last.get(e.commit) === i);
}

/**
 * The components a run built, in the order it reached their commit step: a later goal's plan lists the earlier
 * goals' components too (done, not developed again), which this run did not build.
 */
export function componentsBuilt(timeline: ReadonlyArray<Pick<WorkflowRunView['timeline'][number], 'component' | 'state' | 'rewound'>>): string[] {
  return [...new Set(timeline.filter((e) => e.component && e.state === `${e.component}:commit` && !e.rewound).map((e) => e.component!))];
}

/** What a finished run built, of its plan's components (a later goal's plan keeps the earlier goals' ones, done before it). */
export function builtWords(planned: number, built: string[]): string {
  const before = planned - built.length;
  const which = built.length ? `other ${before === 1 ? 'one was' : `${before} were`}` : before === 1 ? 'component was' : `${before} components were`;
  const earlier = before > 0 ? ` (the plan's ${which} done before this run)` : '';
  if (!built.length) return `no component needed building${earlier}; the final phase is done`;
  if (built.length === 1) return `${planned === 1 ? 'its component' : `component ${built[0]}`} is done${earlier}`;
  return `${before ? `${built.length} components` : `all ${built.length} components`} are done${earlier}`;
}

/** Whether a run's clock runs: not once it rests (complete, stopped, paused, blocked). */
export function runIsLive(view: Pick<WorkflowRunView, 'status' | 'interrupted'>): boolean {
  // Recorded RUNNING with no process driving it (killed, crashed): nothing moves, so no clock runs. Nor in a run left for a newer goal.
  return !view.interrupted && !['COMPLETED', 'STOPPED', 'PAUSED', 'BLOCKED', 'ABANDONED'].includes(view.status);
}

/**
 * When a run at rest stopped: its last update, but for a completed run the end of its last step. A completed run is saved
 * again when it is finished (squashed into its branch, or kept) or its tool mode is set, later and not part of its work
 * (played as a user: "1 component built in 3 m 12 s" read "25 m 28 s" once squashed into main twenty minutes on).
 */
export function runRestEnd(view: Pick<WorkflowRunView, 'status' | 'updatedAt' | 'timeline'>): string {
  if (view.status !== 'COMPLETED') return view.updatedAt;
  const ends = view.timeline.flatMap((e) => (e.leftAt ? [Date.parse(e.leftAt)] : []));
  return ends.length ? new Date(Math.min(Math.max(...ends), Date.parse(view.updatedAt))).toISOString() : view.updatedAt;
}

/** A run's wall time, the same in every view: from its first step to now while it runs, to when it stopped once it rests (runRestEnd). */
export function runElapsed(view: Pick<WorkflowRunView, 'status' | 'interrupted' | 'updatedAt' | 'timeline'>, now: number, live = runIsLive(view)): number | undefined {
  const first = view.timeline[0];
  return first ? (live ? now : Date.parse(runRestEnd(view))) - Date.parse(first.enteredAt) : undefined;
}
