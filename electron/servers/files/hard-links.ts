import type { Dirent, Stats } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';

/** The most entries a proof walks; a bigger root cannot show where a file's other links are. */
export const MAX_PROOF_ENTRIES = 100_000;

/**
 * Whether every name of a hard-linked file (regular file, more than one link) lies inside the root:
 * the root is walked (symlinks not followed) counting entries with the file's device and inode, and
 * the answer is yes only once as many were found as the file has links. A file with one link is
 * trivially inside. `cache` (one per call, e.g. a search) keeps the walk's counts for other files.
 */
export async function linksInsideRoot(root: string, st: Pick<Stats, 'dev' | 'ino' | 'nlink' | 'isFile'>, cache?: Map<string, number>, max = MAX_PROOF_ENTRIES): Promise<boolean> {
  if (!st.isFile() || st.nlink <= 1) return true;
  const key = `${st.dev}:${st.ino}`;
  const counts = cache?.size ? cache : await countLinked(root, max);
  if (cache && !cache.size) for (const [k, v] of counts) cache.set(k, v);
  return (counts.get(key) ?? 0) >= st.nlink;
}

/** Counts the root's regular files with more than one link by device:inode; a root over `max` entries gives an empty map (nothing shown). */
async function countLinked(root: string, max: number): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  let seen = 0;
  const stack = [root];
  while (stack.length) {
    const dir = stack.pop()!;
    let entries: Dirent[];
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      continue; // an unreadable folder shows nothing: its links are not counted
    }
    for (const e of entries) {
      if (++seen > max) return new Map([['incomplete', 0]]);
      const abs = join(dir, e.name);
      if (e.isDirectory()) stack.push(abs);
      else if (e.isFile()) {
        const s = await lstat(abs).catch(() => undefined);
        if (s && s.nlink > 1) counts.set(`${s.dev}:${s.ino}`, (counts.get(`${s.dev}:${s.ino}`) ?? 0) + 1);
      }
    }
  }
  counts.set('complete', 0);
  return counts;
}
