import { constants } from 'node:fs';
import { open, readlink, realpath, type FileHandle } from 'node:fs/promises';
import { relative, sep } from 'node:path';
import { linksInsideRoot } from './hard-links';
import { ScopeError, type Scope } from './scope';

/** Why a hard-linked file is not read (its other names may be a file outside the root, e.g. a secret). */
export function hardLinkReadRefusal(shown: string, nlink: number): string {
  return `${shown} has ${nlink} hard links and not all of them are inside the root folder (it is also a file elsewhere, maybe outside the project); the files server does not read through such a hard link. Copy the file into the project under its own name (cp, not ln) if it is meant to be read`;
}

/**
 * Opens files so that a path checked by the scope cannot be swapped between the check and the
 * open: the last component is opened with O_NOFOLLOW, and the descriptor's real path (from
 * /proc/self/fd on Linux, else realpath) must still lie inside the root. Writes refuse a file with
 * more than one hard link (it is also a file somewhere else, perhaps outside the root); reads refuse
 * one unless all its links are found inside the root (hard-links.ts).
 */
async function realPathOf(fh: FileHandle, abs: string): Promise<string> {
  if (process.platform === 'linux') {
    try {
      return await readlink(`/proc/self/fd/${fh.fd}`);
    } catch {
      // fall through
    }
  }
  return realpath(abs);
}

async function checked(scope: Scope, abs: string, flags: number, forWrite: boolean): Promise<FileHandle> {
  let fh: FileHandle;
  try {
    fh = await open(abs, flags | constants.O_NOFOLLOW, 0o644);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ELOOP') throw new ScopeError(`${scope.show(abs)} is a symlink; the files server does not follow a symlink it opens`);
    throw err;
  }
  try {
    const real = await realPathOf(fh, abs);
    if (!scope.contains(real)) throw new ScopeError(`${scope.show(abs)} leads outside the root folder ${scope.root}`);
    const st = await fh.stat();
    if (forWrite && st.isFile() && st.nlink > 1) throw new ScopeError(`${scope.show(abs)} has ${st.nlink} hard links (it is also a file elsewhere, maybe outside the root); the files server does not write through hard links`);
    if (!forWrite && !(await linksInsideRoot(scope.root, st))) throw new ScopeError(hardLinkReadRefusal(scope.show(abs), st.nlink));

    return fh;
  } catch (err) {
    await fh.close();
    throw err;
  }
}

export async function readInside(scope: Scope, abs: string): Promise<string> {
  const fh = await checked(scope, abs, constants.O_RDONLY, false);
  try {
    return await fh.readFile('utf8');
  } finally {
    await fh.close();
  }
}

/** Writes (replacing) or appends; the file is truncated only after the checks passed. */
export async function writeInside(scope: Scope, abs: string, content: string, mode: 'replace' | 'append'): Promise<void> {
  const fh = await checked(scope, abs, constants.O_WRONLY | constants.O_CREAT | (mode === 'append' ? constants.O_APPEND : 0), true);
  try {
    if (mode === 'replace') await fh.truncate(0);
    await fh.writeFile(content);
  } finally {
    await fh.close();
  }
}

/** Places whose content runs programs or changes Erasmus later (hooks, git/editor/CI config). */
const SENSITIVE = ['.git', '.erasmus', '.vscode', '.github', '.envrc', '.husky', '.idea'];

/** The sensitive place a path falls in (e.g. `.git`), or null. */
export function sensitivePlace(scope: Scope, abs: string): string | null {
  const rel = relative(scope.root, abs);
  const first = rel.split(sep)[0] ?? '';
  return SENSITIVE.includes(first) ? first : null;
}
