// `erasmus chat --resume LOG --rewind-to TURN`: a checkpoint before every turn of a chat in a git
// repository; the rewind takes the code, the conversation, or both back to before a turn.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../electron/contract/index';
import { readSessionLog } from '../../electron/main/sessions/index';
import type { ScriptedLlm } from '../fixtures/scripted-llm/index';
import { chatHarness, defaultSandbox, type Sandbox } from './agent-cli';

const t = chatHarness();
const written = { regex: '^(created|replaced) ', flags: 'm' };

/** Two turns: the first writes a.txt, the second b.txt and a new a.txt; a third answers without tools. */
async function twoTurns(): Promise<{ sb: Sandbox; llm: ScriptedLlm; log: string }> {
  const sb = t.sandbox(defaultSandbox());
  const llm = await t.startLlm([
    { label: 'one', match: { lastUser: 'TURN ONE', last: 'TURN ONE' }, toolCalls: [{ name: 'files__write_file', arguments: { path: 'a.txt', content: 'one\n' } }] },
    { label: 'one done', match: { lastUser: 'TURN ONE', lastTool: written }, text: 'Wrote a.txt.' },
    { label: 'two', match: { lastUser: 'TURN TWO', last: 'TURN TWO' }, toolCalls: [{ name: 'files__write_file', arguments: { path: 'b.txt', content: 'bee\n' } }, { name: 'files__write_file', arguments: { path: 'a.txt', content: 'two\n' } }] },
    { label: 'two done', match: { lastUser: 'TURN TWO', lastTool: written }, text: 'Wrote b.txt and a.txt.' },
    { label: 'three', match: { lastUser: 'TURN THREE' }, text: 'Turn three answered.', repeat: true },
  ]);
  const args = ['--base-url', llm.baseUrl, '--model', 'scripted', '--tool-mode', 'native', '--yes'];
  const first = t.chat(sb, [...args, '-p', 'TURN ONE: write a.txt'], { builtinOnly: true });
  expect(await first.exit, first.stderr() + JSON.stringify(first.events.slice(-4))).toBe(0);
  const log = (first.events[0] as Extract<AgentEvent, { type: 'session_started' }>).logPath;
  const second = t.chat(sb, [...args, '--resume', log, '-p', 'TURN TWO: write b.txt, change a.txt'], { builtinOnly: true });
  expect(await second.exit).toBe(0);
  expect(readFileSync(join(sb.work, 'a.txt'), 'utf8')).toBe('two\n');
  expect(readFileSync(join(sb.work, 'b.txt'), 'utf8')).toBe('bee\n');
  return { sb, llm, log };
}

/** Rewinds to before turn 2 with `flags`, then sends turn three; returns the log it went on in and what the model was sent. */
async function rewindThenThird(sb: Sandbox, llm: ScriptedLlm, log: string, flags: string[]): Promise<{ logPath: string; sent: string; stderr: string }> {
  const run = t.chat(sb, ['--base-url', llm.baseUrl, '--model', 'scripted', '--tool-mode', 'native', '--yes', '--resume', log, '--rewind-to', '2', ...flags, '-p', 'TURN THREE: what now?'], { builtinOnly: true });
  expect(await run.exit).toBe(0);
  const started = run.events[0] as Extract<AgentEvent, { type: 'session_started' }>;
  expect(started.resumed).toBe(true);
  const request = llm.requests.at(-1)!;
  return { logPath: started.logPath, sent: JSON.stringify(request.body.messages), stderr: run.stderr() };
}

const userTurns = (log: string) => readSessionLog(log).entries.flatMap((e) => (e.type === 'message' && e.message.role === 'user' ? [String(e.message.content).slice(0, 8)] : []));

describe('erasmus chat --rewind-to', () => {
  it('code and conversation: the files of before turn 2, and a new log that goes on from there', async () => {
    const { sb, llm, log } = await twoTurns();
    const r = await rewindThenThird(sb, llm, log, []);
    expect(readFileSync(join(sb.work, 'a.txt'), 'utf8')).toBe('one\n');
    expect(existsSync(join(sb.work, 'b.txt'))).toBe(false);
    expect(r.logPath).not.toBe(log);
    expect(r.sent).toContain('TURN ONE');
    expect(r.sent).not.toContain('TURN TWO');
    expect(userTurns(r.logPath)).toEqual(['TURN ONE', 'TURN THR']);
    expect(userTurns(log)).toEqual(['TURN ONE', 'TURN TWO']); // the old log is kept as it was
    expect(r.stderr).toContain('rewound to before turn 2: 2 file(s) restored');
  });

  it('code only: the files go back, the conversation goes on in the same log', async () => {
    const { sb, llm, log } = await twoTurns();
    const r = await rewindThenThird(sb, llm, log, ['--code-only']);
    expect(readFileSync(join(sb.work, 'a.txt'), 'utf8')).toBe('one\n');
    expect(existsSync(join(sb.work, 'b.txt'))).toBe(false);
    expect(r.logPath).toBe(log);
    expect(r.sent).toContain('TURN TWO');
    expect(userTurns(log)).toEqual(['TURN ONE', 'TURN TWO', 'TURN THR']);
  });

  it('conversation only: the files stay, the conversation forgets turn 2; a later rewind finds turn 1 through the forked log', async () => {
    const { sb, llm, log } = await twoTurns();
    const r = await rewindThenThird(sb, llm, log, ['--conversation-only']);
    expect(readFileSync(join(sb.work, 'a.txt'), 'utf8')).toBe('two\n');
    expect(readFileSync(join(sb.work, 'b.txt'), 'utf8')).toBe('bee\n');
    expect(r.logPath).not.toBe(log);
    expect(r.sent).not.toContain('TURN TWO');
    expect(userTurns(r.logPath)).toEqual(['TURN ONE', 'TURN THR']);

    // Turn 1's checkpoint belongs to the log this one was forked from: a code rewind to it still finds it.
    const again = t.chat(sb, ['--resume', r.logPath, '--rewind-to', '1', '--code-only'], { builtinOnly: true });
    expect(await again.exit).toBe(0);
    expect(existsSync(join(sb.work, 'a.txt'))).toBe(false);
    expect(existsSync(join(sb.work, 'b.txt'))).toBe(false);
    expect(again.stderr()).toContain(`go on with: erasmus chat --resume ${r.logPath} -p TEXT`);

    const missing = t.chat(sb, ['--resume', r.logPath, '--rewind-to', '9'], { builtinOnly: true });
    expect(await missing.exit).not.toBe(0);
    expect(missing.stderr()).toMatch(/has no checkpoint before turn 9 \(turns with one: 2\)/);
  });
});
