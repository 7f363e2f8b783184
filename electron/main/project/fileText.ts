import { open, realpath } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';

/** The most a preview reads: a larger file is summarised, not diffed. */
export const FILE_TEXT_LIMIT = 512 * 1024;

export type FileText = { exists: boolean; text: string | null; reason?: string };

/**
 * A file's current text, for the diff an overwrite approval shows: absent (a new file), text, or null
 * with the reason (binary, too large, not a file). Reads at most FILE_TEXT_LIMIT + 1 bytes.
 */
export async function readFileText(path: string): Promise<FileText> {
  if (!isAbsolute(path)) throw new Error(`"${path}" is not an absolute path; give the file's full path`);
  let handle;
  try {
    handle = await open(path, 'r');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { exists: false, text: null };
    throw new Error(`cannot read ${path}: ${(err as Error).message}`);
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) return { exists: true, text: null, reason: 'not a regular file' };
    if (info.size > FILE_TEXT_LIMIT) return { exists: true, text: null, reason: `${Math.round(info.size / 1024)} kB, too large to compare` };
    const buf = Buffer.alloc(info.size);
    const { bytesRead } = await handle.read(buf, 0, info.size, 0);
    const data = buf.subarray(0, bytesRead);
    if (data.includes(0)) return { exists: true, text: null, reason: 'a binary file' };
    return { exists: true, text: data.toString('utf8') };
  } finally {
    await handle.close();
  }
}

/** The real path of `path`, or of its nearest existing parent joined with the rest (a new file). */
async function realOrParent(path: string): Promise<string> {
  const rest: string[] = [];
  let cur = resolve(path);
  for (;;) {
    try {
      return join(await realpath(cur), ...rest.reverse());
    } catch {
      const parent = dirname(cur);
      if (parent === cur) return resolve(path);
      rest.push(basename(cur));
      cur = parent;
    }
  }
}

const within = (root: string, path: string) => {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
};

/**
 * Which files `project.fileText` may read: those inside the open project (after symlinks), and the
 * files named by approvals still waiting for the user. Anything else is refused with the reason.
 */
export class FileTextScope {
  private project: string | undefined;
  private readonly pending = new Map<string, string>();

  setProject(dir: string): void {
    this.project = dir;
  }

  /** An approval waiting for the user names this file (its preview diffs against it). */
  addPending(requestId: string, path: string): void {
    if (isAbsolute(path)) this.pending.set(requestId, resolve(path));
  }

  removePending(requestId: string): void {
    this.pending.delete(requestId);
  }

  async check(path: string): Promise<void> {
    if (!isAbsolute(path)) throw new Error(`"${path}" is not an absolute path; give the file's full path`);
    const real = await realOrParent(path);
    for (const named of this.pending.values()) {
      if (named === resolve(path) && (await realOrParent(named)) === real) return;
    }
    if (this.project && within(await realOrParent(this.project), real)) return;
    throw new Error(
      `${path} is outside the open project${this.project ? ` (${this.project})` : ' (none is open)'} and no waiting approval names it; only those files can be read`,
    );
  }
}
