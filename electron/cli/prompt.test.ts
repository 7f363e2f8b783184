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
    // The answer ends the question's line in the log (the terminal echoed it there, not here).
    expect(read().split('\n')).toEqual(['Allow? [y/n] ', 'count · development: done in 3.1 s', 'Allow? [y/n] y', 'answer=y', 'after the question', '']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 30_000);

it('answered on the terminal with stderr piped to it through tee (`2>&1 | tee log`), the answer shows once on the screen and once in the log', async () => {
  const { mkdtempSync, readFileSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const dir = mkdtempSync(join(tmpdir(), 'erasmus-prompt-'));
  const log = join(dir, 'log');
  try {
    pty = spawn('/bin/sh', ['-c', `"${process.execPath}" --import tsx --input-type=module -e "$SCRIPT" 2>&1 | tee "${log}"`], { cols: 120, rows: 20, cwd: root, env: { ...process.env, SCRIPT } as Record<string, string> });
    let screen = '';
    pty.onData((d) => (screen += d));
    const until = async (what: string) => {
      for (let i = 0; i < 400 && !stripAnsi(screen).includes(what); i++) await new Promise((r) => setTimeout(r, 25));
      expect(stripAnsi(screen)).toContain(what);
    };
    await until('count · development: done in 3.1 s');
    pty.write('x');
    pty.write('\u007f');
    pty.write('yes');
    pty.write('\r');
    await until('after the question');
    // The screen, as the terminal shows it (a backspace takes back the character before it): the answer once, on the question's line.
    const shown = stripAnsi(screen).replace(/\r+\n/g, '\n').split('\n').map((l) => { let out = ''; for (const c of l.split('\r').at(-1)!) out = c === '\b' ? out.slice(0, -1) : out + c; return out.trimEnd(); });
    expect(shown.filter((l) => /yes/.test(l))).toEqual(['Allow? [y/n] yes', 'answer=yes']);
    const logged = readFileSync(log, 'utf8').split('\n').map((l) => { let out = ''; for (const c of l) out = c === '\b' ? out.slice(0, -1) : out + c; return out.trimEnd(); });
    expect(logged).toEqual(['Allow? [y/n]', 'count · development: done in 3.1 s', 'Allow? [y/n] yes', 'answer=yes', 'after the question', '']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 30_000);

// A run's Ctrl-C handler (workflow.ts stops the run on SIGINT) while a question is open.
const INTERRUPT = `
import { ask } from ${JSON.stringify(join(root, 'electron', 'cli', 'prompt.ts'))};
process.once('SIGINT', () => console.error('the run stops'));
await ask('Allow? [y/n] ').then((a) => console.error('answer=' + a), (e) => console.error('withdrawn: ' + e.message));
await new Promise((r) => setTimeout(r, 300)); // the process lives on, as a run does while it stops
console.error('done');
`;

it.each(['a terminal', 'a terminal, stderr through tee'])('Ctrl-C at a question (%s) withdraws it and interrupts: the process gets SIGINT, nothing hangs', async (where) => {
  const tee = where.includes('tee');
  pty = spawn('/bin/sh', ['-c', `"${process.execPath}" --import tsx --input-type=module -e "$INTERRUPT"${tee ? ' 2>&1 | cat' : ''}`], { cols: 120, rows: 20, cwd: root, env: { ...process.env, INTERRUPT } as Record<string, string> });
  let out = '';
  pty.onData((d) => (out += d));
  const until = async (what: string) => {
    for (let i = 0; i < 400 && !stripAnsi(out).includes(what); i++) await new Promise((r) => setTimeout(r, 25));
    expect(stripAnsi(out)).toContain(what);
  };
  await until('Allow? [y/n] ');
  pty.write('\u0003');
  await until('done');
  expect(stripAnsi(out)).toContain('the run stops');
  expect(stripAnsi(out)).toContain('withdrawn: interrupted (Ctrl-C)');
}, 30_000);

// Two components ask at once through the CLI's approval path (one question at a time), another's line printed meanwhile.
const TWO = `
import { APPROVAL_META } from ${JSON.stringify(join(root, 'electron', 'contract', 'index.ts'))};
import { cliApprovalPath } from ${JSON.stringify(join(root, 'electron', 'cli', 'approval-path.ts'))};
import { writeLine } from ${JSON.stringify(join(root, 'electron', 'cli', 'prompt.ts'))};
const path = cliApprovalPath({ command: 'erasmus workflow', tty: true });
const q = (lane) => ({ server: 'files', params: { message: lane + ' · development: Edit src/index.js (one replacement):\\n@@ -1,1 +1,2 @@\\n+export { ' + lane + ' };', requestedSchema: { type: 'object', properties: {} }, _meta: { [APPROVAL_META]: { cwd: '/w/.git/erasmus/worktrees/r1.1/' + lane } } } });
const a = path.elicitation(q('wordcount'), new AbortController().signal);
await new Promise((r) => setTimeout(r, 100));
const b = path.elicitation(q('truncate'), new AbortController().signal);
writeLine('    files: wrote src/truncate.js');
console.error('a=' + (await a).action);
console.error('b=' + (await b).action);
`;

it("two components' questions at once, written to a log: each prompt says whose question it is, and the one waiting is announced", async () => {
  const { mkdtempSync, readFileSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const dir = mkdtempSync(join(tmpdir(), 'erasmus-prompt-'));
  const log = join(dir, 'log');
  try {
    pty = spawn('/bin/sh', ['-c', `"${process.execPath}" --import tsx --input-type=module -e "$TWO" 2>"${log}"`], { cols: 120, rows: 20, cwd: root, env: { ...process.env, TWO } as Record<string, string> });
    const read = () => { try { return readFileSync(log, 'utf8'); } catch { return ''; } };
    const until = async (what: string) => {
      for (let i = 0; i < 400 && !read().includes(what); i++) await new Promise((r) => setTimeout(r, 25));
      expect(read()).toContain(what);
    };
    await until('files: wrote src/truncate.js');
    pty.write('y\r');
    await until('Allow (truncate');
    pty.write('n\r');
    await until('b=decline');
    const first = 'Allow (wordcount · development: Edit src/index.js (one replacement))? [y = yes, n = no, c = cancel] ';
    expect(read().split('\n')).toEqual([
      '',
      'files asks for component wordcount: wordcount · development: Edit src/index.js (one replacement):',
      '@@ -1,1 +1,2 @@',
      '+export { wordcount };',
      first,
      '    one more question waits until this one is answered: files asks for truncate · development: Edit src/index.js (one replacement)',
      first,
      '    files: wrote src/truncate.js',
      `${first}y`,
      'a=accept',
      '',
      'files asks for component truncate: truncate · development: Edit src/index.js (one replacement):',
      '@@ -1,1 +1,2 @@',
      '+export { truncate };',
      'Allow (truncate · development: Edit src/index.js (one replacement))? [y = yes, n = no, c = cancel] n',
      'b=decline',
      '',
    ]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 30_000);
