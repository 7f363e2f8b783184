import type { RpcClient } from '../../api/client';
import { Store } from '../../ui/store';
import { reduceSession, type SessionState } from './sessionState';

export interface Sessions {
  byId: Readonly<Record<string, SessionState>>;
  /** Ids in the order they were first seen. */
  order: readonly string[];
}

/** Every agent session this window has seen, folded from `agent.event` as it streams. */
export class SessionStore extends Store<Sessions> {
  private readonly off: () => void;
  constructor(client: RpcClient) {
    super({ byId: {}, order: [] });
    this.off = client.on('agent.event', (e) => {
      this.set((s) => ({
        byId: { ...s.byId, [e.sessionId]: reduceSession(s.byId[e.sessionId], e) },
        order: s.order.includes(e.sessionId) ? s.order : [...s.order, e.sessionId],
      }));
    });
  }

  /** Shows what the user sent (the event stream carries only the model's side). */
  addUserMessage(sessionId: string, text: string): void {
    this.set((s) => {
      const prev = s.byId[sessionId];
      if (!prev) return s;
      const item = { kind: 'user' as const, id: `u${Date.now()}-${prev.items.length}`, text };
      return { ...s, byId: { ...s.byId, [sessionId]: { ...prev, items: [...prev.items, item] } } };
    });
  }

  dispose(): void {
    this.off();
  }
}
