// The git side of a parallel run: a worktree and a branch per component, under the repository's own
// .git (never in the project's tree, never under ERASMUS_HOME, which the sandbox hides), and the merge of
// each component's commit into the run's branch (a cherry-pick: one commit per component, in schedule order).
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, rmSync, writeFileSync } from 'node:fs';
import { mkdtemp, readFile, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crashPoint } from './crash-point';
import { git, gitPath, headCommit, identityArgs, uncommittedFiles } from './git';
import { removeRepositoryDeadLocks } from './git-locks';
import { removeStaleLock } from './merge-recovery';
import { clearCopies, commitFiles, putBack, restoreCopies, sameAsCommit, setAside } from './set-aside';

/** Where a run's worktrees live: `<git dir>/erasmus/worktrees/<run>/<component>`. */
export function worktreesDir(projectDir: string, runId: string): Promise<string> {
  return gitPath(projectDir, `erasmus/worktrees/${runId}`);
}

/** A component's branch in a parallel run (outside `erasmus/<goal>`, which the run's own branch may be). */
export function laneBranch(runId: string, component: string): string {
  return `erasmus-lane/${runId}/${component}`;
}

/** Hooks ran on the component's commit (through the runner, in the sandbox); the merge of that commit does not run them again, outside it. */
const NO_HOOKS = ['-c', 'core.hooksPath=/dev/null'];

/**
 * The worktree of a component, on its own branch from the run's branch as it is now (`HEAD`; an empty
 * commit nobody's branch holds when the run's branch has no commit yet). An existing one is kept (a resumed run).
 */
export function addLaneWorktree(projectDir: string, runId: string, component: string): Promise<{ worktree: string; branch: string }> {
  return oneWorktreeChangeAtATime(projectDir, () => addWorktree(projectDir, runId, component));
}

const changing = new Map<string, Promise<unknown>>();

/**
 * git's worktree commands are not safe side by side in one repository: an `add` writes the new worktree's
 * metadata while a `prune` or another `add` reads every worktree's (`failed to read .git/worktrees/a/commondir`).
 * Components starting or merging at once take turns here.
 */
function oneWorktreeChangeAtATime<T>(projectDir: string, change: () => Promise<T>): Promise<T> {
  const before = changing.get(projectDir) ?? Promise.resolve();
  const mine = before.then(change, change);
  const settled = mine.catch(() => undefined);
  changing.set(projectDir, settled);
  void settled.then(() => {
    if (changing.get(projectDir) === settled) changing.delete(projectDir);
  });
  return mine;
}

async function addWorktree(projectDir: string, runId: string, component: string): Promise<{ worktree: string; branch: string }> {
  const worktree = join(await worktreesDir(projectDir, runId), component);
  const branch = laneBranch(runId, component);
  // (git prints real paths: the project's may go through a symlink.)
  const there = await git(worktree, ['rev-parse', '--show-toplevel', '--absolute-git-dir']).catch(() => undefined);
  const [top, admin] = there?.code === 0 ? there.stdout.trim().split('\n') : [];
  if (top && top === (await realpath(worktree).catch(() => worktree))) {
    // git's own mark of an add that never finished (killed while it checked the files out): half a tree, its index
    // locked; no step ran there, so it is made again.
    const unfinished = admin && (await readFile(join(admin, 'locked'), 'utf8').catch(() => '')).trim() === 'initializing';
    if (!unfinished) return { worktree, branch };
    await git(projectDir, ['worktree', 'unlock', worktree]);
    await rm(worktree, { recursive: true, force: true });
  }
  await git(projectDir, ['worktree', 'prune']);
  const base = (await headCommit(projectDir)) ?? (await emptyCommit(projectDir));
  const add = () => git(projectDir, ['worktree', 'add', '-q', '-B', branch, worktree, base]);
  let r = await add();
  if (r.code !== 0) {
    // Killed sooner, before its folder was a worktree: still registered, locked "initializing" (prune keeps a locked
    // one), its folder missing or not a worktree yet (no step ran there): it goes. Or killed while it moved the
    // branch: the branch's lock is left.
    const unlocked = (await git(projectDir, ['worktree', 'unlock', worktree])).code === 0;
    if (unlocked) await rm(worktree, { recursive: true, force: true });
    const unblocked = await removeStaleLock(await gitPath(projectDir, `refs/heads/${branch}.lock`));
    if (unlocked || unblocked) {
      await git(projectDir, ['worktree', 'prune']);
      r = await add();
    }
  }
  if (r.code !== 0) throw new Error(`git worktree add for component ${component} failed: ${r.stdout.trim()}`);
  return { worktree, branch };
}

/** A commit of the empty tree, on no branch: the base of components that start before the run's branch has a commit (its plain subject teaches the commit style nothing: git.ts commitStyle). */
export async function emptyCommit(projectDir: string): Promise<string> {
  const tree = await git(projectDir, ['hash-object', '-t', 'tree', '-w', '/dev/null']);
  if (tree.code !== 0) throw new Error(`git hash-object failed: ${tree.stdout.trim()}`);
  const c = await git(projectDir, [...(await identityArgs(projectDir)), 'commit-tree', tree.stdout.trim(), '-m', 'Empty base of a parallel run']);
  if (c.code !== 0) throw new Error(`git commit-tree failed: ${c.stdout.trim()}`);
  return c.stdout.trim();
}

/** Removes a component's worktree and branch (merged, or left behind by a rewound attempt). */
export function removeLaneWorktree(projectDir: string, worktree: string | undefined, branch: string | undefined): Promise<void> {
  return oneWorktreeChangeAtATime(projectDir, async () => {
    if (worktree) {
      const r = await git(projectDir, ['worktree', 'remove', '--force', worktree]);
      if (r.code !== 0) await rm(worktree, { recursive: true, force: true });
    }
    await git(projectDir, ['worktree', 'prune']);
    if (branch) await git(projectDir, ['branch', '-q', '-D', branch]);
  });
}

/** Removes every worktree and branch of a run (what a rewound or abandoned attempt left). */
export function removeRunWorktrees(projectDir: string, runId: string): Promise<void> {
  return oneWorktreeChangeAtATime(projectDir, () => removeWorktreesOf(projectDir, runId));
}

async function removeWorktreesOf(projectDir: string, runId: string): Promise<void> {
  const dir = await worktreesDir(projectDir, runId);
  const real = await realpath(dir).catch(() => dir);
  const list = await git(projectDir, ['worktree', 'list', '--porcelain']);
  for (const line of list.stdout.split('\n')) {
    const path = line.startsWith('worktree ') ? line.slice('worktree '.length) : undefined;
    if (path?.startsWith(`${dir}/`) || path?.startsWith(`${real}/`)) await git(projectDir, ['worktree', 'remove', '--force', path]);
  }
  await rm(dir, { recursive: true, force: true });
  await git(projectDir, ['worktree', 'prune']);
  const branches = await git(projectDir, ['for-each-ref', '--format=%(refname:short)', `refs/heads/erasmus-lane/${runId}/`]);
  for (const b of branches.stdout.split('\n').filter(Boolean)) await git(projectDir, ['branch', '-q', '-D', b]);
}

/** A component's work that no branch of the project holds, kept when its run's worktrees went (`git log <ref>`). */
export interface KeptLane {
  component: string;
  ref: string;
  commit: string;
}

/** Where a lane's unmerged work is kept once its worktree and branch are gone (beside `refs/erasmus/rewound/`, out of `git branch`). */
export function keptRef(runId: string, component: string): string {
  return `refs/erasmus/kept/${runId}/${component}`;
}

/**
 * Removes a run that will not be driven again (abandoned, or left by a crash): every worktree and branch of
 * it goes, but nothing is lost in silence: a worktree's uncommitted files become a commit on top of its branch,
 * and a component's work that no other branch holds is kept under `keptRef` (returned, for the user to be told).
 */
export async function keepAndRemoveRunWorktrees(projectDir: string, runId: string, why: string): Promise<KeptLane[]> {
  const dir = await worktreesDir(projectDir, runId);
  const real = await realpath(dir).catch(() => dir);
  const tips = new Map<string, string>();
  const list = await git(projectDir, ['worktree', 'list', '--porcelain']);
  for (const block of list.stdout.split('\n\n')) {
    const path = /^worktree (.+)$/m.exec(block)?.[1];
    const head = /^HEAD ([0-9a-f]+)$/m.exec(block)?.[1];
    const under = path && [dir, real].map((d) => `${d}/`).find((d) => path.startsWith(d));
    if (!path || !head || !under) continue;
    const component = path.slice(under.length).split('/')[0]!;
    const snap = await snapshotWorktree(path, head, `Uncommitted work of component ${component} (run ${runId}, ${why})`);
    if (snap) tips.set(component, snap);
  }
  const prefix = `refs/heads/${laneBranch(runId, '')}`;
  const branches = await git(projectDir, ['for-each-ref', '--format=%(refname) %(objectname)', prefix]);
  for (const line of branches.stdout.split('\n').filter(Boolean)) {
    const [ref, sha] = line.split(' ');
    const component = ref!.slice(prefix.length);
    if (!tips.has(component)) tips.set(component, sha!);
  }
  const kept: KeptLane[] = [];
  for (const [component, commit] of tips) {
    const k = await keepLaneWork(projectDir, runId, component, commit, why).catch((err: Error) => {
      throw new Error(`${err.message}, so its worktree and branch were left as they are`);
    });
    if (k) kept.push(k);
  }
  await removeRunWorktrees(projectDir, runId);
  return kept;
}

/**
 * A component that reached its end with no commit to merge: work its worktree or branch still holds (files a commit
 * left out, a commit the run did not record) is kept under `keptRef` before the worktree goes; undefined when none.
 */
export async function keepLaneLeftovers(projectDir: string, runId: string, component: string, worktree: string | undefined): Promise<KeptLane | undefined> {
  if (!worktree) return undefined;
  const head = (await git(worktree, ['rev-parse', '-q', '--verify', 'HEAD'])).stdout.trim();
  if (!head) return undefined;
  const tip = (await snapshotWorktree(worktree, head, `Uncommitted work of component ${component} (run ${runId}, left when it ended without a commit)`)) ?? head;
  return keepLaneWork(projectDir, runId, component, tip, 'ended without a commit');
}

/** Keeps a component's commit under `keptRef` (or `-2`…) when it holds work no branch of the project holds; undefined when none does. */
export async function keepLaneWork(projectDir: string, runId: string, component: string, commit: string, why: string): Promise<KeptLane | undefined> {
  if (!(await holdsUnmergedWork(projectDir, commit))) return undefined;
  const ref = await freeRef(projectDir, keptRef(runId, component), commit);
  const r = await git(projectDir, ['update-ref', '-m', `erasmus: ${why}`, ref, commit]);
  if (r.code !== 0) throw new Error(`keeping the work of component ${component} under ${ref} failed: ${r.stdout.trim()}`);
  return { component, ref, commit };
}

/** `ref`, or `ref-2`, `ref-3`… when it holds another commit already (an earlier attempt's work, kept too). */
async function freeRef(projectDir: string, ref: string, commit: string): Promise<string> {
  for (let n = 1; ; n++) {
    const name = n === 1 ? ref : `${ref}-${n}`;
    const at = await git(projectDir, ['rev-parse', '-q', '--verify', name]);
    if (at.code !== 0 || at.stdout.trim() === commit) return name;
  }
}

/** The worktree's uncommitted files (tracked changes and untracked, not ignored ones) as a commit on top of `head`; undefined when it has none. */
async function snapshotWorktree(worktree: string, head: string, message: string): Promise<string | undefined> {
  const status = await git(worktree, ['status', '--porcelain']);
  if (status.code !== 0 || !status.stdout.trim()) return undefined;
  const tmp = await mkdtemp(join(tmpdir(), 'erasmus-lane-index-'));
  try {
    const env = { GIT_INDEX_FILE: join(tmp, 'index') };
    for (const args of [['read-tree', head], ['add', '-A']]) {
      const r = await git(worktree, args, env);
      if (r.code !== 0) throw new Error(`git ${args[0]} in ${worktree} failed: ${r.stdout.trim()}`);
    }
    const tree = (await git(worktree, ['write-tree'], env)).stdout.trim();
    const c = await git(worktree, [...(await identityArgs(worktree)), 'commit-tree', tree, '-p', head, '-m', message]);
    if (c.code !== 0) throw new Error(`git commit-tree in ${worktree} failed: ${c.stdout.trim()}`);
    return c.stdout.trim();
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}

/** Whether a commit holds work no branch of the project (but lanes) holds: more than the empty base of a run that started on no commit. */
async function holdsUnmergedWork(projectDir: string, commit: string): Promise<boolean> {
  const empty = (await git(projectDir, ['hash-object', '-t', 'tree', '/dev/null'])).stdout.trim();
  const r = await git(projectDir, ['log', '--format=%T %P', commit, '--not', '--exclude=erasmus-lane/*', '--branches']);
  if (r.code !== 0) return true; // unreadable: kept rather than lost
  return r.stdout.split('\n').filter(Boolean).some((l) => l.trim() !== empty);
}

/** `unsaid`: what the user must be told (their changes set aside could not be put back: in the stash). */
export type MergeResult = { kind: 'merged'; sha: string; unsaid?: string } | { kind: 'conflict'; files: string[] };

/** A merge of a component's commit stopped by conflicts is under way in the project (a crash during its merge step). */
export async function mergeUnderWay(projectDir: string): Promise<boolean> {
  return (await git(projectDir, ['rev-parse', '-q', '--verify', 'CHERRY_PICK_HEAD'])).code === 0;
}

/** Ends a cherry-pick git committed but did not finish (CHERRY_PICK_HEAD left): HEAD, the index and the files stay. */
export async function quitMerge(projectDir: string): Promise<void> {
  await removeRepositoryDeadLocks(projectDir);
  const r = await git(projectDir, ['cherry-pick', '--quit']);
  if (r.code !== 0) throw new Error(`ending the merge git left under way failed: ${r.stdout.trim()}; run \`git cherry-pick --quit\` in ${projectDir}, then retry`);
}

/** The files a stopped merge left unmerged (relative to the repository's top). */
export async function unmergedFiles(projectDir: string): Promise<string[]> {
  const r = await git(projectDir, ['diff', '--name-only', '--diff-filter=U']);
  return r.stdout.split('\n').filter(Boolean);
}

/**
 * Puts a component's commit on the run's branch: its changes as one commit with its message and author
 * (the branch's first commit when it has none yet). A conflict leaves the merge under way, with both
 * sides in the files, for a merge step.
 */
export async function mergeLaneCommit(projectDir: string, commit: string, userFiles: readonly string[] = []): Promise<MergeResult> {
  // A git killed mid-merge or mid-ref-update (with the run's process: resumed now) left its locks: no live git holds them
  // (git-locks.ts). The branch's ref lock too (`update-ref HEAD` below locks the branch HEAD names), and packed-refs.lock
  // (a ref deleted): with it left, the cherry-pick commits yet cannot remove its CHERRY_PICK_HEAD, and every later
  // `git commit --only` fails ("cannot do a partial commit during a cherry-pick").
  await removeRepositoryDeadLocks(projectDir);
  const id = await identityArgs(projectDir);
  if (!(await headCommit(projectDir))) {
    // The run's branch has no commit yet: the component's tree becomes its first commit.
    const tree = (await git(projectDir, ['rev-parse', `${commit}^{tree}`])).stdout.trim();
    const info = (await git(projectDir, ['log', '-1', '--format=%an%x00%ae%x00%aI%x00%B', commit])).stdout.split('\0');
    const env = { GIT_AUTHOR_NAME: info[0] ?? '', GIT_AUTHOR_EMAIL: info[1] ?? '', GIT_AUTHOR_DATE: info[2] ?? '' };
    const made = await git(projectDir, [...id, 'commit-tree', tree, '-m', (info[3] ?? '').trim() || 'component'], env);
    if (made.code !== 0) throw new Error(`git commit-tree failed: ${made.stdout.trim()}`);
    const sha = made.stdout.trim();
    // The files first, then the branch: a crash between the two leaves the branch without a commit, and the merge is
    // made again (HEAD moved first would say "merged" over a tree that lacks the component's files).
    const files = await git(projectDir, ['read-tree', '-u', '--reset', sha]);
    if (files.code !== 0) throw new Error(`git read-tree failed: ${files.stdout.trim()}`);
    crashPoint('merge:first-tree');
    const moved = await git(projectDir, ['update-ref', 'HEAD', sha]);
    if (moved.code !== 0) throw new Error(`git update-ref failed: ${moved.stdout.trim()}`);
    return { kind: 'merged', sha };
  }
  // Changes set aside by a merge a crash cut short (before it put them back) go back first: no merge is under way here.
  const leftAside = await putBack(projectDir);
  if (leftAside) throw new Error(`merging ${commit.slice(0, 8)} into the run's branch did not start: ${leftAside}, then retry.`);
  crashPoint('merge:git-writes-files', () => asIfGitWasKilledWritingTheFiles(projectDir, commit));
  const pick = () => git(projectDir, [...NO_HOOKS, ...id, 'cherry-pick', '--allow-empty', '--keep-redundant-commits', commit]);
  let r = await pick();
  if (r.code === 0) {
    crashPoint('merge:git-moved-head', () => execFileSync('git', ['update-ref', 'CHERRY_PICK_HEAD', commit], { cwd: projectDir, stdio: 'ignore' }));
    return { kind: 'merged', sha: (await headCommit(projectDir))! };
  }
  let files = await unmergedFiles(projectDir);
  // The user's uncommitted files in the way. One the component changes too blocks, unless its copy is byte for byte
  // what the merge writes (their change carried into a durable run's component: set-aside.ts sameAsCommit). The others
  // (git refuses a cherry-pick while the index holds staged changes, whatever their files) are set aside around it and
  // put back as they were.
  const dirty = !files.length && /would be overwritten by/.test(r.stdout) ? ((await uncommittedFiles(projectDir)) ?? []) : [];
  const changes = dirty.length ? new Set(await commitFiles(projectDir, commit)) : new Set<string>();
  const same = await sameAsCommit(projectDir, commit, dirty.filter((f) => changes.has(f)));
  const mine = dirty.filter((f) => !same.includes(f));
  const overlap = mine.filter((f) => changes.has(f));
  if (dirty.length && !overlap.length) {
    await git(projectDir, ['cherry-pick', '--abort']);
    const staged = (await git(projectDir, ['diff', '--cached', '--name-only', 'HEAD'])).stdout.split('\n').filter(Boolean);
    await clearCopies(projectDir, same);
    const aside = mine.length ? await setAside(projectDir) : false;
    crashPoint('merge:set-aside');
    r = await pick();
    files = r.code === 0 ? [] : await unmergedFiles(projectDir);
    // A conflict with nothing set aside goes to a merge step (the copies cleared are what the merge writes).
    if (files.length && !aside) return { kind: 'conflict', files };
    // Else not while the user's changes are set aside: back as they were, and it blocks.
    if (r.code !== 0) {
      await git(projectDir, ['cherry-pick', '--abort']);
      await restoreCopies(projectDir, commit, same, staged);
    }
    const unsaid = await putBack(projectDir);
    if (r.code === 0) return { kind: 'merged', sha: (await headCommit(projectDir))!, ...(unsaid ? { unsaid } : {}) };
    if (!aside) throw new Error(`merging ${commit.slice(0, 8)} into the run's branch failed: ${r.stdout.trim().slice(-1500)}`);
    const conflict = files.length ? `it conflicts with the run's branch in ${files.join(', ')}, which a merge step resolves` : r.stdout.trim().slice(-1500);
    const inIndex = staged.filter((f) => !same.includes(f));
    throw new Error(
      `merging ${commit.slice(0, 8)} into the run's branch failed: ${conflict}; yet git makes no merge while your uncommitted changes${inIndex.length ? ` (${inIndex.map((f) => `\`${f}\``).join(', ')} staged)` : ''} are in the index, and they were set aside and put back as they were${unsaid ? `, except that ${unsaid}` : ''}. Commit them, or stash them (git stash), then retry (git stash pop brings them back after the merge).`,
    );
  }
  if (!files.length) {
    await git(projectDir, ['cherry-pick', '--abort']);
    // Files of the user's own in the way (an unfinished merge's leftovers are taken back before: merge-recovery.ts).
    // Among them, files of the user's included uncommitted changes (`userFiles`): said as theirs, with the way round.
    const named = [...new Set([...r.stdout.split('\n').filter((l) => l.startsWith('\t')).map((l) => l.trim()), ...overlap])];
    const yours = named.filter((f) => userFiles.includes(f));
    const one = yours.length === 1;
    const inTheWay = !/would be overwritten by/.test(r.stdout)
      ? ''
      : yours.length
        ? ` ${yours.map((f) => `\`${f}\``).join(', ')} ${one ? 'holds' : 'hold'} your uncommitted changes (the run started with them included), and this component changed ${one ? 'it' : 'them'} too: commit ${one ? 'it' : 'them'}, or stash ${one ? 'it' : 'them'} (git stash), then retry (after the merge, git stash pop brings your changes back onto the component's).`
        : ` Files in the project folder that this merge writes hold changes that are not the run's (git names them above): commit, stash or move them, then retry.`;
    throw new Error(`merging ${commit.slice(0, 8)} into the run's branch failed: ${r.stdout.trim().slice(-1500)}${inTheWay}`);
  }
  return { kind: 'conflict', files };
}

/**
 * For a test (crash-point.ts): what git leaves when it is killed outright while it writes a merge's files: the files
 * written, the index, HEAD and the merge's state as they were, and its `index.lock` (the merge is made here on a
 * copy of the index, which then goes).
 */
function asIfGitWasKilledWritingTheFiles(projectDir: string, commit: string): void {
  const gitDir = execFileSync('git', ['rev-parse', '--absolute-git-dir'], { cwd: projectDir, encoding: 'utf8' }).trim();
  const index = join(gitDir, 'erasmus-crash-index');
  if (existsSync(join(gitDir, 'index'))) copyFileSync(join(gitDir, 'index'), index);
  execFileSync('git', [...NO_HOOKS, 'cherry-pick', '--no-commit', commit], { cwd: projectDir, env: { ...process.env, GIT_INDEX_FILE: index }, stdio: 'ignore' });
  for (const f of [index, 'MERGE_MSG', 'AUTO_MERGE', 'CHERRY_PICK_HEAD'].map((f) => join(gitDir, f))) rmSync(f, { force: true });
  writeFileSync(join(gitDir, 'index.lock'), '');
}

/** Both sides of a conflicted file: the run's branch (ours) and the component's (theirs); absent where that side deleted it. */
export async function conflictSides(projectDir: string, file: string): Promise<{ ours?: string; theirs?: string }> {
  const side = async (n: number) => {
    const r = await git(projectDir, ['show', `:${n}:${file}`]);
    return r.code === 0 ? r.stdout : undefined;
  };
  return { ours: await side(2), theirs: await side(3) };
}

const MARKER = /^(<{7}|>{7})( |$)/m;

/** The files that still hold conflict markers (or are gone: a deletion is a resolution too). */
export async function filesWithMarkers(projectDir: string, files: string[]): Promise<string[]> {
  const top = (await git(projectDir, ['rev-parse', '--show-toplevel'])).stdout.trim();
  const out: string[] = [];
  for (const f of files) {
    const text = await readFile(join(top, f), 'utf8').catch(() => '');
    if (MARKER.test(text)) out.push(f);
  }
  return out;
}

/** Commits a merge whose conflicts are resolved, with the component's message: its sha on the run's branch. */
export async function finishMerge(projectDir: string, files: string[]): Promise<string> {
  await removeRepositoryDeadLocks(projectDir);
  // No conflicted files (a merge that stopped after git wrote its result, before its commit: a crash): the index holds
  // the merge already; `git add -A` without paths would take the user's own files too.
  if (files.length) {
    const add = await git(projectDir, ['add', '-A', '--', ...files.map((f) => `:(top,literal)${f}`)]);
    if (add.code !== 0) throw new Error(`git add failed: ${add.stdout.trim()}`);
  }
  const r = await git(projectDir, [...NO_HOOKS, '-c', 'core.editor=true', ...(await identityArgs(projectDir)), 'cherry-pick', '--continue']);
  if (r.code !== 0) {
    // Resolved to the run's branch as it was: the component adds nothing more; an empty commit keeps one per component.
    const empty = await git(projectDir, [...NO_HOOKS, ...(await identityArgs(projectDir)), 'commit', '-q', '--allow-empty', '-C', 'CHERRY_PICK_HEAD']);
    if (empty.code !== 0) throw new Error(`committing the merge failed: ${r.stdout.trim().slice(-1500)}`);
    await git(projectDir, ['cherry-pick', '--quit']);
  }
  return (await headCommit(projectDir))!;
}
