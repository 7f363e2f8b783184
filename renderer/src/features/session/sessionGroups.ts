import type { SessionSummary, WorkflowRunSteps, WorkflowRunView } from '../../../../electron/contract/index';
import { humanState, humanStatus } from '../project/labels';
import { runStepsOf } from '../../../../electron/contract/run-steps';
import type { SessionState } from './sessionState';

/** How an entry of the list looks: its dot. */
/** `asked`: a workflow step whose model stopped to ask the user (amber, as on the timeline), not a failure. */
export type ItemStatus = 'running' | 'done' | 'failed' | 'asked' | 'idle';

/** One entry of the sessions list: a session this window knows, or a step's session read from its run. */
export interface ListItem {
  id: string;
  title: string;
  /** The session as this window knows it (live, or replayed); absent for a past step not opened yet. */
  session?: SessionState;
  status: ItemStatus;
  startedAt: number;
}

export interface RunGroup {
  runId: string;
  /** The run's goal, else "Run of <start time>". */
  title: string;
  /** When it started and its status, in words ("started 12 Mar, 14:05 · Completed"). */
  detail: string;
  createdAt: string;
  /** Its steps that ran a session, in run order. */
  steps: ListItem[];
}

export interface ProjectGroup {
  /** The project's folder ('' for sessions that name none). */
  dir: string;
  /** The folder's name, for people. */
  name: string;
  /** The project open in this window (listed first). */
  open: boolean;
  /** Newest first; runs without a step that had a session are left out. */
  runs: RunGroup[];
  /** Sessions that belong to no run (or to a run this window does not know), newest first. */
  chats: ListItem[];
}

const FAILED = new Set(['tests-failed', 'tests-untraced', 'not-done', 'error']);
const LIVE = new Set<WorkflowRunSteps['status']>(['RUNNING', 'AWAITING_COGNITIVE_RESULT', 'AWAITING_GOAL', 'AWAITING_APPROVAL']);

export function folderName(dir: string): string {
  return dir.split(/[\\/]/).filter(Boolean).pop() ?? dir;
}

/** `adder:testing` run the second time → "adder · testing (attempt 2)". */
export function stepTitle(state: string, attempt: number): string {
  return `${humanState(state)}${attempt > 1 ? ` (attempt ${attempt})` : ''}`;
}

/** Each step session's title in a run: its state in words and, from the second time the state ran, its attempt number. */
export function stepTitles(runs: readonly WorkflowRunSteps[]): Map<string, string> {
  const titles = new Map<string, string>();
  for (const run of runs) {
    const attempts = new Map<string, number>();
    for (const step of run.steps) {
      const n = (attempts.get(step.state) ?? 0) + 1;
      attempts.set(step.state, n);
      if (step.sessionId) titles.set(step.sessionId, stepTitle(step.state, n));
    }
  }
  return titles;
}

/** What a step's session view says above its transcript: the worker that ran it (a durable run), calls refused and gone on without (the step's note). */
export interface StepFacts {
  worker?: string;
  refused?: string;
}

/** Each step's session, by id, with what its session view says of the step beyond its transcript. */
export function stepFacts(runs: readonly WorkflowRunSteps[]): Map<string, StepFacts> {
  const facts = new Map<string, StepFacts>();
  for (const run of runs) {
    for (const step of run.steps) {
      if (step.sessionId && (step.refused || step.worker)) facts.set(step.sessionId, { ...(step.worker ? { worker: step.worker } : {}), ...(step.refused ? { refused: step.refused } : {}) });
    }
  }
  return facts;
}

/** The open run's live view as the list's record of it (its steps' sessions from their log paths). */
export function runStepsOfView(view: WorkflowRunView): WorkflowRunSteps {
  return runStepsOf(view);
}

/** A chat's title: the first line of the task it was given, else "Chat of <time>". */
export function chatTitle(s: SessionState): string {
  const task = s.items.find((i) => i.kind === 'user' && !i.steered);
  const line = task && task.kind === 'user' ? task.text.split('\n')[0]!.trim().slice(0, 80) : '';
  return line || `Chat of ${when(s.startedAt)}`;
}

/** A time as lists say it: "26 Nov, 17:48". */
export function when(at: number): string {
  return new Date(at).toLocaleString([], { day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' });
}

function sessionStatus(s: SessionState): ItemStatus {
  if (s.running) return 'running';
  if (s.endReason === 'complete') return 'done';
  return s.endReason ? 'failed' : 'idle';
}

/** How a step ended; tests that failed and passed in a later step of the same component read as fixed (done), as on the timeline. */
function stepStatus(steps: WorkflowRunSteps['steps'], i: number, runLive: boolean): ItemStatus {
  const step = steps[i]!;
  if (!step.leftAt) return runLive ? 'running' : 'idle';
  if ((step.outcome === 'tests-failed' || step.outcome === 'tests-untraced') && steps.slice(i + 1).some((l) => l.component === step.component && l.outcome === 'tests-passed')) return 'done';
  // Stopped or paused by the user, or cut short when Erasmus stopped: not a failure, and not done.
  if (step.outcome === 'aborted' || step.outcome === 'interrupted') return 'idle';
  if (step.asked && step.outcome === 'not-done') return 'asked';
  return step.outcome && FAILED.has(step.outcome) ? 'failed' : 'done';
}

/**
 * Groups the sessions this window knows and the projects' workflow runs for the sessions list:
 * project (the open one first, then by latest activity) → its runs (newest first) → their steps in
 * run order ("adder · testing (attempt 2)"), plus each project's chats (sessions of no known run,
 * newest first). A step's session the window has not seen is listed too (it is read from its log
 * when opened). A session that names no project belongs to the open one.
 */
export function groupSessions({ sessions, runs, project, logged = [] }: { sessions: readonly SessionState[]; runs: readonly WorkflowRunSteps[]; project?: string; /** Sessions in the logs (sessions.list): chats of earlier windows stay listed. */ logged?: readonly SessionSummary[] }): ProjectGroup[] {
  const known = new Map(sessions.map((s) => [s.id, s]));
  const titles = stepTitles(runs);
  const groups = new Map<string, ProjectGroup>();
  const group = (dir: string): ProjectGroup => {
    let g = groups.get(dir);
    if (!g) {
      g = { dir, name: dir ? folderName(dir) : 'No project', open: !!project && dir === project, runs: [], chats: [] };
      groups.set(dir, g);
    }
    return g;
  };
  if (project) group(project);

  const inRun = new Set<string>();
  const seenRuns = new Set<string>();
  for (const run of [...runs].sort((a, b) => b.createdAt.localeCompare(a.createdAt))) {
    if (seenRuns.has(run.runId)) continue;
    seenRuns.add(run.runId);
    // Nothing drives an interrupted run: its open steps are cut off, not running.
    const live = LIVE.has(run.status) && !run.interrupted;
    const steps: ListItem[] = [];
    for (const [i, step] of run.steps.entries()) {
      if (!step.sessionId || inRun.has(step.sessionId)) continue;
      inRun.add(step.sessionId);
      const s = known.get(step.sessionId);
      steps.push({
        id: step.sessionId,
        title: titles.get(step.sessionId)!,
        ...(s ? { session: s } : {}),
        // A step that ended says how by its outcome (tests that failed after a finished session); a live one by its session.
        status: s?.running ? 'running' : step.leftAt || !s ? stepStatus(run.steps, i, live) : sessionStatus(s),
        startedAt: s?.startedAt ?? Date.parse(step.enteredAt),
      });
    }
    if (!steps.length) continue;
    const started = Date.parse(run.createdAt);
    group(run.projectDir).runs.push({
      runId: run.runId,
      title: run.goal ?? `Run of ${when(started)}`,
      detail: `started ${when(started)} · ${humanStatus(run.status, run.interrupted)}`,
      createdAt: run.createdAt,
      steps,
    });
  }

  for (const s of [...sessions].sort((a, b) => b.startedAt - a.startedAt)) {
    if (inRun.has(s.id)) continue;
    group(s.project ?? project ?? '').chats.push({ id: s.id, title: chatTitle(s), session: s, status: sessionStatus(s), startedAt: s.startedAt });
  }

  // Chats this window did not see, from the logs: a workflow step's session (its task is the step's prompt) is not a chat.
  for (const l of logged) {
    if (known.has(l.sessionId) || inRun.has(l.sessionId) || /^# (Step of the|Protocol:)/.test(l.task ?? '')) continue;
    group(l.project ?? project ?? '').chats.push({ id: l.sessionId, title: l.task || `Chat of ${when(l.startedAt)}`, status: 'idle', startedAt: l.startedAt });
  }
  for (const g of groups.values()) g.chats.sort((a, b) => b.startedAt - a.startedAt);

  const latest = (g: ProjectGroup) => Math.max(0, ...g.chats.map((c) => c.startedAt), ...g.runs.map((r) => Date.parse(r.createdAt)));
  return [...groups.values()]
    .filter((g) => g.open || g.runs.length || g.chats.length)
    .sort((a, b) => Number(b.open) - Number(a.open) || latest(b) - latest(a));
}
