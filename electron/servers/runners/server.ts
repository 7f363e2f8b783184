import { homedir } from 'node:os';
import { realpathSync } from 'node:fs';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { APPROVAL_META, type ElicitationApproval } from '../../contract/index';
import { unansweredReason } from '../../main/agent/approval-path';
import type { PtyManager } from '../../main/runners/pty/index';
import { CommandRunner, PROJECT_ACCESS_META, worktreeOf, type ProjectAccess } from '../../main/runners/runner';
import type { ScriptReviewer } from '../../main/runners/review/index';
import { resolveHome } from '../../main/paths/index';
import type { ProjectTrust } from '../../main/project/trust';
import { loadRunnerSettings, type RunnerSettings } from '../../main/runners/settings';
import { executeTool, type Confirmation } from './execute';
import type { Toolset } from './tool';
import { RUNNER_TOOLS } from './toolsets/index';
import { listedToolchains } from './toolchains';
import { UNLISTED_META } from '../../main/mcp/toolsets';
import { ANSWER_WAIT_MS, withKeepAlive } from '../keep-alive';

export interface RunnersServerOptions {
  /** The project folder; every command runs there. */
  root: string;
  /** The PTYs commands run in (the core's, so they show in the terminal view; or the standalone server's own). */
  ptys: PtyManager;
  /** The runner commands go through (the core's one runner); default: one over `ptys` with this server's sandbox settings. */
  runner?: CommandRunner;
  reviewer?: ScriptReviewer;
  /** Only these toolsets (default: all). */
  toolsets?: readonly Toolset[];
  /** The user's home (for the policy); default os.homedir(). */
  home?: string;
  /** Settings instead of the project's `.erasmus/settings.json` (read on every call otherwise). */
  settings?: RunnerSettings;
  /** Run commands in the OS sandbox when available (default true; see runners/pty/sandbox.ts). */
  sandbox?: boolean;
  /** ERASMUS_HOME, hidden from sandboxed commands (default: from the environment). */
  erasmusHome?: string;
  /** The gate for the project's `.erasmus/settings.json` (default: ERASMUS_HOME's from the environment). */
  projectTrust?: ProjectTrust;
  version?: string;
  /** How often a running call sends progress to a client that asked for it (default KEEP_ALIVE_MS). */
  keepAliveMs?: number;
}

/** The calling session's project access from a call's `_meta` (Erasmus's agent sessions set it; default: write). */
function accessOf(meta: Record<string, unknown> | undefined): ProjectAccess {
  const a = meta?.[PROJECT_ACCESS_META];
  return a === 'read' || a === 'markdown' ? a : 'write';
}

/**
 * Erasmus's runners as an MCP server: bash, git, pnpm, cargo, uv and docker tools with honest
 * annotations. Commands are rewritten, checked by the policy, reviewed when they are scripts,
 * confirmed through MCP elicitation when destructive, and run in a PTY in the project folder.
 */
export function createRunnersServer(options: RunnersServerOptions): McpServer {
  const root = realpathSync(options.root);
  const server = new McpServer(
    { name: 'erasmus-runners', title: 'Erasmus runners', version: options.version ?? '0.1.0' },
    { instructions: `Run commands in ${root} through bash, git, pnpm, cargo, uv and docker tools. Each result says what actually ran.` },
  );
  const confirm = async (message: string, signal?: AbortSignal, approval?: ElicitationApproval): Promise<Confirmation> => {
    if (!server.server.getClientCapabilities()?.elicitation) return 'unsupported';
    try {
      const answer = await server.server.elicitInput({ message, requestedSchema: { type: 'object', properties: {} }, ...(approval ? { _meta: { [APPROVAL_META]: approval } } : {}) }, { signal, timeout: ANSWER_WAIT_MS });
      const why = unansweredReason(answer);
      return why !== undefined ? { unanswered: why } : answer.action;
    } catch {
      return 'cancel';
    }
  };
  const home = options.home ?? homedir();
  let runner = options.runner;
  if (!runner) {
    // A runner of this server's own: its sessions' temporary folders go when the server closes.
    const own = (runner = new CommandRunner(options.ptys, { home, erasmusHome: options.erasmusHome ?? resolveHome(), ...(options.sandbox === false ? { sandbox: false } : {}) }));
    const before = server.server.onclose;
    server.server.onclose = () => {
      before?.();
      own.dispose();
    };
  }
  const deps = {
    root,
    home,
    runner,
    reviewer: options.reviewer,
    confirm,
    settings: async () => options.settings ?? loadRunnerSettings(root, options.projectTrust),
  };
  const wanted = new Set(options.toolsets ?? RUNNER_TOOLS.map((t) => t.toolset));
  const listed = listedToolchains(root);
  for (const tool of RUNNER_TOOLS) {
    if (!wanted.has(tool.toolset)) continue;
    server.registerTool(
      tool.name,
      { title: tool.title, description: tool.description, inputSchema: tool.input, annotations: { title: tool.title, ...tool.annotations }, ...(listed.has(tool.toolset) ? {} : { _meta: { [UNLISTED_META]: true } }) },
      // An approval can take the user longer than a client's request timeout, and so can a command: progress keeps the call alive.
      (args: Record<string, unknown>, extra) => {
        // A parallel run's component step: its commands run in its worktree, the one place of the project they may write (with what git needs in its .git).
        const worktree = worktreeOf(root, extra._meta);
        if (worktree instanceof Error) return { content: [{ type: 'text' as const, text: `Not run: ${worktree.message}` }], isError: true };
        const d = worktree ? { ...deps, root: worktree, sandboxRoot: root } : deps;
        return withKeepAlive(extra, (say) => executeTool(tool, args, { ...d, doing: say }, extra.signal, accessOf(extra._meta)), options.keepAliveMs);
      },
    );
  }
  return server;
}
