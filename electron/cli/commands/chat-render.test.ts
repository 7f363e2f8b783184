import { afterEach, expect, it, vi } from 'vitest';
import { renderEvent } from './chat-render';

afterEach(() => vi.restoreAllMocks());

it('shows each turn’s tokens with the cached part and its cost, reasoning in one short line, and cache reads at the end', () => {
  const out: string[] = [];
  vi.spyOn(process.stderr, 'write').mockImplementation((s) => (out.push(String(s)), true));
  const base = { sessionId: 's', at: 0 };
  const turn = { inputTokens: 10_100, cacheReadTokens: 10_000, cacheWriteTokens: 0, outputTokens: 20, reasoningTokens: 0, totalTokens: 10_120, costUsd: 0.0036 };
  renderEvent({ ...base, type: 'usage', turn, session: turn });
  renderEvent({ ...base, type: 'reasoning', text: 'I should read the file first.\nThen answer.' });
  renderEvent({ ...base, type: 'session_ended', reason: 'complete', usage: turn, turns: 1 });
  expect(out[0]).toBe('  · turn: 10100 in (10000 from cache), 20 out, $0.0036; session $0.0036\n');
  expect(out[1]).toBe('  (reasoning: I should read the file first. Then answer.)\n');
  expect(out[2]).toBe('[complete; 1 turn; 10120 tokens (10000 input from cache); $0.0036]\n');
});

it('says what a call waits for when it is more than running (the script review), once per change, never the keep-alive', () => {
  const out: string[] = [];
  vi.spyOn(process.stderr, 'write').mockImplementation((s) => (out.push(String(s)), true));
  const base = { sessionId: 's', at: 0, callId: 'c1' };
  renderEvent({ ...base, type: 'tool_progress', progress: 1, message: 'the script reviewer reads it' });
  renderEvent({ ...base, type: 'tool_progress', progress: 2, message: 'still running' });
  renderEvent({ ...base, type: 'tool_progress', progress: 3, message: "waiting for the user's answer" });
  renderEvent({ ...base, type: 'tool_progress', progress: 4, message: 'running' });
  expect(out).toEqual(['  … the script reviewer reads it\n']);
});

it("starts a line of its own after the model's text that stopped mid-line (a turn's tools follow its words)", () => {
  const out: string[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((s) => (out.push(`out:${String(s)}`), true));
  vi.spyOn(process.stderr, 'write').mockImplementation((s) => (out.push(`err:${String(s)}`), true));
  const base = { sessionId: 's', at: 0 };
  const turn = { inputTokens: 10, cacheReadTokens: 0, cacheWriteTokens: 0, outputTokens: 2, reasoningTokens: 0, totalTokens: 12, costUsd: null };
  renderEvent({ ...base, type: 'sentence', text: 'I will fix it.' });
  renderEvent({ ...base, type: 'usage', turn, session: turn });
  renderEvent({ ...base, type: 'sentence', text: 'Done.\n' });
  renderEvent({ ...base, type: 'usage', turn, session: turn });
  expect(out).toEqual(['out:I will fix it.', 'out:\n', 'err:  · turn: 10 in, 2 out\n', 'out:Done.\n', 'err:  · turn: 10 in, 2 out\n']);
});
