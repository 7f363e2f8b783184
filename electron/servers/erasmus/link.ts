import type WebSocket from 'ws';
import { RpcClient, type Pipe } from '../../contract/index';

/**
 * The server's client of the Erasmus contract: the contract's RpcClient over an in-memory pair bound
 * to a core in this process, or over the WebSocket of a running Erasmus (`--connect`): the tools are
 * the same code either way. `where` names the other end in error messages.
 */
export class CoreLink extends RpcClient {
  constructor(pipe: Pipe, where: string) {
    super(pipe, `Erasmus (${where})`);
  }
}

export interface ConnectOptions {
  /** Per attempt (default 30 s). */
  timeoutMs: number;
  /** Further attempts after the first fails (default 3). */
  retries: number;
  /** Pause between attempts (default 500 ms, doubled each time). */
  backoffMs?: number;
  log?: (message: string) => void;
}

/** `ws://127.0.0.1:PORT?token=…` → the contract endpoint `/rpc?token=…` of `erasmus serve`. */
export function normalizeConnectUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`--connect: not a URL: ${JSON.stringify(raw)} (expected ws://127.0.0.1:PORT?token=…)`);
  }
  if (url.protocol !== 'ws:' && url.protocol !== 'wss:') throw new Error(`--connect: expected a ws:// or wss:// URL, got ${url.protocol}`);
  if (!url.searchParams.get('token')) throw new Error('--connect: the URL has no ?token=… (erasmus serve prints it)');
  if (url.pathname === '/' || url.pathname === '') url.pathname = '/rpc';
  return url;
}

/** The URL without its token, for messages and logs. */
export function redactUrl(url: URL): string {
  return url.href.replace(/([?&]token=)[^&#]*/, '$1…');
}

async function openOnce(url: URL, timeoutMs: number): Promise<WebSocket> {
  // `ws` is imported when a link opens, not at every CLI start.
  const { default: WebSocket } = await import('ws');
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { handshakeTimeout: timeoutMs });
    const timer = setTimeout(() => {
      ws.terminate();
      reject(new Error(`timed out after ${timeoutMs} ms`));
    }, timeoutMs);
    ws.once('open', () => {
      clearTimeout(timer);
      resolve(ws);
    });
    ws.once('unexpected-response', (_req, res) => {
      clearTimeout(timer);
      ws.terminate();
      reject(new Error(`refused with HTTP ${res.statusCode}${res.statusCode === 401 || res.statusCode === 403 ? ' (wrong token?)' : ''}`));
    });
    ws.once('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
  });
}

function socketPipe(ws: WebSocket): Pipe {
  return {
    send: (m) => {
      if (ws.readyState === ws.OPEN) ws.send(m);
    },
    onMessage(l) {
      const h = (data: WebSocket.RawData) => l(String(data));
      ws.on('message', h);
      return () => ws.off('message', h);
    },
    onClose(l) {
      ws.on('close', l);
      return () => ws.off('close', l);
    },
    close: () => ws.close(),
  };
}

/** Connects to a running Erasmus, retrying with backoff; the error names every attempt's failure. */
export async function connectLink(raw: string, o: ConnectOptions): Promise<CoreLink> {
  const url = normalizeConnectUrl(raw);
  const shown = redactUrl(url);
  const failures: string[] = [];
  let pause = o.backoffMs ?? 500;
  for (let attempt = 0; attempt <= o.retries; attempt++) {
    try {
      const ws = await openOnce(url, o.timeoutMs);
      o.log?.(`connected to ${shown}`);
      return new CoreLink(socketPipe(ws), shown);
    } catch (err) {
      failures.push(`attempt ${attempt + 1}: ${(err as Error).message}`);
      o.log?.(`cannot connect to ${shown} (${failures.at(-1)})`);
      if (attempt < o.retries) {
        await new Promise((r) => setTimeout(r, pause));
        pause *= 2;
      }
    }
  }
  throw new Error(`cannot connect to Erasmus at ${shown} after ${o.retries + 1} attempt(s): ${failures.join('; ')}`);
}
