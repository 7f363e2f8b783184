import type { RpcClient } from '../../api/client';
import { Store } from '../../ui/store';
import type { SessionReplayItem } from '../../../../electron/contract/index';
import { cutOff, emptySession, reduceSession, type SessionItem, type SessionState } from './sessionState';

export interface Sessions {
  byId: Readonly<Record<string, SessionState>>;
  /** Ids in the order they were first seen. */
  order: readonly string[];
}

/** Every agent session this window has seen, folded from `agent.event` as it streams. */
export class SessionStore extends Store<Sessions> {
  private readonly off: () => void;
  constructor(private readonly client: RpcClient) {
    super({ byId: {}, order: [] });
    const offEvents = client.on('agent.event', (e) => {
      this.set((s) => ({
        byId: { ...s.byId, [e.sessionId]: reduceSession(s.byId[e.sessionId], e) },
        order: s.order.includes(e.sessionId) ? s.order : [...s.order, e.sessionId],
      }));
    });
    // A question answered by an "always allow" is not asked, but the transcript of the session that made the call says so.
    const offGranted = client.on('mcp.elicitation.granted', (g) => {
      const owner = this.ownerOf(g.server);
      if (owner) this.addQuestion(owner, { id: g.id, server: g.server, message: g.message, answer: 'accept', yesNo: true, action: g.action, always: g.words, auto: true });
    });
    this.off = () => {
      offEvents();
      offGranted();
    };
  }

  /** Shows what the user sent (the event stream carries only the model's side). */
  addUserMessage(sessionId: string, text: string): void {
    this.set((s) => {
      const prev = s.byId[sessionId] ?? emptySession(sessionId, Date.now());
      const at = Date.now();
      const item = { kind: 'user' as const, id: `u${at}-${prev.items.length}`, text, at };
      return { byId: { ...s.byId, [sessionId]: { ...prev, items: [...prev.items, item] } }, order: s.order.includes(sessionId) ? s.order : [...s.order, sessionId] };
    });
  }

  /** Shows the task a session was started with, before anything the model said (its events may arrive first). */
  addTask(sessionId: string, text: string): void {
    this.set((s) => {
      const prev = s.byId[sessionId] ?? emptySession(sessionId, Date.now());
      if (prev.items.some((i) => i.kind === 'user' && !i.steered)) return s;
      const item = { kind: 'user' as const, id: `u${prev.startedAt}-task`, text, at: prev.startedAt };
      return { byId: { ...s.byId, [sessionId]: { ...prev, items: [item, ...prev.items] } }, order: s.order.includes(sessionId) ? s.order : [...s.order, sessionId] };
    });
  }

  /**
   * Puts a logged conversation before what a session shows: a chat continued after a conversation rewind starts a
   * session on the rewound log, whose turns the model reads and the user should see too (not only the new message).
   */
  addEarlier(sessionId: string, logged: SessionReplayItem[]): void {
    const earlier = replay(sessionId, logged);
    this.set((s) => {
      const live = s.byId[sessionId];
      const next = live ? { ...live, items: [...earlier.items, ...live.items] } : { ...earlier, running: true, endReason: undefined };
      return { byId: { ...s.byId, [sessionId]: next }, order: s.order.includes(sessionId) ? s.order : [...s.order, sessionId] };
    });
  }

  /** Keeps a server's answered question in the transcript of the session it interrupted. */
  addQuestion(sessionId: string, q: Omit<Extract<SessionItem, { kind: 'question' }>, 'kind' | 'at'>): void {
    this.set((s) => {
      const prev = s.byId[sessionId];
      if (!prev || prev.items.some((i) => i.kind === 'question' && i.id === q.id)) return s;
      // The call the question interrupted counts the wait apart from its run time.
      const items = prev.items.map((i) => (q.waitedMs && i.kind === 'tool' && i.status === 'running' && i.name.startsWith(`${q.server}__`) ? { ...i, waitedMs: (i.waitedMs ?? 0) + q.waitedMs } : i));
      return { ...s, byId: { ...s.byId, [sessionId]: { ...prev, items: [...items, { kind: 'question' as const, ...q, at: Date.now() }] } } };
    });
  }

  /** The session a server's question belongs to: the one whose call to that server is running. */
  ownerOf(server: string, cwd?: string): string | undefined {
    const running = Object.values(this.get().byId).filter((x) => x.running);
    const calling = running.filter((x) => x.items.some((i) => i.kind === 'tool' && i.status === 'running' && i.name.startsWith(`${server}__`)));
    // Components side by side call the same server at once: the question's folder says whose call it is (the session
    // whose project, a component's worktree, holds it; the deepest one, as worktrees lie inside the project's .git).
    const inDir = cwd ? calling.filter((x) => !!x.project && (cwd === x.project || cwd.startsWith(`${x.project}/`))).sort((a, b) => b.project!.length - a.project!.length)[0] : undefined;
    return inDir?.id ?? calling[0]?.id ?? (running.length === 1 ? running[0]!.id : undefined);
  }

  /**
   * Back from a dropped connection (the core may have been restarted): a session this window shows as
   * working that the core no longer runs is cut off (not working, its running call cut off, its waiting
   * approval not asked any more), as a reload would show it.
   */
  async resync(): Promise<void> {
    const live = await this.liveIds();
    if (!live) return;
    const at = Date.now();
    this.set((s) => {
      const stale = Object.values(s.byId).filter((x) => x.running && !live.has(x.id));
      if (!stale.length) return s;
      return { ...s, byId: { ...s.byId, ...Object.fromEntries(stale.map((x) => [x.id, cutOff(x, at)])) } };
    });
  }

  /** Whether the core holds this session (running or ended), so a message can go to it; false after a restart of the core; undefined when it cannot say. */
  async held(sessionId: string): Promise<boolean | undefined> {
    try {
      const { sessions } = await this.client.request('agent.list', {});
      return sessions.some((x) => x.sessionId === sessionId);
    } catch {
      return undefined;
    }
  }

  /** The sessions the core runs now (undefined when it cannot say). */
  private async liveIds(): Promise<Set<string> | undefined> {
    try {
      const { sessions } = await this.client.request('agent.list', {});
      return new Set(sessions.filter((x) => x.running).map((x) => x.sessionId));
    } catch {
      return undefined;
    }
  }

  /**
   * Replays a session this window did not see from its log (sessions.replay). Live events win: a
   * session already known is left as it is.
   */
  async load(sessionId: string): Promise<void> {
    if (this.get().byId[sessionId]) return;
    const [{ items }, live] = await Promise.all([this.client.request('sessions.replay', { sessionId }), this.liveIds()]);
    // A log that stops mid-session (its process was killed) is not a session at work, nor an approval anyone asks.
    const state = live && !live.has(sessionId) ? cutOff(replay(sessionId, items), Date.now()) : replay(sessionId, items);
    this.set((s) => (s.byId[sessionId] ? s : { byId: { ...s.byId, [sessionId]: state }, order: [...s.order, sessionId] }));
  }

  dispose(): void {
    this.off();
  }
}

/** Folds a logged session into the same state live events build. */
export function replay(sessionId: string, items: SessionReplayItem[]): SessionState {
  let s = emptySession(sessionId, items[0]?.type === 'event' ? items[0].event.at : (items[0]?.at ?? 0));
  for (const item of items) {
    if (item.type === 'event') s = reduceSession(s, item.event);
    else s = { ...s, items: [...s.items, { kind: 'user', id: `u${item.at}-${s.items.length}`, text: item.text, at: item.at }] };
  }
  return s;
}
