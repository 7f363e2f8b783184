import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { UrlElicitationRequiredError, type CompleteRequest, type CompleteResult, type GetPromptResult, type LoggingLevel, type ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import type { EventBus } from '../api/events';
import type { Paths } from '../paths/index';
import { resourcesDir } from '../paths/index';
import type { Redactor, SecretStore } from '../secrets/index';
import { enableCatalogServer, loadCatalog, type Catalog, type CatalogServer, type TrustPreview } from './catalog';
import type { OpenAuthorization } from './auth/provider';
import { ConfigWatcher } from './config/watch';
import { ServerConfigEditor } from './config/manage';
import { configFiles, loadConfig } from './config/load';
import type { ConfigIssue, ServerConfig } from './config/schema';
import { ServerConnection, type ConnectionHooks } from './connection';
import { hubHooks } from './hub-hooks';
import { prepareConnection, projectRoots } from './prepare';
import { ResourceSubscriptions } from './subscriptions';
import { awaitUrlElicitations } from './url-elicitation';
import { groupTools, summarizeToolsets, toolInfos } from './toolsets';
import { TrustStore } from './trust';
import { ProjectTrust } from '../project/trust';
import {
  QUALIFIED_SEPARATOR,
  type CallOptions,
  type CallToolResult,
  type Progress,
  type ElicitationHandler,
  type PromptInfo,
  type ResourceInfo,
  type ResourceTemplateInfo,
  type SamplingHandler,
  type ServerStatus,
  type ToolInfo,
  type ToolsetSummary,
} from './types';

export interface McpHubDeps {
  paths: Paths;
  bus: EventBus;
  /** The keychain: `${secret:NAME}` values, and each remote server's OAuth tokens and registered client. */
  secrets?: Pick<SecretStore, 'get' | 'set' | 'delete'>;
  /**
   * Shows a server's OAuth authorization page (desktop: the system browser). Whatever is set, the
   * page is also in the server's status (`signInUrl`, for the Servers view, browser mode and the CLI)
   * and the connection waits for the loopback redirect.
   */
  openAuthorization?: OpenAuthorization;
  env?: NodeJS.ProcessEnv;
  version?: string;
  /** Health checks (default: ping every 30 s, 10 s to answer). */
  pingIntervalMs?: number;
  pingTimeoutMs?: number;
  /** Where resources/catalog lives (default: the installation's resources folder). */
  resourcesDir?: string;
  /** Masks secrets in servers' stderr logs (the core's redactor). */
  redactor?: Redactor;
}

export interface StartOptions {
  projectDir?: string;
  /** Use this file alone (JSON or YAML, either format) instead of the files under ERASMUS_HOME. */
  configFile?: string;
  /** Watch the config files and apply changes (default true). */
  watch?: boolean;
}

/** The MCP hub: see README.md in this folder for the API. */
export class McpHub {
  private readonly connections = new Map<string, ServerConnection>();
  private issues: ConfigIssue[] = [];
  private sampling?: SamplingHandler;
  private elicitation?: ElicitationHandler;
  private projectDir?: string;
  private configFile?: string;
  private watcher?: ConfigWatcher;
  private catalogCache?: Catalog;
  private reloading: Promise<void> = Promise.resolve();
  private disposed = false;
  private guarded = false;
  readonly trust: TrustStore;
  /** The gate for what a project folder brings (.erasmus/mcp.json and the rest); see project/trust.ts. */
  readonly projectTrust: ProjectTrust;
  /** Edits ERASMUS_HOME/mcp/config.json: add, enable, disable, remove, trust, import (config/manage.ts). */
  readonly config: ServerConfigEditor;
  private readonly hooks: ConnectionHooks;
  private readonly exitGuard = () => {
    for (const c of this.connections.values()) c.killNow();
  };

  constructor(private readonly deps: McpHubDeps) {
    this.hooks = hubHooks({
      bus: this.deps.bus,
      version: this.deps.version ?? '0.1.0',
      secrets: this.deps.secrets,
      openAuthorization: this.deps.openAuthorization,
      emitStatus: (c) => this.emitStatus(c),
      ready: (c) => this.subscribed.resubscribe(c),
      roots: () => projectRoots(this.projectDir),
      sampling: () => this.sampling,
      elicitation: () => this.elicitation,
    });
    this.trust = new TrustStore(deps.paths.trustFile);
    this.projectTrust = new ProjectTrust(deps.paths.projectTrustFile);
    const env = deps.env ?? process.env;
    this.config = new ServerConfigEditor({
      file: deps.paths.mcpConfig,
      trust: this.trust,
      reload: () => this.reload(),
      locations: () => ({ env, home: env.HOME || undefined, projectDir: this.projectDir }),
    });
  }

  // ---- lifecycle -------------------------------------------------------------------------------

  async start(opts: StartOptions = {}): Promise<void> {
    // Last resort if the process exits without dispose(): SIGKILL every child's group.
    if (!this.guarded) process.on('exit', this.exitGuard);
    this.guarded = true;
    this.projectDir = opts.projectDir;
    this.configFile = opts.configFile;
    await this.reload();
    if (opts.watch !== false && !this.watcher) {
      this.watcher = new ConfigWatcher(this.watchedFiles(), () => void this.reload());
    }
  }

  private watchedFiles(): string[] {
    return configFiles({ mcpConfig: this.deps.paths.mcpConfig, configYaml: this.deps.paths.configYaml, projectDir: this.projectDir, configFile: this.configFile });
  }

  /** Re-reads the configuration: new servers start, removed ones stop, changed ones reconnect, the rest are left alone. */
  reload(): Promise<void> {
    this.reloading = this.reloading.then(() => this.applyConfig()).catch(() => {});
    return this.reloading;
  }

  private async applyConfig(): Promise<void> {
    if (this.disposed) return;
    const { servers, issues } = await loadConfig({
      mcpConfig: this.deps.paths.mcpConfig,
      configYaml: this.deps.paths.configYaml,
      projectDir: this.projectDir,
      configFile: this.configFile,
      projectTrust: this.projectTrust,
    });
    this.issues = issues;
    const wanted = new Map<string, ServerConnection>();
    for (const config of servers) wanted.set(config.name, await this.prepare(config));
    const jobs: Promise<void>[] = [];
    for (const [name, old] of this.connections) {
      if (old.target.kind === 'in-process') continue;
      const next = wanted.get(name);
      if (!next || next.options.fingerprint !== old.options.fingerprint) {
        this.connections.delete(name);
        if (!next) this.subscribed.forget(name);
        jobs.push(old.stop());
      }
    }
    await Promise.all(jobs);
    const starts: Promise<void>[] = [];
    for (const [name, conn] of wanted) {
      if (this.connections.has(name)) continue;
      this.connections.set(name, conn);
      starts.push(conn.start());
      if (conn.state !== 'starting') this.emitStatus(conn);
    }
    await Promise.all(starts);
  }

  /** Interpolates one entry (prepare.ts); a missing variable makes that server errored with the names. */
  private prepare(raw: ServerConfig): Promise<ServerConnection> {
    return prepareConnection(raw, {
      env: this.deps.env ?? process.env,
      secrets: this.deps.secrets,
      projectDir: this.projectDir,
      logFile: (name) => this.deps.paths.serverLog(name),
      redactor: this.deps.redactor,
      pingIntervalMs: this.deps.pingIntervalMs,
      pingTimeoutMs: this.deps.pingTimeoutMs,
      hooks: this.hooks,
      issue: (i) => this.issues.push(i),
    });
  }

  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    this.watcher?.dispose();
    // Stop what is running or still connecting at once, then whatever a reload in progress adds.
    await Promise.all([...this.connections.values()].map((c) => c.stop()));
    await this.reloading;
    await Promise.all([...this.connections.values()].map((c) => c.stop()));
    this.connections.clear();
    process.off('exit', this.exitGuard);
  }

  async addInProcessServer(name: string, server: McpServer, opts: { description?: string; alwaysAllow?: string[]; timeoutMs?: number } = {}): Promise<void> {
    if (this.connections.has(name)) throw new Error(`MCP server "${name}" already exists`);
    const conn = new ServerConnection(name, { kind: 'in-process', server }, this.hooks, { ...opts });
    this.connections.set(name, conn);
    await conn.start();
  }

  async removeServer(name: string): Promise<void> {
    const conn = this.connections.get(name);
    if (!conn) return;
    this.connections.delete(name);
    this.subscribed.forget(name);
    await conn.stop();
  }

  async restartServer(name: string): Promise<ServerStatus> {
    const conn = this.conn(name);
    await conn.restart();
    return conn.status();
  }

  // ---- status ----------------------------------------------------------------------------------

  servers(): ServerStatus[] {
    return [...this.connections.values()].map((c) => c.status());
  }
  server(name: string): ServerStatus | undefined {
    return this.connections.get(name)?.status();
  }
  configErrors(): ConfigIssue[] {
    return [...this.issues];
  }

  /** Resolves when the server is ready; rejects (naming it) when it errors or the time runs out. */
  async whenReady(name: string, timeoutMs = 15_000): Promise<ServerStatus> {
    const conn = this.conn(name);
    if (conn.state === 'ready') return conn.status();
    return this.deps.bus
      .waitFor('mcp.server.status', (s) => s.name === name && s.state === 'ready', timeoutMs)
      .catch(() => {
        throw new Error(`MCP server "${name}" is not ready after ${timeoutMs} ms (${conn.state}${conn.error ? `: ${conn.error}` : ''})`);
      });
  }

  private conn(name: string): ServerConnection {
    const c = this.connections.get(name);
    if (!c) throw new Error(`MCP server "${name}" is not configured (known: ${[...this.connections.keys()].join(', ') || 'none'})`);
    return c;
  }

  // ---- tools and toolsets ----------------------------------------------------------------------

  listTools(server?: string): ToolInfo[] {
    return (server ? [this.conn(server)] : [...this.connections.values()]).flatMap(toolInfos);
  }

  findTool(qualified: string): ToolInfo | undefined {
    const i = qualified.indexOf(QUALIFIED_SEPARATOR);
    if (i < 0) return undefined;
    const server = qualified.slice(0, i);
    if (!this.connections.has(server)) return undefined;
    return this.listTools(server).find((t) => t.qualifiedName === qualified);
  }

  private catalog(): Catalog {
    if (!this.catalogCache) {
      try {
        this.catalogCache = loadCatalog(this.deps.resourcesDir ?? resourcesDir());
      } catch {
        this.catalogCache = { servers: [], groups: [] };
      }
    }
    return this.catalogCache;
  }

  /** The servers the product suggests (resources/catalog), each disabled until enabled and trusted. */
  catalogServers(): CatalogServer[] {
    return this.catalog().servers;
  }

  /** Enables a catalog server; the first time needs `trust: true` (see catalog.ts). Reloads the config when enabled. */
  async enableCatalogServer(id: string, opts: { trust?: boolean } = {}): Promise<{ enabled: boolean; preview: TrustPreview }> {
    const entry = this.catalog().servers.find((s) => s.id === id);
    if (!entry) throw new Error(`no catalog server "${id}" (known: ${this.catalog().servers.map((s) => s.id).join(', ')})`);
    const r = await enableCatalogServer(entry, { trust: this.trust, mcpConfig: this.deps.paths.mcpConfig, trusted: opts.trust });
    if (r.enabled) await this.reload();
    return r;
  }

  /** Name + one line per toolset: each ready server, and each catalog group with tools available. */
  toolsets(): ToolsetSummary[] {
    return summarizeToolsets([...this.connections.values()], this.catalog().groups);
  }

  /** The full tools (with schemas) of a toolset. */
  openToolset(name: string): ToolInfo[] {
    if (this.connections.has(name)) return this.listTools(name);
    const g = this.catalog().groups.find((x) => x.name === name);
    if (!g) throw new Error(`no toolset named "${name}" (known: ${this.toolsets().map((t) => t.name).join(', ') || 'none'})`);
    return groupTools(g, this.listTools());
  }

  async callTool(server: string, tool: string, args: Record<string, unknown> = {}, opts: CallOptions = {}): Promise<CallToolResult> {
    const c = this.conn(server);
    // Progress is asked for only when the caller wants it (a progress token costs every call a little).
    const onProgress = opts.onProgress;
    const progress = onProgress
      ? {
          onprogress: (p: Progress) => {
            onProgress(p);
            this.deps.bus.emit('mcp.progress', { server, progressToken: `${server}:${tool}`, progress: p.progress, total: p.total, message: p.message });
          },
          resetTimeoutOnProgress: true,
        }
      : {};
    // Progress resets the server's default timeout; a timeout the caller gives is a hard limit.
    const hard = opts.timeoutMs ? { maxTotalTimeout: opts.timeoutMs } : {};
    const call = (client: Client, o: RequestOptions) => client.callTool({ name: tool, arguments: args, ...(opts.meta ? { _meta: opts.meta } : {}) }, undefined, { ...o, ...hard, ...progress });
    return (await c.request(
      async (client, o) => {
        try {
          return await call(client, o);
        } catch (err) {
          // -32042: the server needs the user on a page first (a sign-in, a payment); show it, wait for its completion, call again once.
          if (!(err instanceof UrlElicitationRequiredError)) throw err;
          await awaitUrlElicitations(c, err.elicitations, () => this.elicitation, this.urlElicitationTimeoutMs, opts.signal);
          return await call(client, o);
        }
      },
      { timeout: opts.timeoutMs ?? c.timeoutMs, signal: opts.signal },
    )) as CallToolResult;
  }

  /** How long a URL-mode elicitation may take the user before the call gives up. */
  urlElicitationTimeoutMs = 10 * 60_000;

  // ---- resources, prompts, completions, logging -----------------------------------------------

  private ready(server?: string, capability?: 'resources' | 'prompts'): ServerConnection[] {
    if (server) return [this.conn(server)];
    return [...this.connections.values()].filter((c) => c.state === 'ready' && (!capability || c.client?.getServerCapabilities()?.[capability]));
  }

  async listResources(server?: string): Promise<ResourceInfo[]> {
    const lists = await Promise.all(
      this.ready(server, 'resources').map(async (c) => {
        const out: ResourceInfo[] = [];
        let cursor: string | undefined;
        do {
          const page = await c.request((cl, o) => cl.listResources(cursor ? { cursor } : undefined, o));
          out.push(...page.resources.map((r) => ({ ...r, server: c.name })));
          cursor = page.nextCursor;
        } while (cursor);
        return out;
      }),
    );
    return lists.flat();
  }

  async listResourceTemplates(server?: string): Promise<ResourceTemplateInfo[]> {
    const lists = await Promise.all(
      this.ready(server, 'resources').map(async (c) => (await c.request((cl, o) => cl.listResourceTemplates(undefined, o))).resourceTemplates.map((t) => ({ ...t, server: c.name }))),
    );
    return lists.flat();
  }

  /** Reads a resource; without `server`, the server that lists the URI (or the only one with resources). */
  async readResource(uri: string, server?: string): Promise<ReadResourceResult> {
    let name = server;
    if (!name) {
      const owner = (await this.listResources()).find((r) => r.uri === uri);
      const candidates = this.ready(undefined, 'resources');
      name = owner?.server ?? (candidates.length === 1 ? candidates[0]!.name : undefined);
      if (!name) throw new Error(`no MCP server lists the resource ${uri}; name the server`);
    }
    return this.conn(name).request((c, o) => c.readResource({ uri }, o));
  }

  /** Resources a face asked to watch, by server; kept across the server's restarts (subscriptions.ts). */
  private readonly subscribed = new ResourceSubscriptions();

  /**
   * Watches a resource: the server sends `notifications/resources/updated` when it changes, which
   * becomes the `mcp.resource.updated` event. Survives the server's restarts.
   */
  async subscribe(server: string, uri: string): Promise<void> {
    await this.subscribed.subscribe(this.conn(server), uri);
  }
  async unsubscribe(server: string, uri: string): Promise<void> {
    await this.subscribed.unsubscribe(server, uri, (name) => this.conn(name));
  }
  /** The resources of a server being watched. */
  subscriptions(server: string): string[] {
    return this.subscribed.list(server);
  }

  async listPrompts(server?: string): Promise<PromptInfo[]> {
    const lists = await Promise.all(this.ready(server, 'prompts').map(async (c) => (await c.request((cl, o) => cl.listPrompts(undefined, o))).prompts.map((p) => ({ ...p, server: c.name }))));
    return lists.flat();
  }

  getPrompt(server: string, name: string, args: Record<string, string> = {}): Promise<GetPromptResult> {
    return this.conn(server).request((c, o) => c.getPrompt({ name, arguments: args }, o));
  }

  complete(server: string, params: CompleteRequest['params']): Promise<CompleteResult> {
    return this.conn(server).request((c, o) => c.complete(params, o));
  }

  async setLoggingLevel(server: string, level: LoggingLevel): Promise<void> {
    await this.conn(server).request((c, o) => c.setLoggingLevel(level, o));
  }

  ping(server: string): Promise<number> {
    return this.conn(server).ping();
  }

  // ---- client capabilities ---------------------------------------------------------------------

  setSamplingHandler(h: SamplingHandler | undefined): void {
    this.sampling = h;
  }
  setElicitationHandler(h: ElicitationHandler | undefined): void {
    this.elicitation = h;
  }
  /** Who answers the servers' questions in this process (a face's handler), if anyone: a durable run's workers' questions are asked there too. */
  get elicitationHandler(): ElicitationHandler | undefined {
    return this.elicitation;
  }
  /** The open project (its folder), if one is open. */
  get project(): string | undefined {
    return this.projectDir;
  }
  setRoots(projectDir: string | undefined): void {
    this.projectDir = projectDir;
    for (const c of this.connections.values()) if (c.state === 'ready') void c.client?.sendRootsListChanged().catch(() => {});
  }

  /**
   * The open project, in one place for every face: the servers' roots, `${workspaceFolder}` and the
   * project's `.erasmus/mcp.json` are re-evaluated (servers whose filled-in config changed restart).
   * A project file's servers start only once the user trusted the file's content (project/trust.ts, applied in loadConfig).
   */
  async setProject(projectDir: string | undefined): Promise<void> {
    if (projectDir === this.projectDir) return;
    this.setRoots(projectDir);
    if (!this.guarded || this.disposed) return; // not started: start() reads the project's config
    if (this.watcher) {
      this.watcher.dispose();
      this.watcher = new ConfigWatcher(this.watchedFiles(), () => void this.reload());
    }
    await this.reload();
  }

  private emitStatus(c: ServerConnection): void {
    if (!this.disposed || c.state === 'stopped') this.deps.bus.emit('mcp.server.status', c.status());
  }
}
