import { GuardedStdioServerTransport } from '../stdio-transport';
import { appVersion, Paths } from '../../main/paths/index';
import { createBackend } from './backend';
import { TolerantTransport } from './dialect';
import { createErasmusServer } from './server';
import { loadServerSettings, type ServerSettings } from './settings';

export { createErasmusServer, type ErasmusServerDeps } from './server';
export { createBackend, type ErasmusBackend } from './backend';

export interface ErasmusServerOptions {
  /** ws://127.0.0.1:PORT?token=… of a running Erasmus (desktop app or `erasmus serve`). */
  connect?: string;
  /** Serve streamable HTTP on 127.0.0.1:PORT (/mcp) instead of stdio; 0 picks a free port. */
  http?: number;
  connectTimeoutMs?: number;
  connectRetries?: number;
  autoApprove?: boolean;
  home?: string;
  env?: NodeJS.ProcessEnv;
}

/** stderr only: stdout carries the protocol and nothing else. */
const log = (message: string) => process.stderr.write(`[erasmus mcp] ${message}\n`);

async function setup(o: ErasmusServerOptions) {
  const env = o.env ?? process.env;
  const paths = new Paths(o.home);
  const flags: Partial<ServerSettings> = { connectTimeoutMs: o.connectTimeoutMs, connectRetries: o.connectRetries, autoApprove: o.autoApprove };
  const settings = await loadServerSettings(paths.configYaml, env, Object.fromEntries(Object.entries(flags).filter(([, v]) => v !== undefined)));
  const version = appVersion();
  const backend = createBackend({ paths, version, env, settings, connect: o.connect, log });
  const make = () => createErasmusServer({ paths, version, link: backend.link, chat: backend.chat, provider: backend.provider, autoApprove: settings.autoApprove, log });
  return { backend, make };
}

/**
 * `erasmus mcp-server erasmus`: runs until the client closes stdin (or SIGTERM/SIGINT), then
 * stops everything it started and returns.
 */
export async function runErasmusServer(o: ErasmusServerOptions = {}): Promise<void> {
  // Anything that would print to stdout (a library's console.log) goes to stderr instead.
  console.log = console.error;
  console.info = console.error;
  const { backend, make } = await setup(o);
  let stop: () => Promise<void>;
  if (o.http !== undefined) {
    // Imported only here: the SDK's HTTP transport brings Hono, whose first lines make Node load its whole fetch
    // (globalThis.Headers), about 15 ms of CPU at every CLI start otherwise.
    const { serveHttp } = await import('./http');
    const h = await serveHttp(make, o.http, log);
    log(`streamable HTTP on ${h.url}?token=${h.token} (or send "Authorization: Bearer ${h.token}"; set ERASMUS_MCP_TOKEN to choose the token)`);
    stop = h.close;
  } else {
    const session = make();
    const stdio = new GuardedStdioServerTransport({ checkParams: false });
    await session.server.connect(new TolerantTransport(stdio));
    log(`ready on stdio${o.connect ? ' (forwarding to a running Erasmus)' : ''}`);
    stop = async () => {
      session.dispose();
      await session.server.close().catch(() => undefined);
    };
  }
  await new Promise<void>((resolve) => {
    const done = () => resolve();
    if (o.http === undefined) {
      process.stdin.once('end', done);
      process.stdin.once('close', done);
    }
    process.once('SIGTERM', done);
    process.once('SIGINT', done);
  });
  log('shutting down');
  await stop();
  await backend.dispose();
}
