import { callNotRun, whyNotRun, type AgentEvent, type ApprovalDecision, type EndReason, type Usage } from '../../../../electron/contract/index';

/** One thing in a session's transcript, keyed by `kind`; `at` is when it appeared (ms since the epoch). */
export type SessionItem = SessionItemBody & { at?: number };
type SessionItemBody =
  /** `steered`: sent while the agent worked; shown where the model read it (at its next turn). */
  | { kind: 'user'; id: string; text: string; steered?: boolean }
  | { kind: 'assistant'; id: string; text: string; streaming: boolean }
  | {
      kind: 'tool';
      id: string;
      name: string;
      args: Record<string, unknown>;
      status: 'waiting' | 'running' | 'done' | 'error' | 'refused';
      startedAt: number;
      result?: string;
      durationMs?: number;
      /** Of its duration, the time a server's question waited for the user (shown apart from the run time). */
      waitedMs?: number;
      progress?: { progress: number; total?: number; message?: string };
      /** It did not run (refused, declined, nobody could be asked), and why: never shown as a call that ran. */
      notRun?: string;
    }
  | {
      kind: 'approval';
      id: string;
      approvalKind: 'tool' | 'command' | 'sampling';
      callId?: string;
      name: string;
      args: Record<string, unknown>;
      reasons: string[];
      decision?: ApprovalDecision;
      /** When it was answered: the call's time waiting for the user is shown apart from its run time. */
      resolvedAt?: number;
      /** No live process asks it any more (the one that did ended): it cannot be answered, and nothing was done. */
      gone?: boolean;
    }
  | { kind: 'notice'; id: string; level: 'warning' | 'error' | 'info'; text: string }
  /** A block of the model's reasoning, shown collapsed. */
  | { kind: 'reasoning'; id: string; text: string }

  /** A server's question (MCP elicitation) asked while this session's call ran, with the user's answer. */
  | {
      kind: 'question';
      id: string;
      server: string;
      message: string;
      /** `gone`: no live process asks it any more (the one that did ended, or the server stopped waiting); nothing was done. */
      answer: 'accept' | 'decline' | 'cancel' | 'gone';
      /** A yes/no question (Allow / Deny), not a form. */
      yesNo?: boolean;
      /** What it approved, in words ("Overwrite src/a.ts"). */
      action?: string;
      /** How long it waited for the user. */
      waitedMs?: number;
      /** The "always allow" the user chose with it, in words, or that answered it without asking (`auto`). */
      always?: string;
      auto?: boolean;
    };

export interface SessionState {
  id: string;
  provider?: string;
  model?: string;
  /** The provider and model in words (session_started), shown instead of their ids. */
  providerName?: string;
  modelName?: string;
  project?: string;
  /** The session's log (from session_started): what a rewind names. */
  logPath?: string;
  running: boolean;
  startedAt: number;
  items: SessionItem[];
  usage?: Usage;
  /** The last turn's usage (tokens in parts, cost). */
  lastTurn?: Usage;
  endReason?: EndReason;
  turns: number;
  /** Messages the user sent while the agent worked, not read by the model yet (oldest first). */
  queued?: { id: string; text: string }[];
}

export function emptySession(id: string, at: number): SessionState {
  return { id, running: true, startedAt: at, items: [], turns: 0 };
}

const update = (items: SessionItem[], id: string, kind: SessionItem['kind'], fn: (i: SessionItem) => SessionItem): SessionItem[] => {
  const idx = items.findLastIndex((i) => i.kind === kind && i.id === id);
  if (idx < 0) return items;
  const next = [...items];
  next[idx] = fn(items[idx]!);
  return next;
};

const closeStreaming = (items: SessionItem[]): SessionItem[] => {
  const last = items.at(-1);
  return last?.kind === 'assistant' && last.streaming ? [...items.slice(0, -1), { ...last, streaming: false }] : items;
};

/** Folds one agent event into a session's transcript (pure; the store keeps one state per session). Items it adds are stamped with the event's time. */
export function reduceSession(prev: SessionState | undefined, e: AgentEvent): SessionState {
  const next = fold(prev, e);
  if (next.items === prev?.items || !next.items.some((i) => i.at === undefined)) return next;
  return { ...next, items: next.items.map((i) => (i.at === undefined ? { ...i, at: e.at } : i)) };
}

function fold(prev: SessionState | undefined, e: AgentEvent): SessionState {
  const s = prev ?? emptySession(e.sessionId, e.at);
  const items = s.items;
  switch (e.type) {
    case 'session_started':
      return { ...s, provider: e.provider, model: e.model, providerName: e.providerName, modelName: e.modelName, project: e.project, logPath: e.logPath, running: true, endReason: undefined };
    case 'turn_started':
      return { ...s, running: true, endReason: undefined, turns: e.turn, items: closeStreaming(items) };
    case 'sentence': {
      const last = items.at(-1);
      if (last?.kind === 'assistant' && last.streaming) return { ...s, items: [...items.slice(0, -1), { ...last, text: last.text + e.text }] };
      return { ...s, items: [...items, { kind: 'assistant', id: `a${e.at}-${items.length}`, text: e.text, streaming: true }] };
    }
    case 'tool_running': {
      const exists = items.some((i) => i.kind === 'tool' && i.id === e.callId);
      const next = exists
        ? update(items, e.callId, 'tool', (i) => ({ ...i, status: 'running', startedAt: e.at }) as SessionItem)
        : [...closeStreaming(items), { kind: 'tool' as const, id: e.callId, name: e.name, args: e.args, status: 'running' as const, startedAt: e.at }];
      return { ...s, items: next };
    }
    case 'tool_progress':
      return { ...s, items: update(items, e.callId, 'tool', (i) => ({ ...i, progress: { progress: e.progress, total: e.total, message: e.message } }) as SessionItem) };
    case 'tool_complete': {
      const status = e.refused ? 'refused' : e.isError ? 'error' : 'done';
      // The call's duration counts from before its approval: the wait for the user is shown apart.
      const asked = items.findLast((i) => i.kind === 'approval' && i.callId === e.callId);
      const approvalWait = asked?.kind === 'approval' && asked.resolvedAt !== undefined && asked.at !== undefined ? Math.max(0, asked.resolvedAt - asked.at) : 0;
      const done = { kind: 'tool' as const, id: e.callId, name: e.name, args: e.args, status, startedAt: e.at - e.durationMs, result: e.result, durationMs: e.durationMs, ...(approvalWait ? { waitedMs: approvalWait } : {}), ...(callNotRun(e) ? { notRun: whyNotRun(e.result) } : {}) } satisfies SessionItem;
      if (items.some((i) => i.kind === 'tool' && i.id === e.callId)) return { ...s, items: update(items, e.callId, 'tool', (i) => ({ ...done, progress: i.kind === 'tool' ? i.progress : undefined, ...(i.kind === 'tool' && (i.waitedMs || approvalWait) ? { waitedMs: (i.waitedMs ?? 0) + approvalWait } : {}) })) };
      return { ...s, items: [...closeStreaming(items), done] };
    }
    case 'approval_required':
      return {
        ...s,
        items: [...closeStreaming(items), { kind: 'approval', id: e.requestId, approvalKind: e.kind, callId: e.callId, name: e.name, args: e.args, reasons: e.reasons }],
      };
    case 'approval_resolved':
      return { ...s, items: update(items, e.requestId, 'approval', (i) => ({ ...i, decision: e.decision, resolvedAt: e.at }) as SessionItem) };
    case 'reasoning':
      return { ...s, items: [...closeStreaming(items), { kind: 'reasoning', id: `r${e.at}-${items.length}`, text: e.text }] };
    case 'usage':
      return { ...s, usage: e.session, lastTurn: e.turn };
    case 'warning':
      return { ...s, items: [...items, { kind: 'notice', id: `w${e.at}-${items.length}`, level: 'warning', text: e.message }] };
    case 'error':
      return { ...s, items: [...closeStreaming(items), { kind: 'notice', id: `e${e.at}-${items.length}`, level: 'error', text: `${e.code}: ${e.message}` }] };
    case 'complete': {
      const closed = closeStreaming(items);
      const last = closed.at(-1);
      const said = last?.kind === 'assistant' && last.text.trim() === e.answer.trim();
      return { ...s, items: said || !e.answer.trim() ? closed : [...closed, { kind: 'assistant', id: `c${e.at}`, text: e.answer, streaming: false }] };
    }
    case 'session_ended':
      return { ...s, running: false, endReason: e.reason, usage: e.usage, turns: e.turns, items: closeStreaming(items) };
    case 'context_archived':
      return { ...s, items: [...items, { kind: 'notice', id: `x${e.at}`, level: 'info', text: `${e.count} older messages left the context window (kept in the archive).` }] };
    case 'toolset_opened':
      return s;
    case 'steer': {
      const queued = (s.queued ?? []).filter((q) => q.id !== e.id);
      if (e.state === 'queued') return { ...s, queued: [...queued, { id: e.id, text: e.text }] };
      if (e.state === 'delivered') return { ...s, queued, items: [...closeStreaming(items), { kind: 'user', id: `steer-${e.id}`, text: e.text, steered: true }] };
      return { ...s, queued, items: [...items, { kind: 'notice', id: `steer-${e.id}`, level: 'warning', text: `Not delivered (the session ended before the agent's next turn): “${e.text}”` }] };
    }
  }
}

/** The approvals still waiting for an answer, oldest first. */
export function pendingApprovals(s: SessionState): Extract<SessionItem, { kind: 'approval' }>[] {
  return s.items.filter((i): i is Extract<SessionItem, { kind: 'approval' }> => i.kind === 'approval' && !i.decision && !i.gone);
}

/** What the transcript says of a call cut off with its process. */
export const CUT_OFF_RESULT = 'Cut off: the process that ran this call ended before it finished (Erasmus was restarted or stopped).';

/**
 * A session the core no longer runs (its process ended while this window was away): it is not working,
 * a call it had running is cut off, and an approval it waited for is not asked any more (nothing was done).
 */
export function cutOff(s: SessionState, at: number): SessionState {
  if (!s.running) return s;
  const items = closeStreaming(s.items).map((i): SessionItem =>
    i.kind === 'tool' && (i.status === 'running' || i.status === 'waiting') ? { ...i, status: 'error', result: CUT_OFF_RESULT, progress: undefined }
    : i.kind === 'approval' && !i.decision ? { ...i, gone: true }
    : i,
  );
  const notice: SessionItem = { kind: 'notice', id: `cut${at}`, level: 'warning', text: 'This session is not working any more: the process that ran it ended (Erasmus was restarted or stopped).', at };
  // Stopped, not how an earlier turn ended ("finished" over a follow-up cut off half way).
  return { ...s, running: false, endReason: 'stopped', queued: undefined, items: [...items, notice] };
}

/** Whether an item holds the search text (case-insensitive): message text, a tool's name, arguments and result, an approval, a question. */
export function itemMatches(item: SessionItem, query: string): boolean {
  const q = query.trim().toLowerCase();
  if (!q) return true;
  const hay =
    item.kind === 'tool' ? `${item.name} ${JSON.stringify(item.args)} ${item.result ?? ''}`
    : item.kind === 'approval' ? `${item.name} ${JSON.stringify(item.args)} ${item.reasons.join(' ')}`
    : item.kind === 'question' ? `${item.server} ${item.message}`
    : item.text;
  return hay.toLowerCase().includes(q);
}
