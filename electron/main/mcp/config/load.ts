import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { ProjectTrust, UntrustedProjectFileError } from '../../project/trust';
import { references } from '../../secrets/interpolate';
import { blockedEnvNames } from './env-guard';
import { ClaudeServerEntry, GooseExtension, SERVER_NAME, describeZodError, fromClaude, fromGoose, type ConfigIssue, type ServerConfig } from './schema';

export interface ParsedConfig {
  servers: ServerConfig[];
  issues: ConfigIssue[];
}

const TopLevel = z.object({}).passthrough();

/** Parses the text of a config file in any supported shape: `mcpServers`, VS Code `servers`, goose `extensions`. */
export function parseConfigText(text: string, file: string): ParsedConfig {
  const issues: ConfigIssue[] = [];
  const servers: ServerConfig[] = [];
  let doc: unknown;
  try {
    doc = file.endsWith('.json') ? JSON.parse(text) : parseYaml(text);
  } catch (err) {
    return { servers, issues: [{ file, message: `not valid ${file.endsWith('.json') ? 'JSON' : 'YAML'}: ${(err as Error).message}` }] };
  }
  if (doc === null || doc === undefined) return { servers, issues };
  const top = TopLevel.safeParse(doc);
  if (!top.success) return { servers, issues: [{ file, message: 'the top level must be an object' }] };
  const root = top.data as Record<string, unknown>;

  const claudeLike = root.mcpServers ?? root.servers;
  if (claudeLike !== undefined) {
    const key = root.mcpServers !== undefined ? 'mcpServers' : 'servers';
    if (!isRecord(claudeLike)) issues.push({ file, message: `"${key}" must be an object of servers by name` });
    else
      for (const [name, raw] of Object.entries(claudeLike)) {
        if (!SERVER_NAME.test(name)) {
          issues.push({ file, entry: name, message: 'a server name may use only letters, digits, ".", "_" and "-" (1-64 characters)' });
          continue;
        }
        const r = ClaudeServerEntry.safeParse(raw);
        if (!r.success) issues.push({ file, entry: name, message: describeZodError(r.error) });
        else servers.push(fromClaude(name, r.data, file));
      }
  }
  if (root.extensions !== undefined) {
    if (!isRecord(root.extensions)) issues.push({ file, message: '"extensions" must be an object of extensions by name' });
    else
      for (const [key, raw] of Object.entries(root.extensions)) {
        if (!SERVER_NAME.test(key)) {
          issues.push({ file, entry: key, message: 'an extension name may use only letters, digits, ".", "_" and "-" (1-64 characters)' });
          continue;
        }
        const r = GooseExtension.safeParse(raw);
        if (!r.success) issues.push({ file, entry: key, message: describeZodError(r.error) });
        else if (!['stdio', 'sse', 'streamable_http', 'websocket'].includes(r.data.type)) {
          if (r.data.enabled !== false) issues.push({ file, entry: key, message: `goose extension type "${r.data.type}" is not an MCP server Erasmus can start; skipped` });
        } else servers.push(fromGoose(key, r.data, file));
      }
  }
  return { servers, issues };
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return !!v && typeof v === 'object' && !Array.isArray(v);
}

/** Reads one config file; a missing file is no servers and no issue. */
export async function loadConfigFile(file: string): Promise<ParsedConfig> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { servers: [], issues: [] };
    return { servers: [], issues: [{ file, message: `cannot read: ${(err as Error).message}` }] };
  }
  return parseConfigText(text, file);
}

export interface ConfigSources {
  /** ERASMUS_HOME/mcp/config.json */
  mcpConfig: string;
  /** ERASMUS_HOME/config.yaml */
  configYaml: string;
  projectDir?: string;
  /** `--config FILE`: use this file alone. */
  configFile?: string;
  /** The trust gate for the project's file (default: the one under ERASMUS_HOME from the environment). */
  projectTrust?: ProjectTrust;
}

/** The files that make up the configuration, in order of precedence (later overrides earlier). */
export function configFiles(s: ConfigSources): string[] {
  if (s.configFile) return [s.configFile];
  const files = [s.configYaml, s.mcpConfig];
  if (s.projectDir) files.push(projectConfig(s.projectDir));
  return files;
}

export function projectConfig(projectDir: string): string {
  return join(projectDir, PROJECT_MCP);
}

const PROJECT_MCP = '.erasmus/mcp.json';

/**
 * The project's servers, through the trust gate: nothing unless the user trusted this content; then
 * no server that replaces one of the user's, no `${secret:…}` / `${env:…}` / `${VAR}` (only
 * `${workspaceFolder}`), no env that makes a child load other code, and no `alwaysAllow`.
 */
async function loadProjectServers(projectDir: string, trust: ProjectTrust | undefined, userNames: ReadonlySet<string>): Promise<ParsedConfig> {
  const file = projectConfig(projectDir);
  let text: string | undefined;
  try {
    text = await (trust ?? ProjectTrust.forHome()).read(projectDir, PROJECT_MCP);
  } catch (err) {
    if (err instanceof UntrustedProjectFileError) return { servers: [], issues: [{ file, message: err.message }] };
    return { servers: [], issues: [{ file, message: `cannot read: ${(err as Error).message}` }] };
  }
  if (text === undefined) return { servers: [], issues: [] };
  const parsed = parseConfigText(text, file);
  const servers: ServerConfig[] = [];
  const issues = [...parsed.issues];
  for (const s of parsed.servers) {
    const refuse = (message: string) => issues.push({ file, entry: s.name, message: `${message}; the server is not started` });
    if (userNames.has(s.name)) {
      refuse(`a project may not replace your server "${s.name}" (rename it in ${PROJECT_MCP})`);
      continue;
    }
    const refs = references(JSON.stringify({ command: s.command, args: s.args, env: s.env, cwd: s.cwd, url: s.url, headers: s.headers })).filter((r) => r !== 'workspaceFolder');
    if (refs.length) {
      refuse(`a project file may not ask for secrets or environment values (\${${refs.join('}, ${')}}); only \${workspaceFolder} is filled in — add such a server to your own config instead`);
      continue;
    }
    const blocked = blockedEnvNames(s.env);
    if (blocked.length) {
      refuse(`a project file may not set ${blocked.join(', ')} for a child (they make it load other code)`);
      continue;
    }
    if (s.alwaysAllow.length) issues.push({ file, entry: s.name, message: `"alwaysAllow" is ignored in a project file: its tools ask as usual` });
    servers.push({ ...s, alwaysAllow: [], envKeys: [] });
  }
  return { servers, issues };
}

/** Loads and merges every file: a later file's server of the same name replaces the earlier one. */
export async function loadConfig(s: ConfigSources): Promise<ParsedConfig> {
  const byName = new Map<string, ServerConfig>();
  const issues: ConfigIssue[] = [];
  for (const file of configFiles(s)) {
    if (s.projectDir && !s.configFile && file === projectConfig(s.projectDir)) continue;
    const r = await loadConfigFile(file);
    issues.push(...r.issues);
    for (const server of r.servers) byName.set(server.name, server);
  }
  if (s.projectDir && !s.configFile) {
    const r = await loadProjectServers(s.projectDir, s.projectTrust, new Set(byName.keys()));
    issues.push(...r.issues);
    for (const server of r.servers) byName.set(server.name, server);
  }
  return { servers: [...byName.values()], issues };
}
