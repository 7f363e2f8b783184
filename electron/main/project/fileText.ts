import { open } from 'node:fs/promises';
import { isAbsolute } from 'node:path';

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
