import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { writeJsonAtomic } from '../../common/fs';
import { loadConfigFile } from './load';
import type { ConfigIssue, ServerConfig } from './schema';

export type ImportSource = 'claude' | 'cursor' | 'vscode' | 'roo' | 'goose';

export interface ImportCandidate {
  source: ImportSource;
  file: string;
  servers: ServerConfig[];
  issues: ConfigIssue[];
}

export interface ImportLocations {
  home?: string;
  projectDir?: string;
  platform?: NodeJS.Platform;
  env?: NodeJS.ProcessEnv;
}

/** Where other MCP clients keep their server lists, on this platform. */
export function importFiles(loc: ImportLocations = {}): { source: ImportSource; file: string }[] {
  const home = loc.home ?? homedir();
  const platform = loc.platform ?? process.platform;
  const env = loc.env ?? process.env;
  const claude =
    platform === 'darwin'
      ? join(home, 'Library', 'Application Support', 'Claude', 'claude_desktop_config.json')
      : platform === 'win32'
        ? join(env.APPDATA ?? join(home, 'AppData', 'Roaming'), 'Claude', 'claude_desktop_config.json')
        : join(env.XDG_CONFIG_HOME ?? join(home, '.config'), 'Claude', 'claude_desktop_config.json');
  const goose = platform === 'win32' ? join(env.APPDATA ?? join(home, 'AppData', 'Roaming'), 'Block', 'goose', 'config', 'config.yaml') : join(env.XDG_CONFIG_HOME ?? join(home, '.config'), 'goose', 'config.yaml');
  const files: { source: ImportSource; file: string }[] = [
    { source: 'claude', file: claude },
    { source: 'cursor', file: join(home, '.cursor', 'mcp.json') },
    { source: 'goose', file: goose },
  ];
  if (loc.projectDir)
    files.push(
      { source: 'cursor', file: join(loc.projectDir, '.cursor', 'mcp.json') },
      { source: 'vscode', file: join(loc.projectDir, '.vscode', 'mcp.json') },
      { source: 'roo', file: join(loc.projectDir, '.roo', 'mcp.json') },
    );
  return files;
}

/** Reads every other client's config that exists; each file's servers and problems. */
export async function discoverImports(loc: ImportLocations = {}): Promise<ImportCandidate[]> {
  const out: ImportCandidate[] = [];
  for (const { source, file } of importFiles(loc)) {
    const r = await loadConfigFile(file);
    if (r.servers.length || r.issues.length) out.push({ source, file, ...r });
  }
  return out;
}

/** The server as an entry of Claude Desktop's `mcpServers` (the format of ERASMUS_HOME/mcp/config.json). */
export function toClaudeEntry(s: ServerConfig): Record<string, unknown> {
  const e: Record<string, unknown> = {};
  if (s.transport === 'stdio') {
    e.command = s.command;
    if (s.args.length) e.args = s.args;
    const env = { ...s.env };
    for (const k of s.envKeys) env[k] ??= `\${secret:${k}}`;
    if (Object.keys(env).length) e.env = env;
    if (s.cwd) e.cwd = s.cwd;
  } else {
    e.type = s.transport === 'websocket' ? 'websocket' : s.transport;
    e.url = s.url;
    if (Object.keys(s.headers).length) e.headers = s.headers;
  }
  if (s.disabled) e.disabled = true;
  if (s.timeoutMs) e.timeout = s.timeoutMs / 1000;
  if (s.alwaysAllow.length) e.alwaysAllow = s.alwaysAllow;
  if (s.description) e.description = s.description;
  return e;
}

export interface ImportResult {
  added: string[];
  /** Names already present in the target; left as they were. */
  skipped: string[];
}

/**
 * Adds servers to a Claude-format config file (ERASMUS_HOME/mcp/config.json), keeping everything
 * already in it: an existing server of the same name is never overwritten.
 */
export async function importServers(servers: ServerConfig[], target: string): Promise<ImportResult> {
  let doc: Record<string, unknown> = {};
  try {
    doc = JSON.parse(await readFile(target, 'utf8')) as Record<string, unknown>;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw new Error(`${target} cannot be read as JSON, so nothing was imported: ${(err as Error).message}`);
  }
  const existing = (doc.mcpServers && typeof doc.mcpServers === 'object' ? doc.mcpServers : {}) as Record<string, unknown>;
  const result: ImportResult = { added: [], skipped: [] };
  for (const s of servers) {
    if (s.name in existing) result.skipped.push(s.name);
    else {
      existing[s.name] = toClaudeEntry(s);
      result.added.push(s.name);
    }
  }
  if (result.added.length) await writeJsonAtomic(target, { ...doc, mcpServers: existing });
  return result;
}
