import { randomBytes } from 'node:crypto';
import { appendFile, mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { writeJsonAtomic } from '../../main/common/fs';

export const PromptUsage = z.object({ prompt_tokens: z.number(), completion_tokens: z.number(), total_tokens: z.number() });
export type PromptUsage = z.infer<typeof PromptUsage>;

export const LibraryEntry = z.object({
  v: z.literal(1),
  id: z.string(),
  at: z.string(),
  prompt_name: z.string(),
  arguments: z.record(z.string(), z.string()),
  /** The filled prompt, as sent to the model. */
  prompt: z.string(),
  content: z.string(),
  model: z.string(),
  usage: PromptUsage,
  durationMs: z.number(),
});
export type LibraryEntry = z.infer<typeof LibraryEntry>;

/**
 * Every `prompt/call` kept under ERASMUS_HOME/prompt-library: one JSON file per call (entries/<id>.json)
 * and an append-only index.jsonl to search, so good prompts can be found and reused.
 */
export class PromptLibrary {
  constructor(readonly dir: string) {}

  get indexFile(): string {
    return join(this.dir, 'index.jsonl');
  }

  entryFile(id: string): string {
    if (!/^[A-Za-z0-9._-]{1,128}$/.test(id)) throw new Error(`invalid prompt-library id: ${JSON.stringify(id)}`);
    return join(this.dir, 'entries', `${id}.json`);
  }

  async add(e: Omit<LibraryEntry, 'v' | 'id' | 'at'>, now = new Date()): Promise<LibraryEntry> {
    const id = `${now.toISOString().replace(/[-:.]/g, '').replace('T', '-').slice(0, 15)}-${e.prompt_name.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 40)}-${randomBytes(3).toString('hex')}`;
    const entry: LibraryEntry = { v: 1, id, at: now.toISOString(), ...e };
    await mkdir(join(this.dir, 'entries'), { recursive: true });
    await writeJsonAtomic(this.entryFile(id), entry);
    await appendFile(this.indexFile, JSON.stringify(entry) + '\n');
    return entry;
  }

  /** Entries, newest first; a torn or foreign line is skipped, never fatal. */
  async all(): Promise<LibraryEntry[]> {
    const text = await readFile(this.indexFile, 'utf8').catch(() => '');
    const out: LibraryEntry[] = [];
    for (const line of text.split('\n')) {
      if (!line.trim()) continue;
      try {
        const r = LibraryEntry.safeParse(JSON.parse(line));
        if (r.success) out.push(r.data);
      } catch {}
    }
    return out.reverse();
  }

  /** Case-insensitive search over the prompt name, arguments, filled prompt and answer (all words must match). */
  async search(o: { query?: string; prompt_name?: string; limit?: number }): Promise<LibraryEntry[]> {
    const words = (o.query ?? '').toLowerCase().split(/\s+/).filter(Boolean);
    const hits = (await this.all()).filter((e) => {
      if (o.prompt_name && e.prompt_name !== o.prompt_name) return false;
      const hay = [e.prompt_name, ...Object.values(e.arguments), e.prompt, e.content].join('\n').toLowerCase();
      return words.every((w) => hay.includes(w));
    });
    return hits.slice(0, o.limit ?? 20);
  }

  async get(id: string): Promise<LibraryEntry | undefined> {
    const text = await readFile(this.entryFile(id), 'utf8').catch(() => undefined);
    if (text === undefined) return undefined;
    const r = LibraryEntry.safeParse(JSON.parse(text));
    return r.success ? r.data : undefined;
  }
}
