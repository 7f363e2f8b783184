// `erasmus chat` without -p in a real terminal (node-pty): the task typed at the prompt, the approval
// answered at the prompt, a follow-up, then exit.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawn as spawnPty, type IPty } from 'node-pty';
import stripAnsi from 'strip-ansi';
import { afterEach, describe, expect, it } from 'vitest';
import { startScriptedLlm, type ScriptedLlm } from '../fixtures/scripted-llm/index';
import { root, sandbox, type Sandbox } from './agent-cli';

let sb: Sandbox | undefined;
let llm: ScriptedLlm | undefined;
let pty: IPty | undefined;
afterEach(async () => {
  try {
    if (pty) process.kill(-pty.pid, 'SIGKILL');
  } catch {}
  pty = undefined;
  await llm?.close();
  sb?.cleanup();
});

describe('erasmus chat (interactive)', () => {
  it('asks for approval at the prompt and keeps the conversation going', async () => {
    sb = sandbox();
    const file = join(sb.work, 'typed.txt');
    llm = await startScriptedLlm([
      { match: { lastUser: 'write typed.txt' }, toolCalls: [{ name: 'open_toolset', arguments: { name: 'fs' } }] },
      { match: { lastTool: 'is open' }, toolCalls: [{ name: 'fs__write_file', arguments: { path: file, content: 'typed at a terminal' } }] },
      { match: { lastTool: 'Successfully wrote' }, text: 'Wrote typed.txt.' },
      { match: { lastUser: 'thanks' }, text: 'You are welcome.' },
    ]);
    let screen = '';
    pty = spawnPty(process.execPath, [join(root, 'bin', 'erasmus.js'), 'chat', '--config', sb.config, '--project', sb.work, '--base-url', llm.baseUrl, '--model', 'scripted', '--tool-mode', 'native'], {
      cwd: sb.work,
      cols: 120,
      rows: 40,
      env: { ...process.env, ERASMUS_HOME: sb.home } as Record<string, string>,
    });
    pty.onData((d) => (screen += d));
    const exited = new Promise<number>((r) => pty!.onExit((e) => r(e.exitCode)));
    const waitFor = async (text: string, count = 1) => {
      const deadline = Date.now() + 30_000;
      while (stripAnsi(screen).split(text).length - 1 < count) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${JSON.stringify(text)}; screen:\n${stripAnsi(screen)}`);
        await new Promise((r) => setTimeout(r, 25));
      }
    };
    await waitFor('you> ');
    pty.write('write typed.txt please\r');
    await waitFor('allow once [y], always allow [a], deny [n]? ');
    expect(stripAnsi(screen)).toContain('approval needed: tool fs__write_file');
    pty.write('y\r');
    await waitFor('Wrote typed.txt.');
    await waitFor('you> ', 2);
    expect(readFileSync(file, 'utf8')).toBe('typed at a terminal');
    pty.write('thanks\r');
    await waitFor('You are welcome.');
    await waitFor('you> ', 3);
    pty.write('exit\r');
    expect(await exited).toBe(0);
    expect(llm.requests.at(-1)!.body.messages!.filter((m) => m.role === 'user').map((m) => m.content)).toEqual(['write typed.txt please', 'thanks']);
  });

  it('Ctrl-C at an approval question stops the turn, and Ctrl-C at the prompt ends the session with 130 (nothing hangs)', async () => {
    sb = sandbox();
    const file = join(sb.work, 'never.txt');
    llm = await startScriptedLlm([
      { match: { lastUser: 'write never.txt' }, toolCalls: [{ name: 'open_toolset', arguments: { name: 'fs' } }] },
      { match: { lastTool: 'is open' }, toolCalls: [{ name: 'fs__write_file', arguments: { path: file, content: 'x' } }] },
      { match: { lastTool: 'failed' }, text: 'Stopped.', repeat: true },
    ]);
    let screen = '';
    pty = spawnPty(process.execPath, [join(root, 'bin', 'erasmus.js'), 'chat', '--config', sb.config, '--project', sb.work, '--base-url', llm.baseUrl, '--model', 'scripted', '--tool-mode', 'native'], {
      cwd: sb.work,
      cols: 120,
      rows: 40,
      env: { ...process.env, ERASMUS_HOME: sb.home } as Record<string, string>,
    });
    pty.onData((d) => (screen += d));
    const exited = new Promise<number>((r) => pty!.onExit((e) => r(e.exitCode)));
    const waitFor = async (text: string, count = 1) => {
      const deadline = Date.now() + 30_000;
      while (stripAnsi(screen).split(text).length - 1 < count) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${JSON.stringify(text)}; screen:\n${stripAnsi(screen)}`);
        await new Promise((r) => setTimeout(r, 25));
      }
    };
    await waitFor('you> ');
    pty.write('write never.txt please\r');
    await waitFor('allow once [y], always allow [a], deny [n]? ');
    pty.write('\u0003');
    // The turn stops and the prompt comes back (before, the question closed and the turn waited for its answer forever).
    await waitFor('you> ', 2);
    pty.write('\u0003');
    expect(await exited).toBe(130);
    expect(() => readFileSync(file, 'utf8')).toThrow();
  });
});
