import { z } from 'zod';
import type { MethodTable } from '../table';
import { GrantKind, GrantScope } from '../approval-grants';

export const McpServerState = z.enum(['disabled', 'starting', 'ready', 'errored', 'stopped']);
export type McpServerState = z.infer<typeof McpServerState>;

export const McpIcon = z.object({ src: z.string(), mimeType: z.string().optional(), sizes: z.array(z.string()).optional(), theme: z.enum(['light', 'dark']).optional() });
export type McpIcon = z.infer<typeof McpIcon>;

/**
 * The `_meta` key under which Erasmus's own servers (files, runners) describe what a yes/no question
 * approves, so the app shows it as an approval card: the change as a diff or the new content, the
 * command with its folder and sandbox.
 */
export const APPROVAL_META = 'erasmus/approval';
const TEXT_MAX = 512 * 1024;
export const ElicitationApproval = z.object({
  /** The server's tool (`write_file`, `bash`). */
  tool: z.string().max(200),
  /** What happens if allowed, in words ("Overwrite src/counter.mjs"). */
  action: z.string().max(4000),
  change: z.enum(['create', 'overwrite', 'append', 'remove', 'move', 'command']),
  path: z.string().max(4096).optional(),
  /** The new text: the whole file (create, overwrite) or what is appended. */
  content: z.string().max(TEXT_MAX).optional(),
  /** The file's text before an overwrite, for the diff. */
  before: z.string().max(TEXT_MAX).optional(),
  command: z.string().max(20_000).optional(),
  /** The command as the model wrote it, when a rewrite changed it. */
  original: z.string().max(20_000).optional(),
  cwd: z.string().max(4096).optional(),
  /** Where it runs, in words ("in the sandbox: writes only in …; no network", "WITHOUT a sandbox (…)"). */
  sandbox: z.string().max(2000).optional(),
  reasons: z.array(z.string().max(2000)).max(50).optional(),
  /**
   * A command that needs the network: hosts it names that the project (at `cwd`) does not allow yet;
   * the card offers "Allow <host>" (added to the project's allowed hosts before the answer).
   */
  hosts: z.array(z.string().max(300)).max(20).optional(),
  /** What the user may "always allow" from this card; absent: this action is asked every time. */
  grant: GrantKind.optional(),
});
export type ElicitationApproval = z.infer<typeof ElicitationApproval>;

/** A server's question to the user (form fields or a URL to visit): the `mcp.elicitation.request` event, and what `mcp.elicitation.pending` lists. */
export const McpElicitationRequest = z.object({
  id: z.string(),
  server: z.string(),
  message: z.string(),
  mode: z.enum(['form', 'url']),
  requestedSchema: z.record(z.string(), z.unknown()).optional(),
  url: z.string().optional(),
  /** A yes/no question that approves one action (no fields): what the action is (see APPROVAL_META). */
  approval: ElicitationApproval.optional(),
  /** The scopes an "always allow" of `approval.grant` may take here (`run` only while a workflow run drives the project). */
  alwaysScopes: z.array(GrantScope).optional(),
  /** In `mcp.elicitation.pending`: how long it has waited so far (ms), so a window that connects later (a reload) counts the user's wait from when it was asked. */
  waitedMs: z.number().nonnegative().optional(),
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
  /** The server's icons (MCP 2025-11-25 `serverInfo.icons`): https or data: URLs only; show one through mcp.icon. */
  icons: z.array(McpIcon).optional(),
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
  /** The tool's icons (https or data: URLs). */
  icons: z.array(McpIcon).optional(),
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
const McpRegistryInputs = z.array(
  z.object({
    key: z.string(),
    where: z.enum(['env', 'header']),
    description: z.string(),
    required: z.boolean(),
    secret: z.boolean(),
    default: z.string().optional(),
    /** Where a secret goes in the keychain (the config holds ${secret:NAME}). */
    secretName: z.string().optional(),
  }),
);
/** One way to run a registry server here: an npm/PyPI/OCI package on stdio, or a remote URL, and what it asks for. */
export const McpRegistryPackageOption = z.object({
  kind: z.enum(['npm', 'pypi', 'oci', 'remote']),
  label: z.string(),
  server: McpServerInput,
  inputs: McpRegistryInputs,
});
/**
 * A `.mcpb` bundle the registry points at: downloaded by the core (https, size-capped), checked against
 * the registry's sha256, then installed as a bundle file is. Its settings come from its manifest, so
 * `inputs` is empty: `mcp.registry.bundle` says what it asks for.
 */
export const McpRegistryBundleOption = z.object({
  kind: z.literal('mcpb'),
  label: z.string(),
  bundle: z.object({ url: z.string().min(1).max(2048), sha256: z.string().max(128).optional() }),
  inputs: McpRegistryInputs,
});
export const McpRegistryOption = z.discriminatedUnion('kind', [McpRegistryPackageOption, McpRegistryBundleOption]);
export type McpRegistryOption = z.infer<typeof McpRegistryOption>;
/** A server of the official MCP Registry, as a search returns it. */
export const McpRegistryServer = z.object({
  name: z.string(),
  suggestedName: z.string(),
  title: z.string().optional(),
  description: z.string(),
  version: z.string().optional(),
  repository: z.string().optional(),
  options: z.array(McpRegistryOption),
});
export type McpRegistryServer = z.infer<typeof McpRegistryServer>;

/** What a `.mcpb` bundle is, runs and asks for (read before anything is written). */
export const McpBundleInfo = z.object({
  file: z.string(),
  /** The server name it gets in the config. */
  name: z.string(),
  displayName: z.string(),
  version: z.string(),
  description: z.string(),
  author: z.string().optional(),
  serverType: z.enum(['node', 'python', 'binary', 'uv']),
  /** The manifest's command and args (with ${__dirname} and ${user_config.…} still unfilled). */
  command: z.string(),
  args: z.array(z.string()),
  tools: z.array(z.string()),
  userConfig: z.array(
    z.object({
      key: z.string(),
      type: z.enum(['string', 'number', 'boolean', 'directory', 'file']),
      title: z.string(),
      description: z.string(),
      required: z.boolean(),
      /** Goes to the keychain; the config holds ${secret:NAME}. */
      sensitive: z.boolean(),
      /** Several values, one a line. */
      multiple: z.boolean(),
      default: z.string().optional(),
    }),
  ),
});
export type McpBundleInfo = z.infer<typeof McpBundleInfo>;

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
      .object({
        id: z.string().min(1),
        action: z.enum(['accept', 'decline', 'cancel']),
        content: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.array(z.string())])).optional(),
        /** With `accept`: also allow the request's `approval.grant` from now on, for the run or in the project (one of its `alwaysScopes`). */
        always: GrantScope.optional(),
      })
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
  /** Search the official MCP Registry (error -32000 saying so plainly when it cannot be reached). */
  'mcp.registry.search': {
    /** `cursor`: the `nextCursor` of the page before, for the page after it. */
    params: z.object({ query: z.string().max(200), cursor: z.string().min(1).max(1000).optional() }).strict(),
    /** `nextCursor`: there are more results; ask again with it. */
    result: z.object({ servers: z.array(McpRegistryServer), registry: z.string(), nextCursor: z.string().optional() }),
  },
  /**
   * Download and check (sha256) the `.mcpb` bundle of a registry result, and say what it is and asks for;
   * nothing is written. An error names the expected and the actual sha256 when they differ.
   */
  'mcp.registry.bundle': { params: z.object({ option: McpRegistryBundleOption }).strict(), result: McpBundleInfo },
  /**
   * Add one option of a registry result as a server (disabled: its first enable shows what it runs and asks
   * for trust); secret values go to the keychain. A `.mcpb` option is downloaded, checked and unpacked as
   * `mcp.bundle.install` does, `values` answering its manifest's user_config.
   */
  'mcp.registry.install': {
    params: z.object({ name: z.string().max(200), option: McpRegistryOption, values: z.record(z.string(), z.string()).optional(), description: z.string().max(500).optional() }).strict(),
    result: McpConfigEntry,
  },
  /** Read a `.mcpb` bundle (a path on the core's machine) and say what it is and asks for. */
  'mcp.bundle.inspect': { params: z.object({ file: z.string().min(1).max(4096) }).strict(), result: McpBundleInfo },
  /**
   * Install a `.mcpb` bundle: unpacked under ERASMUS_HOME/mcp/extensions/<name>/, added disabled, sensitive
   * answers in the keychain. `preview` is what it runs, for the trust question before its first start.
   */
  'mcp.bundle.install': {
    params: z.object({ file: z.string().min(1).max(4096), name: z.string().max(64).optional(), values: z.record(z.string(), z.string()).optional() }).strict(),
    result: z.object({ entry: McpConfigEntry, preview: McpTrustPreview }),
  },
  /** An icon of a server or tool as a data: URL (the core fetches an https one: the renderer loads no remote images). */
  'mcp.icon': { params: z.object({ src: z.string().min(1).max(400_000) }).strict(), result: z.object({ dataUrl: z.string() }) },
  'mcp.reload': { params: z.object({}).strict(), result: z.object({ servers: z.array(McpServerStatus), issues: z.array(McpConfigIssue) }) },
} satisfies MethodTable;
