import type { Command } from 'commander';
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { runFilesServerStdio } from '../../servers/files/index';
import { serveRunnersStdio } from '../../servers/runners/index';
import { runErasmusServer } from '../../servers/erasmus/index';
import { appVersion, Paths } from '../../main/paths/index';

/** One of Erasmus's own MCP servers that `erasmus mcp-server NAME --root DIR` runs over stdio. */
export interface McpServerEntry {
  description: string;
  /** Options beyond --root: commander flags, and how to parse the value (default: the string). */
  options?: Array<{ flags: string; description: string; parse?: (value: string) => unknown }>;
  /** Runs the server on stdin/stdout until the client closes it. Logs only on stderr. */
  start: (opts: { root: string } & Record<string, unknown>) => Promise<void>;
}

function intOption(name: string, min: number, max: number): (v: string) => number {
  return (v) => {
    const n = Number(v);
    if (!Number.isInteger(n) || n < min || n > max) throw new Error(`${name} must be an integer from ${min} to ${max}, got ${JSON.stringify(v)}`);
    return n;
  };
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
  erasmus: {
    description: 'Erasmus itself: erasmus_chat (the agent), workflow_* (drive the workflow as its model), analyze_fsm, validate_task_list; context documents as resources, protocols as prompts, prompt/call',
    options: [
      { flags: '--connect <url>', description: 'forward to a running Erasmus (ws://127.0.0.1:PORT?token=… from the desktop app or `erasmus serve`) instead of starting a core' },
      { flags: '--http <port>', description: 'serve streamable HTTP on 127.0.0.1:PORT (/mcp) instead of stdio', parse: intOption('--http', 0, 65535) },
      { flags: '--connect-timeout <ms>', description: 'per connection attempt (default 30000; env ERASMUS_CONNECT_TIMEOUT_MS)', parse: intOption('--connect-timeout', 100, 600_000) },
      { flags: '--connect-retries <n>', description: 'attempts after the first (default 3; env ERASMUS_CONNECT_RETRIES)', parse: intOption('--connect-retries', 0, 20) },
      { flags: '--auto-approve', description: 'approve what the policy does not refuse without asking the client (env ERASMUS_AUTO_APPROVE=1)' },
    ],
    start: (o) =>
      runErasmusServer({
        connect: o.connect as string | undefined,
        http: o.http as number | undefined,
        connectTimeoutMs: o.connectTimeout as number | undefined,
        connectRetries: o.connectRetries as number | undefined,
        autoApprove: o.autoApprove === true ? true : undefined,
      }),
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
    const cmd = group.command(name).description(entry.description).option('--root <dir>', 'the folder the server works in', process.cwd());
    for (const o of entry.options ?? []) {
      if (o.parse) cmd.option(o.flags, o.description, o.parse);
      else cmd.option(o.flags, o.description);
    }
    cmd.action(async (opts: { root: string } & Record<string, unknown>) => {
      await entry.start({ ...opts, root: checkRoot(opts.root) });
    });
  }
}
