import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../../../electron/contract/index';
import { FakeCore } from '../../testing/fakeCore';
import { SessionView } from './SessionView';

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
    const core = new FakeCore({ 'agent.approve': () => ({ ok: false }), 'agent.send': () => ({ ok: true }) });
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
});
