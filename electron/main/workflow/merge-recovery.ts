// A merge of a component's commit that git did not finish: its process was killed while it wrote the merge's files
// (a crash of the run, `kill -9` of its process group, a Ctrl-C). git writes the files first and its index last, so
// it leaves the files it wrote, the index as it was, no CHERRY_PICK_HEAD, HEAD where it was, and, killed outright,
// its `index.lock`. Made again as is, the merge stops at "Another git process seems to be running" or at "would be
// overwritten by merge". Before the merge is made again, what git left is taken back; nothing else is touched.
import { lstat, rm, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { git, gitPath } from './git';

/**
 * Takes back what an unfinished merge of `commit` into the project's HEAD left: an `index.lock` older than `since`
 * (the time this process started: no git of ours holds it) goes; each file the merge changes that holds what the
 * merge writes there (in the working tree, the index, or both, the other side as HEAD has it) is put back as HEAD
 * has it, for the merge to write it again. A file that holds anything else is the user's and stays as it is (the
 * merge then names it). Returns the files put back.
 */
export async function undoUnfinishedMerge(projectDir: string, commit: string, since: number): Promise<string[]> {
  await removeStaleLock(await gitPath(projectDir, 'index.lock'), since);
  const top = (await git(projectDir, ['rev-parse', '--show-toplevel'])).stdout.trim();
  const changed = await git(top, ['diff-tree', '-r', '-z', '--name-only', '--no-renames', '--no-commit-id', '--root', commit]);
  const paths = changed.stdout.split('\0').filter(Boolean);
  if (changed.code !== 0 || !paths.length) return [];
  const dirty = await dirtyPaths(top, paths);
  if (!dirty.length) return [];
  // (A commit without a parent: the empty tree is its other side.)
  const parent = (await git(top, ['rev-parse', '-q', '--verify', `${commit}^`])).stdout.trim() || (await git(top, ['hash-object', '-t', 'tree', '/dev/null'])).stdout.trim();
  const [head, base, theirs, index, worktree] = await Promise.all([
    blobs(top, 'HEAD', dirty),
    blobs(top, parent, dirty),
    blobs(top, commit, dirty),
    indexBlobs(top, dirty),
    worktreeBlobs(top, dirty),
  ]);
  const back: string[] = [];
  for (const p of dirty) {
    // Where HEAD has the file as the component started from, the merge writes the component's version; elsewhere
    // it merges both (a content it is not known here to write: such a file is left, and the merge names it).
    if (head.get(p) !== base.get(p)) continue;
    const ours = [head.get(p), theirs.get(p)];
    if (ours.includes(index.get(p)) && ours.includes(worktree.get(p))) back.push(p);
  }
  if (!back.length) return [];
  const inHead = back.filter((p) => head.get(p));
  if (inHead.length) {
    const r = await git(top, ['checkout', 'HEAD', '--', ...inHead.map(literal)]);
    if (r.code !== 0) throw new Error(`putting back the files an unfinished merge wrote failed: ${r.stdout.trim()}`);
  }
  const added = back.filter((p) => !head.get(p));
  if (added.length) {
    const r = await git(top, ['rm', '-q', '--cached', '--ignore-unmatch', '--', ...added.map(literal)]);
    if (r.code !== 0) throw new Error(`putting back the files an unfinished merge wrote failed: ${r.stdout.trim()}`);
    for (const p of added) await unlink(join(top, p)).catch(() => undefined);
  }
  return back;
}

/** Removes a git lock file made before `since` (when this process started: no git of ours holds it); true when one went. */
export async function removeStaleLock(lock: string, since = performance.timeOrigin): Promise<boolean> {
  const locked = await stat(lock).catch(() => undefined);
  if (!locked || locked.mtimeMs >= since) return false;
  await rm(lock, { force: true });
  return true;
}

const literal = (p: string) => `:(top,literal)${p}`;

/** Of `paths`, those whose index or working tree differs from HEAD (untracked ones included). */
async function dirtyPaths(top: string, paths: string[]): Promise<string[]> {
  const r = await git(top, ['status', '--porcelain', '-z', '--untracked-files=all', '--no-renames', '--', ...paths.map(literal)]);
  return r.stdout
    .split('\0')
    .filter(Boolean)
    .map((l) => l.slice(3));
}

/** Each path's blob from git's `<mode> … <blob> …\t<path>` lines (-z), the blob being the `field`-th word before the tab. */
function blobsOf(stdout: string, field: number): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of stdout.split('\0').filter(Boolean)) {
    const tab = line.indexOf('\t');
    out.set(line.slice(tab + 1), line.slice(0, tab).split(' ')[field]!);
  }
  return out;
}

/** Each path's blob in `tree` (absent: not there). */
async function blobs(top: string, tree: string, paths: string[]): Promise<Map<string, string>> {
  return blobsOf((await git(top, ['ls-tree', '-r', '-z', '--full-tree', tree, '--', ...paths])).stdout, 2);
}

/** Each path's blob in the index (stage 0; absent: not there). */
async function indexBlobs(top: string, paths: string[]): Promise<Map<string, string>> {
  return blobsOf((await git(top, ['ls-files', '-s', '-z', '--', ...paths.map(literal)])).stdout, 1);
}

/** Each path's content in the working tree as a blob id (absent: no file there; anything but a file matches no blob). */
async function worktreeBlobs(top: string, paths: string[]): Promise<Map<string, string>> {
  const present: string[] = [];
  const out = new Map<string, string>();
  for (const p of paths) {
    const s = await lstat(join(top, p)).catch(() => undefined);
    if (s?.isFile()) present.push(p);
    else if (s) out.set(p, 'not a file');
  }
  if (!present.length) return out;
  const r = await git(top, ['hash-object', '--', ...present]);
  if (r.code !== 0) return out;
  r.stdout
    .split('\n')
    .filter(Boolean)
    .forEach((sha, i) => out.set(present[i]!, sha));
  return out;
}
