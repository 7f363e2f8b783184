import { randomBytes } from 'node:crypto';
import { mkdir, rename, writeFile, open } from 'node:fs/promises';
import { dirname } from 'node:path';

/**
 * Writes a file atomically: the data goes to a temporary sibling, is flushed, then renamed over
 * the target. A crash leaves either the old file or the new one, never half of either.
 */
export async function writeFileAtomic(path: string, data: string | Uint8Array, mode?: number): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  // `mode` (e.g. 0o600 for a secret) holds from the file's creation on, so it is never readable by others meanwhile.
  const fh = await open(tmp, 'w', mode);
  try {
    await fh.writeFile(data);
    await fh.sync();
  } finally {
    await fh.close();
  }
  await rename(tmp, path);
}

export async function writeJsonAtomic(path: string, value: unknown): Promise<void> {
  await writeFileAtomic(path, JSON.stringify(value, null, 2) + '\n');
}

export async function ensureDir(path: string): Promise<void> {
  await mkdir(path, { recursive: true });
}

export { writeFile };
