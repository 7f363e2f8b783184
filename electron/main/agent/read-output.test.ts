// A tool result too long for the window, end to end on the default path: a fresh ERASMUS_HOME with one
// provider (Anthropic, through its wire-format stand-in, a small window set in config.yaml), a fresh
// `git init` project, the built-in files server. The scripted model reads a long file, finds the cut
// result's note, pages through the kept output with read_output by what the note says, and reads the
// file's end with read_file offset/limit.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { startWireServer, type WireServer, type WireTurn } from '../../../tests/fixtures/provider-wire/server';
import { Core } from '../api/core';
import { attachBuiltinServers } from '../../servers/builtin';
import { cutResult, readPage } from './kept-output';

const LINES = 3000;
const file = Array.from({ length: LINES }, (_, i) => `line ${i + 1}: ${'x'.repeat(30)}`).join('\n') + '\n';

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanup.reverse()) await c();
  cleanup = [];
});

/** What the stand-in's model reads: the last message of the newest request, as sent. */
const lastMessage = (server: WireServer) => JSON.stringify((server.requests.at(-1)!.body.messages as unknown[]).at(-1));
const note = (server: WireServer) => {
  const m = /kept as (\S+?\.txt)\. Read the rest with the read_output tool: name \\"\S+?\\", offset (\d+)/.exec(lastMessage(server));
  if (!m) throw new Error(`no kept-output note in ${lastMessage(server).slice(-600)}`);
  return { name: m[1]!, offset: Number(m[2]) };
};

async function session(mode: 'native' | 'xml') {
  const home = mkdtempSync(join(tmpdir(), 'erasmus-read-output-home-'));
  const project = mkdtempSync(join(tmpdir(), 'erasmus-read-output-project-'));
  execFileSync('git', ['init', '-q'], { cwd: project });
  writeFileSync(join(project, 'big.log'), file);
  // Another session's kept output: not this session's to read.
  mkdirSync(join(home, 'outputs'));
  writeFileSync(join(home, 'outputs', 'othersession-call_1.txt'), 'not yours\n');
  const call = (name: string, args: () => Record<string, unknown>): WireTurn =>
    mode === 'native'
      ? { toolCalls: [{ name, get args() { return args(); } }] }
      : { get text() { return `<${name}>\n${Object.entries(args()).map(([k, v]) => `<${k}>${String(v)}</${k}>`).join('\n')}\n</${name}>`; } };
  const turns: WireTurn[] = [
    call('files__read_file', () => ({ path: 'big.log' })),
    call('read_output', () => ({ name: note(server).name, offset: note(server).offset, limit: 5 })),
    call('files__read_file', () => ({ path: 'big.log', offset: 2998, limit: 10 })),
    call('read_output', () => ({ name: 'othersession-call_1.txt' })),
    { text: 'The log has 3000 numbered lines.' },
  ];
  const server = await startWireServer('anthropic', turns);
  cleanup.push(() => server.close());
  writeFileSync(join(home, 'config.yaml'), `providers:\n  - id: claude\n    kind: anthropic\n    model: claude-sonnet-4-5\n    baseUrl: ${server.url}/v1\n    apiKey: \${env:TEST_KEY}\n    contextWindow: 20000\n`);
  const core = new Core({ home, face: 'cli', env: { ...process.env, TEST_KEY: 'k' } });
  cleanup.push(async () => {
    await core.dispose();
    rmSync(home, { recursive: true, force: true });
    rmSync(project, { recursive: true, force: true });
  });
  await core.hub.start({ projectDir: project, watch: false });
  await attachBuiltinServers(core, { root: project });
  const outcome = await core.agent.run({ task: 'What is in big.log?', project, provider: {}, toolMode: mode, autoApprove: true, openToolsets: ['files'] });
  return { outcome, server, home };
}

for (const mode of ['native', 'xml'] as const)
  it(`${mode}: a cut result is kept whole and the model pages through it with read_output, and through a file with read_file offset/limit`, async () => {
    const { outcome, server, home } = await session(mode);
    expect(outcome.error).toBeUndefined();
    expect(outcome.endedReason).toBe('complete');
    expect(server.requests).toHaveLength(5);
    const [, afterRead, afterPage, afterTail, afterOther] = server.requests.map((r) => JSON.stringify((r.body.messages as unknown[]).at(-1)));
    // The cut result fits the window's share (a fifth of 20,000 tokens ≈ 16,000 characters) and names the kept output.
    expect(afterRead!.length).toBeLessThan(17_000);
    expect(afterRead).toContain('line 1: ');
    const kept = /kept as (\S+?\.txt)\./.exec(afterRead!)![1]!;
    expect(readFileSync(join(home, 'outputs', kept), 'utf8')).toBe(file);
    const shown = Number(/lines 1–(\d+) of 3000 are shown/.exec(afterRead!)![1]);
    expect(afterRead).toContain(`line ${shown}: `);
    expect(afterRead).not.toContain(`line ${shown + 1}: `);
    // read_output gave exactly the five lines after the shown part.
    expect(afterPage).toContain(`[${kept}: lines ${shown + 1}–${shown + 5} of 3000. Next: offset ${shown + 6}.]`);
    for (let n = shown + 1; n <= shown + 5; n++) expect(afterPage).toContain(`line ${n}: `);
    expect(afterPage).not.toContain(`line ${shown + 6}: `);
    // read_file pages a project file the same way.
    expect(afterTail).toContain('line 2998: ');
    expect(afterTail).toContain('line 3000: ');
    expect(afterTail).not.toContain('line 2997: ');
    expect(afterTail).toContain('[lines 2998–3000 of 3000 of big.log; end of file]');
    expect(afterOther).toContain('No kept output named othersession-call_1.txt');
    expect(afterOther).not.toContain('not yours');
    if (mode === 'native') {
      // read_output joins the offered tools once a result was cut, not before.
      const names = (i: number) => ((server.requests[i]!.body.tools as { name: string }[] | undefined) ?? []).map((t) => t.name);
      expect(names(0)).not.toContain('read_output');
      expect(names(1)).toContain('read_output');
    }
  });

it('read_output refuses paths and unknown names, and says when an offset is past the end', () => {
  const kept: Record<string, string> = { 'abc-call_1.txt': 'a\nb\nc\n' };
  const read = (n: string) => kept[n];
  expect(readPage(read, { name: '../config.yaml' }, 1000)).toMatchObject({ isError: true, content: expect.stringContaining('not a path') });
  expect(readPage(read, { name: 'other.txt' }, 1000)).toMatchObject({ isError: true, content: expect.stringContaining('No kept output named other.txt') });
  expect(readPage(read, { name: 'abc-call_1.txt', offset: 9 }, 1000)).toMatchObject({ isError: true, content: 'abc-call_1.txt has 3 lines; offset 9 is past its end.' });
  expect(readPage(read, { name: 'abc-call_1.txt', offset: 0 }, 1000)).toMatchObject({ isError: true });
  expect(readPage(read, { name: 'abc-call_1.txt', offset: 2 }, 1000)).toEqual({ isError: false, content: '[abc-call_1.txt: lines 2–3 of 3. End of output.]\nb\nc\n' });
});

it('a result that is one long line is cut with the note saying so', () => {
  const cut = cutResult('z'.repeat(10_000), 2000, 's-c.txt');
  expect(cut.length).toBeLessThan(2000);
  expect(cut).toContain('line 1 alone is longer than fits');
  expect(cut).toContain('kept as s-c.txt');
});
