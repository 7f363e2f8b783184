// A worker step's session log, shipped to the run's home: the worker reads what its session appended since the last
// piece (whole lines only; its redactor masked them as they were written, so nothing unmasked leaves the worker) and
// publishes it over the bridge; the run writes each piece at its place in a log of the same name under its own
// ERASMUS_HOME/sessions, so the app and `erasmus sessions` read a worker's step as any other. A piece written twice
// (a replay, a look after a resume) lands on the same bytes: nothing is doubled.
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { mkdir, open } from 'node:fs/promises';
import { dirname } from 'node:path';
import { z } from 'zod';

/** A piece of a worker session's log: its text from byte `from` on (whole lines). */
export const StepLog = z.object({ sessionId: z.string().regex(/^[A-Za-z0-9._-]{1,128}$/), from: z.number().int().nonnegative(), text: z.string() });
export type StepLog = z.infer<typeof StepLog>;

/** The part of the log at `path` after byte `from` that ends in a newline (a torn last line waits for the next piece). */
export function logPiece(path: string, from: number): { text: string; to: number } | undefined {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return undefined;
  }
  try {
    const size = fstatSync(fd).size;
    if (size <= from) return undefined;
    const buf = Buffer.alloc(size - from);
    const n = readSync(fd, buf, 0, buf.length, from);
    const end = buf.subarray(0, n).lastIndexOf(0x0a) + 1;
    return end ? { text: buf.subarray(0, end).toString('utf8'), to: from + end } : undefined;
  } finally {
    closeSync(fd);
  }
}

/**
 * Writes a piece at its place in `file` (made if need be), which the run's home reads as a session log. A piece past
 * the file's end (one before it never came) is not written: the log never holds a gap. Returns whether it was.
 */
export async function keepLogPiece(file: string, piece: StepLog): Promise<boolean> {
  await mkdir(dirname(file), { recursive: true });
  await (await open(file, 'a', 0o600)).close();
  const h = await open(file, 'r+');
  try {
    if ((await h.stat()).size < piece.from) return false;
    const text = Buffer.from(piece.text, 'utf8');
    await h.write(text, 0, text.length, piece.from);
    return true;
  } finally {
    await h.close();
  }
}
