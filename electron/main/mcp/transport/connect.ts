import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { WebSocketClientTransport } from '@modelcontextprotocol/sdk/client/websocket.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { WebSocket as WsWebSocket } from 'ws';
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
      globalThis.WebSocket ??= WsWebSocket as unknown as typeof globalThis.WebSocket;
      const client = makeClient();
      const transport = new WebSocketClientTransport(new URL(config.url!));
      track(transport);
      await client.connect(transport, opts);
      orderedDelivery(transport);
      return { client, transport, kind: 'websocket' };
    }
    case 'sse':
      return connectSse(config, makeClient, opts, track);
    case 'http': {
      const client = makeClient();
      const transport = new StreamableHTTPClientTransport(new URL(config.url!), { requestInit: { headers: config.headers } });
      track(transport);
      try {
        await client.connect(transport, opts);
        orderedDelivery(transport);
        return { client, transport, kind: 'http' };
      } catch (err) {
        await client.close().catch(() => {});
        try {
          return await connectSse(config, makeClient, opts, track);
        } catch {
          throw err;
        }
      }
    }
  }
}

async function connectSse(config: ServerConfig, makeClient: () => Client, opts: { timeout: number }, track: (t: Transport) => void): Promise<Connected> {
  const client = makeClient();
  const headers = config.headers;
  const transport = new SSEClientTransport(new URL(config.url!), {
    requestInit: { headers },
    eventSourceInit: { fetch: (url, init) => fetch(url, { ...init, headers: { ...(init?.headers as Record<string, string>), ...headers } }) },
  });
  track(transport);
  await client.connect(transport, opts);
  orderedDelivery(transport);
  return { client, transport, kind: 'sse' };
}
