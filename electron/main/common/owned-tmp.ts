import { lstatSync, mkdtempSync, readdirSync, readlinkSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { processAlive, processStart } from './process-alive';

const OWN_START = processStart(process.pid);
/** This process's pid namespace (Linux: the number in /proc/self/ns/pid's `pid:[N]`); undefined elsewhere. */
const OWN_NS = ((): string | undefined => {
  try {
    return /^pid:\[(\d+)\]$/.exec(readlinkSync('/proc/self/ns/pid'))?.[1];
  } catch {
    return undefined;
  }
})();
/**
 * `erasmus-<kind>-p<pid>-<start>-n<pid namespace>-XXXXXX` (`x`: start unknown on this system; no `-n…` where the namespace
 * is not known, and in folders made before it was named).
 */
const OWNED = /^erasmus-([a-z]+)-p(\d+)-(\d+|x)(?:-n(\d+))?-[A-Za-z0-9]{6}$/;
const sweeps = new Map<string, Promise<string[]>>();

/**
 * A fresh temporary folder under `base` named by the process that owns it (its pid and start), so that one a process
 * left when it was killed (SIGKILL, a crash: nothing removed it) can be told from a live process's. The first one this
 * process makes under a base removes, in the background, those whose owner is gone (`sweptLeftovers`).
 */
export function ownedTmpDir(base: string, kind: string): string {
  if (!sweeps.has(base)) sweeps.set(base, removeLeftovers(base));
  return mkdtempSync(join(base, `erasmus-${kind}-p${process.pid}-${OWN_START ?? 'x'}${OWN_NS ? `-n${OWN_NS}` : ''}-`));
}

/** What the sweep under `base` removed (after the first `ownedTmpDir` there; nothing before). */
export function sweptLeftovers(base: string): Promise<string[]> {
  return sweeps.get(base) ?? Promise.resolve([]);
}

/**
 * Removes the owned folders under `base` whose owner is no longer alive: this user's only (another's are not ours to
 * judge), made in this pid namespace (another's pids cannot be checked from here), never this process's nor a live one's. A pid alive under another start is another process: its owner is gone.
 */
async function removeLeftovers(base: string): Promise<string[]> {
  const uid = process.getuid?.();
  let names: string[];
  try {
    names = readdirSync(base);
  } catch {
    return [];
  }
  const gone: string[] = [];
  for (const name of names) {
    const m = OWNED.exec(name);
    if (!m) continue;
    // Made in another pid namespace (a container sharing this /tmp): its owner's pid means nothing here, alive or not.
    if (m[4] && m[4] !== OWN_NS) continue;
    const pid = Number(m[2]);
    const start = m[3] === 'x' ? undefined : m[3];
    if (processAlive(pid, start)) continue; // this process's own too
    const dir = join(base, name);
    try {
      const st = lstatSync(dir);
      if (!st.isDirectory() || (uid !== undefined && st.uid !== uid)) continue;
      await rm(dir, { recursive: true, force: true });
      gone.push(dir);
    } catch {
      // Removed meanwhile by another process's sweep, or not ours to remove: left as it is.
    }
  }
  return gone;
}
