// Git's lock files (index.lock, HEAD.lock, a branch's ref lock) left by a git that died mid-write block every later
// git that needs them ("Unable to create '…/index.lock': File exists"). Such a git may have died with an earlier Erasmus
// process, or on its own inside a long-running one (`erasmus serve` for days; its git child killed by the OOM killer or
// by the user). A lock is taken as dead when no live git may hold it: no process named git* works in the repository.
import { execFile } from 'node:child_process';
import { readdir, readFile, readlink, rm, stat } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';
import { promisify } from 'node:util';
import { guardGitPointers } from '../runners/pty/git-guard';

/**
 * How old a lock must be before it is taken as dead when no git is seen holding it: a git this process cannot see (in
 * another PID namespace, a container sharing the folder) finishes a quick write within it. A younger one is waited for.
 */
export const DEAD_LOCK_MS = 2000;

/**
 * Whether a live git process may hold a lock of the repository in `dirs` (its working folder, its git folders): a process
 * named git* whose working folder is one of them or inside one (Linux, from /proc; git's `-C` changes its folder first).
 * One whose folder cannot be read counts; where there is no /proc, any process named git* does (`ps`).
 */
export async function gitRunsIn(dirs: string[]): Promise<boolean> {
  const inside = (cwd: string) => dirs.some((d) => cwd === d || cwd.startsWith(d.endsWith(sep) ? d : `${d}${sep}`));
  const pids = await readdir('/proc').catch(() => undefined);
  if (!pids) {
    const ps = await promisify(execFile)('ps', ['-A', '-o', 'comm=']).catch(() => undefined);
    return !ps || ps.stdout.split('\n').some((l) => /^(.*\/)?git/.test(l.trim()));
  }
  for (const pid of pids) {
    if (!/^\d+$/.test(pid) || Number(pid) === process.pid) continue;
    const comm = await readFile(`/proc/${pid}/comm`, 'utf8').catch(() => '');
    if (!comm.startsWith('git')) continue;
    const cwd = await readlink(`/proc/${pid}/cwd`).catch((err: NodeJS.ErrnoException) => (err.code === 'ENOENT' ? null : undefined));
    if (cwd === null) continue; // ended meanwhile
    if (cwd === undefined || inside(cwd)) return true;
  }
  return false;
}

/**
 * Removes the locks among `locks` that no live git holds: none while a git works in the repository (gitRunsIn `dirs`,
 * the repository's folders); then each older than this process (no git of this process made it; an earlier Erasmus
 * process's, killed with it), or older than `minAgeMs` (a younger one is waited for, then looked at again). A lock replaced meanwhile
 * (another file) stays. Returns the locks removed.
 */
export async function removeDeadLocks(locks: string[], dirs: string[], o: { minAgeMs?: number; since?: number } = {}): Promise<string[]> {
  const minAgeMs = o.minAgeMs ?? DEAD_LOCK_MS;
  const since = o.since ?? performance.timeOrigin;
  const found = (await Promise.all(locks.map(async (lock) => ({ lock, at: await stat(lock).catch(() => undefined) })))).filter((l) => l.at);
  if (!found.length) return [];
  const roots = dirs.map((d) => resolve(d));
  const removed: string[] = [];
  for (const { lock, at } of found) {
    let seen = at!;
    for (;;) {
      // A live git working in the repository may hold it, whatever its age: a user's own `git commit` left open in an
      // editor holds index.lock from before this process began.
      if (await gitRunsIn(roots)) return removed;
      if (seen.mtimeMs < since) break;
      const age = Date.now() - seen.mtimeMs;
      if (age >= minAgeMs) break;
      await new Promise((r) => setTimeout(r, minAgeMs - age));
      const now = await stat(lock).catch(() => undefined);
      if (!now) break;
      seen = now;
    }
    // The very file looked at (a git that took the lock since made another one).
    const now = await stat(lock).catch(() => undefined);
    if (!now || now.ino !== seen.ino || now.mtimeMs !== seen.mtimeMs) continue;
    await rm(lock, { force: true });
    removed.push(lock);
  }
  return removed;
}

/** Each repository's git folders (by working folder: asked of git once). */
const gitDirs = new Map<string, Promise<{ own: string; common: string }>>();

function foldersOf(dir: string): Promise<{ own: string; common: string }> {
  let known = gitDirs.get(dir);
  if (!known) {
    guardGitPointers(); // Erasmus's own git, unsandboxed (git-guard.ts)
    known = promisify(execFile)('git', ['rev-parse', '--absolute-git-dir', '--git-common-dir'], { cwd: dir }).then(({ stdout }) => {
      const [own, common] = stdout.trim().split('\n').map((l) => l.trim());
      return { own: own!, common: resolve(dir, common!) };
    });
    known.catch(() => gitDirs.delete(dir));
    gitDirs.set(dir, known);
  }
  return known;
}

/** The `*.lock` files under `folder` (recursively: a ref's lock lives beside the ref, refs/heads/<branch>.lock). */
async function locksUnder(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { withFileTypes: true }).catch(() => []);
  const out: string[] = [];
  for (const e of entries) {
    const path = join(folder, e.name);
    if (e.isDirectory()) out.push(...(await locksUnder(path)));
    else if (e.name.endsWith('.lock')) out.push(path);
  }
  return out;
}

/**
 * The lock files a git killed mid-write may have left in the repository of working folder `dir`: its git folder's
 * own (index.lock, HEAD.lock, CHERRY_PICK_HEAD.lock…), the common folder's (packed-refs.lock, taken to delete any ref:
 * a cherry-pick's CHERRY_PICK_HEAD, a branch) and every ref's (refs/heads/<branch>.lock, a lane's ref). Those no live git
 * holds are removed (removeDeadLocks); returns them.
 */
export async function removeRepositoryDeadLocks(dir: string): Promise<string[]> {
  const folders = await foldersOf(dir).catch(() => undefined);
  if (!folders) return [];
  const { own, common } = folders;
  const top = async (folder: string) => (await readdir(folder).catch(() => [] as string[])).filter((n) => n.endsWith('.lock')).map((n) => join(folder, n));
  const locks = [...new Set([...(await top(own)), ...(await top(common)), ...(await locksUnder(join(common, 'refs')))])];
  if (!locks.length) return [];
  return removeDeadLocks(locks, [dir, own, common]);
}
