import { UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { WebSocketClientTransport } from '@modelcontextprotocol/sdk/client/websocket.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { SignInError, SignInProvider } from '../auth/provider';
import type { ServerConfig } from '../config/schema';
import { orderedDelivery } from './ordered';
import { GroupStdioTransport, type GroupStdioOptions } from './stdio-group';

export interface Connected {
  client: Client;
  transport: Transport;
  /** The transport actually in use (http falls back to sse). */
  kind: 'stdio' | 'http' | 'sse' | 'websocket';
}

type StdioHooks = Pick<GroupStdioOptions, 'onStderr' | 'onInvalidOutput' | 'onExit'>;

/**
 * Connects a fresh client to a configured server. Streamable HTTP falls back to the old HTTP+SSE
 * transport when the server refuses it (as the spec's backwards-compatibility section describes).
 */
export async function connectConfigured(
  config: ServerConfig,
  makeClient: () => Client,
  hooks: StdioHooks,
  timeoutMs: number,
  /** Told of each transport as soon as it exists, so that a stop during connect can close it. */
  track: (transport: Transport) => void = () => {},
  /** OAuth for remote servers (http and sse): a 401 starts discovery and sign-in through it. */
  authProvider?: OAuthClientProvider,
): Promise<Connected> {
  const opts = { timeout: timeoutMs };
  switch (config.transport) {
    case 'stdio': {
      const transport = new GroupStdioTransport({ command: config.command!, args: config.args, env: config.env, cwd: config.cwd, ...hooks });
      track(transport);
      const client = makeClient();
      await client.connect(transport, opts);
      return { client, transport, kind: 'stdio' };
    }
    case 'websocket': {
      // The SDK's transport uses the global WebSocket (Node 22, Electron); Node 20 gets the `ws` one.
      globalThis.WebSocket ??= (await import('ws')).WebSocket as unknown as typeof globalThis.WebSocket;
      const client = makeClient();
      const transport = new WebSocketClientTransport(new URL(config.url!));
      track(transport);
      await client.connect(transport, opts);
      orderedDelivery(transport);
      return { client, transport, kind: 'websocket' };
    }
    case 'sse':
      return withSignIn(authProvider, () => connectSse(config, makeClient, opts, track, authProvider));
    case 'http':
      return withSignIn(authProvider, async () => {
        const client = makeClient();
        const transport = new StreamableHTTPClientTransport(new URL(config.url!), { requestInit: { headers: config.headers }, authProvider });
        track(transport);
        try {
          await client.connect(transport, opts);
          orderedDelivery(transport);
          return { client, transport, kind: 'http' };
        } catch (err) {
          await client.close().catch(() => {});
          // A server that wants sign-in speaks Streamable HTTP; the old SSE transport is for servers that refuse it.
          if (err instanceof UnauthorizedError) throw Object.assign(err, { transport });
          try {
            return await connectSse(config, makeClient, opts, track, authProvider);
          } catch {
            throw err;
          }
        }
      });
  }
}

/**
 * Runs a connect attempt; when the server answers 401 and the SDK's auth client started a browser
 * sign-in, waits for the redirect back, exchanges the code for tokens (kept by the provider, in the
 * keychain) and connects again. One sign-in per attempt: a second refusal is reported, not looped.
 */
async function withSignIn(provider: OAuthClientProvider | undefined, attempt: () => Promise<Connected>): Promise<Connected> {
  try {
    return await attempt();
  } catch (err) {
    if (!(err instanceof UnauthorizedError) || !(provider instanceof SignInProvider)) throw signInError(err);
    const transport = (err as { transport?: { finishAuth(code: string): Promise<void> } }).transport;
    if (!transport) throw signInError(err);
    const code = await provider.takeAuthorizationCode();
    await transport.finishAuth(code);
    try {
      return await attempt();
    } catch (again) {
      throw signInError(again);
    }
  }
}

function signInError(err: unknown): unknown {
  if (!(err instanceof UnauthorizedError)) return err;
  return new SignInError(`the server refused Erasmus's credentials (${err.message || 'unauthorized'}); sign in again or check the server's "oauth" settings`);
}

/** After a 401 mid-session (an expired grant, or a step-up to more scopes): finish the browser sign-in on the same transport. */
export async function finishSignIn(provider: OAuthClientProvider | undefined, transport: Transport | undefined): Promise<boolean> {
  if (!(provider instanceof SignInProvider) || !provider.signInUrl) return false;
  const t = transport as { finishAuth?: (code: string) => Promise<void> } | undefined;
  if (!t?.finishAuth) return false;
  await t.finishAuth(await provider.takeAuthorizationCode());
  return true;
}

async function connectSse(config: ServerConfig, makeClient: () => Client, opts: { timeout: number }, track: (t: Transport) => void, authProvider?: OAuthClientProvider): Promise<Connected> {
  const client = makeClient();
  const headers = config.headers;
  const transport = new SSEClientTransport(new URL(config.url!), {
    authProvider,
    requestInit: { headers },
    eventSourceInit: { fetch: (url, init) => fetch(url, { ...init, headers: { ...(init?.headers as Record<string, string>), ...headers } }) },
  });
  track(transport);
  try {
    await client.connect(transport, opts);
  } catch (err) {
    await client.close().catch(() => {});
    if (err instanceof UnauthorizedError) throw Object.assign(err, { transport });
    throw err;
  }
  orderedDelivery(transport);
  return { client, transport, kind: 'sse' };
}
