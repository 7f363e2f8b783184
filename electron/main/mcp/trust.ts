import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { writeJsonAtomic } from '../common/fs';

const TrustFile = z.object({ trusted: z.record(z.string(), z.object({ name: z.string(), command: z.string(), args: z.array(z.string()), at: z.string() })) });
type TrustFile = z.infer<typeof TrustFile>;

/** The hash that trust is remembered by: command and args exactly (a change needs new trust). */
export function trustHash(command: string, args: string[]): string {
  return createHash('sha256').update(JSON.stringify([command, ...args])).digest('hex');
}

/** Remembers which third-party server commands the user trusted (ERASMUS_HOME/mcp/trust.json). */
export class TrustStore {
  constructor(private readonly file: string) {}

  private async read(): Promise<TrustFile> {
    try {
      const r = TrustFile.safeParse(JSON.parse(await readFile(this.file, 'utf8')));
      if (r.success) return r.data;
      throw new Error(`${this.file} is not a trust file: ${r.error.issues[0]?.message}`);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { trusted: {} };
      throw err;
    }
  }

  async isTrusted(command: string, args: string[]): Promise<boolean> {
    return trustHash(command, args) in (await this.read()).trusted;
  }

  async trust(name: string, command: string, args: string[]): Promise<void> {
    const data = await this.read();
    data.trusted[trustHash(command, args)] = { name, command, args, at: new Date().toISOString() };
    await writeJsonAtomic(this.file, data);
  }

  async revoke(command: string, args: string[]): Promise<boolean> {
    const data = await this.read();
    const h = trustHash(command, args);
    if (!(h in data.trusted)) return false;
    delete data.trusted[h];
    await writeJsonAtomic(this.file, data);
    return true;
  }
}
