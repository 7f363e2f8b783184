import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../../../electron/contract/index';
import { FakeCore } from '../../testing/fakeCore';
import { SessionView } from './SessionView';

afterEach(cleanup);

function Harness() {
  const [selected, setSelected] = useState<string | null>(null);
  return <SessionView selected={selected} onSelect={setSelected} project="/p" />;
}

/** A chat of two turns, ended: the task, then a follow-up. */
async function twoTurns(core: FakeCore): Promise<void> {
  core.render(<Harness />);
  fireEvent.change(screen.getByTestId('composer'), { target: { value: 'write a.txt' } });
  fireEvent.keyDown(screen.getByTestId('composer'), { key: 'Enter' });
  await waitFor(() => expect(core.callsOf('agent.start')).toHaveLength(1));
  const e = (x: Record<string, unknown>) => core.emit('agent.event', { sessionId: 's1', at: Date.now(), ...x } as AgentEvent);
  e({ type: 'session_started', logPath: '/h/sessions/s1.jsonl', provider: 'p', model: 'm', toolMode: 'native', resumed: false, project: '/p' });
  e({ type: 'session_ended', reason: 'complete', usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2, costUsd: null }, turns: 1 });
  await waitFor(() => expect(screen.getByTestId('session-state').textContent).toBe('finished'));
  fireEvent.change(screen.getByTestId('composer'), { target: { value: 'now b.txt' } });
  fireEvent.keyDown(screen.getByTestId('composer'), { key: 'Enter' });
  await waitFor(() => expect(core.callsOf('agent.send')).toHaveLength(1));
  e({ type: 'session_started', logPath: '/h/sessions/s1.jsonl', provider: 'p', model: 'm', toolMode: 'native', resumed: false, project: '/p' });
  e({ type: 'session_ended', reason: 'complete', usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2, costUsd: null }, turns: 2 });
  await waitFor(() => expect(screen.getByTestId('session-state').textContent).toBe('finished'));
  await waitFor(() => expect(screen.getAllByTestId('rewind-message-open')).toHaveLength(2));
}

describe('Rewind to here on a chat message', () => {
  it('rewinds code and conversation to before the second message; the next message continues the forked log', async () => {
    const core = new FakeCore({
      'agent.start': (p) => ((p as { resume?: string }).resume ? { sessionId: 's2', logPath: '/h/sessions/s2.jsonl' } : { sessionId: 's1', logPath: '/h/sessions/s1.jsonl' }),
      'agent.send': () => ({ ok: true, queued: false }),
      'agent.rewind': () => ({ logPath: '/h/sessions/fork.jsonl', sessionId: 'fork', turn: 2, files: [{ path: 'b.txt', change: 'deleted' }], commitsUndone: [] }),
    });
    await twoTurns(core);
    fireEvent.click(screen.getAllByTestId('rewind-message-open')[1]!);
    expect(core.callsOf('agent.rewind')).toEqual([]);
    fireEvent.click(screen.getByTestId('rewind-message-confirm'));
    await waitFor(() => expect(screen.getByTestId('rewind-message-done').textContent).toBe('1 file(s) restored. Your next message continues the conversation from before this one.'));
    expect(core.callsOf('agent.rewind')).toEqual([{ logPath: '/h/sessions/s1.jsonl', turn: 2, scope: 'both' }]);
    await waitFor(() => expect(screen.getByTestId('session-state').textContent).toBe('finished'));
    fireEvent.change(screen.getByTestId('composer'), { target: { value: 'try c.txt instead' } });
    fireEvent.keyDown(screen.getByTestId('composer'), { key: 'Enter' });
    await waitFor(() => expect(core.callsOf('agent.start').at(-1)).toEqual({ prompt: 'try c.txt instead', resume: '/h/sessions/fork.jsonl', project: '/p' }));
    expect(core.callsOf('agent.send')).toHaveLength(1);
  });

  it('the chat a conversation rewind continues shows the conversation kept before the new message, not the new message alone', async () => {
    const at = Date.UTC(2026, 0, 1, 9, 0, 0);
    const core = new FakeCore({
      'agent.start': (p) => ((p as { resume?: string }).resume ? { sessionId: 'fork', logPath: '/h/sessions/fork.jsonl' } : { sessionId: 's1', logPath: '/h/sessions/s1.jsonl' }),
      'agent.send': () => ({ ok: true, queued: false }),
      'agent.rewind': () => ({ logPath: '/h/sessions/fork.jsonl', sessionId: 'fork', turn: 2, files: [], commitsUndone: [] }),
      // The rewound log: the first turn, kept.
      'sessions.replay': ({ sessionId }) => ({
        warnings: [],
        items: sessionId === 'fork'
          ? [
              { type: 'user' as const, at, text: 'write a.txt' },
              { type: 'event' as const, event: { type: 'sentence', sessionId: 'fork', at: at + 1000, text: 'Wrote a.txt.' } as AgentEvent },
              { type: 'event' as const, event: { type: 'session_ended', sessionId: 'fork', at: at + 2000, reason: 'complete', usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2, costUsd: null }, turns: 1 } as AgentEvent },
            ]
          : [],
      }),
    });
    await twoTurns(core);
    fireEvent.click(screen.getAllByTestId('rewind-message-open')[1]!);
    fireEvent.click(screen.getByRole('radio', { name: /Conversation only/ }));
    fireEvent.click(screen.getByTestId('rewind-message-confirm'));
    await screen.findByTestId('rewind-message-done');
    fireEvent.change(screen.getByTestId('composer'), { target: { value: 'try c.txt instead' } });
    fireEvent.keyDown(screen.getByTestId('composer'), { key: 'Enter' });
    await waitFor(() => expect(core.callsOf('agent.start')).toHaveLength(2));
    core.emit('agent.event', { type: 'session_started', sessionId: 'fork', at: Date.now(), logPath: '/h/sessions/fork.jsonl', provider: 'p', model: 'm', toolMode: 'native', resumed: true, project: '/p' } as AgentEvent);
    await waitFor(() => expect(screen.getAllByTestId('transcript-item').map((i) => i.textContent)).toEqual([
      expect.stringContaining('write a.txt'),
      expect.stringContaining('Wrote a.txt.'),
      expect.stringContaining('try c.txt instead'),
    ]));
  });

  it('code only: the files go back and the conversation goes on in the same session', async () => {
    const core = new FakeCore({
      'agent.start': () => ({ sessionId: 's1', logPath: '/h/sessions/s1.jsonl' }),
      'agent.send': () => ({ ok: true, queued: false }),
      'agent.rewind': () => ({ logPath: '/h/sessions/s1.jsonl', sessionId: 's1', turn: 1, files: [{ path: 'a.txt', change: 'deleted' }, { path: 'b.txt', change: 'deleted' }], commitsUndone: [] }),
    });
    await twoTurns(core);
    fireEvent.click(screen.getAllByTestId('rewind-message-open')[0]!);
    fireEvent.click(screen.getByRole('radio', { name: /Code only/ }));
    fireEvent.click(screen.getByTestId('rewind-message-confirm'));
    await waitFor(() => expect(screen.getByTestId('rewind-message-done').textContent).toBe('2 file(s) restored. The conversation goes on as it was.'));
    expect(core.callsOf('agent.rewind')).toEqual([{ logPath: '/h/sessions/s1.jsonl', turn: 1, scope: 'code' }]);
    fireEvent.change(screen.getByTestId('composer'), { target: { value: 'again' } });
    fireEvent.keyDown(screen.getByTestId('composer'), { key: 'Enter' });
    await waitFor(() => expect(core.callsOf('agent.send')).toHaveLength(2));
    expect(core.callsOf('agent.start')).toHaveLength(1);
  });
});
