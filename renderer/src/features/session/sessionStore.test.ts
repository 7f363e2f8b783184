import { describe, expect, it } from 'vitest';
import { FakeCore } from '../../testing/fakeCore';
import { pendingApprovals } from './sessionState';

const ev = (type: string, x: Record<string, unknown> = {}) => ({ type: 'event' as const, event: { sessionId: 'dead', at: 1, type, ...x } as never });

describe('a session read from its log', () => {
  // The log of a step whose process was killed (serve, kill -9) stops mid-call with an approval waiting.
  const log = [
    ev('session_started', { logPath: '/h/sessions/dead.jsonl', provider: 'p', model: 'm', toolMode: 'native', resumed: false }),
    ev('tool_running', { callId: 'c1', name: 'runners__bash_run', args: { command: 'rm -rf dist' } }),
    ev('approval_required', { requestId: 'r1', kind: 'command', name: 'runners__bash_run', args: { command: 'rm -rf dist' }, reasons: ['recursive delete'] }),
  ];

  it('is cut off when no live process runs it: not working, no approval anyone can answer', async () => {
    const core = new FakeCore({ 'sessions.replay': () => ({ warnings: [], items: log }), 'agent.list': () => ({ sessions: [] }) });
    await core.services.sessions.load('dead');
    const s = core.services.sessions.get().byId.dead!;
    expect(s.running).toBe(false);
    expect(pendingApprovals(s)).toEqual([]);
    expect(s.items.find((i) => i.kind === 'approval')).toMatchObject({ gone: true });
    expect(s.items.find((i) => i.kind === 'tool')).toMatchObject({ status: 'error' });
  });

  it('stays as it is while a live process runs it', async () => {
    const core = new FakeCore({ 'sessions.replay': () => ({ warnings: [], items: log }), 'agent.list': () => ({ sessions: [{ sessionId: 'dead', logPath: '/h/sessions/dead.jsonl', running: true }] }) });
    await core.services.sessions.load('dead');
    const s = core.services.sessions.get().byId.dead!;
    expect(s.running).toBe(true);
    expect(pendingApprovals(s)).toHaveLength(1);
  });
});
