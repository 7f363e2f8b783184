import WebSocket from 'ws';
import {
  ErrorResponse,
  RpcError,
  SuccessResponse,
  type EventName,
  type EventPayload,
  type MethodName,
  type ParamsOf,
  type Pipe,
  type ResultOf,
} from '../../contract/index';

type Pending = { resolve: (v: unknown) => void; reject: (e: Error) => void };

/**
 * The server's client of the Erasmus contract: typed requests and events over a pipe. The pipe is
 * an in-memory pair bound to a core in this process, or the WebSocket of a running Erasmus
 * (`--connect`): the tools are the same code either way.
 */
export class CoreLink {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly listeners = new Map<string, Set<(payload: unknown) => void>>();
  private closed = false;
  private readonly closeListeners = new Set<() => void>();

  constructor(
    private readonly pipe: Pipe,
    /** Where this link leads, for error messages ("this process" or the URL without its token). */
    readonly where: string,
  ) {
    pipe.onMessage((text) => this.receive(text));
    pipe.onClose(() => {
      this.closed = true;
      for (const p of this.pending.values()) p.reject(new Error(`connection to Erasmus (${where}) closed`));
      this.pending.clear();
      for (const l of this.closeListeners) l();
    });
  }

  get isClosed(): boolean {
    return this.closed;
  }

  request<M extends MethodName>(method: M, params: ParamsOf<M>): Promise<ResultOf<M>> {
    if (this.closed) return Promise.reject(new Error(`connection to Erasmus (${this.where}) is closed`));
    const id = this.nextId++;
    return new Promise<ResultOf<M>>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.pipe.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
    });
  }

  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void {
    let set = this.listeners.get(event);
    if (!set) this.listeners.set(event, (set = new Set()));
    const l = listener as (p: unknown) => void;
    set.add(l);
    return () => set.delete(l);
  }

  onClose(listener: () => void): () => void {
    this.closeListeners.add(listener);
    return () => this.closeListeners.delete(listener);
  }

  close(): void {
    this.pipe.close();
  }

  private receive(text: string): void {
    let msg: unknown;
    try {
      msg = JSON.parse(text);
    } catch {
      return;
    }
    for (const m of Array.isArray(msg) ? msg : [msg]) this.receiveOne(m);
  }

  private receiveOne(msg: unknown): void {
    const ok = SuccessResponse.safeParse(msg);
    if (ok.success) return this.settle(ok.data.id, (p) => p.resolve(ok.data.result));
    const err = ErrorResponse.safeParse(msg);
    if (err.success) {
      const e = err.data.error;
      if (err.data.id !== null) this.settle(err.data.id, (p) => p.reject(new RpcError(e.code, e.message, e.data)));
      return;
    }
    if (msg && typeof msg === 'object' && 'method' in msg && typeof (msg as { method: unknown }).method === 'string') {
      const { method, params } = msg as { method: string; params?: unknown };
      for (const l of this.listeners.get(method) ?? []) l(params);
    }
  }

  private settle(id: string | number, fn: (p: Pending) => void): void {
    if (typeof id !== 'number') return;
    const p = this.pending.get(id);
    if (!p) return;
    this.pending.delete(id);
    fn(p);
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

function openOnce(url: URL, timeoutMs: number): Promise<WebSocket> {
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
      if (ws.readyState === WebSocket.OPEN) ws.send(m);
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
