import { homedir } from 'node:os';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { appVersion } from '../../main/paths/index';
import { withKeepAlive } from '../keep-alive';
import { worktreeOf } from '../../main/runners/runner';
import { Scope, ScopeError } from './scope';
import { FILE_TOOLS, failure } from './tools';
import type { FilesContext, ToolResult } from './types';

export interface FilesServerOptions {
  /** The only folder the server may read or write. */
  root: string;
  /** The user's home folder, for the removal refusals (defaults to os.homedir()). */
  home?: string;
  /** Where the server's log lines go (stdio: stderr); none by default. */
  log?: (line: string) => void;
  /** How often a running call sends progress to a client that asked for it (default KEEP_ALIVE_MS). */
  keepAliveMs?: number;
}

/**
 * Erasmus's filesystem MCP server: read, edit, write, append, move, rename, remove, list and search,
 * scoped to one root. Destructive actions ask the client through MCP elicitation. The same
 * server attaches in-process (through the hub) or runs over stdio (`erasmus mcp-server files`).
 */
export function createFilesServer(options: FilesServerOptions): McpServer {
  const scope = Scope.open(options.root);
  const server = new McpServer(
    { name: 'erasmus-files', version: appVersion() },
    { capabilities: { tools: {} }, instructions: `Files under ${scope.root}. Paths are relative to that root; nothing outside it can be read or written.` },
  );
  const base: FilesContext = { scope, server, home: options.home ?? homedir(), log: options.log };
  for (const [name, t] of Object.entries(FILE_TOOLS) ) {
    server.registerTool(name, { description: t.description, inputSchema: t.input, annotations: t.annotations }, async (args: Record<string, unknown>, extra): Promise<ToolResult> => {
      let root = scope.root;
      try {
        // An overwrite's approval can take the user longer than a client's request timeout: progress keeps the call alive.
        // A parallel run's component step works in its worktree of the project (checked: inside the root's .git/erasmus/worktrees).
        const worktree = worktreeOf(scope.root, extra._meta);
        if (worktree instanceof Error) return failure(`refused: ${worktree.message}`);
        const ctx = worktree ? { ...base, scope: Scope.open(worktree), worktree } : base;
        root = ctx.scope.root;
        return await withKeepAlive(extra, () => t.run(args, { ...ctx, signal: extra.signal }), options.keepAliveMs);
      } catch (err) {
        if (err instanceof ScopeError) return failure(`refused: ${err.message}`);
        return failure(`${name} failed: ${errorText(err as NodeJS.ErrnoException, root)}`);
      }
    });
  }
  return server;
}

/**
 * A file system error as the model can act on it: paths relative to the folder its tools work in (the
 * worktree of a parallel run's component), a missing path said in words, the error code said once.
 */
export function errorText(e: NodeJS.ErrnoException, root: string): string {
  const relativePath = (p: string) => (p === root ? '.' : p.startsWith(`${root}/`) ? p.slice(root.length + 1) : p);
  if (e.code === 'ENOENT' && e.path) return `${relativePath(e.path)} does not exist (list its folder to see what does)`;
  const message = e.message.replaceAll(`${root}/`, '').replaceAll(root, '.');
  return `${e.code && !message.startsWith(`${e.code}:`) ? `${e.code}: ` : ''}${message}`;
}
