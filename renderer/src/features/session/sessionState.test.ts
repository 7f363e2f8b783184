import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../../../electron/contract/index';
import { pendingApprovals, reduceSession, type SessionState } from './sessionState';

let at = 0;
const ev = (e: Record<string, unknown>) => ({ sessionId: 's1', at: ++at, ...e }) as AgentEvent;
const fold = (events: AgentEvent[]) => events.reduce<SessionState | undefined>((s, e) => reduceSession(s, e), undefined)!;
const usage = { inputTokens: 10, outputTokens: 5, totalTokens: 15, costUsd: null };

describe('reduceSession', () => {
  it("an approved call's time waiting for the user is shown apart from its run time", () => {
    const t = (x: Record<string, unknown>, when: number) => ({ sessionId: 's1', at: when, ...x }) as AgentEvent;
    const s = [
      t({ type: 'approval_required', requestId: 'a1', kind: 'tool', callId: 'c1', name: 'fs__write', args: {}, reasons: [] }, 1000),
      t({ type: 'approval_resolved', requestId: 'a1', decision: 'allow_once' }, 31_000),
      t({ type: 'tool_running', callId: 'c1', name: 'fs__write', args: {} }, 31_001),
      t({ type: 'tool_complete', callId: 'c1', name: 'fs__write', args: {}, result: 'ok', isError: false, durationMs: 30_500 }, 31_500),
    ].reduce<SessionState | undefined>((x, e) => reduceSession(x, e), undefined)!;
    expect(s.items.find((i) => i.kind === 'tool')).toMatchObject({ durationMs: 30_500, waitedMs: 30_000 });
  });

  it('shows reasoning as its own (collapsed) item and keeps the last turn\'s usage beside the session\'s', () => {
    const turn = { ...usage, cacheReadTokens: 8, costUsd: 0.01 };
    const s = fold([
      ev({ type: 'turn_started', turn: 1 }),
      ev({ type: 'reasoning', text: 'think first' }),
      ev({ type: 'sentence', text: 'Answer' }),
      ev({ type: 'usage', turn, session: { ...turn, costUsd: 0.03 } }),
    ]);
    expect(s.items.map((i) => i.kind)).toEqual(['reasoning', 'assistant']);
    expect(s.items[0]).toMatchObject({ text: 'think first' });
    expect(s.lastTurn).toMatchObject({ cacheReadTokens: 8, costUsd: 0.01 });
    expect(s.usage?.costUsd).toBe(0.03);
  });

  it('joins streamed sentences into one message per turn and closes it at a tool call', () => {
    const s = fold([
      ev({ type: 'session_started', logPath: '/l', provider: 'p', model: 'm', toolMode: 'native', resumed: false }),
      ev({ type: 'turn_started', turn: 1 }),
      ev({ type: 'sentence', text: 'Hel' }),
      ev({ type: 'sentence', text: 'lo' }),
      ev({ type: 'tool_running', callId: 'c1', name: 'fs__read', args: { path: 'a' } }),
      ev({ type: 'tool_progress', callId: 'c1', progress: 1, total: 2 }),
      ev({ type: 'tool_complete', callId: 'c1', name: 'fs__read', args: { path: 'a' }, result: 'text', isError: false, durationMs: 12 }),
      ev({ type: 'turn_started', turn: 2 }),
      ev({ type: 'sentence', text: 'Done.' }),
      ev({ type: 'complete', answer: 'Done.' }),
      ev({ type: 'session_ended', reason: 'complete', usage, turns: 2 }),
    ]);
    expect(s.items.map((i) => i.kind)).toEqual(['assistant', 'tool', 'assistant']);
    expect(s.items[0]).toMatchObject({ text: 'Hello', streaming: false });
    expect(s.items[1]).toMatchObject({ status: 'done', result: 'text', durationMs: 12, progress: { progress: 1, total: 2 } });
    expect(s).toMatchObject({ running: false, endReason: 'complete', turns: 2, model: 'm', usage });
  });

  it('keeps approvals until answered, marks refused and failed calls, and shows errors', () => {
    let s = fold([
      ev({ type: 'approval_required', requestId: 'q1', kind: 'command', callId: 'c2', name: 'runners__bash_run', args: { command: 'rm -rf build' }, reasons: ['deletes files'] }),
    ]);
    expect(pendingApprovals(s).map((a) => a.id)).toEqual(['q1']);
    s = reduceSession(s, ev({ type: 'approval_resolved', requestId: 'q1', decision: 'deny' }));
    expect(pendingApprovals(s)).toEqual([]);
    s = reduceSession(s, ev({ type: 'tool_complete', callId: 'c2', name: 'runners__bash_run', args: {}, result: 'The user denied this call.', isError: true, refused: true, durationMs: 0 }));
    s = reduceSession(s, ev({ type: 'error', code: 'provider', message: '502 from the model' }));
    expect(s.items.map((i) => (i.kind === 'tool' ? `tool:${i.status}` : i.kind === 'approval' ? `approval:${i.decision}` : i.kind))).toEqual(['approval:deny', 'tool:refused', 'notice']);
    expect(s.items.at(-1)).toMatchObject({ level: 'error', text: 'provider: 502 from the model' });
  });

  it('adds the final answer when it was not streamed', () => {
    const s = fold([ev({ type: 'complete', answer: 'The answer.' })]);
    expect(s.items).toEqual([expect.objectContaining({ kind: 'assistant', text: 'The answer.', streaming: false })]);
  });
});
