// The user's uncommitted changes set aside around a component's merge (a cherry-pick), when they are in its way
// without touching what it changes: git refuses a cherry-pick while the index holds staged changes, whatever their
// files. Set aside with `git stash` under a message of Erasmus's, and put back with their staging as it was.
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { git } from './git';

/** The message of a stash Erasmus made around a merge (a crash between the two leaves it: put back on the next merge). */
export const SET_ASIDE = 'erasmus: your uncommitted changes, set aside while a component was merged';

/** The files a commit changes (both sides of a rename), relative to the repository's top. */
export async function commitFiles(dir: string, commit: string): Promise<string[]> {
  const parent = await git(dir, ['rev-parse', '-q', '--verify', `${commit}^`]);
  const r = parent.code === 0 ? await git(dir, ['diff', '--name-only', '--no-renames', parent.stdout.trim(), commit]) : await git(dir, ['show', '--name-only', '--no-renames', '--format=', commit]);
  return r.stdout.split('\n').filter(Boolean);
}

/** Sets the tracked uncommitted changes aside (staged and not); untracked files stay. False when git made no stash. */
export async function setAside(dir: string): Promise<boolean> {
  const r = await git(dir, ['stash', 'push', '--message', SET_ASIDE]);
  return r.code === 0 && (await setAsideOnTop(dir));
}

/** Whether the newest stash is one Erasmus made around a merge. */
export async function setAsideOnTop(dir: string): Promise<boolean> {
  const r = await git(dir, ['stash', 'list', '-n', '1', '--format=%gs']);
  return r.code === 0 && r.stdout.trim().endsWith(SET_ASIDE);
}

/**
 * Puts the changes set aside back, staged as they were (else unstaged); undefined when done, else what to tell the
 * user (the stash stays: nothing is lost).
 */
export async function putBack(dir: string): Promise<string | undefined> {
  if (!(await setAsideOnTop(dir))) return undefined;
  if ((await git(dir, ['stash', 'pop', '--index', '-q'])).code === 0) return undefined;
  if ((await git(dir, ['stash', 'pop', '-q'])).code === 0) return undefined;
  return `your uncommitted changes, set aside while the component was merged, could not be put back: they are in the stash ("${SET_ASIDE}"): git stash pop brings them back`;
}

/** A path's object id in a commit (`<commit>:<path>`); undefined where the commit has no such file. */
async function blobAt(dir: string, rev: string, path: string): Promise<string | undefined> {
  const r = await git(dir, ['rev-parse', '-q', '--verify', `${rev}:${path}`]);
  return r.code === 0 ? r.stdout.trim() : undefined;
}

/**
 * Of the user's uncommitted files the component's commit changes, those whose copy in the project folder is byte for
 * byte what the merge writes (the commit's version, on a branch whose version is the one the commit started from):
 * their change made the same, or carried into a durable run's component. They are not in the merge's way.
 */
export async function sameAsCommit(dir: string, commit: string, paths: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (const path of paths) {
    const theirs = await blobAt(dir, commit, path);
    if ((await blobAt(dir, 'HEAD', path)) !== (await blobAt(dir, `${commit}^`, path))) continue;
    const here = await git(dir, ['hash-object', '--', path]);
    const mine = here.code === 0 ? here.stdout.trim() : undefined;
    if (mine === theirs) out.push(path);
  }
  return out;
}

/** Takes the user's copies of `paths` (as the commit has them) out of the merge's way: their index entry as HEAD's, their file as HEAD's (or gone). */
export async function clearCopies(dir: string, paths: readonly string[]): Promise<void> {
  if (!paths.length) return;
  await git(dir, ['reset', '-q', '--', ...paths.map((p) => `:(top,literal)${p}`)]);
  for (const path of paths) {
    if (await blobAt(dir, 'HEAD', path)) await git(dir, ['checkout', '-q', 'HEAD', '--', `:(top,literal)${path}`]);
    else await rm(join(dir, path), { force: true });
  }
}

/**
 * Writes the user's copies back (the commit's version of each, its bytes and mode as git has them: a binary file
 * too; `staged`: those that were in the index stay there, the others' index entries go back to HEAD's).
 */
export async function restoreCopies(dir: string, commit: string, paths: readonly string[], staged: readonly string[]): Promise<void> {
  const there: string[] = [];
  for (const path of paths) {
    if (await blobAt(dir, commit, path)) there.push(path);
    else await rm(join(dir, path), { force: true });
  }
  const spec = (ps: readonly string[]) => ps.map((p) => `:(top,literal)${p}`);
  if (there.length) await git(dir, ['checkout', '-q', commit, '--', ...spec(there)]);
  const unstaged = there.filter((p) => !staged.includes(p));
  if (unstaged.length) await git(dir, ['reset', '-q', '--', ...spec(unstaged)]);
  const again = paths.filter((p) => staged.includes(p) && !there.includes(p));
  if (again.length) await git(dir, ['add', '-A', '--', ...spec(again)]);
}
