import type { CallToolResult, CreateMessageRequest, CreateMessageResult, ElicitRequest, ElicitResult, Progress, Prompt, Resource, ResourceTemplate } from '@modelcontextprotocol/sdk/types.js';
import type { McpServerStatus, McpToolInfo, McpToolsetSummary } from '../../contract/index';

export type ServerStatus = McpServerStatus;
export type ToolInfo = McpToolInfo;
export type ToolsetSummary = McpToolsetSummary;
export type { ConfigIssue, ServerConfig } from './config/schema';
export type { CallToolResult, Progress };

export interface CallOptions {
  signal?: AbortSignal;
  /** Per-call timeout; on expiry the server gets notifications/cancelled. Default: the server's `timeout`, else 60 s. */
  timeoutMs?: number;
  /** Asks the server for progress (notifications/progress); each one is also emitted as `mcp.progress`. */
  onProgress?: (progress: Progress) => void;
  /** `_meta` of the request (e.g. the calling session's project access, which Erasmus's runners obey). */
  meta?: Record<string, unknown>;
}

export type ResourceInfo = Resource & { server: string };
export type ResourceTemplateInfo = ResourceTemplate & { server: string };
export type PromptInfo = Prompt & { server: string };

export interface SamplingRequest {
  server: string;
  params: CreateMessageRequest['params'];
}
export interface ElicitationRequest {
  server: string;
  params: ElicitRequest['params'];
}
/** Answers a server's sampling/createMessage (the configured model, after the user's approval). */
export type SamplingHandler = (req: SamplingRequest, signal: AbortSignal) => Promise<CreateMessageResult>;
/** Answers a server's elicitation/create (the UI or the CLI prompt). */
export type ElicitationHandler = (req: ElicitationRequest, signal: AbortSignal) => Promise<ElicitResult>;

export const QUALIFIED_SEPARATOR = '__';
export function qualifiedName(server: string, tool: string): string {
  return `${server}${QUALIFIED_SEPARATOR}${tool}`;
}
