import { join } from 'node:path';
import { ProjectTrust, UntrustedProjectFileError } from '../project/trust';
import { z } from 'zod';
import { REWRITE_RULES, type RuleId } from './rewrite/index';
import { HOST_RULE } from './pty/net-proxy';

/**
 * Per-project runner settings, in `<project>/.erasmus/settings.json` under the key `runners`:
 *
 * ```json
 * { "runners": {
 *     "review": true,                       // script review before bash scripts, Dockerfiles, git changes
 *     "rewrite": { "disabled": ["npm"] },   // rewrite rules switched off (see rewrite/rules.ts)
 *     "allowDangerous": false,              // WARNING: refusals (rm -rf ~ …) become approvals
 *     "toolchains": ["docker"],             // toolchains listed even without their marker files
 *     "network": { "allowedHosts": ["registry.npmjs.org", "127.0.0.1:8080"] }
 *                                           // what an accepted network command may reach (default: nothing)
 * } }
 * ```
 * Other keys of the file belong to other parts and are left alone.
 */
/** One allowed host: `registry.npmjs.org`, `*.pythonhosted.org`, `127.0.0.1:8080`, `[::1]:8080`. */
export const AllowedHost = z
  .string()
  .max(300)
  .regex(HOST_RULE, 'an allowed host is a host name (registry.npmjs.org: ports 80 and 443), *.domain (its subdomains), or host:port (127.0.0.1:8080), without a scheme or path');

export const RunnerSettings = z
  .object({
    review: z.boolean().default(true),
    rewrite: z.object({ disabled: z.array(z.string()).default([]) }).strict().default({ disabled: [] }),
    allowDangerous: z.boolean().default(false),
    /** Toolchains whose tools the runners list to the model even without marker files (others stay callable by name). */
    toolchains: z.array(z.enum(['bash', 'git', 'pnpm', 'cargo', 'uv', 'docker'])).default([]),
    /**
     * The hosts a command the user accepted as needing the network reaches, through the sandbox's
     * filtering proxy (pty/net-proxy.ts): `host` (ports 80, 443), `*.domain`, `host:port`. Nothing else.
     */
    network: z.object({ allowedHosts: z.array(AllowedHost).default([]) }).strict().default({ allowedHosts: [] }),
  })
  .strict();
export type RunnerSettings = z.output<typeof RunnerSettings>;

export const DEFAULT_RUNNER_SETTINGS: RunnerSettings = RunnerSettings.parse({});

export function projectSettingsFile(root: string): string {
  return join(root, '.erasmus', 'settings.json');
}

export const PROJECT_SETTINGS = '.erasmus/settings.json';

/**
 * The project's runner settings; defaults when the file or the key is missing, and while the file is
 * not trusted (a cloned repository may not switch review off or allow dangerous commands: see
 * project/trust.ts); a clear error when malformed.
 */
export async function loadRunnerSettings(root: string, trust: ProjectTrust = ProjectTrust.forHome()): Promise<RunnerSettings> {
  const file = projectSettingsFile(root);
  let text: string | undefined;
  try {
    text = await trust.read(root, PROJECT_SETTINGS);
  } catch (err) {
    if (err instanceof UntrustedProjectFileError) return DEFAULT_RUNNER_SETTINGS;
    throw err;
  }
  if (text === undefined) return DEFAULT_RUNNER_SETTINGS;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new Error(`${file} is not valid JSON: ${(err as Error).message}`);
  }
  const runners = json && typeof json === 'object' ? (json as { runners?: unknown }).runners : undefined;
  const parsed = RunnerSettings.safeParse(runners ?? {});
  if (!parsed.success) {
    throw new Error(`${file}: "runners" is invalid: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}`);
  }
  const known = new Set<string>(REWRITE_RULES.map((r) => r.id));
  const unknown = parsed.data.rewrite.disabled.filter((id) => !known.has(id));
  if (unknown.length) throw new Error(`${file}: unknown rewrite rule(s) ${unknown.join(', ')}; known: ${[...known].join(', ')}`);
  return parsed.data;
}

export function disabledRules(settings: RunnerSettings): ReadonlySet<RuleId> {
  return new Set(settings.rewrite.disabled as RuleId[]);
}
