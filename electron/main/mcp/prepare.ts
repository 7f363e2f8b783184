import { pathToFileURL } from 'node:url';
import { basename } from 'node:path';
import { interpolateDeep, type Redactor, type SecretStore } from '../secrets/index';
import { fingerprint, type ConfigIssue, type ServerConfig } from './config/schema';
import { ServerConnection, type ConnectionHooks } from './connection';

/** What filling in one config entry needs from the hub. */
export interface PrepareContext {
  env: NodeJS.ProcessEnv;
  secrets?: Pick<SecretStore, 'get'>;
  /** The open project: `${workspaceFolder}`. */
  projectDir?: string;
  logFile(name: string): string;
  redactor?: Redactor;
  pingIntervalMs?: number;
  pingTimeoutMs?: number;
  hooks: ConnectionHooks;
  /** A warning about the entry (it still starts). */
  issue(issue: ConfigIssue): void;
}

/**
 * Interpolates one entry (`${env:…}`, `${secret:…}`, `${workspaceFolder}`, `env_keys`) into its
 * connection; a missing variable makes that server errored with the names.
 */
export async function prepareConnection(raw: ServerConfig, ctx: PrepareContext): Promise<ServerConnection> {
  const where = `${raw.source}: server "${raw.name}"`;
  let config = raw;
  let error: string | undefined;
  try {
    const secret = ctx.secrets ? (n: string) => ctx.secrets!.get(n) : undefined;
    const sources = { env: ctx.env, secret, workspaceFolder: ctx.projectDir };
    const { command, args, env, cwd, url, headers, oauth } = raw;
    const filled = await interpolateDeep({ command, args, env, cwd, url, headers, oauth }, sources);
    const missingKeys: string[] = [];
    for (const key of raw.envKeys) {
      const v = sources.env[key] ?? (await secret?.(key));
      if (v === undefined) missingKeys.push(key);
      else filled.env[key] = v;
    }
    if (missingKeys.length) throw new Error(`missing env_keys (neither in the environment nor the keychain): ${missingKeys.join(', ')}`);
    config = { ...raw, ...filled };
    if (raw.args.some((a) => /\$\{secret:/.test(a)))
      ctx.issue({ file: raw.source, entry: raw.name, message: 'a ${secret:…} in "args" is visible to every local user in the process list (ps); pass it in "env" instead' });
  } catch (err) {
    error = `${where}: ${(err as Error).message}`;
  }
  return new ServerConnection(raw.name, { kind: 'config', config }, ctx.hooks, {
    description: raw.description,
    source: raw.source,
    alwaysAllow: raw.alwaysAllow,
    timeoutMs: raw.timeoutMs,
    logFile: ctx.logFile(raw.name),
    redactor: ctx.redactor,
    disabled: raw.disabled,
    error,
    fingerprint: fingerprint(config) + (error ?? ''),
    pingIntervalMs: ctx.pingIntervalMs,
    pingTimeoutMs: ctx.pingTimeoutMs,
  });
}

/** The servers' roots: the open project folder, if any. */
export function projectRoots(projectDir: string | undefined): { uri: string; name: string }[] {
  return projectDir ? [{ uri: pathToFileURL(projectDir).href, name: basename(projectDir) }] : [];
}
