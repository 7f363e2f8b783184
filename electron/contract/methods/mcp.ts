import { z } from 'zod';
import type { MethodTable } from '../table';

export const McpServerState = z.enum(['disabled', 'starting', 'ready', 'errored', 'stopped']);
export type McpServerState = z.infer<typeof McpServerState>;

/** A server's question to the user (form fields or a URL to visit): the `mcp.elicitation.request` event, and what `mcp.elicitation.pending` lists. */
export const McpElicitationRequest = z.object({
  id: z.string(),
  server: z.string(),
  message: z.string(),
  mode: z.enum(['form', 'url']),
  requestedSchema: z.record(z.string(), z.unknown()).optional(),
  url: z.string().optional(),
});

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
  /** The server asked for OAuth sign-in: the authorization page to open (the connection waits for the redirect back). */
  signInUrl: z.string().optional(),
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
  /**
   * The server marks the tool `_meta['erasmus/unlisted']` (e.g. a runner toolchain the project shows
   * no sign of): not listed to the model when its toolset opens, still callable by name.
   */
  unlisted: z.boolean().optional(),
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

/** A server as the add form gives it (the core checks it and names each field at fault in the error's data.issues). */
export const McpServerInput = z
  .object({
    transport: z.enum(['stdio', 'http', 'sse', 'websocket']),
    command: z.string().optional(),
    args: z.array(z.string()).optional(),
    env: z.record(z.string(), z.string()).optional(),
    cwd: z.string().optional(),
    url: z.string().optional(),
    headers: z.record(z.string(), z.string()).optional(),
    description: z.string().optional(),
  })
  .strict();
export type McpServerInput = z.infer<typeof McpServerInput>;

/** error.data of a refused mcp.server.add: one issue per field ("name", "command", "env.API_KEY"). */
export const McpFieldIssues = z.object({ issues: z.array(z.object({ field: z.string(), message: z.string() })) });

const Transport = z.enum(['stdio', 'http', 'sse', 'websocket']);
/** A server of ERASMUS_HOME/mcp/config.json (env and header values are never sent: they may be secrets). */
export const McpConfigEntry = z.object({
  name: z.string(),
  transport: Transport,
  command: z.string().optional(),
  args: z.array(z.string()),
  envKeys: z.array(z.string()),
  cwd: z.string().optional(),
  url: z.string().optional(),
  headerKeys: z.array(z.string()),
  description: z.string().optional(),
  package: z.string().optional(),
  disabled: z.boolean(),
  trusted: z.boolean(),
  error: z.string().optional(),
});
export type McpConfigEntry = z.infer<typeof McpConfigEntry>;

export const McpImportCandidate = z.object({
  source: z.enum(['claude', 'cursor', 'vscode', 'roo', 'goose']),
  file: z.string(),
  servers: z.array(
    z.object({ name: z.string(), transport: Transport, command: z.string().optional(), args: z.array(z.string()), url: z.string().optional(), envKeys: z.array(z.string()), package: z.string().optional(), exists: z.boolean() }),
  ),
  issues: z.array(McpConfigIssue),
});
export type McpImportCandidate = z.infer<typeof McpImportCandidate>;
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
  /** `subscribed`: the URIs being watched (with a server named). */
  'mcp.resources': { params: z.object({ server: ServerParam.optional() }).strict(), result: z.object({ resources: z.array(Json), templates: z.array(Json), subscribed: z.array(z.string()).optional() }) },
  'mcp.resource.read': { params: z.object({ uri: z.string().min(1), server: ServerParam.optional() }).strict(), result: Json },
  /** Watch a resource: its changes arrive as mcp.resource.updated events, across the server's restarts. */
  'mcp.resource.subscribe': { params: z.object({ uri: z.string().min(1), server: ServerParam }).strict(), result: z.object({}) },
  'mcp.resource.unsubscribe': { params: z.object({ uri: z.string().min(1), server: ServerParam }).strict(), result: z.object({}) },
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
  /** The servers' questions still waiting for an answer, oldest first (a window opened after one was asked shows it). */
  'mcp.elicitation.pending': { params: z.object({}).strict(), result: z.object({ requests: z.array(McpElicitationRequest) }) },
  /** The user's answer to an mcp.elicitation.request event. */
  'mcp.elicitation.respond': {
    params: z
      .object({ id: z.string().min(1), action: z.enum(['accept', 'decline', 'cancel']), content: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.array(z.string())])).optional() })
      .strict(),
    result: z.object({ delivered: z.boolean() }),
  },
  /** The servers of ERASMUS_HOME/mcp/config.json, the one file the Servers view edits. */
  'mcp.config.entries': { params: z.object({}).strict(), result: z.object({ file: z.string(), entries: z.array(McpConfigEntry) }) },
  /** Add a server (never overwrites one); `enable` (default true) trusts the user's own command and starts it. */
  'mcp.server.add': { params: z.object({ name: z.string().max(200), server: McpServerInput, enable: z.boolean().optional() }).strict(), result: McpConfigEntry },
  /** Enable a configured server; an untrusted stdio server needs `trust: true` after the user saw `preview`. */
  'mcp.server.enable': { params: z.object({ server: ServerParam, trust: z.boolean().optional() }).strict(), result: z.object({ enabled: z.boolean(), preview: McpTrustPreview }) },
  'mcp.server.disable': { params: z.object({ server: ServerParam }).strict(), result: z.object({}) },
  'mcp.server.remove': { params: z.object({ server: ServerParam }).strict(), result: z.object({}) },
  /** What a configured server runs (command, package, env keys) and whether it is trusted. */
  'mcp.server.preview': { params: z.object({ server: ServerParam }).strict(), result: McpTrustPreview },
  /** Trust a configured server's command + args (remembered by hash). */
  'mcp.server.trust': { params: z.object({ server: ServerParam }).strict(), result: McpTrustPreview },
  /** Other apps' configs found on this machine (Claude Desktop, Cursor, VS Code, Roo, goose) and their servers. */
  'mcp.import.discover': { params: z.object({}).strict(), result: z.object({ candidates: z.array(McpImportCandidate) }) },
  /** Import the named servers of one discovered file; existing names are skipped, never overwritten. */
  'mcp.import': { params: z.object({ file: z.string().min(1), names: z.array(z.string().min(1)).min(1) }).strict(), result: z.object({ added: z.array(z.string()), skipped: z.array(z.string()) }) },
  'mcp.reload': { params: z.object({}).strict(), result: z.object({ servers: z.array(McpServerStatus), issues: z.array(McpConfigIssue) }) },
} satisfies MethodTable;
