import { z } from 'zod';
import { ProjectSummary } from './methods/project';
import { AgentEvent } from './methods/agent';
import { McpElicitationRequest, McpServerStatus } from './methods/mcp';
import { terminalEvents } from './methods/terminal';
import { workflowEvents } from './methods/workflow';

/**
 * Every event the core sends, as JSON-RPC notifications whose method is the event name.
 * Each part adds its own entries here.
 */
export const events = {
  /** A message for the user (status bar / toast / tray). */
  'app.notice': z.object({
    level: z.enum(['info', 'warning', 'error']),
    message: z.string(),
  }),
  /** Something finished that deserves a system notification (task, component or run completed). */
  'app.notify': z.object({ title: z.string(), body: z.string() }),
  /** A folder was opened (drop, dialog, CLI). */
  'project.opened': ProjectSummary,
  /** Every event of an agent session (see AgentEvent in methods/agent.ts): the same stream as the session log and `erasmus chat --json`. */
  'agent.event': AgentEvent,
  /** An MCP server changed state (starting, ready, errored with its last stderr lines, stopped). */
  'mcp.server.status': McpServerStatus,
  /** A server's tool list changed (list_changed, or first listing after connect). */
  'mcp.tools.changed': z.object({ server: z.string(), tools: z.number() }),
  'mcp.resources.changed': z.object({ server: z.string() }),
  /** notifications/resources/updated for a subscribed resource. */
  'mcp.resource.updated': z.object({ server: z.string(), uri: z.string() }),
  'mcp.prompts.changed': z.object({ server: z.string() }),
  /** notifications/message from a server. */
  'mcp.log': z.object({ server: z.string(), level: z.string(), logger: z.string().optional(), data: z.unknown() }),
  /** notifications/progress for a request in flight. */
  'mcp.progress': z.object({
    server: z.string(),
    progressToken: z.union([z.string(), z.number()]),
    progress: z.number(),
    total: z.number().optional(),
    message: z.string().optional(),
  }),
  /** Lines a server wrote on stderr. */
  'mcp.stderr': z.object({ server: z.string(), text: z.string() }),
  /** A server asks the user for input (form fields or a URL to visit); answer with mcp.elicitation.respond. */
  'mcp.elicitation.request': McpElicitationRequest,
  /** The request was answered, or cancelled by the server or by time. */
  'mcp.elicitation.done': z.object({ id: z.string(), action: z.enum(['accept', 'decline', 'cancel']) }),
  /** A yes/no question answered without asking: the user had always allowed its kind (`words` says which and where). */
  'mcp.elicitation.granted': z.object({ id: z.string(), server: z.string(), message: z.string(), action: z.string(), words: z.string() }),
  /** A server reports that the user finished on the page of a URL-mode elicitation (`notifications/elicitation/complete`). */
  'mcp.elicitation.complete': z.object({ server: z.string(), elicitationId: z.string() }),
  ...terminalEvents,
  ...workflowEvents,
};

export type Events = typeof events;
export type EventName = keyof Events;
export type EventPayload<E extends EventName> = z.output<Events[E]>;

export function isEventName(name: string): name is EventName {
  return Object.prototype.hasOwnProperty.call(events, name);
}
