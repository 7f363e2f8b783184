import { z } from 'zod';
import type { MethodTable } from '../table';

export const McpServerState = z.enum(['disabled', 'starting', 'ready', 'errored', 'stopped']);
export type McpServerState = z.infer<typeof McpServerState>;

export const McpServerStatus = z.object({
  name: z.string(),
  transport: z.enum(['stdio', 'http', 'sse', 'websocket', 'in-process']),
  state: McpServerState,
  /** The config file the server came from (absent for in-process servers). */
  source: z.string().optional(),
  description: z.string().optional(),
  /** Why the server is errored (crash, bad config entry, missing variable, garbage on stdout). */
  error: z.string().optional(),
  /** The last lines the server wrote on stderr. */
  stderrTail: z.array(z.string()),
  logFile: z.string().optional(),
  pid: z.number().optional(),
  restarts: z.number(),
  tools: z.number(),
  serverInfo: z.object({ name: z.string(), version: z.string() }).optional(),
  protocolVersion: z.string().optional(),
  instructions: z.string().optional(),
});
export type McpServerStatus = z.infer<typeof McpServerStatus>;

/** The tool annotations of the MCP spec (all optional hints). */
export const McpToolAnnotations = z
  .object({
    title: z.string().optional(),
    readOnlyHint: z.boolean().optional(),
    destructiveHint: z.boolean().optional(),
    idempotentHint: z.boolean().optional(),
    openWorldHint: z.boolean().optional(),
  })
  .passthrough();

export const McpToolInfo = z.object({
  server: z.string(),
  name: z.string(),
  /** `${server}__${name}`: unique across the hub, safe as an LLM tool name. */
  qualifiedName: z.string(),
  title: z.string().optional(),
  description: z.string(),
  inputSchema: z.record(z.string(), z.unknown()),
  outputSchema: z.record(z.string(), z.unknown()).optional(),
  annotations: McpToolAnnotations,
  /** The server's config lists this tool in `alwaysAllow`: no approval needed. */
  alwaysAllow: z.boolean(),
});
export type McpToolInfo = z.infer<typeof McpToolInfo>;

export const McpToolsetSummary = z.object({
  name: z.string(),
  /** One line. */
  description: z.string(),
  kind: z.enum(['server', 'group']),
  servers: z.array(z.string()),
  tools: z.number(),
});
export type McpToolsetSummary = z.infer<typeof McpToolsetSummary>;

export const McpConfigIssue = z.object({ file: z.string(), entry: z.string().optional(), message: z.string() });

export const McpTrustPreview = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  package: z.string().optional(),
  command: z.string(),
  args: z.array(z.string()),
  envKeys: z.array(z.string()),
  hash: z.string(),
  trusted: z.boolean(),
});

const Json = z.record(z.string(), z.unknown());
const ServerParam = z.string().min(1).max(64);

export const mcpMethods = {
  'mcp.servers': { params: z.object({}).strict(), result: z.object({ servers: z.array(McpServerStatus), issues: z.array(McpConfigIssue) }) },
  'mcp.toolsets': { params: z.object({}).strict(), result: z.object({ toolsets: z.array(McpToolsetSummary) }) },
  'mcp.toolset.open': { params: z.object({ name: z.string().min(1) }).strict(), result: z.object({ tools: z.array(McpToolInfo) }) },
  'mcp.tools': { params: z.object({ server: ServerParam.optional() }).strict(), result: z.object({ tools: z.array(McpToolInfo) }) },
  'mcp.call': {
    params: z.object({ server: ServerParam, tool: z.string().min(1), args: Json.optional(), timeoutMs: z.number().int().positive().optional() }).strict(),
    /** The MCP CallToolResult as the server sent it. */
    result: Json,
  },
  'mcp.resources': { params: z.object({ server: ServerParam.optional() }).strict(), result: z.object({ resources: z.array(Json), templates: z.array(Json) }) },
  'mcp.resource.read': { params: z.object({ uri: z.string().min(1), server: ServerParam.optional() }).strict(), result: Json },
  'mcp.resource.subscribe': { params: z.object({ uri: z.string().min(1), server: ServerParam }).strict(), result: z.object({}) },
  'mcp.prompts': { params: z.object({ server: ServerParam.optional() }).strict(), result: z.object({ prompts: z.array(Json) }) },
  'mcp.prompt.get': {
    params: z.object({ server: ServerParam, name: z.string().min(1), args: z.record(z.string(), z.string()).optional() }).strict(),
    result: Json,
  },
  'mcp.server.restart': { params: z.object({ server: ServerParam }).strict(), result: McpServerStatus },
  /** The servers the product suggests (disabled until enabled and trusted). */
  'mcp.catalog': {
    params: z.object({}).strict(),
    result: z.object({ servers: z.array(z.object({ id: z.string(), title: z.string(), description: z.string(), package: z.string().optional(), command: z.string(), args: z.array(z.string()), envKeys: z.array(z.string()) }).passthrough()) }),
  },
  /** Enable a catalog server; the first time needs `trust: true` after the user saw `preview`. */
  'mcp.catalog.enable': {
    params: z.object({ id: z.string().min(1), trust: z.boolean().optional() }).strict(),
    result: z.object({ enabled: z.boolean(), preview: McpTrustPreview }),
  },
  /** The user's answer to an mcp.elicitation.request event. */
  'mcp.elicitation.respond': {
    params: z
      .object({ id: z.string().min(1), action: z.enum(['accept', 'decline', 'cancel']), content: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.array(z.string())])).optional() })
      .strict(),
    result: z.object({ delivered: z.boolean() }),
  },
  'mcp.reload': { params: z.object({}).strict(), result: z.object({ servers: z.array(McpServerStatus), issues: z.array(McpConfigIssue) }) },
} satisfies MethodTable;
