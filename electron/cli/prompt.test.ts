import { join } from 'node:path';
import { spawn, type IPty } from 'node-pty';
import stripAnsi from 'strip-ansi';
import { afterEach, expect, it } from 'vitest';

const root = join(__dirname, '..', '..');
let pty: IPty | undefined;
afterEach(() => pty?.kill());

// A real terminal: a question is open, another step prints a line meanwhile, then the user answers.
const SCRIPT = `
import { ask, writeLine } from ${JSON.stringify(join(root, 'electron', 'cli', 'prompt.ts'))};
const answer = ask('Allow? [y/n] ');
setTimeout(() => writeLine('count · development: done in 3.1 s'), 200);
console.error('answer=' + (await answer));
writeLine('after the question');
`;

it('a line printed while a question waits goes above it, and the question is shown again with what was typed', async () => {
  pty = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', SCRIPT], { cols: 120, rows: 20, cwd: root, env: { ...process.env } as Record<string, string> });
  let out = '';
  pty.onData((d) => (out += d));
  const until = async (what: string) => {
    for (let i = 0; i < 400 && !stripAnsi(out).includes(what); i++) await new Promise((r) => setTimeout(r, 25));
    expect(stripAnsi(out)).toContain(what);
  };
  await until('Allow? [y/n] ');
  pty.write('y');
  await until('count · development: done in 3.1 s');
  pty.write('\r');
  await until('after the question');
  // Rendered as the user sees it: the line is not glued to the question, which comes again below it with the typed "y".
  // What the terminal shows: each line as left after its last clear (erase line / erase below, or a carriage return).
  // eslint-disable-next-line no-control-regex
  const lines = out.replace(/\r+\n/g, '\n').split('\n').map((l) => stripAnsi(l.split(/\u001b\[(?:2K|0J)|\r/).at(-1)!).trimEnd());
  expect(lines).toContain('count · development: done in 3.1 s');
  expect(lines.some((l) => /Allow\? \[y\/n\] .*done in/.test(l))).toBe(false);
  expect(lines.indexOf('answer=y')).toBeGreaterThan(lines.indexOf('count · development: done in 3.1 s'));
  expect(lines[lines.indexOf('answer=y') - 1]).toBe('Allow? [y/n] y');
}, 30_000);

it('written to a log (stderr piped, the question asked on the terminal), a line printed while the question waits starts on its own line and the question follows it', async () => {
  const { mkdtempSync, readFileSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const dir = mkdtempSync(join(tmpdir(), 'erasmus-prompt-'));
  const log = join(dir, 'log');
  try {
    pty = spawn('/bin/sh', ['-c', `"${process.execPath}" --import tsx --input-type=module -e "$SCRIPT" 2>"${log}"`], { cols: 120, rows: 20, cwd: root, env: { ...process.env, SCRIPT } as Record<string, string> });
    const read = () => { try { return readFileSync(log, 'utf8'); } catch { return ''; } };
    const until = async (what: string) => {
      for (let i = 0; i < 400 && !read().includes(what); i++) await new Promise((r) => setTimeout(r, 25));
      expect(read()).toContain(what);
    };
    await until('count · development: done in 3.1 s');
    pty.write('y\r');
    await until('after the question');
    expect(read().split('\n')).toEqual(['Allow? [y/n] ', 'count · development: done in 3.1 s', 'Allow? [y/n] answer=y', 'after the question', '']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 30_000);
