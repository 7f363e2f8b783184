import { describe, expect, it, vi } from 'vitest';
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

describe('whose call a server asks about', () => {
  const started = (sessionId: string, project: string) => ({ sessionId, at: 1, type: 'session_started', logPath: `/h/sessions/${sessionId}.jsonl`, provider: 'p', model: 'm', toolMode: 'native', resumed: false, project }) as never;
  const calling = (sessionId: string) => ({ sessionId, at: 2, type: 'tool_running', callId: `c-${sessionId}`, name: 'files__edit_file', args: { path: 'a.py' } }) as never;

  it("two components side by side call the files server at once: the question's folder names the one asking", async () => {
    const core = new FakeCore();
    const wt = '/p/.git/erasmus/worktrees/r1';
    // The project's own session is a prefix of both worktrees: the deepest folder that holds the question wins.
    for (const [id, project] of [['count', `${wt}/count`], ['reverse', `${wt}/reverse`]] as const) {
      core.emit('agent.event', started(id, project));
      core.emit('agent.event', calling(id));
    }
    await vi.waitFor(() => expect(Object.keys(core.services.sessions.get().byId)).toHaveLength(2));
    const sessions = core.services.sessions;
    expect(sessions.ownerOf('files', `${wt}/reverse`)).toBe('reverse');
    expect(sessions.ownerOf('files', `${wt}/count/src`)).toBe('count');
    // Without a folder the first caller is taken, as before.
    expect(sessions.ownerOf('files')).toBe('count');
  });
});
