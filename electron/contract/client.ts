import { decodeTerminalData, isFrame } from './frames';
import { ErrorResponse, RpcError, SuccessResponse } from './jsonrpc';
import type { EventName, EventPayload } from './events';
import type { MethodName, ParamsOf, ResultOf } from './methods/index';
import type { Pipe } from './pipe';

type Pending = { resolve: (v: unknown) => void; reject: (e: Error) => void; timer: ReturnType<typeof setTimeout> | undefined };

/**
 * The one client of the contract: typed requests and events over any pipe. The renderer uses it
 * over IPC or the WebSocket; Erasmus's MCP servers use it over an in-memory pair bound to a core in
 * the same process, or over the WebSocket of a running Erasmus (`--connect`).
 */
export class RpcClient {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly listeners = new Map<string, Set<(payload: unknown) => void>>();
  private readonly anyListeners = new Set<(event: string, payload: unknown) => void>();
  private readonly closeListeners = new Set<() => void>();
  private closed = false;

  constructor(
    private readonly pipe: Pipe,
    /** Where this client leads, for error messages (e.g. "this process", a URL without its token). */
    readonly where: string = 'the Erasmus core',
  ) {
    pipe.onMessage((text) => this.receive(text));
    pipe.onClose(() => {
      if (this.closed) return;
      this.closed = true;
      for (const p of this.pending.values()) {
        if (p.timer) clearTimeout(p.timer);
        p.reject(new Error(`connection to ${this.where} closed`));
      }
      this.pending.clear();
      for (const l of this.closeListeners) l();
    });
  }

  get isClosed(): boolean {
    return this.closed;
  }

  request<M extends MethodName>(method: M, params: ParamsOf<M>, timeoutMs = 0): Promise<ResultOf<M>> {
    if (this.closed) return Promise.reject(new Error(`connection to ${this.where} is closed`));
    const id = this.nextId++;
    return new Promise<ResultOf<M>>((resolve, reject) => {
      const timer =
        timeoutMs > 0
          ? setTimeout(() => {
              this.pending.delete(id);
              reject(new Error(`${method} timed out after ${timeoutMs} ms`));
            }, timeoutMs)
          : undefined;
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject, timer });
      this.pipe.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
    });
  }

  /**
   * A request that wants no answer (a JSON-RPC notification): the core runs it and sends nothing
   * back, and a failure is not reported. For messages sent often whose answer nobody reads
   * (`terminal.ack`).
   */
  notify<M extends MethodName>(method: M, params: ParamsOf<M>): void {
    if (this.closed) return;
    this.pipe.send(JSON.stringify({ jsonrpc: '2.0', method, params }));
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

  onClose(listener: () => void): () => void {
    this.closeListeners.add(listener);
    return () => this.closeListeners.delete(listener);
  }

  close(): void {
    this.pipe.close();
  }

  private receive(text: string): void {
    if (isFrame(text)) {
      let data;
      try {
        data = decodeTerminalData(text);
      } catch (err) {
        console.error(`erasmus: a frame from ${this.where} was dropped: ${(err as Error).message}`);
        return;
      }
      return this.emit('terminal.data', data);
    }
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
      this.emit(method, params);
    }
  }

  private emit(method: string, params: unknown): void {
    for (const l of this.listeners.get(method) ?? []) l(params);
    for (const l of this.anyListeners) l(method, params);
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
