import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { TolerantTransport } from './dialect';
import { MemoryEventStore } from './event-store';
import type { createErasmusServer } from './server';

type Session = ReturnType<typeof createErasmusServer> & { transport: StreamableHTTPServerTransport };

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req) {
    size += (c as Buffer).length;
    if (size > 8 * 1024 * 1024) throw new Error('request body over 8 MiB');
    chunks.push(c as Buffer);
  }
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

function fail(res: ServerResponse, status: number, code: number, message: string): void {
  if (res.headersSent) return;
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

function sameSecret(given: string, token: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Streamable HTTP on 127.0.0.1 at /mcp: one server session per MCP session (Mcp-Session-Id), Host
 * checked against the loopback names (DNS rebinding), a browser Origin refused, and a bearer token
 * required (`Authorization: Bearer TOKEN`, or `?token=` for clients that cannot set a header), so
 * no other local process or web page can drive `erasmus_chat`. Streams are resumable (one event store
 * per session, `event-store.ts`). Resolves once listening.
 */
export async function serveHttp(
  make: () => ReturnType<typeof createErasmusServer>,
  port: number,
  log: (m: string) => void,
  token: string = process.env.ERASMUS_MCP_TOKEN?.trim() || randomBytes(24).toString('base64url'),
): Promise<{ http: HttpServer; url: string; token: string; close: () => Promise<void> }> {
  const sessions = new Map<string, Session>();
  const http = createServer((req, res) => {
    void (async () => {
      let url: URL;
      try {
        url = new URL(req.url ?? '/', 'http://127.0.0.1');
      } catch {
        return fail(res, 400, -32600, 'bad request: the URL cannot be parsed');
      }
      if (url.pathname !== '/mcp') return fail(res, 404, -32601, `no endpoint ${url.pathname} (use /mcp)`);
      const origin = req.headers.origin;
      if (origin !== undefined && !/^https?:\/\/(127\.0\.0\.1|localhost)(:\d+)?$/.test(origin)) return fail(res, 403, -32000, `origin ${origin} is not allowed`);
      const auth = /^Bearer (.+)$/i.exec(req.headers.authorization ?? '')?.[1] ?? url.searchParams.get('token') ?? '';
      if (!sameSecret(auth, token)) return fail(res, 401, -32000, 'missing or wrong token: send "Authorization: Bearer TOKEN" (the token erasmus mcp-server printed, or ERASMUS_MCP_TOKEN)');
      const id = req.headers['mcp-session-id'];
      const known = typeof id === 'string' ? sessions.get(id) : undefined;
      if (req.method !== 'POST') {
        if (!known) return fail(res, 400, -32000, 'unknown or missing Mcp-Session-Id');
        return known.transport.handleRequest(req, res);
      }
      let body: unknown;
      try {
        body = await readJson(req);
      } catch (err) {
        return fail(res, 400, -32700, `parse error: ${(err as Error).message}`);
      }
      if (known) return known.transport.handleRequest(req, res, body);
      if (id !== undefined) return fail(res, 404, -32001, 'session not found');
      if (!isInitializeRequest(body)) return fail(res, 400, -32000, 'the first request of a session must be initialize');
      const addr = http.address();
      const p = typeof addr === 'object' && addr ? addr.port : port;
      const session = make() as Session;
      session.transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        enableDnsRebindingProtection: true,
        // Resumable streams: each SSE event gets an id, and a client that reconnects with Last-Event-ID gets what it missed.
        eventStore: new MemoryEventStore(),
        retryInterval: 1000,
        allowedHosts: [`127.0.0.1:${p}`, `localhost:${p}`],
        onsessioninitialized: (sid) => {
          sessions.set(sid, session);
        },
        onsessionclosed: (sid) => {
          sessions.delete(sid);
          session.dispose();
        },
      });
      await session.server.connect(new TolerantTransport(session.transport));
      await session.transport.handleRequest(req, res, body);
    })().catch((err: Error) => {
      log(`http: ${err.message}`);
      fail(res, 500, -32603, 'internal error');
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(port, '127.0.0.1', () => resolve());
  });
  const addr = http.address();
  const url = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : port}/mcp`;
  return {
    http,
    url,
    token,
    close: async () => {
      for (const s of sessions.values()) {
        s.dispose();
        await s.server.close().catch(() => undefined);
      }
      sessions.clear();
      http.closeAllConnections();
      await new Promise<void>((r) => http.close(() => r()));
    },
  };
}
