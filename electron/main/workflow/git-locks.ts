// Git's lock files (index.lock, HEAD.lock, a branch's ref lock) left by a git that died mid-write block every later
// git that needs them ("Unable to create '…/index.lock': File exists"). Such a git may have died with an earlier Erasmus
// process, or on its own inside a long-running one (`erasmus serve` for days; its git child killed by the OOM killer or
// by the user). A lock is taken as dead when no live git may hold it: no process named git* works in the repository.
import { execFile } from 'node:child_process';
import { readdir, readFile, readlink, rm, stat } from 'node:fs/promises';
import { resolve, sep } from 'node:path';
import { promisify } from 'node:util';

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
 * Removes the locks among `locks` that no live git holds: each older than this process (no git of this process made it;
 * an earlier Erasmus process's, killed with it), or one that no git works on (gitRunsIn `dirs`, the repository's
 * folders) and older than `minAgeMs` (a younger one is waited for, then looked at again). A lock replaced meanwhile
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
      if (seen.mtimeMs < since) break;
      if (await gitRunsIn(roots)) return removed;
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
