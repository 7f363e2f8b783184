import { afterEach, expect, it, vi } from 'vitest';
import type { AgentEvent } from '../../contract/index';
import { agentWatcher, toolLine } from './workflow-watch';

type Complete = Extract<AgentEvent, { type: 'tool_complete' }>;
const call = (name: string, args: Record<string, unknown>, result: string, extra: Partial<Complete> = {}): Complete => ({
  type: 'tool_complete', sessionId: 's-123', at: 0, callId: 'c1', name, args, result, isError: false, durationMs: 2100, ...extra,
});

afterEach(() => void vi.useRealTimers());

it('one line per tool call, in words: the server, what it did, a command with its exit and time', () => {
  expect(toolLine(call('files__write_file', { path: 'romanum/cli.py', content: 'x' }, 'created romanum/cli.py'))).toBe('    files: wrote romanum/cli.py');
  expect(toolLine(call('files__read_file', { path: 'README.md' }, '# r'))).toBe('    files: read README.md');
  expect(toolLine(call('files__edit_file', { path: 'README.md', oldText: 'a', newText: 'b' }, 'edited README.md'))).toBe('    files: edited README.md');
  expect(toolLine(call('files__move', { from: 'a.py', to: 'b.py' }, 'moved'))).toBe('    files: moved a.py → b.py');
  expect(toolLine(call('files__append_file', { path: 'notes.md', content: 'x' }, 'appended'))).toBe('    files: appended to notes.md');
  expect(toolLine(call('runners__bash_run', { command: 'python -m pytest' }, '$ uv run python -m pytest\n[exit code 0]\n3 passed'))).toBe('    runners: uv run python -m pytest → exit 0 (2.1 s)');
  expect(toolLine(call('runners__bash_run', { command: 'false' }, '$ false\n[exit code 1]\n', { isError: true }))).toBe('    runners: false → exit 1 (2.1 s)');
  // A refused call says so, in the words the call was refused with.
  expect(toolLine(call('files__write_file', { path: 'a.py', content: 'x' }, 'Not run: it needs approval; nobody could be asked (no terminal)', { isError: true, refused: true }))).toBe(
    '    files: write a.py — not run: it needs approval; nobody could be asked (no terminal)',
  );
  // A declined edit did not edit: the line says what was asked, then why it did not happen.
  expect(toolLine(call('files__edit_file', { path: 'README.md', oldText: 'a', newText: 'b' }, 'Edit README.md (one replacement) was not confirmed (declined by the user); nothing was changed.', { isError: true }))).toBe(
    '    files: edit README.md — failed: Edit README.md (one replacement) was not confirmed (declined by the user); nothing was changed.',
  );
  expect(toolLine(call('runners__bash_run', { command: 'rm -rf x' }, '$ rm -rf x\nNot run: nobody could be asked', { isError: true, refused: true }))).toBe('    runners: rm -rf x — not run: nobody could be asked');
  // A command the runners server did not run (its confirmation declined; nobody could be asked) is no command that ran for 8.6 s.
  expect(toolLine(call('runners__bash_run', { command: 'git stash list && rm -rf node_modules' }, '$ git stash list && rm -rf node_modules\nNot run: the user declined the approval. Approval was needed because: recursive delete: rm -rf node_modules', { isError: true, durationMs: 8643 }))).toBe(
    '    runners: git stash list && rm -rf node_modules — not run: the user declined the approval. Approval was needed because: recursive delete: rm -rf node_modules',
  );
  expect(toolLine(call('runners__bash_run', { command: 'rm -rf coverage && npm test' }, '$ rm -rf coverage && npm test\nNot run: it needs approval; nobody could be asked (nobody follows run r1 now: the process that drives it is paused, stopped or gone). Approval was needed because: recursive delete: rm -rf coverage', { isError: true }))).toBe(
    '    runners: rm -rf coverage && npm test — not run: it needs approval; nobody could be asked (nobody follows run r1 now: the process that drives it is paused, stopped or gone). Approval was n…',
  );
  // A `!` line is the shell's command, with its exit and time (the result ends with the exit code).
  expect(toolLine(call('!', { command: 'node bin/wc.js t.txt' }, '$ node bin/wc.js t.txt\n3\n\n[exit code 0]'))).toBe('    shell: node bin/wc.js t.txt → exit 0 (2.1 s)');
  // No session id on any line.
  expect(toolLine(call('files__list', {}, 'a\nb'))).not.toContain('s-123');
});

it('says it waits for the model, with the time elapsed, while a request takes long; not once the model answers', () => {
  vi.useFakeTimers();
  let t = 0;
  const lines: string[] = [];
  const w = agentWatcher((l) => lines.push(l), () => t);
  w.onEvent({ type: 'turn_started', sessionId: 's', at: 0, turn: 1 });
  t = 8_000;
  vi.advanceTimersByTime(8_000);
  expect(lines).toEqual(['    waiting for the model… 8 s']);
  t = 38_000;
  vi.advanceTimersByTime(30_000);
  expect(lines.at(-1)).toBe('    waiting for the model… 38 s');
  w.onEvent({ type: 'sentence', sessionId: 's', at: 0, text: 'Hi' });
  vi.advanceTimersByTime(120_000);
  expect(lines).toHaveLength(2);
  w.dispose();
});

it('a stopped session reads as stopped, not as a failure; a provider error reads as a failure with its message', () => {
  const lines: string[] = [];
  const w = agentWatcher((l) => lines.push(l), () => 0);
  w.onEvent({ type: 'error', sessionId: 's', at: 0, code: 'stopped', message: 'stopped by the user' });
  w.onEvent({ type: 'error', sessionId: 's', at: 0, code: 'provider', message: '503 overloaded' });
  expect(lines).toEqual(["    the model's session was stopped", "    the model's session failed: 503 overloaded"]);
  w.dispose();
});

it('a long tool call is said with what it runs and what it does now (the script reviewer reads it, running), not over an open question, and no more once it ends', () => {
  vi.useFakeTimers();
  let t = 0;
  let question = false;
  const lines: string[] = [];
  const w = agentWatcher((l) => lines.push(l), () => t, () => question);
  const base = { sessionId: 's', at: 0, callId: 'c1' };
  w.onEvent({ ...base, type: 'tool_running', name: 'runners__bash_script', args: { script: 'set -e\nmkdir build', purpose: 'prepare the build folder' } });
  w.onEvent({ ...base, type: 'tool_progress', progress: 1, message: 'the script reviewer reads it' });
  t = 7_000;
  vi.advanceTimersByTime(7_000);
  expect(lines).toEqual([]);
  t = 8_000;
  vi.advanceTimersByTime(1_000);
  expect(lines).toEqual(['    runners: bash script (prepare the build folder) — the script reviewer reads it, 8 s so far']);
  t = 38_000;
  vi.advanceTimersByTime(30_000);
  expect(lines.at(-1)).toBe('    runners: bash script (prepare the build folder) — the script reviewer reads it, 38 s so far');
  // The approval's question is open: its own lines say what waits; nothing is said over it.
  w.onEvent({ ...base, type: 'tool_progress', progress: 2, message: "waiting for the user's answer" });
  question = true;
  t = 80_000;
  vi.advanceTimersByTime(42_000);
  expect(lines).toHaveLength(2);
  question = false;
  w.onEvent({ ...base, type: 'tool_progress', progress: 3, message: 'running' });
  w.onEvent({ ...base, type: 'tool_progress', progress: 4, message: 'still running' });
  t = 88_000;
  vi.advanceTimersByTime(8_000);
  expect(lines.at(-1)).toBe('    runners: bash script (prepare the build folder) — running, 8 s so far');
  t = 89_500;
  w.onEvent({ ...base, type: 'tool_complete', name: 'runners__bash_script', args: { script: 'set -e\nmkdir build', purpose: 'prepare the build folder' }, result: '$ set -e\nmkdir build\n[exit code 0]', isError: false, durationMs: 89_500 });
  // Its time is the script's own, from when it began running: the review and the wait for the answer were said as they went
  // (played as a user: a command approved after a minute read "→ exit 0 (62.1 s)").
  expect(lines.at(-1)).toBe('    runners: bash script (prepare the build folder) → exit 0 (9.5 s)');
  vi.advanceTimersByTime(120_000);
  expect(lines).toHaveLength(4);
  // A command with no progress words: what it runs and how long.
  t = 192_000;
  w.onEvent({ ...base, callId: 'c2', type: 'tool_running', name: 'runners__bash_run', args: { command: 'npm install' } });
  t = 200_000;
  vi.advanceTimersByTime(8_000);
  expect(lines.at(-1)).toBe('    runners: npm install — 8 s so far');
  // Nothing waited before it: its "running" word came with a keep-alive, after it began, so the call's own time stands.
  t = 210_000;
  w.onEvent({ ...base, callId: 'c2', type: 'tool_progress', progress: 1, message: 'running' });
  t = 215_000;
  w.onEvent({ ...base, callId: 'c2', type: 'tool_complete', name: 'runners__bash_run', args: { command: 'npm install' }, result: '$ npm install\n[exit code 0]', isError: false, durationMs: 23_000 });
  expect(lines.at(-1)).toBe('    runners: npm install → exit 0 (23.0 s)');
  w.dispose();
});
