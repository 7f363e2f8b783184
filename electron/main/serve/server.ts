import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import { CSP, MAX_MESSAGE_CHARS } from '../../contract/index';
import type { Core } from '../api/core';
import { webSocketPipe } from './ws-pipe';

export interface ServeOptions {
  port?: number;
  /** Without `port`: the port to serve on when it is free (the last one served), else a free one. */
  preferredPort?: number;
  /** Folder of the built renderer to serve; omitted → only the WebSocket is served. */
  rendererDir?: string;
  token?: string;
}

export interface RunningServer {
  url: string;
  wsUrl: string;
  port: number;
  token: string;
  close(): Promise<void>;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
};

export { CSP };

/**
 * Browser mode: the built renderer over HTTP and the contract over a WebSocket at `/rpc`, on
 * 127.0.0.1 only. A WebSocket needs the random token; a foreign Host or Origin is refused.
 */
export async function serve(core: Core, options: ServeOptions = {}): Promise<RunningServer> {
  const token = options.token ?? randomBytes(24).toString('base64url');
  let port = 0;
  const allowedHosts = () => new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
  const hostOk = (req: IncomingMessage) => allowedHosts().has(req.headers.host ?? '');
  const originOk = (req: IncomingMessage) => {
    const origin = req.headers.origin;
    if (origin === undefined) return true; // non-browser clients (CLI, MCP bridge) send none; they still need the token
    try {
      return allowedHosts().has(new URL(origin).host) && new URL(origin).protocol === 'http:';
    } catch {
      return false;
    }
  };
  const tokenOk = (req: IncomingMessage) => {
    const given = requestUrl(req)?.searchParams.get('token') ?? '';
    const a = Buffer.from(given);
    const b = Buffer.from(token);
    return a.length === b.length && timingSafeEqual(a, b);
  };

  // Every request is answered, whatever it holds: a bad URL or escape is a 400, a fault a 500, and
  // a broken socket is closed; none of them may end the process (a web page can send the first two).
  const http: Server = createServer((req, res) => {
    res.on('error', () => res.destroy());
    try {
      if (!hostOk(req)) return deny(res, 403, 'forbidden host');
      serveStatic(options.rendererDir, req, res).catch(() => fail(res));
    } catch {
      fail(res);
    }
  });
  http.on('clientError', (_err, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
    else socket.destroy();
  });
  // `ws` is imported here, not when the CLI starts (about 12 ms of CPU at every start, and most commands serve nothing).
  const { WebSocketServer } = await import('ws');
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_CHARS * 4 });
  wss.on('error', () => {});
  http.on('upgrade', (req, socket, head) => {
    socket.on('error', () => socket.destroy());
    const url = requestUrl(req);
    const reason = !url ? '400 Bad Request' : url.pathname !== '/rpc' ? '404 Not Found' : !hostOk(req) || !originOk(req) ? '403 Forbidden' : !tokenOk(req) ? '401 Unauthorized' : '';
    if (reason) {
      if (socket.writable) socket.write(`HTTP/1.1 ${reason}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
      socket.destroy();
      return;
    }
    try {
      wss.handleUpgrade(req, socket, head, (ws) => {
        // A malformed frame (bad UTF-8, unmasked, RSV bits, bad opcode or close code, oversize)
        // is an 'error' on this socket: close this connection, keep the server.
        ws.on('error', () => ws.terminate());
        core.connect(webSocketPipe(ws), 'browser');
      });
    } catch {
      socket.destroy();
    }
  });

  const listen = (p: number) =>
    new Promise<void>((resolve, reject) => {
      const failed = (err: Error) => reject(err);
      http.once('error', failed);
      http.listen(p, '127.0.0.1', () => {
        http.off('error', failed);
        resolve();
      });
    });
  if (options.port === undefined && options.preferredPort) {
    // The last port served, taken since (another program, another home's serve): any free one will do.
    await listen(options.preferredPort).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'EADDRINUSE' && err.code !== 'EACCES') throw err;
      return listen(0);
    });
  } else await listen(options.port ?? 0);
  const address = http.address();
  port = typeof address === 'object' && address ? address.port : 0;
  const close = async () => {
    for (const c of wss.clients) c.terminate();
    await new Promise<void>((r) => wss.close(() => r()));
    http.closeAllConnections();
    await new Promise<void>((r) => http.close(() => r()));
  };
  core.disposables.defer(close);
  return {
    url: `http://127.0.0.1:${port}/?token=${token}`,
    wsUrl: `ws://127.0.0.1:${port}/rpc?token=${token}`,
    port,
    token,
    close,
  };
}

/** The request's URL, or null when it cannot be parsed (`//`, a bare `%`): the caller answers 400. */
function requestUrl(req: IncomingMessage): URL | null {
  try {
    return new URL(req.url ?? '/', 'http://127.0.0.1');
  } catch {
    return null;
  }
}

function deny(res: ServerResponse, status: number, message: string): void {
  if (res.headersSent) return void res.destroy();
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'referrer-policy': 'no-referrer' });
  res.end(message);
}

function fail(res: ServerResponse): void {
  try {
    deny(res, 500, 'internal error');
  } catch {
    res.destroy();
  }
}

async function serveStatic(root: string | undefined, req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (!root) return deny(res, 404, 'no renderer is served here');
  if (req.method !== 'GET' && req.method !== 'HEAD') return deny(res, 405, 'method not allowed');
  const url = requestUrl(req);
  if (!url) return deny(res, 400, 'bad request: the URL cannot be parsed');
  let path: string;
  try {
    path = decodeURIComponent(url.pathname);
  } catch {
    return deny(res, 400, 'bad request: the path has a bad %-escape');
  }
  if (path.includes('\0')) return deny(res, 400, 'bad request');
  if (path.endsWith('/')) path += 'index.html';
  const file = normalize(join(root, path));
  if (!file.startsWith(normalize(root + sep))) return deny(res, 403, 'forbidden');
  try {
    const info = await stat(file);
    if (!info.isFile()) return deny(res, 404, 'not found');
    res.writeHead(200, {
      'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
      'content-length': info.size,
      'content-security-policy': CSP,
      'x-frame-options': 'DENY',
      'x-content-type-options': 'nosniff',
      'cache-control': 'no-store',
      'referrer-policy': 'no-referrer',
    });
    if (req.method === 'HEAD') return void res.end();
    createReadStream(file)
      .on('error', () => res.destroy())
      .pipe(res);
  } catch {
    deny(res, 404, 'not found');
  }
}

let lastResort = false;

/**
 * The last line of defence for a long-running face (`erasmus serve`): a fault that escaped every
 * handler is written to stderr and the core keeps serving, instead of one request ending the process.
 */
export function installLastResort(write: (text: string) => void = (t) => void process.stderr.write(t)): void {
  if (lastResort) return;
  lastResort = true;
  process.on('uncaughtException', (err) => write(`erasmus: an unexpected error was caught and the server keeps running: ${err?.stack ?? String(err)}\n`));
  process.on('unhandledRejection', (reason) => write(`erasmus: an unhandled rejection was caught and the server keeps running: ${(reason as Error)?.stack ?? String(reason)}\n`));
}
