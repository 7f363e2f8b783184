import type { WorkflowErrorInfo, WorkflowRunView } from './methods/workflow';

/** Words for people in place of the workflow's internal names (`AWAITING_GOAL`, `prepare:architecture`). */
const STATUS: Record<WorkflowRunView['status'], string> = {
  LOADED: 'Ready',
  RUNNING: 'Running',
  AWAITING_GOAL: 'Waiting for your goal',
  AWAITING_APPROVAL: 'Waiting for your plan review',
  AWAITING_COGNITIVE_RESULT: 'Waiting for the external engine',
  PAUSED: 'Paused',
  BLOCKED: 'Blocked — needs you',
  STOPPED: 'Stopped',
  COMPLETED: 'Completed',
  ABANDONED: 'Abandoned for a newer goal',
};

export function humanStatus(status: WorkflowRunView['status'], interrupted?: boolean): string {
  // Recorded RUNNING with nobody driving it (the process was killed): it says so instead of "Running" forever.
  if (interrupted) return 'Interrupted — nothing is driving it';
  return STATUS[status] ?? status;
}

/** A run's status as every view says it: interrupted (nothing drives it), pausing (the steps under way end first), or its status. */
export function runStatusWords(view: Pick<WorkflowRunView, 'status' | 'interrupted' | 'pausing' | 'timeline'> & Partial<Pick<WorkflowRunView, 'lanes'>>): string {
  // Components side by side: one blocked while others run needs the user now, not once they finish.
  const lanes = view.status === 'RUNNING' && !view.interrupted ? (view.lanes ?? []).filter((l) => l.status === 'blocked') : [];
  // One that stopped to ask waits for the user's answer, not for a fix.
  const blocked = lanes.filter((l) => !l.asks).map((l) => l.component);
  const asking = lanes.filter((l) => l.asks).map((l) => l.component);
  const needs = `${asking.length ? `; ${asking.join(', ')} stopped to ask you, needs your answer` : ''}${blocked.length ? `; ${blocked.join(', ')} blocked, needs you` : ''}`;
  if (view.pausing && view.status === 'RUNNING' && !view.interrupted) {
    const inFlight = view.timeline.filter((e) => !e.leftAt && !e.rewound).length;
    return `Pausing after the current step${inFlight > 1 ? 's' : ''}…${needs}`;
  }
  return `${humanStatus(view.status, view.interrupted)}${needs}`;
}

const STEP: Record<string, string> = {
  architecture: 'architecture',
  progress_schedule: 'schedule',
  task_list: 'task list',
  e2e_testing: 'end-to-end tests',
  plan: 'plan review',
  orchestration: 'schedule update',
  fixes: 'review fixes',
  merge: 'merge into the run\'s branch',
};

/** A step of a state (`testing`, `progress_schedule`) in words. */
export function stepWords(step: string): string {
  return STEP[step] ?? step.replace(/_/g, ' ');
}

const OUTCOME: Record<string, string> = {
  done: 'done',
  'not-done': 'not finished',
  'tests-passed': 'tests passed',
  'tests-failed': 'tests failed',
  skipped: 'skipped',
  committed: 'committed',
  'nothing-to-commit': 'nothing to commit',
  interrupted: 'interrupted',
  aborted: 'stopped',
  error: 'failed',
  written: 'written',
  loaded: 'already there',
  'tests-untraced': 'tests passed, but some tasks have no test that names them',
};

/**
 * Whether a step's note says calls were refused and the model went on without them (nobody could approve them:
 * `wentOnWithout`; nobody followed the durable run: the worker's `refusedNote`). The CLI shows such a note under the
 * step, whatever its outcome: the person learns there what did not run.
 */
export function saysRefused(note: string | undefined): boolean {
  return !!note && /not run, as nobody could approve|not asked, refused and gone on without/.test(note);
}

/**
 * Whether a finished tool call did not run: refused by the approval path, or not run by its server (a command whose
 * confirmation was declined, or that nobody could be asked for: "$ <command>\nNot run: …"), or a call of a tool the
 * session does not have (`calledUnknownTool`). The CLI's tool line and the app's tool card say "not run: <why>" for it,
 * never show it as a command that ran.
 */
export function callNotRun(call: { result: string; isError?: boolean; refused?: boolean }): boolean {
  return !!call.refused || (!!call.isError && (/^Not run[:.]/m.test(call.result) || calledUnknownTool(call)));
}

/** A call of a tool the session does not have (the model misnamed it: `files__cat`): the agent's answer `Unknown tool "…"`. */
export function calledUnknownTool(call: { result: string; isError?: boolean }): boolean {
  return !!call.isError && call.result.startsWith('Unknown tool "');
}

/** The first line of a refusal or failure (not the "$ <command>" line it may open with), without its "Not run:". */
export function whyNotRun(result: string): string {
  const lines = result.split('\n').filter((l) => l.trim() && !l.startsWith('$ '));
  return (lines[0] ?? result).replace(/^not run[:.]?\s*/i, '').replace(/\s+/g, ' ').trim();
}

/** How a step ended (`tests-failed`) in words. */
export function humanOutcome(outcome: string): string {
  return OUTCOME[outcome] ?? outcome.replace(/[-_]/g, ' ');
}

/** How a timeline entry ended, in words: a step whose model stopped to ask the user (`asked`) asked, it did not just "not finish". */
export function entryOutcome(e: { outcome?: string | undefined; asked?: boolean | undefined }): string | undefined {
  if (e.asked && e.outcome === 'not-done') return 'stopped to ask you';
  return e.outcome ? humanOutcome(e.outcome) : undefined;
}

/** `prepare:architecture` → "Preparation · architecture"; `adder:testing` → "adder · testing"; `final:review` → "Final · review". */
export function humanState(state: string): string {
  const at = state.indexOf(':');
  if (state === 'completed') return 'all steps done';
  if (at < 0) return state.replace(/_/g, ' ');
  const lane = state.slice(0, at);
  const step = state.slice(at + 1);
  // Between components the orchestrator brings the schedule up to date: `orchestration:adder`.
  if (lane === 'orchestration') return `Schedule update · after ${step}`;
  // A parallel run: its components side by side, then one schedule update (`parallel:components`, `parallel:orchestration`).
  if (lane === 'parallel') return step === 'components' ? 'Components side by side' : 'Schedule update · after all components';
  const laneWords = lane === 'prepare' ? 'Preparation' : lane === 'final' ? 'Final' : lane;
  return `${laneWords} · ${stepWords(step)}`;
}

/**
 * What skipping a step does, as the blocked card, the CLI and the skipped step's timeline entry say it: where the run
 * goes next, and whether tests stay failing (the steps after it are told so).
 */
export function skipWords(state: string): string {
  const at = state.indexOf(':');
  const lane = state.slice(0, at);
  const step = state.slice(at + 1);
  if (lane === 'final') {
    if (step === 'debugging') return 'the run goes on to its documentation and final review with the final test gate still failing (the review is told)';
    if (step === 'redebugging') return "the run's last work is committed with the final test gate still failing";
    if (step === 'testing') return 'the run goes on to its documentation without end-to-end tests';
    return `the run goes on without ${humanState(state)}`;
  }
  const who = `component ${lane}`;
  if (step === 'debugging') return `${who} goes on to its review with its tests still failing (the review is told)`;
  if (step === 'redebugging' || step === 'retesting') return `${who} is committed with its tests still failing`;
  if (step === 'testing') return `${who} goes on to its review with no tests of its own (the review checks its tasks by reading)`;
  if (step === 'review') return `${who} goes on without a review`;
  return `${who} goes on without ${humanState(state)}`;
}

const ERROR: Record<WorkflowErrorInfo['kind'], string> = {
  RUN_NOT_FOUND: 'The run was not found',
  EXECUTION_NOT_FOUND: 'The step’s executor was not found',
  INVALID_STATE: 'That cannot be done now',
  PARSE_ERROR: 'A document could not be read',
  RUNTIME_ERROR: 'A step failed',
};

/**
 * A workflow error in words, with the core's own message verbatim after it. A step that stopped to ask the user (`asks`)
 * did not fail: it waits for their answer (played as a user: "A step failed:" over the model's question read as a crash).
 */
export function humanError(e: WorkflowErrorInfo): string {
  const what = e.asks ? 'The step needs your answer' : (ERROR[e.kind] ?? e.kind);
  return `${what}: ${e.message}${e.file ? ` (${e.file})` : ''}`;
}

/** A tool named for people: `files__write_file` → the files tool “write file”. */
export function toolName(name: string): string {
  const at = name.indexOf('__');
  if (at < 0) return `the tool “${name.replace(/[_-]+/g, ' ')}”`;
  return `the ${name.slice(0, at)} tool “${name.slice(at + 2).replace(/[_-]+/g, ' ')}”`;
}

/** Each verb of a tool as done (past) and as asked (a call running, refused or failed: it did not do it), by the tool's name. */
const TOOL_VERBS: Array<[RegExp, string, string]> = [
  [/append/, 'Appended to', 'Append to'],
  [/write|create|save/, 'Wrote', 'Write'],
  [/edit|replace|patch/, 'Edited', 'Edit'],
  [/read|view|cat|get/, 'Read', 'Read'],
  [/list|dir|tree/, 'Listed', 'List'],
  [/search|find|grep/, 'Searched', 'Search'],
  [/delete|remove/, 'Deleted', 'Delete'],
  [/move|rename/, 'Moved', 'Move'],
];

/** What a tool (`write_file`, without its server) does, as one verb: done ("Wrote") or only asked ("Write"); one map for the app and the CLI. */
export function toolVerb(tool: string, done: boolean): string | undefined {
  const found = TOOL_VERBS.find(([re]) => re.test(tool));
  return found ? (done ? found[1] : found[2]) : undefined;
}

/**
 * A step's commit in words, as the run's branch will hold it: a side-by-side component's commit is made on its lane,
 * then merged in schedule order as another commit (the one the user finds in their history).
 */
export function commitWords(e: { commit?: string; laneCommit?: string; worktree?: string; outcome?: string }, length = 8): string {
  if (!e.commit) return '';
  const c = e.commit.slice(0, length);
  if (e.laneCommit && e.laneCommit !== e.commit) return `commit ${c}, merged from its lane's ${e.laneCommit.slice(0, length)}`;
  if (!e.laneCommit && e.worktree && e.outcome === 'committed') return `commit ${c} on its lane, to be merged into the run's branch in schedule order`;
  return `commit ${c}`;
}

/**
 * How a command names a durable run's database in a hint (each process that drives the run is given its URL; the
 * record keeps it with the password masked): ` --database-url 'postgres://me:***@host/db'`, and what to say once
 * after the command(s), that *** is the user's password or that ERASMUS_DATABASE_URL does as well. Not durable: empty.
 */
export function databaseHint(durable: { database: string } | undefined): { option: string; note: string } {
  if (!durable) return { option: '', note: '' };
  const masked = durable.database.includes(':***@');
  return { option: ` --database-url '${durable.database}'`, note: ` (${masked ? 'your password in place of ***; ' : ''}or set ERASMUS_DATABASE_URL instead of --database-url)` };
}

/** A rewind to before the plan's approval removes the run's branch (`RewindPreview.branchRemoved`): the same words in every face. */
export function branchRemovedWords(branch: string, done: boolean): string {
  return `the run's branch ${branch} ${done ? 'was removed' : 'is removed'}: it was made when the plan was approved, and approving the plan again makes it again under this name (its commits stay under refs/erasmus/rewound/, and undoing the rewind brings the branch back)`;
}

/**
 * A side-by-side component's work a rewind takes out of the run (`RewindPreview.lanes`): the same words in every face,
 * the files listed after them.
 */
export function laneWorkWords(l: { component: string; worktree: string; files: readonly unknown[]; commit?: string | undefined; keptRef: string }): string {
  const n = l.files.length;
  const what = [n ? `${n} uncommitted ${n === 1 ? 'file' : 'files'}` : '', l.commit ? `its commit ${l.commit.slice(0, 10)}, not merged yet` : ''].filter(Boolean).join(' and ');
  return `component ${l.component}'s worktree ${l.worktree} holds ${what}: the rewind takes ${n + (l.commit ? 1 : 0) === 1 ? 'it' : 'them'} out of the run (the components start afresh), and going on removes the worktree, the work kept under ${l.keptRef} (git log ${l.keptRef})`;
}

/** Plan review's warning about components the architecture names and the task list leaves out (the plan's `unplanned`): CLI and app. */
export function unplannedWarning(unplanned: string[]): string {
  const names = unplanned.map((id) => `\`${id}\``).join(', ');
  const one = unplanned.length === 1;
  return `The architecture names ${one ? 'a component' : 'components'} the task list has no section for: ${names}. This run builds none of ${one ? 'it' : 'them'}. If ${one ? 'it is' : 'they are'} to be built, add ${one ? 'its' : 'their'} tasks to the task list (a "## Component: id" section each) before you confirm; if ${one ? 'it exists' : 'they exist'} already and need${one ? 's' : ''} no change, confirm the plan as it is.`;
}
