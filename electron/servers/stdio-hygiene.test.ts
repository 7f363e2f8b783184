import { execFileSync, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundledFixture } from '../../tests/support/fixture-bundle';
import { triageLine } from './stdio-transport';

// Erasmus's files and runners servers over real stdio, spoken to line by line as a careless client would.
const repo = resolve(__dirname, '../..');
const fixtures = {
  files: (root: string) => [bundledFixture(join(repo, 'tests/fixtures/files-stdio.ts')), '--root', root],
  runners: (root: string) => [bundledFixture(join(repo, 'tests/fixtures/runners-stdio.ts')), '--root', root, '--outputs', join(root, '..', 'outputs')],
  erasmus: (root: string) => [bundledFixture(join(repo, 'tests/fixtures/erasmus-stdio.ts')), '--home', join(root, '..', 'home')],
};
let dir: string;
let root: string;
const children: ChildProcessWithoutNullStreams[] = [];

/** A server process and a way to send raw lines and wait for the answer with a given id. */
function raw(kind: keyof typeof fixtures) {
  const child = spawn(process.execPath, fixtures[kind](root), { cwd: repo, stdio: ['pipe', 'pipe', 'pipe'] });
  children.push(child);
  const replies: Array<Record<string, unknown>> = [];
  const waiters: Array<() => void> = [];
  let buf = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (d: string) => {
    buf += d;
    let nl: number;
    while ((nl = buf.indexOf('\n')) >= 0) {
      replies.push(JSON.parse(buf.slice(0, nl)) as Record<string, unknown>);
      buf = buf.slice(nl + 1);
      for (const w of waiters.splice(0)) w();
    }
  });
  const send = (line: string) => child.stdin.write(`${line}\n`);
  const reply = async (pred: (r: Record<string, unknown>) => boolean): Promise<Record<string, unknown>> => {
    for (;;) {
      const hit = replies.find(pred);
      if (hit) {
        replies.splice(replies.indexOf(hit), 1);
        return hit;
      }
      await new Promise<void>((r) => waiters.push(r));
    }
  };
  return { child, send, reply, replies };
}

beforeAll(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'erasmus-hygiene-')));
  root = join(dir, 'project');
  mkdirSync(root);
});

afterAll(() => {
  for (const c of children) c.kill();
  rmSync(dir, { recursive: true, force: true });
});

describe.each(['files', 'runners', 'erasmus'] as const)('%s server over stdio answers every malformed message', (kind) => {
  it('-32700 for a line that is not JSON, -32600 without a method, -32602 for tools/call without a name', async () => {
    const s = raw(kind);
    s.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } }));
    expect((await s.reply((r) => r.id === 1)).result).toBeTruthy();
    s.send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));

    s.send('this is not json');
    const parse = await s.reply((r) => r.id === null);
    expect(parse.error).toMatchObject({ code: -32700, message: expect.stringContaining('not JSON') });

    s.send(JSON.stringify({ jsonrpc: '2.0', id: 2, params: {} }));
    expect((await s.reply((r) => r.id === 2)).error).toMatchObject({ code: -32600, message: expect.stringContaining('no "method"') });

    s.send(JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: {} }));
    const noName = (await s.reply((r) => r.id === 3)).error as { code: number; message: string };
    expect(noName.code).toBe(-32602);
    // The erasmus server checks params after rewriting older dialects (`tool_name`), in its own words.
    if (kind === 'erasmus') expect(noName.message).toMatch(/^invalid params for tools\/call: params\.name: /);
    else expect(noName.message).toBe('Invalid params for tools/call: params.name is missing (expected a string)');

    // The server is still healthy afterwards.
    s.send(JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'tools/list' }));
    expect(((await s.reply((r) => r.id === 4)).result as { tools: unknown[] }).tools.length).toBeGreaterThan(0);
  }, 30_000);
});

describe('files search and a cancel', () => {
  it('stops walking the tree when the client cancels the call', async () => {
    const big = join(root, 'big');
    let total = 0;
    for (let i = 0; i < 300; i++) {
      mkdirSync(join(big, `d${i}`), { recursive: true });
      for (let j = 0; j < 60; j++, total++) writeFileSync(join(big, `d${i}`, `f${j}.txt`), `line one\nline ${i}-${j}\n`);
    }
    const transport = new StdioClientTransport({ command: process.execPath, args: fixtures.files(root), cwd: repo, stderr: 'pipe' });
    let stderr = '';
    transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    const client = new Client({ name: 'cancel-test', version: '1' });
    await client.connect(transport);
    try {
      // A cancel that arrives before the walk has begun (a loaded machine) stops it at 0 entries: cancel later then.
      let visited = 0;
      for (let attempt = 0, delay = 150; attempt < 4 && visited === 0; attempt++, delay *= 2) {
        const ac = new AbortController();
        const call = client.callTool({ name: 'search', arguments: { path: 'big', contains: 'never-there' } }, undefined, { signal: ac.signal });
        setTimeout(() => ac.abort('user cancelled'), delay);
        await expect(call).rejects.toThrow();
        const cancelled = () => [...stderr.matchAll(/search cancelled by the client after (\d+) entries/g)];
        const deadline = Date.now() + 10_000;
        while (cancelled().length <= attempt && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
        visited = Number(cancelled()[attempt]?.[1]);
      }
      expect(visited).toBeGreaterThan(0);
      expect(visited).toBeLessThan(total);
      // The same search left alone walks everything, so the cancel is what stopped it.
      const full = await client.callTool({ name: 'search', arguments: { path: 'big', contains: 'never-there' } });
      expect(full.isError).toBeFalsy();
    } finally {
      await client.close();
    }
  }, 60_000);
});

describe('runners and a cancel', () => {
  it('stops the command when the client cancels the call', async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: fixtures.runners(root), cwd: repo, stderr: 'pipe' });
    const client = new Client({ name: 'cancel-test', version: '1' });
    await client.connect(transport);
    const running = () => execFileSync('ps', ['-eo', 'args='], { encoding: 'utf8' }).split('\n').filter((l) => l.startsWith('sleep 41.75'));
    try {
      const ac = new AbortController();
      const call = client.callTool({ name: 'bash_run', arguments: { command: 'sleep 41.75' } }, undefined, { signal: ac.signal, timeout: 60_000 });
      for (let i = 0; i < 200 && running().length === 0; i++) await new Promise((r) => setTimeout(r, 50));
      expect(running()).toHaveLength(1);
      ac.abort('user cancelled');
      await expect(call).rejects.toThrow();
      const deadline = Date.now() + 10_000;
      while (running().length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(running()).toEqual([]);
    } finally {
      await client.close();
    }
  }, 60_000);
});

describe('triageLine', () => {
  it('passes well-formed messages and sorts the rest', () => {
    expect(triageLine('{"jsonrpc":"2.0","id":1,"method":"ping"}')).toHaveProperty('message');
    expect(triageLine('[1,2]')).toMatchObject({ reply: { id: null, error: { code: -32600 } } });
    expect(triageLine('{"jsonrpc":"1.0","id":5,"method":"ping"}')).toMatchObject({ reply: { id: 5, error: { code: -32600 } } });
    expect(triageLine('{"jsonrpc":"2.0","id":6,"method":"resources/read","params":{}}')).toMatchObject({ reply: { id: 6, error: { code: -32602, message: expect.stringContaining('params.uri is missing') } } });
    // An older dialect (`tool_name`) is left for a later layer to rewrite when params are not checked here.
    expect(triageLine('{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"tool_name":"x"}}', false)).toHaveProperty('message');
    expect(triageLine('{"jsonrpc":"2.0","result":{"x":1}}')).toHaveProperty('ignore');
  });
});
