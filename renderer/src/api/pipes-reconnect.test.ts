// @vitest-environment node
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket as NodeWebSocket, WebSocketServer } from 'ws';
import { RpcClient } from './client';
import { webSocketPipe, type ConnectionStatus } from './pipes';

beforeAll(() => {
  (globalThis as { WebSocket?: unknown }).WebSocket ??= NodeWebSocket;
});

let servers: WebSocketServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    for (const c of s.clients) c.terminate();
    await new Promise((r) => s.close(r));
  }
});

/** A core stand-in: answers `ping` with `pong`, never answers `hang`. */
function core(port = 0): Promise<WebSocketServer> {
  return new Promise((resolve) => {
    const wss: WebSocketServer = new WebSocketServer({ host: '127.0.0.1', port }, (): void => resolve(wss));
    servers.push(wss);
    wss.on('connection', (ws) =>
      ws.on('message', (data) => {
        const msg = JSON.parse(String(data)) as { id: number; method: string };
        if (msg.method === 'ping') ws.send(JSON.stringify({ jsonrpc: '2.0', id: msg.id, result: 'pong' }));
      }),
    );
  });
}
const portOf = (s: WebSocketServer) => (s.address() as { port: number }).port;
const until = async (cond: () => boolean, ms = 5000) => {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
};

describe('the WebSocket pipe', () => {
  it('reconnects after a drop: fails what was in flight at once, queues what is sent meanwhile, and goes on', async () => {
    const first = await core();
    const port = portOf(first);
    const pipe = await webSocketPipe(`ws://127.0.0.1:${port}/rpc`, { firstDelayMs: 20, maxDelayMs: 50, giveUpMs: 5000 });
    const seen: ConnectionStatus[] = [];
    pipe.onStatus((s) => seen.push(s));
    const client = new RpcClient(pipe);
    expect(await client.request('ping' as never, {} as never)).toBe('pong');
    const hanging = client.request('hang' as never, {} as never);
    await new Promise((r) => setTimeout(r, 50));
    // The core goes away: the request in flight fails now, not never.
    for (const c of first.clients) c.terminate();
    await new Promise((r) => first.close(r));
    servers = [];
    await expect(hanging).rejects.toThrow(/dropped before it answered/);
    await until(() => seen.includes('reconnecting'));
    const meanwhile = client.request('ping' as never, {} as never);
    // It comes back on the same address: the pipe connects again and sends what waited.
    await core(port);
    expect(await meanwhile).toBe('pong');
    expect(seen).toEqual(['reconnecting', 'connected']);
    expect(pipe.status).toBe('connected');
    expect(client.isClosed).toBe(false);
    pipe.close();
    await until(() => client.isClosed);
  });

  it('counts the connection lost when the core does not come back in time', async () => {
    const s = await core();
    const pipe = await webSocketPipe(`ws://127.0.0.1:${portOf(s)}/rpc`, { firstDelayMs: 20, maxDelayMs: 40, giveUpMs: 300 });
    const client = new RpcClient(pipe);
    for (const c of s.clients) c.terminate();
    await new Promise((r) => s.close(r));
    servers = [];
    await until(() => client.isClosed, 3000);
    expect(pipe.status).toBe('lost');
  });
});
