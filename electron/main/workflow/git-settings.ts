import { readFile } from 'node:fs/promises';
import { parse } from 'yaml';
import { z } from 'zod';

/** config.yaml's `git:` section: how a run behaves in the user's repository. */
export const GitSettings = z
  .object({
    /** `own` (default): a run works on a branch of its own, `erasmus/<goal>`; `current`: on the branch checked out. */
    branch: z.enum(['own', 'current']).optional(),
    /** Commit review reports in `docs/reviews/` even in an existing code base without a docs folder (default: kept with the context documents). */
    commitReviews: z.boolean().optional(),
  })
  .strict();
export type GitSettings = z.infer<typeof GitSettings>;

/** The `git:` section of config.yaml (absent: the defaults); a bad section is an error naming the key and the values it takes. */
export async function loadGitSettings(configYaml: string): Promise<GitSettings> {
  const text = await readFile(configYaml, 'utf8').catch(() => '');
  let raw: { git?: unknown };
  try {
    raw = ((text ? parse(text) : undefined) ?? {}) as { git?: unknown };
  } catch (err) {
    throw new Error(`${configYaml} is not valid YAML: ${(err as Error).message}`);
  }
  if (raw.git === undefined || raw.git === null) return {};
  const r = GitSettings.safeParse(raw.git);
  if (!r.success) throw new Error(`${configYaml}: git: ${r.error.issues.map((i) => `${i.path.join('.') || '(section)'}: ${i.message}`).join('; ')} (git takes branch: own | current, commitReviews: true | false)`);
  return r.data;
}
