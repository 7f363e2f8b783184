import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  CreateMessageRequestSchema,
  ElicitationCompleteNotificationSchema,
  ElicitRequestSchema,
  ErrorCode,
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
  McpError,
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { JsonSchemaType, JsonSchemaValidator, jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';
import type { EventBus } from '../api/events';
import type { ServerConnection } from './connection';
import type { ElicitationHandler, SamplingHandler } from './types';

export interface HubClientContext {
  version: string;
  bus: EventBus;
  roots(): { uri: string; name: string }[];
  sampling(): SamplingHandler | undefined;
  elicitation(): ElicitationHandler | undefined;
}

/**
 * The SDK's validator for tools' output schemas (Ajv), compiled when a tool's first result is checked instead of when
 * its server's tools are listed. The SDK compiles every listed tool's schema at once: about 50 ms of each session's
 * start for the built-in toolsets alone, mostly for tools never called; and one schema Ajv cannot compile failed the
 * whole list, so none of that server's tools could be called. Now only that tool's call fails, with Ajv's words.
 */
export class LazyJsonSchemaValidator implements jsonSchemaValidator {
  private ajv: AjvJsonSchemaValidator | undefined;
  /** How many schemas were compiled (tests). */
  compiled = 0;

  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    let validate: JsonSchemaValidator<T> | undefined;
    return (input) => {
      if (!validate) {
        validate = (this.ajv ??= new AjvJsonSchemaValidator()).getValidator<T>(schema);
        this.compiled++;
      }
      return validate(input);
    };
  }
}

/**
 * An SDK client with Erasmus's client capabilities (roots, sampling, elicitation with schema
 * defaults) routed to the handlers the core sets, and every server notification turned into an event.
 */
export function createHubClient(conn: ServerConnection, ctx: HubClientContext): Client {
  const server = conn.name;
  const bus = ctx.bus;
  const client = new Client(
    { name: 'erasmus', version: ctx.version },
    { capabilities: { roots: { listChanged: true }, sampling: {}, elicitation: { form: { applyDefaults: true }, url: {} } }, jsonSchemaValidator: new LazyJsonSchemaValidator() },
  );
  client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: ctx.roots() }));
  client.setRequestHandler(CreateMessageRequestSchema, async (req, extra) => {
    const handler = ctx.sampling();
    if (!handler) throw new McpError(ErrorCode.InvalidRequest, 'Erasmus has no model configured for sampling');
    return handler({ server, params: req.params }, extra.signal);
  });
  client.setRequestHandler(ElicitRequestSchema, async (req, extra) => {
    const handler = ctx.elicitation();
    if (!handler) return { action: 'decline' as const };
    return handler({ server, params: req.params }, extra.signal);
  });
  client.setNotificationHandler(ElicitationCompleteNotificationSchema, (n) => {
    conn.elicitationComplete(n.params.elicitationId);
    bus.emit('mcp.elicitation.complete', { server, elicitationId: n.params.elicitationId });
  });
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => void conn.refreshTools().catch(() => {}));
  client.setNotificationHandler(ResourceListChangedNotificationSchema, () => bus.emit('mcp.resources.changed', { server }));
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => bus.emit('mcp.resource.updated', { server, uri: n.params.uri }));
  client.setNotificationHandler(PromptListChangedNotificationSchema, () => bus.emit('mcp.prompts.changed', { server }));
  client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => bus.emit('mcp.log', { server, level: n.params.level, logger: n.params.logger, data: n.params.data }));
  return client;
}
