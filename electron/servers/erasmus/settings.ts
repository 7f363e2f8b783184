import { readFile } from 'node:fs/promises';
import { parse } from 'yaml';
import { z } from 'zod';

/** `erasmusServer:` in config.yaml (other parts keep their own keys). */
const FileSettings = z
  .object({
    connectTimeoutMs: z.number().int().min(100).max(600_000).optional(),
    connectRetries: z.number().int().min(0).max(20).optional(),
    autoApprove: z.boolean().optional(),
  })
  .strict();

export interface ServerSettings {
  connectTimeoutMs: number;
  connectRetries: number;
  autoApprove: boolean;
}

export const DEFAULT_SETTINGS: ServerSettings = { connectTimeoutMs: 30_000, connectRetries: 3, autoApprove: false };

function envInt(env: NodeJS.ProcessEnv, name: string, min: number, max: number): number | undefined {
  const raw = env[name]?.trim();
  if (!raw) return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) throw new Error(`${name} must be an integer from ${min} to ${max}, got ${JSON.stringify(raw)}`);
  return n;
}

/**
 * Settings of the Erasmus MCP server: command-line flags, then the environment
 * (ERASMUS_CONNECT_TIMEOUT_MS, ERASMUS_CONNECT_RETRIES, ERASMUS_AUTO_APPROVE), then config.yaml's
 * `erasmusServer:` section, then the defaults (30 s, 3 retries, ask before acting).
 */
export async function loadServerSettings(configYaml: string, env: NodeJS.ProcessEnv, flags: Partial<ServerSettings>): Promise<ServerSettings> {
  let file: z.infer<typeof FileSettings> = {};
  const text = await readFile(configYaml, 'utf8').catch(() => undefined);
  if (text !== undefined) {
    const raw = (parse(text) as Record<string, unknown> | null)?.erasmusServer;
    if (raw !== undefined) {
      const r = FileSettings.safeParse(raw);
      if (!r.success) throw new Error(`${configYaml}: erasmusServer: ${r.error.issues.map((i) => `${i.path.join('.') || '(section)'}: ${i.message}`).join('; ')}`);
      file = r.data;
    }
  }
  const autoEnv = env.ERASMUS_AUTO_APPROVE?.trim();
  return {
    connectTimeoutMs: flags.connectTimeoutMs ?? envInt(env, 'ERASMUS_CONNECT_TIMEOUT_MS', 100, 600_000) ?? file.connectTimeoutMs ?? DEFAULT_SETTINGS.connectTimeoutMs,
    connectRetries: flags.connectRetries ?? envInt(env, 'ERASMUS_CONNECT_RETRIES', 0, 20) ?? file.connectRetries ?? DEFAULT_SETTINGS.connectRetries,
    autoApprove: flags.autoApprove ?? (autoEnv ? autoEnv === '1' || autoEnv === 'true' : undefined) ?? file.autoApprove ?? DEFAULT_SETTINGS.autoApprove,
  };
}
