import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../../../electron/contract/index';
import { FakeCore } from '../../testing/fakeCore';
import { RETRY_MESSAGE, SessionView } from './SessionView';

afterEach(cleanup);

function Harness({ initial = null }: { initial?: string | null }) {
  const [selected, setSelected] = useState<string | null>(initial);
  return <SessionView selected={selected} onSelect={setSelected} project="/p" />;
}

describe('SessionView', () => {
  it('starts a session from the composer, streams its answer, and answers an approval', async () => {
    const core = new FakeCore({ 'agent.start': () => ({ sessionId: 's1', logPath: '/l/s1.jsonl' }), 'agent.approve': () => ({ ok: true }) });
    core.render(<Harness />);
    screen.getByTestId('session-empty');
    fireEvent.change(screen.getByTestId('composer'), { target: { value: 'clean the build' } });
    fireEvent.keyDown(screen.getByTestId('composer'), { key: 'Enter' });
    await waitFor(() => expect(core.callsOf('agent.start')).toEqual([{ prompt: 'clean the build', project: '/p' }]));
    const e = (x: Record<string, unknown>) => core.emit('agent.event', { sessionId: 's1', at: Date.now(), ...x } as AgentEvent);
    e({ type: 'session_started', logPath: '/l', provider: 'p', model: 'm', toolMode: 'native', resumed: false });
    e({ type: 'sentence', text: 'I will **clean**' });
    e({ type: 'approval_required', requestId: 'q1', kind: 'command', callId: 'c1', name: 'runners__bash_run', args: { command: 'rm -rf build', rewritten: 'rm -rf ./build' }, reasons: ['reviewer: removes the build folder only'] });
    expect((await screen.findByTestId('approval-command')).textContent).toBe('rm -rf ./build');
    expect(screen.getByText(/rewritten from/).textContent).toContain('rm -rf build');
    expect(screen.getByTestId('approval-reasons').textContent).toContain('reviewer: removes the build folder only');
    expect(screen.getByText('clean').tagName).toBe('STRONG');
    expect((screen.getByTestId('composer') as HTMLTextAreaElement).placeholder).toMatch(/working on its task/);
    fireEvent.click(screen.getByTestId('approve-always'));
    await waitFor(() => expect(core.callsOf('agent.approve')).toEqual([{ sessionId: 's1', requestId: 'q1', decision: 'always_allow' }]));
    e({ type: 'approval_resolved', requestId: 'q1', decision: 'always_allow' });
    await waitFor(() => expect(screen.getByTestId('approval-card').dataset.state).toBe('always_allow'));
    expect(screen.queryByTestId('approve-once')).toBeNull();
  });

  it('steering: a message sent while the agent works is shown as queued, then where the model read it', async () => {
    const core = new FakeCore({ 'agent.send': () => ({ ok: true, queued: true }), 'agent.stop': () => ({ ok: true }) });
    core.render(<Harness initial="w1" />);
    const e = (x: Record<string, unknown>) => core.emit('agent.event', { sessionId: 'w1', at: Date.now(), ...x } as AgentEvent);
    e({ type: 'session_started', logPath: '/l', provider: 'p', model: 'm', toolMode: 'native', resumed: false });
    e({ type: 'tool_running', callId: 'c1', name: 'runners__bash_run', args: { command: 'npm test' } });
    const box = (await screen.findByTestId('composer')) as HTMLTextAreaElement;
    expect(box.placeholder).toMatch(/read at its next turn/);
    fireEvent.change(box, { target: { value: 'use the debug build' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    await waitFor(() => expect(core.callsOf('agent.send')).toEqual([{ sessionId: 'w1', message: 'use the debug build' }]));
    // Queued, not in the transcript as if the model had read it.
    expect(screen.queryByTestId('user-message')).toBeNull();
    e({ type: 'steer', id: 'q1', text: 'use the debug build', state: 'queued' });
    expect((await screen.findByTestId('queued-message')).textContent).toContain('use the debug build');
    e({ type: 'tool_complete', callId: 'c1', name: 'runners__bash_run', args: { command: 'npm test' }, result: 'ok', isError: false, durationMs: 5 });
    e({ type: 'steer', id: 'q1', text: 'use the debug build', state: 'delivered' });
    const sent = await screen.findByTestId('user-message');
    expect(sent.dataset.steered).toBe('true');
    expect(sent.textContent).toContain('use the debug build');
    expect(screen.queryByTestId('queued-message')).toBeNull();
    expect(screen.getAllByTestId('transcript-item').map((i) => i.dataset.kind)).toEqual(['tool', 'user']);
    // Stopped before the next turn: the message is said not to have reached the model.
    e({ type: 'steer', id: 'q2', text: 'and lint it', state: 'queued' });
    await screen.findByTestId('queued-message');
    fireEvent.click(screen.getByRole('button', { name: 'Stop' }));
    e({ type: 'steer', id: 'q2', text: 'and lint it', state: 'dropped' });
    e({ type: 'session_ended', reason: 'stopped', usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2, costUsd: null }, turns: 1 });
    expect((await screen.findByText(/Not delivered/)).textContent).toContain('and lint it');
    expect(screen.queryByTestId('queued-message')).toBeNull();
  });

  it('replays a session that ran before the window connected, from its log', async () => {
    const core = new FakeCore({
      'sessions.replay': () => ({
        warnings: [],
        items: [
          { type: 'user', at: 1, text: 'Implement the open tasks' },
          { type: 'event', event: { type: 'sentence', sessionId: 'old', at: 2, text: 'Implemented.' } },
          { type: 'event', event: { type: 'session_ended', sessionId: 'old', at: 3, reason: 'complete', usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2, costUsd: null }, turns: 1 } },
        ],
      }),
    });
    core.render(<Harness initial="old" />);
    expect((await screen.findByTestId('user-message')).textContent).toBe('Implement the open tasks');
    expect(screen.getByTestId('assistant-message').textContent).toContain('Implemented.');
    expect(core.callsOf('sessions.replay')).toEqual([{ sessionId: 'old' }]);
  });

  it('says so when an approval is no longer waiting, and sends follow-ups once the task ended', async () => {
    const core = new FakeCore({ 'agent.approve': () => ({ ok: false }), 'agent.send': () => ({ ok: true, queued: false }) });
    core.render(<Harness initial="s2" />);
    expect((await screen.findByTestId('session-missing')).textContent).toContain('no handler for sessions.replay');
    const e = (x: Record<string, unknown>) => core.emit('agent.event', { sessionId: 's2', at: Date.now(), ...x } as AgentEvent);
    e({ type: 'approval_required', requestId: 'q9', kind: 'tool', name: 'fs__write_file', args: { path: 'a.txt', content: 'x\n' }, reasons: [] });
    fireEvent.click(await screen.findByTestId('approve-once'));
    expect((await screen.findByRole('alert')).textContent).toMatch(/no longer waiting/);
    e({ type: 'usage', turn: { inputTokens: 1, outputTokens: 1, totalTokens: 2, costUsd: 0.125 }, session: { inputTokens: 1, outputTokens: 1, totalTokens: 2, costUsd: 0.5 } });
    expect((await screen.findByTestId('turn-cost')).textContent).toBe(' · last turn $0.13');
    e({ type: 'session_ended', reason: 'stopped', usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2, costUsd: 0.5 }, turns: 1 });
    await screen.findByText('stopped');
    expect(screen.getByTestId('session-usage').textContent).toContain('$0.50');
    fireEvent.change(screen.getByTestId('composer'), { target: { value: 'go on' } });
    fireEvent.click(screen.getByTestId('composer-send'));
    await screen.findByTestId('user-message');
    expect(core.callsOf('agent.send')).toEqual([{ sessionId: 's2', message: 'go on' }]);
  });

  it('a follow-up cut off by a restart of Erasmus reads "stopped", not "finished" as its first turn ended', async () => {
    const t = Date.UTC(2026, 0, 1, 9, 0, 0);
    const ev = (at: number, x: Record<string, unknown>) => ({ type: 'event' as const, event: { sessionId: 'c8', at, ...x } as AgentEvent });
    const core = new FakeCore({
      'agent.list': () => ({ sessions: [] }),
      'sessions.replay': () => ({
        warnings: [],
        items: [
          { type: 'user' as const, at: t, text: 'Fix the failing test' },
          ev(t, { type: 'session_started', logPath: '/h/sessions/c8.jsonl', provider: 'local', model: 'm', toolMode: 'native', resumed: false, project: '/p' }),
          ev(t + 1, { type: 'turn_started', turn: 1 }),
          ev(t + 2, { type: 'session_ended', reason: 'complete', usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2, costUsd: null }, turns: 1 }),
          { type: 'user' as const, at: t + 3, text: 'now add a test' },
          ev(t + 4, { type: 'turn_started', turn: 2 }),
          ev(t + 5, { type: 'tool_running', callId: 'k1', name: 'files__edit_file', args: { path: 'a.test.js' } }),
        ],
      }),
    });
    core.render(<Harness initial="c8" />);
    await screen.findByText(/not working any more/);
    expect(screen.getByTestId('session-state').textContent).toBe('stopped');
  });

  it('a follow-up to a chat the core no longer holds (Erasmus was restarted) resumes it from its log, not "no agent session"', async () => {
    const log = '/h/sessions/c7.jsonl';
    const ended = [
      { type: 'user' as const, at: Date.UTC(2026, 0, 1, 9, 0, 0), text: 'Fix the failing test' },
      { type: 'event' as const, event: { type: 'session_started', sessionId: 'c7', at: Date.UTC(2026, 0, 1, 9, 0, 0), logPath: log, provider: 'local', model: 'm', toolMode: 'native', resumed: false, project: '/p' } as AgentEvent },
      { type: 'event' as const, event: { type: 'sentence', sessionId: 'c7', at: Date.UTC(2026, 0, 1, 9, 0, 5), text: 'Fixed.' } as AgentEvent },
      { type: 'event' as const, event: { type: 'session_ended', sessionId: 'c7', at: Date.UTC(2026, 0, 1, 9, 0, 6), reason: 'complete', usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2, costUsd: null }, turns: 1 } as AgentEvent },
    ];
    let held: string[] = [];
    const core = new FakeCore({
      'sessions.replay': () => ({ warnings: [], items: ended }),
      'agent.list': () => ({ sessions: held.map((sessionId) => ({ sessionId, logPath: log, running: false })) }),
      'agent.start': () => ({ sessionId: 'c7', logPath: log }),
      'agent.send': ({ sessionId }) => {
        if (!held.includes(sessionId)) throw new Error(`no agent session ${sessionId}`);
        return { ok: true, queued: false };
      },
    });
    core.render(<Harness initial="c7" />);
    await screen.findByText('Fixed.');
    fireEvent.change(screen.getByTestId('composer'), { target: { value: 'now commit it' } });
    fireEvent.click(screen.getByTestId('composer-send'));
    await waitFor(() => expect(core.callsOf('agent.start')).toEqual([{ prompt: 'now commit it', resume: log, project: '/p' }]));
    expect(core.callsOf('agent.send')).toEqual([]);
    await waitFor(() => expect(screen.getAllByTestId('user-message').map((m) => m.textContent)).toEqual(expect.arrayContaining([expect.stringContaining('now commit it')])));
    expect(screen.queryByText(/no agent session/)).toBeNull();
    // One the core still holds gets the message as a follow-up.
    held = ['c7'];
    core.emit('agent.event', { type: 'session_ended', sessionId: 'c7', at: Date.now(), reason: 'complete', usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2, costUsd: null }, turns: 2 } as AgentEvent);
    await screen.findByText('finished');
    fireEvent.change(screen.getByTestId('composer'), { target: { value: 'and push' } });
    fireEvent.click(screen.getByTestId('composer-send'));
    await waitFor(() => expect(core.callsOf('agent.send')).toEqual([{ sessionId: 'c7', message: 'and push' }]));
    expect(core.callsOf('agent.start')).toHaveLength(1);
  });

  it('stamps each message with its time, searches the transcript, and offers Retry on the provider error that ended a chat', async () => {
    const core = new FakeCore({
      'agent.send': () => ({ ok: true, queued: false }),
      'sessions.replay': () => ({
        warnings: [],
        items: [
          { type: 'user', at: Date.UTC(2026, 0, 1, 9, 15, 0), text: 'Count the lines of README.md' },
          { type: 'event', event: { type: 'tool_complete', sessionId: 'c1', at: Date.UTC(2026, 0, 1, 9, 15, 5), callId: 't1', name: 'runners__bash_run', args: { command: 'wc -l README.md' }, result: '12 README.md', isError: false, durationMs: 40 } },
          { type: 'event', event: { type: 'sentence', sessionId: 'c1', at: Date.UTC(2026, 0, 1, 9, 15, 7), text: 'README.md has 12 lines.' } },
          { type: 'event', event: { type: 'error', sessionId: 'c1', at: Date.UTC(2026, 0, 1, 9, 16, 0), code: 'provider', message: 'Too Many Requests: Rate limit reached. Please retry in 20s. (after 2 attempts)' } },
          { type: 'event', event: { type: 'session_ended', sessionId: 'c1', at: Date.UTC(2026, 0, 1, 9, 16, 0), reason: 'error', usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2, costUsd: null }, turns: 2 } },
        ],
      }),
    });
    core.render(<Harness initial="c1" />);
    await screen.findByTestId('user-message');
    const times = screen.getAllByTestId('item-time').map((t) => t.getAttribute('datetime'));
    expect(times).toEqual(['2026-01-01T09:15:00.000Z', '2026-01-01T09:15:05.000Z', '2026-01-01T09:15:07.000Z', '2026-01-01T09:16:00.000Z']);
    // The provider's own words, verbatim.
    expect(screen.getByRole('alert').textContent).toContain('Please retry in 20s.');
    fireEvent.change(screen.getByTestId('transcript-search'), { target: { value: 'wc -l' } });
    expect(screen.getAllByTestId('transcript-item').map((i) => i.dataset.kind)).toEqual(['tool']);
    fireEvent.change(screen.getByTestId('transcript-search'), { target: { value: '12 LINES' } });
    expect(screen.getAllByTestId('transcript-item').map((i) => i.dataset.kind)).toEqual(['assistant']);
    fireEvent.change(screen.getByTestId('transcript-search'), { target: { value: 'nowhere' } });
    screen.getByTestId('search-none');
    fireEvent.change(screen.getByTestId('transcript-search'), { target: { value: '' } });
    fireEvent.click(screen.getByTestId('retry-session'));
    await waitFor(() => expect(core.callsOf('agent.send')).toEqual([{ sessionId: 'c1', message: RETRY_MESSAGE }]));
  });

  it("a step's session says what its step's note says was refused, and a call that never ran reads 'not run: why', not as run", async () => {
    const note = '1 call(s) not run, as nobody could approve them (the runners tool “bash run”); the step went on without them';
    const core = new FakeCore({
      'workflow.runs': () => ({ runs: [{ runId: 'r1', projectDir: '/p', status: 'COMPLETED', createdAt: '2026-01-01T00:00:00Z', updatedAt: '2026-01-01T00:01:00Z', steps: [{ state: 'wc:testing', component: 'wc', enteredAt: '2026-01-01T00:00:00Z', leftAt: '2026-01-01T00:01:00Z', outcome: 'tests-passed', sessionId: 'st1', refused: note, worker: 'the worker on vm (pid 13407)' }] }] }),
      'sessions.replay': () => ({
        warnings: [],
        items: [
          { type: 'user', at: 1, text: '# Step of the testing protocol' },
          { type: 'event', event: { type: 'tool_complete', sessionId: 'st1', at: 9000, callId: 't1', name: 'runners__bash_run', args: { command: 'rm -rf coverage && npm test' }, result: '$ rm -rf coverage && npm test\nNot run: it needs approval; nobody could be asked (nobody follows run r1 now)', isError: true, durationMs: 15_100 } },
        ],
      }),
    });
    core.render(<Harness initial="st1" />);
    expect((await screen.findByTestId('step-refused-note')).textContent).toBe(`Note: ${note}`);
    expect(screen.getByTestId('session-title').textContent).toContain('wc · testing');
    expect(screen.getByTestId('step-worker-note').textContent).toBe('Ran on the worker on vm (pid 13407)');
    expect(screen.getByTestId('tool-status').textContent).toBe('not run');
    expect(screen.getByTestId('tool-not-run').textContent).toBe('it needs approval; nobody could be asked (nobody follows run r1 now)');
    expect(screen.getByTestId('tool-duration').textContent).toBe('');
  });
});
