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
} from '../../../electron/contract/index';

type Pending = { resolve: (v: unknown) => void; reject: (e: Error) => void; timer: ReturnType<typeof setTimeout> | undefined };

/** The renderer's one client of the contract, over whichever pipe it finds. */
export class RpcClient {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly listeners = new Map<string, Set<(payload: unknown) => void>>();
  private readonly anyListeners = new Set<(event: string, payload: unknown) => void>();
  private closed = false;

  constructor(private readonly pipe: Pipe) {
    pipe.onMessage((text) => this.receive(text));
    pipe.onClose(() => {
      this.closed = true;
      for (const p of this.pending.values()) {
        if (p.timer) clearTimeout(p.timer);
        p.reject(new Error('connection to the Erasmus core closed'));
      }
      this.pending.clear();
    });
  }

  request<M extends MethodName>(method: M, params: ParamsOf<M>, timeoutMs = 0): Promise<ResultOf<M>> {
    if (this.closed) return Promise.reject(new Error('connection to the Erasmus core is closed'));
    const id = this.nextId++;
    return new Promise<ResultOf<M>>((resolve, reject) => {
      const timer = timeoutMs > 0 ? setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`${method} timed out after ${timeoutMs} ms`));
      }, timeoutMs) : undefined;
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject, timer });
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

  onAny(listener: (event: string, payload: unknown) => void): () => void {
    this.anyListeners.add(listener);
    return () => this.anyListeners.delete(listener);
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
      for (const l of this.anyListeners) l(method, params);
    }
  }

  private settle(id: string | number, fn: (p: Pending) => void): void {
    if (typeof id !== 'number') return;
    const p = this.pending.get(id);
    if (!p) return;
    this.pending.delete(id);
    if (p.timer) clearTimeout(p.timer);
    fn(p);
  }
}
