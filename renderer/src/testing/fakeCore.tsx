import { render, type RenderResult } from '@testing-library/react';
import type { ReactNode } from 'react';
import { createPipePair, type EventName, type EventPayload, type MethodName, type ParamsOf, type ResultOf } from '../../../electron/contract/index';
import { RpcClient } from '../api/client';
import { ClientContext } from '../api/context';
import { ServicesContext, type Services } from '../app/services';
import { RunController } from '../features/project/runController';
import { SessionStore } from '../features/session/sessionStore';
import { ElicitationStore } from '../features/session/elicitationStore';

type Handler<M extends MethodName> = (params: ParamsOf<M>) => ResultOf<M> | Promise<ResultOf<M>>;
export type Handlers = { [M in MethodName]?: Handler<M> };

/**
 * The core's side of the contract for view tests: the real RpcClient talks over an in-memory pipe to
 * these handlers (a method without one answers with an error), and `emit` sends events.
 */
export class FakeCore {
  readonly calls: Array<{ method: string; params: unknown }> = [];
  readonly client: RpcClient;
  readonly services: Services;
  private readonly send: (m: string) => void;

  constructor(public handlers: Handlers = {}) {
    const [core, view] = createPipePair();
    this.send = (m) => core.send(m);
    core.onMessage(async (text) => {
      const msg = JSON.parse(text) as { id?: number; method: MethodName; params: unknown };
      this.calls.push({ method: msg.method, params: msg.params });
      // A notification (no id) gets no answer, as from the core.
      if (msg.id === undefined) return;
      const h = this.handlers[msg.method] as ((p: unknown) => unknown) | undefined;
      try {
        if (!h) throw new Error(`no handler for ${msg.method}`);
        const result = await h(msg.params);
        core.send(JSON.stringify({ jsonrpc: '2.0', id: msg.id, result }));
      } catch (e) {
        const data = (e as { data?: unknown }).data;
        core.send(JSON.stringify({ jsonrpc: '2.0', id: msg.id, error: { code: -32000, message: (e as Error).message, ...(data === undefined ? {} : { data }) } }));
      }
    });
    this.client = new RpcClient(view);
    this.services = { run: new RunController(this.client), sessions: new SessionStore(this.client), elicitations: new ElicitationStore(this.client) };
  }

  on<M extends MethodName>(method: M, handler: Handler<M>): this {
    (this.handlers as Record<string, unknown>)[method] = handler;
    return this;
  }

  emit<E extends EventName>(event: E, payload: EventPayload<E>): void {
    this.send(JSON.stringify({ jsonrpc: '2.0', method: event, params: payload }));
  }

  callsOf(method: MethodName): unknown[] {
    return this.calls.filter((c) => c.method === method).map((c) => c.params);
  }

  render(ui: ReactNode): RenderResult {
    return render(
      <ClientContext.Provider value={this.client}>
        <ServicesContext.Provider value={this.services}>{ui}</ServicesContext.Provider>
      </ClientContext.Provider>,
    );
  }
}
