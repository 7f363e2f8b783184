import { readFile } from 'node:fs/promises';
import { parse } from 'yaml';
import { z } from 'zod';
import { DEFAULT_RETENTION, type Retention } from './store';

/** config.yaml's `checkpoints:` section: how long and how much a project's checkpoints are kept. */
export const CheckpointSettings = z
  .object({
    /** Days a checkpoint is kept (default 30). */
    keepDays: z.number().positive().optional(),
    /** The most a project's checkpoints may take on disk, in MB (default 2048). */
    maxSizeMb: z.number().positive().optional(),
  })
  .strict();

/** The retention config.yaml asks for (defaults: 30 days, 2 GB per project); a bad section is an error naming the key. */
export async function loadRetention(configYaml: string): Promise<Retention> {
  const text = await readFile(configYaml, 'utf8').catch(() => '');
  const raw = ((text ? parse(text) : undefined) ?? {}) as { checkpoints?: unknown };
  if (raw.checkpoints === undefined || raw.checkpoints === null) return DEFAULT_RETENTION;
  const r = CheckpointSettings.safeParse(raw.checkpoints);
  if (!r.success) throw new Error(`${configYaml}: checkpoints: ${r.error.issues.map((i) => `${i.path.join('.') || '(section)'}: ${i.message}`).join('; ')}`);
  return { maxAgeDays: r.data.keepDays ?? DEFAULT_RETENTION.maxAgeDays, maxBytes: r.data.maxSizeMb !== undefined ? r.data.maxSizeMb * 1024 * 1024 : DEFAULT_RETENTION.maxBytes };
}
