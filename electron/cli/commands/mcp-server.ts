import type { Command } from 'commander';
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { runFilesServerStdio } from '../../servers/files/index';
import { serveRunnersStdio } from '../../servers/runners/index';
import { appVersion, Paths } from '../../main/paths/index';

/** One of Erasmus's own MCP servers that `erasmus mcp-server NAME --root DIR` runs over stdio. */
export interface McpServerEntry {
  description: string;
  /** Runs the server on stdin/stdout until the client closes it. Logs only on stderr. */
  start: (opts: { root: string }) => Promise<void>;
}

/**
 * The servers, by name. Table-driven so each server adds one line here (runners, files, …);
 * every entry takes `--root DIR`.
 */
export const MCP_SERVERS: Record<string, McpServerEntry> = {
  files: {
    description: 'filesystem toolset scoped to --root: read, write, append, move, rename, remove, list, search',
    start: (opts) => runFilesServerStdio(opts),
  },
  runners: {
    description: 'bash, git, pnpm, cargo, uv and docker tools run in PTYs in --root (rewritten, policy-checked, destructive ones confirmed by elicitation)',
    start: (opts) => serveRunnersStdio({ root: opts.root, outputsDir: new Paths().outputsDir, version: appVersion() }),
  },
};

function checkRoot(dir: string): string {
  const abs = resolve(dir);
  if (!existsSync(abs) || !statSync(abs).isDirectory()) throw new Error(`--root must be an existing folder, got ${JSON.stringify(dir)}`);
  return abs;
}

export function registerMcpServer(program: Command): void {
  const group = program.command('mcp-server').description("run one of Erasmus's own MCP servers over stdio (logs on stderr)");
  for (const [name, entry] of Object.entries(MCP_SERVERS)) {
    group
      .command(name)
      .description(entry.description)
      .option('--root <dir>', 'the folder the server works in', process.cwd())
      .action(async (opts: { root: string }) => {
        await entry.start({ root: checkRoot(opts.root) });
      });
  }
}
