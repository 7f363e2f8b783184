// The user's uncommitted changes set aside around a component's merge (a cherry-pick), when they are in its way
// without touching what it changes: git refuses a cherry-pick while the index holds staged changes, whatever their
// files. Set aside with `git stash` under a message of Erasmus's, and put back with their staging as it was.
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
