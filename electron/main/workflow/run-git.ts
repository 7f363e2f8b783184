// A run's manners in the user's repository: its own branch, the user's uncommitted work left alone,
// commits holding only what the run's steps changed, in the repository's commit style, through the
// repository's own hooks (run by the same runner as the tests, so a refusal reaches the debugging step).
import { writeFile } from 'node:fs/promises';
import { crashPoint } from './crash-point';
import { removeRepositoryDeadLocks } from './git-locks';
import { WorkflowError } from './errors';
import { StepAbortedError } from './executor';
import {
  git,
  commitFiles,
  commitStyle,
  commitMessage,
  commitSubject,
  gitPaths,
  headCommit,
  identityArgs,
  isRepository,
  committablePaths,
  stagePaths,
  startRunBranch,
  stashAll,
  uncommittedFiles,
  nameStatus,
  type FileChange,
} from './git';
import type { RunRecord } from './run-record';
import type { TestRun, TestRunner } from './verify';

/** What to do with uncommitted changes found at start: commit them first, stash them, or work on top of them. */
export type DirtyTreeChoice = 'commit' | 'stash' | 'include';
export type BranchMode = 'branch' | 'current';

const sh = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;

/** Runs `git commit` with a message (and only these paths) through the runner, so the repository's hooks run where tests run. */
async function commitThroughRunner(dir: string, run: TestRunner, message: string, paths: string[] | undefined, signal?: AbortSignal): Promise<TestRun> {
  const [msgFile, list] = await gitPaths(dir, paths ? ['ERASMUS_COMMIT_MSG', 'ERASMUS_COMMIT_PATHS'] : ['ERASMUS_COMMIT_MSG']);
  await writeFile(msgFile!, `${message}\n`);
  const args = [...(await identityArgs(dir)), 'commit', '-q', '-F', msgFile!];
  if (paths && list) {
    await writeFile(list, paths.map((p) => `:(top,literal)${p}\n`).join(''));
    args.push('--only', `--pathspec-from-file=${list}`);
  }
  const r = await run(`git ${args.map(sh).join(' ')}`, dir, signal, { title: `commit: ${message.split('\n')[0]}` });
  return { ...r, command: 'git commit' };
}

/**
 * Where a new run stands in git: outside a repository, nowhere (undefined). In one with uncommitted
 * changes, the run is refused unless the user chose what to do with them: `commit` (one commit of
 * theirs first), `stash` (set aside, `git stash pop` brings them back) or `include` (left as they are
 * and never committed by the run).
 */
/** The files a new run would have to be told what to do with: uncommitted, but the project's own Erasmus settings (.erasmus/). */
async function dirtyFiles(dir: string): Promise<{ changed: string[]; dirty: string[] }> {
  const changed = (await uncommittedFiles(dir)) ?? [];
  // The project's own Erasmus settings (.erasmus/) are the user's, never the run's: left as they are, not a reason to refuse.
  return { changed, dirty: changed.filter((f) => !f.startsWith('.erasmus/')) };
}

/**
 * The refusal of a new run for uncommitted changes, `how` saying how to start again as the face asking can (the CLI
 * prints the whole commands to copy; the API's callers pass `dirtyTree`).
 */
export function dirtyRefusalMessage(dir: string, dirty: string[], how = 'start again with dirtyTree commit, stash or include, or commit or stash them yourself.'): string {
  const shown = `${dirty.slice(0, 8).join(', ')}${dirty.length > 8 ? `, and ${dirty.length - 8} more` : ''}`;
  return `${dir} has uncommitted changes (${shown}); a run would mix them with its own work. Nothing was started. Choose what happens to them: commit them first, stash them (git stash pop brings them back), or include them (left as they are and never committed by the run): ${how}`;
}

function dirtyRefusal(dir: string, dirty: string[]): WorkflowError {
  return new WorkflowError('INVALID_STATE', dirtyRefusalMessage(dir, dirty), { dirty });
}

/**
 * The refusal a new run would meet for uncommitted changes with no choice made, before anything else happens (the CLI
 * asks it before marking an unfinished run abandoned for the new one: refused after, the old run was lost for nothing).
 */
export async function refuseDirtyTree(dir: string, dirtyTree: DirtyTreeChoice | undefined): Promise<void> {
  if (dirtyTree !== undefined || !(await isRepository(dir))) return;
  const { dirty } = await dirtyFiles(dir);
  if (dirty.length) throw dirtyRefusal(dir, dirty);
}

export async function prepareGit(dir: string, o: { goal?: string; dirtyTree?: DirtyTreeChoice; branch?: BranchMode; runTests: TestRunner }): Promise<RunRecord['git']> {
  if (!(await isRepository(dir))) return undefined;
  const mode = o.branch ?? 'branch';
  const { changed, dirty } = await dirtyFiles(dir);
  const settings = changed.filter((f) => f.startsWith('.erasmus/'));
  if (!dirty.length) return { mode, ...(settings.length ? { userFiles: settings } : {}) };
  switch (o.dirtyTree) {
    case undefined:
      throw dirtyRefusal(dir, dirty);
    case 'include':
      return { mode, userFiles: changed };
    case 'stash': {
      const stashed = `erasmus: set aside before the run "${(o.goal ?? 'a run').slice(0, 80)}"`;
      await stashAll(dir, stashed);
      return { mode, stashed };
    }
    case 'commit': {
      await stagePaths(dir, dirty);
      const r = await commitThroughRunner(dir, o.runTests, commitSubject(await commitStyle(dir), 'save work in progress', 'chore'), undefined);
      if (!r.passed) throw new WorkflowError('RUNTIME_ERROR', `committing your changes failed (the repository's hooks may have refused them); nothing was started:\n${r.output.trim().slice(-2000)}\nFix it and start again, or choose --dirty stash or include.`);
      return { mode };
    }
  }
}

/**
 * When development starts: the run's own branch (mode `branch`), made once. A repository without a
 * commit yet (a fresh `git init`) has nothing to branch from or merge back into: its history starts on
 * the branch checked out, one commit per component, as the user will read it (mode `current`).
 */
export async function beginRunBranch(record: RunRecord): Promise<void> {
  const g = record.git;
  if (!g || g.mode !== 'branch' || g.branch) return;
  if (!(await headCommit(record.projectDir))) {
    g.mode = 'current';
    return;
  }
  const started = await startRunBranch(record.projectDir, record.goal);
  // A base set at load (the branch an unfinished earlier run started from) stays: the run is finished into it.
  Object.assign(g, { branch: started.branch, base: g.base ?? started.base });
}

/**
 * The branch a run started on an earlier run's own branch is finished into: that run's base (followed back), when that
 * run was never finished (abandoned for a new goal, blocked, or completed without squash or keep). Its commits come
 * along (a new goal builds on them); squashing into the earlier run's branch would leave them all off the user's branch.
 */
export function inheritedBase(records: readonly RunRecord[], branch: string | undefined): string | undefined {
  let base: string | undefined;
  const seen = new Set<string>();
  for (let b = branch; b && !seen.has(b); ) {
    seen.add(b);
    const earlier = records.find((r) => r.git?.mode === 'branch' && r.git.branch === b && !r.git.finished);
    if (!earlier?.git?.base) break;
    base = b = earlier.git.base;
  }
  return base;
}

type Entry = RunRecord['timeline'][number];

/** The outcomes of a commit step after which the work before it is committed (or was not to be). */
const COMMIT_ENDED: ReadonlySet<string> = new Set(['committed', 'nothing-to-commit', 'skipped']);

/**
 * The files a commit holds: those the steps since the previous commit changed (their timeline
 * entries record them), never the user's included files. Undefined when a step's files are unknown
 * (it was answered by another process): then every uncommitted file but the user's.
 */
export async function filesToCommit(record: RunRecord): Promise<string[]> {
  const { paths } = await stepPaths(record);
  const user = new Set(record.git?.userFiles ?? []);
  return committablePaths(record.projectDir, paths.filter((p) => !user.has(p) && !isProjectSettings(p)));
}

/**
 * The project's Erasmus settings (`.erasmus/`: servers, protocols, runner settings) are the user's: no step can write
 * them (the runners' gate), and what changes them during a run is the user's own answer (an allowed host added at a
 * network approval, in the app or the CLI). The run's commits leave them out; they stay uncommitted for the user.
 */
export const isProjectSettings = (path: string): boolean => path === '.erasmus' || path.startsWith('.erasmus/');

/**
 * The files of the user's own uncommitted changes (the run started with `dirtyTree: include`), which the run never
 * commits: every step is told to leave them alone (prompt.ts). `.erasmus/` settings are the user's too, but no step writes them.
 */
export function userChangedFiles(record: Pick<RunRecord, 'git'>): string[] {
  return (record.git?.userFiles ?? []).filter((f) => !f.startsWith('.erasmus/'));
}

/** The paths the steps since the last commit changed (`known`: from their timeline entries; else every uncommitted file). */
async function stepPaths(record: RunRecord): Promise<{ paths: string[]; known: boolean }> {
  const since: Entry[] = [];
  for (let i = record.timeline.length - 1; i >= 0; i--) {
    const e = record.timeline[i]!;
    // Back to the last commit step that ended: one refused by the hooks, interrupted or aborted committed nothing,
    // so the work before it is still to commit (else a crash or a refusal there left a component's files out).
    if (e.state.endsWith(':commit') && e.outcome && COMMIT_ENDED.has(e.outcome)) break;
    since.unshift(e);
  }
  const worked = since.filter((e) => e.outcome && e.outcome !== 'skipped' && !e.state.endsWith(':commit'));
  const known = worked.every((e) => e.files !== undefined);
  const paths = known ? worked.flatMap((e) => e.files!.map((f) => f.path)) : ((await uncommittedFiles(record.projectDir)) ?? []);
  return { paths: [...new Set(paths)], known };
}

/** `files`: what the commit holds (the pull request lists these, not what the steps were seen to change). */
export type CommitResult = ({ kind: 'committed'; sha: string; files: FileChange[] } | { kind: 'nothing-to-commit'; why: string } | { kind: 'refused'; test: TestRun }) & {
  /** Files of the user's own uncommitted changes the steps changed as well: left out of the commit, said in its step's note. */
  heldBack?: string[];
};

/** What a commit step's note says of the user's files the steps changed too (`heldBack`): not committed, and why. */
export function heldBackNote(files: readonly string[]): string {
  const list = files.map((f) => `\`${f}\``).join(', ');
  const one = files.length === 1;
  return `not committed: ${list} — ${one ? 'it holds' : 'they hold'} your uncommitted changes (the run started with them included), which Erasmus never commits; the steps' changes to ${one ? 'it' : 'them'} are in the project folder beside yours, uncommitted: commit ${one ? 'it' : 'them'} yourself`;
}

/** Commits the run's work since its last commit under `subject`, through the repository's hooks. */
/** A commit's title and type; `names` are names from the code (a component's id) that keep their case when the title begins with one. */
export type CommitWhat = { title: string; type: 'feat' | 'fix' | 'test' | 'docs'; names?: readonly string[] };

export const TEST_FILE = /(^|\/)(tests?|__tests__|spec|e2e)\/|[._-](test|spec)\.[a-z]+$/i;
const DOC_FILE = /(^|\/)docs?\/|\.(md|mdx|rst|txt|adoc)$/i;

/** What the final phase's commit says, from what it holds (tests, documentation, code) and which steps changed the code. */
export function finalCommitWhat(files: string[], timeline: ReadonlyArray<Pick<Entry, 'state' | 'files' | 'outcome' | 'rewound'>> = []): CommitWhat {
  const isCode = (f: string) => !TEST_FILE.test(f) && !DOC_FILE.test(f);
  const tests = files.some((f) => TEST_FILE.test(f));
  const docs = files.some((f) => !TEST_FILE.test(f) && DOC_FILE.test(f));
  if (files.some(isCode)) {
    // The code changed in debugging (the end-to-end tests failed) or in the final review's fixes; a commit of both says both.
    const live = timeline.filter((e) => !e.rewound);
    const debugging = ['final:debugging', 'final:redebugging'];
    const changed = (states: string[]) => live.some((e) => states.includes(e.state) && e.files?.some((f) => isCode(f.path)));
    // A step cut short (a crash, a stop) records no files, nor does its retry list the changes it was told are made: then
    // the steps that ran say which it was (played as the model: a fixes step killed after its edit was committed as
    // "fix what the end-to-end tests found", though no end-to-end test had failed).
    const ran = (states: string[]) => live.some((e) => states.includes(e.state) && e.outcome !== 'skipped');
    const known = changed(['final:fixes']) || changed(debugging);
    const reviewed = known ? changed(['final:fixes']) : ran(['final:fixes']);
    const debugged = (known ? changed(debugging) : ran(debugging)) || !reviewed;
    const fixed = reviewed && debugged ? 'fix what the end-to-end tests and the final review found' : reviewed ? "apply the final review's fixes" : 'fix what the end-to-end tests found';
    return { title: tests && reviewed && !debugged ? `add end-to-end tests and ${fixed}` : fixed, type: 'fix' };
  }
  if (tests) return { title: docs ? 'add end-to-end tests and update the documentation' : 'add end-to-end tests', type: 'test' };
  return { title: 'update the documentation', type: 'docs' };
}

export async function commitRunWork(record: RunRecord, state: string, what: (files: string[], changes: FileChange[]) => CommitWhat, run: TestRunner, persist: () => Promise<void>, signal?: AbortSignal): Promise<CommitResult> {
  const dir = record.projectDir;
  if (!record.git) return { kind: 'nothing-to-commit', why: 'the project is not a git repository' };
  const head = await headCommit(dir);
  // A crash after the commit and before the run file recorded it: HEAD moved since, so that commit is this one.
  const pending = record.git.pendingCommit;
  if (pending?.state === state && head && head !== pending.head) {
    record.git.pendingCommit = undefined;
    return { kind: 'committed', sha: head, files: await commitFiles(dir, head) };
  }
  // Locks a git killed mid-write left (a commit while the hooks ran, a merge's cherry-pick, a ref update or deletion):
  // no git holds them. Git (with an earlier Erasmus process, or on its own inside a long-running one: the OOM killer, a
  // user's kill) leaves them, and the commit fails on them until someone removes them (git-locks.ts).
  await removeRepositoryDeadLocks(dir);
  const { paths, known } = await stepPaths(record);
  const user = new Set(record.git.userFiles ?? []);
  const files = await committablePaths(dir, paths.filter((p) => !user.has(p) && !isProjectSettings(p)));
  // Known from the steps' entries only: every uncommitted file (steps of another process) would name all of the user's.
  const mine = new Set(userChangedFiles(record));
  const heldBack = known ? paths.filter((p) => mine.has(p)) : [];
  const kept = heldBack.length ? { heldBack } : {};
  if (!(await stagePaths(dir, files))) return { kind: 'nothing-to-commit', why: 'no changes', ...kept };
  record.git.pendingCommit = { state, head: head ?? null };
  await persist();
  crashPoint(`${state}:before`);
  // What the commit says it does comes from what it holds: a file listed that is committed already (a side-by-side run's
  // merge step resolved it) is not in it.
  const staged = await git(dir, ['diff', '--cached', '--name-status', '--no-renames', '-z', '--', ...files.map((f) => `:(top,literal)${f}`)]);
  const held: FileChange[] = staged.code === 0 ? nameStatus(staged.stdout) : files.map((path) => ({ path, change: 'modified' }));
  const w = what(held.map((f) => f.path), held);
  const style = await commitStyle(dir, held.map((f) => f.path));
  const r = await commitThroughRunner(dir, run, commitMessage(style, w.title, w.type, w.names), files, signal);
  crashPoint(`${state}:after`);
  // Stopped (or shut down) while git ran: not a refusal by the hooks. The commit may be made or not; the pending
  // commit stays, so the step run again tells them apart by HEAD, as after a crash.
  if (signal?.aborted) throw new StepAbortedError(state);
  record.git.pendingCommit = undefined;
  if (!r.passed) return { kind: 'refused', test: r, ...kept };
  return { kind: 'committed', sha: (await headCommit(dir)) ?? '', files: held, ...kept };
}
