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
  /** The entry this call reran (prompt/call with library_id). */
  from: z.string().optional(),
});
export type LibraryEntry = z.infer<typeof LibraryEntry>;

const Rating = z.object({ v: z.literal(1), id: z.string(), rating: z.number().int().min(1).max(5), note: z.string().optional(), at: z.string() });
export type Rating = z.infer<typeof Rating>;

/** An entry with its latest rating, if it has one. */
export type RatedEntry = LibraryEntry & { rating?: number; note?: string };

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

  get ratingsFile(): string {
    return join(this.dir, 'ratings.jsonl');
  }

  /** Rates an entry 1–5 (the latest rating counts); append-only, so earlier ratings are kept. */
  async rate(id: string, rating: number, note?: string): Promise<RatedEntry> {
    const entry = await this.get(id);
    if (!entry) throw new Error(`no prompt-library entry ${JSON.stringify(id)}`);
    const r: Rating = Rating.parse({ v: 1, id, rating, ...(note ? { note } : {}), at: new Date().toISOString() });
    await mkdir(this.dir, { recursive: true });
    await appendFile(this.ratingsFile, JSON.stringify(r) + '\n');
    return { ...entry, rating: r.rating, ...(r.note ? { note: r.note } : {}) };
  }

  private async ratings(): Promise<Map<string, Rating>> {
    const out = new Map<string, Rating>();
    for (const line of (await readFile(this.ratingsFile, 'utf8').catch(() => '')).split('\n')) {
      if (!line.trim()) continue;
      try {
        const r = Rating.safeParse(JSON.parse(line));
        if (r.success) out.set(r.data.id, r.data);
      } catch {}
    }
    return out;
  }

  async add(e: Omit<LibraryEntry, 'v' | 'id' | 'at'>, now = new Date()): Promise<LibraryEntry> {
    const id = `${now.toISOString().replace(/[-:.]/g, '').replace('T', '-').slice(0, 15)}-${e.prompt_name.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 40)}-${randomBytes(3).toString('hex')}`;
    const entry: LibraryEntry = { v: 1, id, at: now.toISOString(), ...e };
    await mkdir(join(this.dir, 'entries'), { recursive: true });
    await writeJsonAtomic(this.entryFile(id), entry);
    await appendFile(this.indexFile, JSON.stringify(entry) + '\n');
    return entry;
  }

  /** Entries with their ratings, newest first; a torn or foreign line is skipped, never fatal. */
  async all(): Promise<RatedEntry[]> {
    const text = await readFile(this.indexFile, 'utf8').catch(() => '');
    const ratings = await this.ratings();
    const out: RatedEntry[] = [];
    for (const line of text.split('\n')) {
      if (!line.trim()) continue;
      try {
        const r = LibraryEntry.safeParse(JSON.parse(line));
        if (r.success) {
          const rating = ratings.get(r.data.id);
          out.push(rating ? { ...r.data, rating: rating.rating, ...(rating.note ? { note: rating.note } : {}) } : r.data);
        }
      } catch {}
    }
    return out.reverse();
  }

  /**
   * Case-insensitive search over the prompt name, arguments, filled prompt, answer and rating note
   * (all words must match); best rated first when asked, else newest first.
   */
  async search(o: { query?: string; prompt_name?: string; min_rating?: number; best_first?: boolean; limit?: number }): Promise<RatedEntry[]> {
    const words = (o.query ?? '').toLowerCase().split(/\s+/).filter(Boolean);
    const hits = (await this.all()).filter((e) => {
      if (o.prompt_name && e.prompt_name !== o.prompt_name) return false;
      if (o.min_rating !== undefined && (e.rating ?? 0) < o.min_rating) return false;
      const hay = [e.prompt_name, ...Object.values(e.arguments), e.prompt, e.content, e.note ?? ''].join('\n').toLowerCase();
      return words.every((w) => hay.includes(w));
    });
    if (o.best_first) hits.sort((a, b) => (b.rating ?? 0) - (a.rating ?? 0));
    return hits.slice(0, o.limit ?? 20);
  }

  async get(id: string): Promise<LibraryEntry | undefined> {
    const text = await readFile(this.entryFile(id), 'utf8').catch(() => undefined);
    if (text === undefined) return undefined;
    const r = LibraryEntry.safeParse(JSON.parse(text));
    return r.success ? r.data : undefined;
  }
}
