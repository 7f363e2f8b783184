// A finished run's way back into the user's history: squashed into the branch it started from, or kept on its
// own branch for a pull request, with a summary ready to paste. Nothing here runs a model or touches a step.
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { pullRequestBody, type EarlierWork } from '../../contract/pr-summary';
import { runReport } from '../../contract/run-report';
import type { Paths } from '../paths/index';
import { ContextDocs } from './documents';
import { invalidState, WorkflowError } from './errors';
import { commitStyle, commitSubject, currentBranch, git, gitPath, identityArgs, uncommittedFiles } from './git';
import type { RunRecord } from './run-record';
import { squashedSchedule } from './schedule-status';

export type FinishChoice = 'squash' | 'keep';

export interface PullRequest {
  title: string;
  body: string;
  /** Where it is saved (title as a heading, then the body), to copy from. */
  file: string;
}

export interface FinishOutcome {
  choice: FinishChoice;
  branch: string;
  base?: string;
  /** The squash commit on the base branch. */
  commit?: string;
  /** What happened and what the user may do next, in words. */
  message: string;
}

function firstLine(text: string | undefined): string {
  return (text ?? '').trim().split('\n')[0]!.trim().replace(/[.:;]+$/, '');
}

/** A title from a goal: its first clause (up to a colon or the end of a sentence), without a trailing parenthesis of file names. */
export function titleOfGoal(goal: string | undefined): string {
  const line = firstLine(goal);
  const clause = /^(.{12,}?)(?::\s|\.\s|;\s| — )/.exec(line)?.[1] ?? line;
  return clause.replace(/\s*\([^()]*\)\s*$/, '').trim() || line;
}

/** The pull request of a run: its title in the repository's commit style (a squash commit's subject), its body from the record. */
export async function pullRequestOf(paths: Paths, record: RunRecord): Promise<PullRequest> {
  const goal = titleOfGoal(record.goal) || 'Changes made by an Erasmus run';
  // The scope (where the repository's subjects name one) that fits the files the run changed.
  const files = [...new Set(record.timeline.flatMap((e) => (e.rewound ? [] : (e.files ?? []).map((f) => f.path))))];
  const style = await commitStyle(record.projectDir, files).catch(() => ({ conventional: false, lowerCase: false }));
  const title = commitSubject(style, goal.replace(/^(fix|feat)(\([^)]*\))?!?:\s*/i, ''), /^fix\b/i.test(goal) ? 'fix' : 'feat');
  return { title, body: pullRequestBody(record, runReport(record), await earlierWork(record)), file: paths.runPullRequest(record.projectDir, record.runId) };
}

/** The commits an unfinished earlier run left on the branch this run started on, not in the base: they come along. */
async function earlierWork(record: RunRecord): Promise<EarlierWork | undefined> {
  const from = record.git?.startedFrom;
  if (!from) return undefined;
  const dir = record.projectDir;
  const base = record.git?.base ? await rev(dir, `refs/heads/${record.git.base}`) : undefined;
  const log = await git(dir, ['log', '--reverse', '--format=%H%x09%s', base ? `${base}..${from.commit}` : from.commit]);
  if (log.code !== 0) return undefined;
  const commits = lines(log.stdout).map((l) => ({ sha: l.split('\t')[0]!, subject: l.split('\t').slice(1).join('\t') }));
  if (!commits.length) return undefined;
  const since = base ? (await git(dir, ['merge-base', base, from.commit])).stdout.trim() : '';
  const diff = since ? await git(dir, ['diff', '--name-only', '--no-renames', since, from.commit]) : await git(dir, ['show', '--name-only', '--format=', ...commits.map((c) => c.sha)]);
  return { branch: from.branch, ...(from.runId ? { runId: from.runId } : {}), commits, files: [...new Set(lines(diff.stdout))] };
}

/** Writes the run's pull request beside its run file (at completion, and again when asked for). */
export async function savePullRequest(paths: Paths, record: RunRecord): Promise<PullRequest> {
  const pr = await pullRequestOf(paths, record);
  await mkdir(dirname(pr.file), { recursive: true });
  await writeFile(pr.file, `# ${pr.title}\n\n${pr.body}`);
  return pr;
}

/** What a completed run can be offered: undefined when there is nothing to choose (no branch of its own, or chosen already). */
export function finishOffer(record: RunRecord): { branch: string; base?: string } | undefined {
  const g = record.git;
  if (record.status !== 'COMPLETED' || !g || g.mode !== 'branch' || !g.branch || g.finished) return undefined;
  return { branch: g.branch, ...(g.base ? { base: g.base } : {}) };
}

const rev = async (dir: string, ref: string): Promise<string | undefined> => {
  const r = await git(dir, ['rev-parse', '--verify', '-q', `${ref}^{commit}`]);
  return r.code === 0 ? r.stdout.trim() : undefined;
};
const lines = (text: string) => text.split('\n').map((l) => l.trim()).filter(Boolean);

/**
 * Ends a completed run's branch as the user chose. `keep`: the branch stays as it is, for a pull request.
 * `squash`: one commit on the branch the run started from, holding everything the run's branch changed (the
 * base's own later commits merged in when they do not conflict), then that branch is checked out; the run's
 * branch is kept with its commits. Refused, with nothing changed, when the base moved in a way that conflicts,
 * or when the user's uncommitted changes would be overwritten. The record is changed; the caller saves it.
 */
export async function finishRun(paths: Paths, record: RunRecord, choice: FinishChoice): Promise<FinishOutcome> {
  const dir = record.projectDir;
  const g = record.git;
  const finishCmd = (c: FinishChoice) => `erasmus workflow finish ${dir} --${c}`;
  if (record.status !== 'COMPLETED') throw invalidState(`run ${record.runId} is ${record.status.toLowerCase()}: only a completed run is merged or kept (resume it until it completes)`);
  if (!g) throw invalidState(`${dir} is not a git repository: the run's changes are in the folder, with nothing to merge`);
  if (g.finished) throw invalidState(`run ${record.runId} was finished already: ${g.finished.choice === 'squash' ? `squashed into ${g.base ?? 'its base'} as ${g.finished.commit?.slice(0, 10) ?? 'a commit'}` : `its branch ${g.branch} was kept`}`);
  if (g.mode !== 'branch' || !g.branch) {
    const on = g.base ?? (await currentBranch(dir));
    throw invalidState(`the run worked on the branch that was checked out${on ? ` (${on})` : ''}: its commits are there already, with nothing to merge`);
  }
  const branch = g.branch;
  const pr = await savePullRequest(paths, record);
  const tip = await rev(dir, `refs/heads/${branch}`);
  if (!tip) throw invalidState(`the run's branch ${branch} no longer exists: nothing to merge or keep`);
  if (choice === 'keep') {
    g.finished = { choice, at: new Date().toISOString() };
    const on = g.base ? ` (branched from ${g.base})` : '';
    const push = await pushFirst(dir, branch, g.base);
    const first = push?.missing ? `It is not on ${push.remote} yet: ${push.command}, then open` : push ? `${push.remote} has an older ${branch}: ${push.command}, then open` : 'Open';
    const carried = g.base ? await baseCarried(dir, g.base, branch) : '';
    return { choice, branch, ...(g.base ? { base: g.base } : {}), message: `Kept branch ${branch}${on}. ${first} a pull request from it with the summary in ${pr.file}${g.base ? `, or merge it later: git checkout ${g.base} && git merge --squash ${branch} && git commit` : ''}.${carried}${g.base ? ` It stays checked out: a new goal starts from it and is finished into it (git checkout ${g.base} first to start from ${g.base}).` : ''}` };
  }
  const baseName = g.base;
  if (!baseName) throw invalidState(`the run started from a detached HEAD: there is no branch to merge ${branch} into. Keep it (${finishCmd('keep')}) and merge it where you want it.`);
  const base = await rev(dir, `refs/heads/${baseName}`);
  // A run started in a repository without commits: its base branch was never born; the squash commit is its first.
  // (Known by the root of the run's branch being a commit the run made.)
  const runCommits = new Set(record.timeline.flatMap((e) => (e.commit ? [e.commit] : [])));
  const unborn = !base && lines((await git(dir, ['rev-list', '--max-parents=0', tip])).stdout).every((root) => runCommits.has(root));
  if (!base && !unborn) throw invalidState(`branch ${baseName}, where the run started, no longer exists. Nothing was changed: the run's work stays on ${branch}; keep it (${finishCmd('keep')}).`);
  const mergeBase = base ? (await git(dir, ['merge-base', base, tip])).stdout.trim() : '';
  if (mergeBase === tip) throw invalidState(`${branch} has no commit that ${baseName} lacks: nothing to merge. Keep it (${finishCmd('keep')}) or delete it (git branch -D ${branch}).`);
  const subjects = lines((await git(dir, ['log', '--reverse', '--format=%s', base ? `${mergeBase}..${tip}` : tip])).stdout);
  let tree: string;
  if (!base || mergeBase === base) tree = (await git(dir, ['rev-parse', `${tip}^{tree}`])).stdout.trim();
  else {
    // The base moved since the run started: its commits and the run's are merged in memory first; the work tree is untouched.
    const m = await git(dir, ['merge-tree', '--write-tree', '--name-only', '--no-messages', base, tip]);
    const [first, ...rest] = lines(m.stdout);
    if (m.code === 1) {
      const moved = lines((await git(dir, ['log', '--format=%h', `${mergeBase}..${base}`])).stdout).length;
      throw new WorkflowError(
        'INVALID_STATE',
        `${baseName} moved since the run started (${moved} new commit${moved === 1 ? '' : 's'}), and ${moved === 1 ? 'it conflicts' : 'they conflict'} with the run's changes in ${[...new Set(rest)].join(', ') || 'some files'}. Nothing was changed: the run's work stays on ${branch}. Bring ${baseName} in and resolve the conflicts (git checkout ${branch} && git merge ${baseName}), then finish again; or keep the branch (${finishCmd('keep')}).`,
      );
    }
    if (m.code !== 0 || !first) throw new WorkflowError('RUNTIME_ERROR', `git merge-tree failed: ${m.stdout.trim().slice(0, 2000)}. Nothing was changed: the run's work stays on ${branch}.`);
    tree = first;
  }
  // A squash that would change nothing (the base holds the run's work already) is never made: no empty commit.
  if (base && tree === (await git(dir, ['rev-parse', `${base}^{tree}`])).stdout.trim()) {
    throw invalidState(`${baseName} holds everything ${branch} changes already: nothing to squash, nothing was changed. Keep the branch (${finishCmd('keep')}) or delete it (git branch -D ${branch}).`);
  }
  // The user's uncommitted files (included at start) stay as they are: refused if checking the base out would overwrite one.
  const head = await rev(dir, 'HEAD');
  const changedByCheckout = head ? lines((await git(dir, ['diff', '--name-only', head, tree])).stdout) : [];
  const mine = new Set((await uncommittedFiles(dir)) ?? []);
  const clash = changedByCheckout.filter((f) => mine.has(f));
  if (clash.length) {
    throw invalidState(`your uncommitted changes to ${clash.join(', ')} would be overwritten when ${baseName} is checked out. Nothing was changed: commit or stash them, then finish again; or keep the branch (${finishCmd('keep')}).`);
  }
  const goal = record.goal?.trim();
  // The goal in full below a title that says less (a goal of several lines, or one shortened to fit a subject).
  const said = goal && !pr.title.toLowerCase().includes(goal.replace(/\.$/, '').toLowerCase());
  const message = [pr.title, '', ...(said ? [goal, ''] : []), `Squashed from ${branch}:`, ...subjects.map((s) => `- ${s}`)].join('\n');
  const msgFile = await gitPath(dir, 'ERASMUS_SQUASH_MSG');
  await writeFile(msgFile, `${message}\n`);
  const made = await git(dir, [...(await identityArgs(dir)), 'commit-tree', tree, ...(base ? ['-p', base] : []), '-F', msgFile]);
  if (made.code !== 0) throw new WorkflowError('RUNTIME_ERROR', `git commit-tree failed: ${made.stdout.trim()}. Nothing was changed.`);
  const commit = made.stdout.trim();
  // Moved only from where it was read: a commit made on the base meanwhile refuses the update (nothing lost).
  const moved = await git(dir, ['update-ref', '-m', `erasmus: squash ${branch}`, `refs/heads/${baseName}`, commit, base ?? '0'.repeat(40)]);
  if (moved.code !== 0) throw invalidState(`${baseName} changed while merging (${moved.stdout.trim()}). Nothing was changed: finish again.`);
  g.finished = { choice, commit, at: new Date().toISOString() };
  // The progress schedule names the squash commit where it named the run's commits (which the user's branch lacks).
  const squashed = lines((await git(dir, ['rev-list', base ? `${mergeBase}..${tip}` : tip])).stdout);
  const schedule = new ContextDocs(paths, dir);
  const unsaid = await schedule.update({ doc: 'progress_schedule' }, (text) => text && squashedSchedule(text, squashed, commit, baseName)).then(
    () => '',
    (err: unknown) => ` The progress schedule still names the run's commits: it could not be rewritten (${(err as Error).message}); ${schedule.path({ doc: 'progress_schedule' })} is yours to correct.`,
  );
  const out: FinishOutcome = { choice, branch, base: baseName, commit, message: '' };
  const checkedOut = (await currentBranch(dir)) === baseName || (await git(dir, ['checkout', '-q', baseName])).code === 0;
  const stash = g.stashed ? ` Your changes set aside at start are in the stash ("${g.stashed}"): git stash pop brings them back.` : '';
  const remote = await squashedOnOrigin(dir, branch, tip, !!record.durable);
  out.message = `Squashed ${subjects.length} commit${subjects.length === 1 ? '' : 's'} of ${branch} into ${baseName} as ${commit.slice(0, 10)} "${pr.title}"${checkedOut ? `; ${baseName} is checked out` : `; ${baseName} could not be checked out (git checkout ${baseName})`}. Branch ${branch} keeps the run's own commits (delete it: git branch -D ${branch}).${remote.said}${await notPushed(dir, baseName, remote.deleted)}${stash}${unsaid}`;
  return out;
}

/**
 * Said when a kept branch is not on the project's remote yet, or the remote has an older one (a pull request is
 * opened from a pushed branch): the push command, to the remote the branch tracks, else the one the base branch
 * tracks, else origin, else the only remote. Whether it is there is read from the remote's branch as this repository
 * last saw it (a run that pushed its branch updated it), not from an upstream setting, which such a push does not make.
 */
async function pushFirst(dir: string, branch: string, base: string | undefined): Promise<{ remote: string; command: string; missing: boolean } | undefined> {
  const remotes = lines((await git(dir, ['remote'])).stdout);
  const up = await git(dir, ['rev-parse', '--abbrev-ref', `${branch}@{upstream}`]);
  const upstream = up.code === 0 ? up.stdout.trim() : '';
  const tracked = upstream ? upstream.slice(0, upstream.indexOf('/')) : base ? (await git(dir, ['config', '--get', `branch.${base}.remote`])).stdout.trim() : '';
  const remote = remotes.includes(tracked) ? tracked : remotes.includes('origin') ? 'origin' : remotes.length === 1 ? remotes[0]! : '';
  if (!remote) return undefined;
  const there = await rev(dir, `refs/remotes/${upstream || `${remote}/${branch}`}`);
  if (!there) return { remote, command: `git push -u ${remote} ${branch}`, missing: true };
  const ahead = Number((await git(dir, ['rev-list', '--count', `${there}..refs/heads/${branch}`])).stdout.trim()) || 0;
  return ahead ? { remote, command: `git push ${remote} ${branch}`, missing: false } : undefined;
}

/**
 * Said when the base branch has commits its remote lacks and the kept branch holds them too (an earlier run squashed
 * into it and not pushed): a pull request from the branch would carry them.
 */
async function baseCarried(dir: string, base: string, branch: string): Promise<string> {
  const up = await git(dir, ['rev-parse', '--abbrev-ref', `${base}@{upstream}`]);
  const remote = up.code === 0 ? up.stdout.trim() : (await rev(dir, `refs/remotes/origin/${base}`)) ? `origin/${base}` : '';
  if (!remote) return '';
  const shared = (await git(dir, ['merge-base', `refs/heads/${base}`, `refs/heads/${branch}`])).stdout.trim();
  const n = shared ? Number((await git(dir, ['rev-list', '--count', `refs/remotes/${remote}..${shared}`])).stdout.trim()) || 0 : 0;
  if (!n) return '';
  const [name, ...rest] = remote.split('/');
  const its = n === 1 ? 'it' : 'them';
  return ` ${base} has ${n} commit${n === 1 ? '' : 's'} not on ${remote} yet, which ${branch} holds too: push ${base} first (git push ${name} ${rest.join('/') === base ? base : `${base}:${rest.join('/')}`}), or the pull request carries ${its}.`;
}

/**
 * The run's branch on origin once squashed. A durable run pushed it there at completion (for its workers, which work
 * from origin): Erasmus's own copy, deleted as a merged pull request's branch is, when origin's still holds exactly
 * what the run pushed (a lease: nothing someone pushed since is lost). The commits stay on the local branch, and the
 * message says how to put it back. A branch the user pushed, or one that moved on origin, is kept, and said why.
 */
async function squashedOnOrigin(dir: string, branch: string, tip: string, pushedByRun: boolean): Promise<{ said: string; deleted: boolean }> {
  const kept = (why: string) => ({ said: ` ${why}: delete it there once you no longer need it (git push origin --delete ${branch}).`, deleted: false });
  if (!pushedByRun) return (await rev(dir, `refs/remotes/origin/${branch}`)) ? kept(`origin has ${branch} too (pushed from here, not by the run), so it was kept`) : { said: '', deleted: false };
  const listed = await git(dir, ['ls-remote', '--heads', 'origin', `refs/heads/${branch}`]);
  if (listed.code !== 0) return kept(`Whether origin still has ${branch}, which the run pushed for its workers, could not be read (${firstLine(listed.stdout)})`);
  const there = listed.stdout.trim().split(/\s/)[0];
  if (!there) return { said: '', deleted: false };
  if (there !== tip) return kept(`origin's ${branch} is not the one the run pushed (someone pushed to it since), so it was kept`);
  const gone = await git(dir, ['push', '-q', `--force-with-lease=refs/heads/${branch}:${tip}`, 'origin', '--delete', branch]);
  if (gone.code !== 0) return kept(`origin's ${branch}, which the run pushed for its workers, could not be deleted (${firstLine(gone.stdout)})`);
  return { said: ` Its copy on origin, which the run pushed for its workers, was deleted, as a merged branch is (git push origin ${branch} puts it back).`, deleted: true };
}

/** Said after a squash into a branch that has a remote: nothing (else) was pushed, and how far ahead the branch is now. */
async function notPushed(dir: string, branch: string, elsePushed = false): Promise<string> {
  const up = await git(dir, ['rev-parse', '--abbrev-ref', `${branch}@{upstream}`]);
  const remote = up.code === 0 ? up.stdout.trim() : (await git(dir, ['show-ref', '--verify', '-q', `refs/remotes/origin/${branch}`])).code === 0 ? `origin/${branch}` : '';
  if (!remote) return '';
  const ahead = Number((await git(dir, ['rev-list', '--count', `${remote}..${branch}`])).stdout.trim()) || 0;
  if (!ahead) return '';
  const [name, ...rest] = remote.split('/');
  return ` Nothing${elsePushed ? ' else' : ''} was pushed: ${branch} is ${ahead} commit${ahead === 1 ? '' : 's'} ahead of ${remote} (git push ${name} ${rest.join('/') === branch ? branch : `${branch}:${rest.join('/')}`} when you choose).`;
}
