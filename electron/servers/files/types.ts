import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Scope } from './scope';

export type ToolResult = CallToolResult;

export interface FilesContext {
  scope: Scope;
  server: McpServer;
  /** The user's home folder (its removal, and of anything directly in it, is refused). */
  home: string;
  /** Aborted when the client cancels the call (notifications/cancelled): long work stops. */
  signal?: AbortSignal;
  /** A line for the server's log (stderr over stdio). */
  log?: (line: string) => void;
  /** A parallel run's component step works in this worktree of the root (its approvals name it as their `cwd`). */
  worktree?: string;
}
