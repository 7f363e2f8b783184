import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { writeFileAtomic } from '../common/fs';

/** A token `erasmus serve` accepts from ERASMUS_SERVE_TOKEN or its saved address. */
export const SERVE_TOKEN = /^[A-Za-z0-9_-]{24,}$/;

const SavedAddress = z.object({ port: z.number().int().min(1).max(65535), token: z.string().regex(SERVE_TOKEN) });
export type SavedAddress = z.infer<typeof SavedAddress>;

/**
 * The address the last `erasmus serve` of this ERASMUS_HOME served (`Paths.serveAddress`), or undefined when there
 * is none or it cannot be read (a new one is made then): a restart serves it again, so the pages open on it reconnect.
 */
export async function readServeAddress(file: string): Promise<SavedAddress | undefined> {
  try {
    const parsed = SavedAddress.safeParse(JSON.parse(await readFile(file, 'utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** Saves the address served now; only its owner may read it (it holds the token). */
export async function saveServeAddress(file: string, address: SavedAddress): Promise<void> {
  await writeFileAtomic(file, JSON.stringify(address) + '\n', 0o600);
}
