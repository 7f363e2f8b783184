import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import { dirname } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, McpError, type Tool } from '@modelcontextprotocol/sdk/types.js';
import type { McpServerState } from '../../contract/index';
import type { ServerConfig } from './config/schema';
import { UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { SignInError, SignInProvider } from './auth/provider';
import { connectConfigured, finishSignIn } from './transport/connect';
import { orderedDelivery } from './transport/ordered';
import { GroupStdioTransport } from './transport/stdio-group';
import { CANNOT_RUN } from './transport/process-group';
import type { ServerStatus } from './types';
import { StreamRedactor, type Redactor } from '../secrets/redactor';
import { safeIcons } from './icons';

export type Target = { kind: 'config'; config: ServerConfig } | { kind: 'in-process'; server: McpServer };

export interface ConnectionHooks {
  /** A new client with the hub's capabilities and handlers installed. */
  makeClient(connection: ServerConnection): Client;
  status(connection: ServerConnection): void;
  toolsChanged(connection: ServerConnection): void;
  stderr(connection: ServerConnection, text: string): void;
  /** OAuth for a remote server (made once per connection; none for stdio and websocket). */
  authProvider?(connection: ServerConnection): Promise<OAuthClientProvider | undefined>;
}

export interface ConnectionOptions {
  description?: string;
  source?: string;
  alwaysAllow?: string[];
  timeoutMs?: number;
  logFile?: string;
  /** Masks secrets in what goes to the log file (across chunk boundaries). */
  redactor?: Redactor;
  /** Known before starting: the entry cannot start (e.g. a missing variable). */
  error?: string;
  disabled?: boolean;
  fingerprint?: string;
  /** Health check: a ping this often (default 30 s); no answer within `pingTimeoutMs` (default 10 s) restarts the server. */
  pingIntervalMs?: number;
  pingTimeoutMs?: number;
}

const STDERR_LINES = 50;
const MAX_CONSECUTIVE_RESTARTS = 5;
const PING_EVERY_MS = 30_000;
export const DEFAULT_CALL_TIMEOUT_MS = 60_000;

/** One supervised MCP server: connect, status, stderr, restart with bounded backoff, ping. */
export class ServerConnection {
  state: McpServerState = 'stopped';
  error?: string;
  client?: Client;
  tools: Tool[] = [];
  restarts = 0;
  private transport?: Transport;
  private transportKind: ServerStatus['transport'];
  private readonly stderrTail: string[] = [];
  private log?: WriteStream;
  private logRedactor?: StreamRedactor;
  private stopping = false;
  private consecutive = 0;
  private readyAt = 0;
  private restartTimer?: NodeJS.Timeout;
  private pingTimer?: NodeJS.Timeout;
  private fatal?: string;
  private ready?: { promise: Promise<void>; resolve: () => void };
  private generation = 0;
  private auth?: Promise<OAuthClientProvider | undefined>;

  constructor(
    readonly name: string,
    readonly target: Target,
    private readonly hooks: ConnectionHooks,
    readonly options: ConnectionOptions = {},
  ) {
    this.transportKind = target.kind === 'in-process' ? 'in-process' : target.config.transport;
    if (options.disabled) this.state = 'disabled';
    if (options.error) this.setState('errored', options.error);
  }

  get timeoutMs(): number {
    return this.options.timeoutMs ?? DEFAULT_CALL_TIMEOUT_MS;
  }
  get alwaysAllow(): string[] {
    return this.options.alwaysAllow ?? [];
  }

  status(): ServerStatus {
    const v = this.client?.getServerVersion();
    const pid = this.transport instanceof GroupStdioTransport ? this.transport.pid : undefined;
    return {
      name: this.name,
      transport: this.transportKind,
      state: this.state,
      source: this.options.source,
      description: this.options.description,
      error: this.error,
      stderrTail: [...this.stderrTail],
      logFile: this.options.logFile,
      pid: this.state === 'ready' || this.state === 'starting' ? pid : undefined,
      restarts: this.restarts,
      tools: this.tools.length,
      serverInfo: v ? { name: v.name, version: v.version } : undefined,
      protocolVersion: this.state === 'ready' ? (this.transport as { protocolVersion?: string } | undefined)?.protocolVersion : undefined,
      instructions: this.client?.getInstructions(),
      signInUrl: this.signInUrl,
      icons: safeIcons((v as { icons?: unknown } | undefined)?.icons),
    };
  }

  /** The authorization page this server waits for the user to finish, if any. */
  get signInUrl(): string | undefined {
    return this.authResolved instanceof SignInProvider ? this.authResolved.signInUrl : undefined;
  }
  private authResolved?: OAuthClientProvider;

  /** Forgets this server's sign-in (tokens and registered client leave the keychain) and reconnects. */
  async signOut(): Promise<void> {
    const provider = await this.auth;
    if (provider instanceof SignInProvider) await provider.signOut();
    await this.restart();
  }

  /** Connects; resolves when ready or errored (never rejects). */
  async start(): Promise<void> {
    if (this.options.disabled || this.options.error) return;
    this.stopping = false;
    const gen = ++this.generation;
    this.fatal = undefined;
    this.setState('starting');
    try {
      const connected = await this.connect();
      if (gen !== this.generation || this.stopping) {
        await connected.client.close().catch(() => {});
        return;
      }
      this.client = connected.client;
      this.transport = connected.transport;
      this.transportKind = this.target.kind === 'in-process' ? 'in-process' : connected.kind;
      connected.client.onclose = () => this.onClosed(gen);
      await this.refreshTools();
      this.readyAt = Date.now();
      this.setState('ready');
      this.schedulePing(gen);
    } catch (err) {
      if (gen !== this.generation || this.stopping) return;
      if (err instanceof SignInError || err instanceof UnauthorizedError) {
        // Waiting on the user: no restart loop that opens page after page. Restarting the server signs in again.
        this.generation++;
        await this.closeTransport();
        this.client = undefined;
        this.transport = undefined;
        this.setState('errored', `needs sign-in: ${err.message}`);
        return;
      }
      const tail = this.stderrTail.slice(-5).join('\n');
      // A program that is not there (or may not run) is not there on the next try either: said once, no restarts.
      const notRun = this.stderrTail.map((l) => CANNOT_RUN.exec(l)).find(Boolean);
      if (notRun && !this.fatal) {
        this.setState(
          'errored',
          `could not start: cannot run ${notRun[1]} (${notRun[2]}). Check the server's command, its entry in mcp/config.json (the Servers view cannot change it: remove the server there and add it again): give the program's full path, or install it; then restart the server.`,
        );
        await this.closeTransport();
        return;
      }
      this.setState('errored', this.fatal ?? `could not start: ${(err as Error).message}${tail ? `\n${tail}` : ''}`);
      await this.closeTransport();
      this.scheduleRestart(gen);
    }
  }

  private async connect(): Promise<{ client: Client; transport: Transport; kind: 'stdio' | 'http' | 'sse' | 'websocket' }> {
    if (this.target.kind === 'in-process') {
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      if (this.target.server.isConnected()) await this.target.server.close();
      await this.target.server.connect(serverSide);
      const client = this.hooks.makeClient(this);
      await client.connect(clientSide, { timeout: this.timeoutMs });
      orderedDelivery(clientSide);
      return { client, transport: clientSide, kind: 'stdio' };
    }
    const config = this.target.config;
    if ((config.transport === 'http' || config.transport === 'sse') && this.hooks.authProvider) {
      this.auth ??= this.hooks.authProvider(this);
      this.authResolved = await this.auth;
    }
    return connectConfigured(
      config,
      () => this.hooks.makeClient(this),
      {
        onStderr: (text) => this.onStderr(text),
        onInvalidOutput: (line, err) => this.onGarbage(line, err),
      },
      this.timeoutMs,
      (transport) => (this.transport = transport),
      this.authResolved,
    );
  }

  async refreshTools(): Promise<void> {
    const client = this.client;
    if (!client?.getServerCapabilities()?.tools) {
      this.tools = [];
      return;
    }
    const tools: Tool[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.withSignIn(() => client.listTools(cursor ? { cursor } : undefined, { timeout: this.timeoutMs }));
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor);
    this.tools = tools;
    this.hooks.toolsChanged(this);
  }

  /** Runs a request on the connected client; every failure names the server. */
  async request<T>(fn: (client: Client, opts: RequestOptions) => Promise<T>, opts: RequestOptions & { timeout?: number } = {}): Promise<T> {
    if (this.state === 'starting' && this.ready) await withTimeout(this.ready.promise, opts.timeout ?? this.timeoutMs, opts.signal);
    const client = this.client;
    if (this.state !== 'ready' || !client) throw this.fail(this.state === 'disabled' ? 'is disabled' : `is not ready (${this.state}${this.error ? `: ${this.error}` : ''})`);
    try {
      return await this.withSignIn(() => fn(client, { timeout: this.timeoutMs, ...opts }));
    } catch (err) {
      if ((this.state as McpServerState) === 'errored' && this.error) throw this.fail(`failed during the request: ${this.error}`);
      // The SDK reports an abort with the timeout's code, so the user's cancel is checked first.
      if (opts.signal?.aborted) throw this.fail(`request was cancelled: ${String((opts.signal.reason as Error | undefined)?.message ?? opts.signal.reason)}`);
      if (err instanceof McpError && err.code === ErrorCode.RequestTimeout)
        throw this.fail(`timed out after ${opts.timeout ?? this.timeoutMs} ms; the request was cancelled (${err.message})`);
      if (err instanceof UnauthorizedError || err instanceof SignInError) throw this.fail(`needs sign-in: ${err.message}`);
      throw this.fail((err as Error).message);
    }
  }

  /** A 401/403 mid-session starts a new sign-in (an expired grant, or a step-up to more scopes): finish it, then try once more. */
  private async withSignIn<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      if (!(err instanceof UnauthorizedError)) throw err;
      this.hooks.status(this);
      const signedIn = await finishSignIn(this.authResolved, this.transport).finally(() => this.hooks.status(this));
      if (!signedIn) throw new SignInError(`refused the request as unauthorized: ${err.message}`);
      try {
        return await fn();
      } catch (again) {
        // One sign-in per request: a server that still refuses would otherwise loop through the browser.
        if (again instanceof UnauthorizedError) throw new SignInError(`still refused after signing in (${again.message || 'insufficient scope'}); the account may lack the access this server asks for`);
        throw again;
      }
    }
  }

  private fail(message: string): Error {
    return new Error(`MCP server "${this.name}" ${message}`);
  }

  private onStderr(text: string): void {
    if (!this.log && this.options.logFile) {
      mkdirSync(dirname(this.options.logFile), { recursive: true });
      this.log = createWriteStream(this.options.logFile, { flags: 'a' });
      this.log.on('error', () => {});
    }
    if (this.options.redactor) {
      this.logRedactor ??= new StreamRedactor(this.options.redactor);
      this.log?.write(this.logRedactor.push(text));
    } else this.log?.write(text);
    for (const line of text.split(/\r?\n/)) if (line.trim()) this.stderrTail.push(line);
    if (this.stderrTail.length > STDERR_LINES) this.stderrTail.splice(0, this.stderrTail.length - STDERR_LINES);
    this.hooks.stderr(this, text);
  }

  private onGarbage(line: string, err: Error): void {
    if (this.fatal) return;
    this.fatal = `wrote something that is not JSON-RPC on stdout: ${JSON.stringify(line.slice(0, 200))} (${err.message.split('\n')[0]})`;
    this.setState('errored', this.fatal);
    void this.closeTransport();
  }

  private onClosed(gen: number): void {
    if (gen !== this.generation || this.stopping) return;
    clearTimeout(this.pingTimer);
    const tail = this.stderrTail.slice(-10).join('\n');
    const reason = this.fatal ?? `exited${tail ? `; last stderr:\n${tail}` : ''}`;
    this.client = undefined;
    this.transport = undefined;
    this.setState('errored', reason);
    if (Date.now() - this.readyAt > 30_000) this.consecutive = 0;
    this.scheduleRestart(gen);
  }

  private scheduleRestart(gen: number): void {
    if (this.stopping || gen !== this.generation) return;
    if (this.consecutive >= MAX_CONSECUTIVE_RESTARTS) {
      this.setState('errored', `${this.error ?? 'failed'} (gave up after ${this.consecutive} restarts; restart it by hand)`);
      return;
    }
    const delay = Math.min(200 * 2 ** this.consecutive, 10_000);
    this.consecutive++;
    this.restartTimer = setTimeout(() => {
      this.restarts++;
      void this.start();
    }, delay);
    this.restartTimer.unref();
  }

  private schedulePing(gen: number): void {
    clearTimeout(this.pingTimer);
    this.pingTimer = setTimeout(async () => {
      if (gen !== this.generation || this.state !== 'ready' || !this.client) return;
      try {
        await this.client.ping({ timeout: this.options.pingTimeoutMs ?? 10_000 });
        this.schedulePing(gen);
      } catch (err) {
        if (gen !== this.generation || this.stopping) return;
        this.fatal = `did not answer ping: ${(err as Error).message}`;
        void this.closeTransport();
      }
    }, this.options.pingIntervalMs ?? PING_EVERY_MS);
    this.pingTimer.unref();
  }

  // ---- URL-mode elicitation: the server says when the user finished on its page ------------------

  private readonly elicitationWaiters = new Map<string, () => void>();
  private readonly elicitationsDone = new Set<string>();

  /** `notifications/elicitation/complete` arrived for this id (it may come before anyone waits). */
  elicitationComplete(elicitationId: string): void {
    const waiter = this.elicitationWaiters.get(elicitationId);
    if (waiter) waiter();
    else {
      this.elicitationsDone.add(elicitationId);
      if (this.elicitationsDone.size > 100) this.elicitationsDone.delete(this.elicitationsDone.values().next().value!);
    }
  }

  /** Resolves when the server reports the elicitation complete; rejects on abort or after `timeoutMs`. */
  waitForElicitation(elicitationId: string, timeoutMs: number, signal?: AbortSignal): Promise<void> {
    if (this.elicitationsDone.delete(elicitationId)) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const done = (err?: Error) => {
        this.elicitationWaiters.delete(elicitationId);
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        if (err) reject(err);
        else resolve();
      };
      const onAbort = () => done(new Error(`cancelled while waiting for the page to be completed (${String((signal?.reason as Error | undefined)?.message ?? signal?.reason)})`));
      const timer = setTimeout(() => done(new Error(`the server did not report the page completed within ${Math.round(timeoutMs / 1000)} s`)), timeoutMs);
      timer.unref();
      if (signal?.aborted) return onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
      this.elicitationWaiters.set(elicitationId, () => done());
    });
  }

  /** Round trip of a ping in ms. */
  async ping(): Promise<number> {
    const t0 = performance.now();
    await this.request((c, o) => c.ping(o));
    return performance.now() - t0;
  }

  private async closeTransport(): Promise<void> {
    const client = this.client;
    const transport = this.transport;
    if (client) await client.close().catch(() => {});
    else if (transport) await transport.close().catch(() => {});
  }

  /** Stops the server and its whole process group; no restart follows. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.generation++;
    clearTimeout(this.restartTimer);
    clearTimeout(this.pingTimer);
    await this.closeTransport();
    if (this.target.kind === 'in-process') await this.target.server.close().catch(() => {});
    this.client = undefined;
    this.transport = undefined;
    this.tools = [];
    if (this.state !== 'disabled' && !this.options.error) this.setState('stopped');
    this.ready?.resolve();
    const rest = this.logRedactor?.flush();
    if (rest) this.log?.write(rest);
    await new Promise<void>((r) => (this.log ? this.log.end(r) : r()));
    this.log = undefined;
  }

  async restart(): Promise<void> {
    await this.stop();
    this.consecutive = 0;
    await this.start();
  }

  /** Synchronous last resort at process exit. */
  killNow(): void {
    if (this.transport instanceof GroupStdioTransport) this.transport.killNow();
  }

  private setState(state: McpServerState, error?: string): void {
    this.state = state;
    this.error = state === 'errored' ? error : undefined;
    if (state === 'starting' && !this.ready) {
      let resolve!: () => void;
      const promise = new Promise<void>((r) => (resolve = r));
      this.ready = { promise, resolve };
    }
    if (state !== 'starting' && this.ready) {
      this.ready.resolve();
      this.ready = undefined;
    }
    this.hooks.status(this);
  }
}

function withTimeout(p: Promise<void>, ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => resolve(), { once: true });
    void p.then(() => {
      clearTimeout(t);
      resolve();
    });
  });
}
