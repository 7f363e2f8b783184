import { humanState } from '../../contract/words';
import { cannotFinish } from './agent-executor';
import { git, snapshotTree } from './git';
import type { CheckpointTrees } from './run-context';
import type { RunRecord } from './run-record';
import { treeDiff, type UserChange } from './user-changes';

/** Outcomes of an attempt that did not finish, whose changes stay in the project for the step run again. */
const UNFINISHED: ReadonlySet<string> = new Set(['interrupted', 'aborted', 'not-done', 'error']);

/** What an unfinished attempt changed: its diff, or (long) git's list of the files and their changed lines. */
export interface RetryChanges {
  kind: 'diff' | 'stat';
  text: string;
}

/** How long a diff of what an unfinished attempt changed is shown whole; longer, its list of files. */
const RETRY_DIFF_MAX = 6000;

/**
 * What the last attempt of `state` changed in `dir` when it did not finish (a crash, a stop, a step that ended
 * undone): the diff from the files as it found them to the files now, or the list of files when the diff is long;
 * an empty diff when it changed nothing; undefined when it is not known (no attempt, or its starting tree is not in
 * this repository). A starting tree that is a checkpoint's is diffed among the checkpoints (`trees`). `stops`: the user's changes
 * while the run was stopped (user-changes.ts): the attempts' changes end at the files as the run left them at the last stop
 * since they began, and what the user changed is said apart.
 */
export async function unfinishedChanges(timeline: RunRecord['timeline'], state: string, dir: string, trees?: CheckpointTrees, stops?: UserChange[]): Promise<RetryChanges | undefined> {
  // From where the first of the unfinished attempts in a row started: one that could not start changed nothing, and
  // must not hide what the attempt before it (cut off by a restart) changed.
  let last: RunRecord['timeline'][number] | undefined;
  for (let i = timeline.length - 1; i >= 0; i--) {
    const e = timeline[i]!;
    if (e.state !== state || !e.leftAt) continue;
    if (!UNFINISHED.has(e.outcome ?? '') || !e.startTree) break;
    last = e;
  }
  if (!last?.startTree) return undefined;
  const from = last.startTree;
  // Up to the files as the run left them at the last stop for the user since the attempts began (in the same store as
  // their start): what the user changed after is theirs, said apart (user-changes.ts).
  const inCheckpoints = last.startTreeIn === 'checkpoints';
  const stop = stops?.findLast((c) => c.state === state && c.at > last!.enteredAt && (c.fromIn === 'checkpoints') === inCheckpoints);
  if (stop) {
    const diff = await treeDiff(dir, from, stop.from, trees, inCheckpoints);
    if (diff === undefined || diff.length <= RETRY_DIFF_MAX) return diff === undefined ? undefined : { kind: 'diff', text: diff.trimEnd() };
    const stat = await treeDiff(dir, from, stop.from, trees, inCheckpoints, true);
    return stat === undefined ? undefined : { kind: 'stat', text: stat.trimEnd() };
  }
  if (inCheckpoints) {
    if (!trees) return undefined;
    const diff = await trees.diffSince(dir, from).catch(() => undefined);
    if (diff === undefined || diff.length <= RETRY_DIFF_MAX) return diff === undefined ? undefined : { kind: 'diff', text: diff.trimEnd() };
    const stat = await trees.diffSince(dir, from, true).catch(() => undefined);
    return stat === undefined ? undefined : { kind: 'stat', text: stat.trimEnd() };
  }
  const now = await snapshotTree(dir).catch(() => undefined);
  if (!now) return undefined;
  if (now === from) return { kind: 'diff', text: '' };
  const diff = await git(dir, ['diff', '--no-color', '--no-ext-diff', from, now]);
  if (diff.code !== 0) return undefined;
  if (diff.stdout.length <= RETRY_DIFF_MAX) return { kind: 'diff', text: diff.stdout.trimEnd() };
  const stat = await git(dir, ['diff', '--no-color', '--stat=200', from, now]);
  return stat.code === 0 ? { kind: 'stat', text: stat.stdout.trimEnd() } : undefined;
}

/**
 * For a debugging step that runs again because the tests still fail: which attempt this is, and what the
 * attempt before changed (read from the timeline, never from the model's word), so a model that changed
 * nothing last time hears so. Undefined on a first attempt.
 */
export function debugRetryNote(timeline: RunRecord['timeline'], state: string, used: number, maxAttempts: number | undefined): string | undefined {
  if (used < 1) return undefined;
  // The attempt before: this state's last finished entry (the machine counts the attempts; a retry by the user starts again at 1).
  let last: RunRecord['timeline'][number] | undefined;
  for (let i = timeline.length - 1; i >= 0 && !last; i--) {
    const e = timeline[i]!;
    if (e.state === state && e.leftAt && e.outcome === 'tests-failed') last = e;
  }
  const changed = last?.files?.map((f) => f.path);
  const before =
    changed === undefined
      ? 'The tests still fail after the attempt before'
      : changed.length
        ? `The attempt before changed ${changed.map((p) => `\`${p}\``).join(', ')}, and the tests still fail`
        : 'The attempt before changed no file, and the tests still fail';
  const of = maxAttempts ? ` of ${maxAttempts}` : '';
  const lastOne = maxAttempts && used + 1 >= maxAttempts ? ' This is the last attempt before the run stops and asks the user.' : '';
  // What that attempt concluded comes back to it: it may have found that only the user can settle the failure
  // (the test and the architecture disagree), and without its words the next attempt starts from nothing.
  const said = last?.lastWords?.text.trim();
  const itSaid = said
    ? ` What the attempt before wrote at its end: "${said.replace(/\s+/g, ' ')}". If it is right that only the user can settle this, end your answer with a line \`Cannot finish: <why>\`: the run stops and asks the user, with your work kept.`
    : '';
  return `This is debugging attempt ${used + 1}${of} for these failures. ${before} (output below): find the cause in the code before you change it.${itSaid}${lastOne}`;
}

/** A step run again after the run stopped at it: what happened, in words for the model, and what it wrote last (record.retryOf). */
export type RetryOf = NonNullable<RunRecord['retryOf']>;

const NOT_DONE = 'it ended without saying it was done (its budget may have run out), so the run stopped for the user';

/**
 * A step that said it cannot finish: said as such (Erasmus knows it; "its budget ran out, or …" left a literal model to
 * guess), with what running it again means. The retry is the user's only answer (it carries no words), so the model is
 * told to take it as one and not to stop again for the same thing unless the step still cannot be done.
 */
const SAID_CANNOT = 'it said it cannot finish without the user, so the run stopped for them. That the user ran this step again is their answer that it should be done now: do it from the project and the documents as they are, and begin a line with `Cannot finish:` again only if it still cannot be done without them';
/** The same, when the retry carries the user's words (`workflow retry --answer`): those are the answer. */
const SAID_CANNOT_ANSWERED = 'it said it cannot finish without the user, so the run stopped for them. The user answered (their answer is below) and ran this step again: do the step now, as their answer says, and begin a line with `Cannot finish:` again only if it still cannot be done without them';

/**
 * The retry note of a step stopped while it ran (a stop, a crash): `what` says so. Where that attempt was itself a retry
 * with the user's answer, the answer and what the step had asked come along: the step run again must still hear them
 * (played as a user: the answered design step was cut off by a restart, and on resume it heard only "Erasmus stopped
 * while it ran", the answer gone).
 */
export function interruptedRetry(before: RetryOf | undefined, state: string, what: string): RetryOf {
  if (before?.state !== state || !before.answer) return { state, what };
  return { state, what: `${what} The attempt before it had stopped to ask the user, and they answered with the retry that was stopped: what it asked and their answer are below, and the answer still holds`, answer: before.answer, ...(before.said ? { said: before.said } : {}) };
}

/**
 * A retry that carries the user's answer (`workflow retry --answer TEXT`, the app's answer box): the step hears it with
 * what happened before. Only a step that ran and stopped has something to answer (`retryOf` for it).
 */
export function withAnswer(r: RetryOf, answer: string): RetryOf {
  return { ...r, what: r.what === SAID_CANNOT || r.what === SAID_CANNOT_ANSWERED ? SAID_CANNOT_ANSWERED : r.what, answer };
}

/** The timeline entry's record of the user's answer a step runs with (its retry note's, where it is this step's). */
export function answeredWith(r: RetryOf | undefined, state: string): { answer?: string } {
  return r?.state === state && r.answer ? { answer: r.answer } : {};
}

/**
 * What a step run again after the run blocked at it hears about the attempt before. The run's error is the user's, with how
 * to go on ("retry it or skip it", command lines) that the model cannot follow: where the step's own entry says what happened
 * (it did not finish; its tests named no task), that is said instead. What the attempt wrote last comes along when its entry
 * kept it (`lastWords`): it may have said what it needs decided, and the user, who read it, ran the step again.
 */
export function retryOfBlock(timeline: RunRecord['timeline'], state: string, error: string): RetryOf {
  const last = timeline.findLast((e) => !e.rewound && e.leftAt);
  const own = last?.state === state ? last : undefined;
  // The run's error is cannotFinishMessage's when the model said it cannot finish (its last words may have lost that line).
  const said = own?.outcome === 'not-done' && (cannotFinish(own.lastWords?.text) !== undefined || error.startsWith(`The step ${humanState(state)} cannot finish:`));
  const what = said ? SAID_CANNOT : own?.outcome === 'not-done' ? NOT_DONE : own?.outcome === 'tests-untraced' && own.note ? `${own.note}, so the run stopped for the user` : error;
  return { state, what, ...(own?.lastWords ? { said: own.lastWords.text } : {}) };
}
