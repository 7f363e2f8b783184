import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bundledFixture } from '../../../../tests/support/fixture-bundle';
import { sessionAlive, signalSession } from './process-tree';
import { PtyHost, spawnIn } from './pty-host';
import { hasHeadroom, type PtyProcess, type PtySpawnOptions } from './pty-process';

const ptyPath = createRequire(import.meta.url).resolve('node-pty');
const host = new PtyHost(ptyPath);
afterAll(() => host.stop());

const opts = (command: string): PtySpawnOptions => ({
  file: 'bash',
  args: ['-c', command],
  cwd: process.cwd(),
  env: process.env as Record<string, string>,
  cols: 80,
  rows: 24,
  batchMs: 5,
});

function collect(p: PtyProcess) {
  const chunks: Buffer[] = [];
  let bytes = 0;
  p.onData((b) => {
    chunks.push(b);
    bytes += b.length;
  });
  const exited = new Promise<{ exitCode: number; signal: number; chunks: number }>((resolve) => p.onExit((e) => resolve({ ...e, chunks: chunks.length })));
  return { chunks, exited, text: () => Buffer.concat(chunks).toString('utf8'), bytes: () => bytes };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Blocks this thread (a main thread busy with a long batch), the host thread running on. */
const block = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

describe('the pty host (PTYs read on a thread of their own)', () => {
  it('hands over every byte in order, in batches with room for a frame header, all before the exit and its code', async () => {
    // Linux drops what the reader has not taken when the session leader exits: it waits to be told all was read.
    // Batches of 20 ms: a machine too busy to run `seq` at speed still gathers several reads in each.
    const p = host.spawn({ ...opts('stty -echo; seq 1 100000; read; exit 7'), batchMs: 20 })!;
    expect(p.batches).toBe(true);
    expect(sessionAlive(p.pid)).toBe(true);
    const out = collect(p);
    for (let i = 0; i < 500 && !out.text().endsWith('\n100000\r\n'); i++) await sleep(20);
    p.write('\r');
    const exit = await out.exited;
    expect(exit).toMatchObject({ exitCode: 7, signal: 0 });
    // Every chunk handed over before the exit, none after it.
    expect(exit.chunks).toBe(out.chunks.length);
    const got = out.text().replace(/\r\n/g, '\n');
    expect(got).toBe(`${Array.from({ length: 100000 }, (_, i) => i + 1).join('\n')}\n`);
    // Gathered: far fewer batches than the PTY's reads of a few kilobytes, none above the batch size but by one read.
    expect(out.chunks.length).toBeLessThan(588_895 / 4096);
    expect(Math.max(...out.chunks.map((c) => c.length))).toBeLessThan(32_768 + 65_536);
    expect(out.chunks.every(hasHeadroom)).toBe(true);
  });

  it('sends an echo at once, takes resizes and reports a signal', async () => {
    const p = host.spawn(opts('stty -echo; read line; echo "got $line"; read; stty size; kill -TERM $$'))!;
    const out = collect(p);
    await sleep(200);
    p.write('hello\r');
    for (let i = 0; i < 100 && !out.text().includes('got hello'); i++) await sleep(20);
    expect(out.text()).toContain('got hello');
    p.resize(100, 40);
    expect(() => p.resize(0, 40)).toThrow(/positive cols and rows/);
    await sleep(100);
    p.write('\r');
    const exit = await out.exited;
    expect(exit.signal).toBe(15);
    expect(out.text()).toContain('40 100');
  });

  it('pause stops a runaway producer until resume; a busy main thread holds it once it is a backlog ahead', async () => {
    const own = new PtyHost(ptyPath, { high: 64 * 1024, low: 32 * 1024 });
    const p = own.spawn(opts('exec yes'))!;
    const out = collect(p);
    for (let i = 0; i < 100 && out.bytes() < 100_000; i++) await sleep(20);
    p.pause();
    // What the host read before the pause reached it still comes; then nothing (a busy machine can hold that back a moment).
    let paused = -1;
    for (let still = 0, i = 0; still < 3 && i < 100; i++, await sleep(100)) {
      still = out.bytes() === paused ? still + 1 : 0;
      paused = out.bytes();
    }
    await sleep(200);
    expect(out.bytes()).toBe(paused);
    p.resume();
    for (let i = 0; i < 100 && out.bytes() < paused + 1_000_000; i++) await sleep(20);
    expect(out.bytes()).toBeGreaterThan(paused + 1_000_000);
    // The main thread is busy for 300 ms: what the host read meanwhile waits in its messages, its backlog
    // (64 kB) and two batches at most (each up to 32 kB and one read of up to 64 kB past it), where `yes` writes a
    // megabyte or more in that time.
    block(300);
    const before = out.bytes();
    const burst = await new Promise<number>((resolve) => setImmediate(() => resolve(out.bytes() - before)));
    expect(burst).toBeLessThan(64 * 1024 + 2 * (32 * 1024 + 64 * 1024));
    for (let i = 0; i < 100 && out.bytes() < before + burst + 1_000_000; i++) await sleep(20);
    expect(out.bytes()).toBeGreaterThan(before + burst + 1_000_000);
    process.kill(p.pid, 'SIGKILL');
    expect((await out.exited).signal).toBe(9);
    await own.stop();
  });

  it('hangs up its PTYs when it stops, and spawns on the main thread from then on, saying so once', async () => {
    const own = new PtyHost(ptyPath);
    const p = own.spawn(opts('trap "" HUP; exec sleep 30'))!;
    const out = collect(p);
    await own.stop();
    // Its leader killed (the exit seen), or hung up when the thread ended before saying so.
    expect([1, 9]).toContain((await out.exited).signal);
    for (let i = 0; i < 50 && sessionAlive(p.pid); i++) await sleep(20);
    expect(sessionAlive(p.pid)).toBe(false);
    const warnings: string[] = [];
    const q = spawnIn(own, opts('echo here'), (w) => warnings.push(w));
    expect(q.batches).toBe(false);
    await expect(collect(q).exited).resolves.toMatchObject({ exitCode: 0 });
    spawnIn(own, opts('true'), (w) => warnings.push(w));
    expect(warnings).toEqual(['the pty host was stopped; PTYs are read on the main thread instead']);
  });

  it('falls back to the main thread when node-pty does not load in the host, with one warning naming why', async () => {
    const broken = new PtyHost('/nowhere/node-pty');
    const warnings: string[] = [];
    const p = spawnIn(broken, opts('echo fallback'), (w) => warnings.push(w));
    expect(p.batches).toBe(false);
    const out = collect(p);
    expect((await out.exited).exitCode).toBe(0);
    expect(out.text()).toContain('fallback');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^node-pty did not load in the pty host: Cannot find module '\/nowhere\/node-pty'.*; PTYs are read on the main thread instead$/s);
    await broken.stop();
  });

  it('lets its process exit at once with PTYs running, one with an exit in flight or a leader that ignores SIGHUP', async () => {
    // Node ends the host's thread at exit: it used to wait there for such a leader (node-pty joins the thread
    // that waits for its process), and to abort the process (134) when an exit callback ran meanwhile.
    const child = spawn(process.execPath, [bundledFixture(resolve(__dirname, '../../../../tests/fixtures/pty-host-exit.ts'))], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d));
    child.stderr.on('data', (d: Buffer) => (err += d));
    const started = Date.now();
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    const { pids, hosted } = JSON.parse(out) as { pids: number[]; hosted: boolean };
    try {
      expect(err).toBe('');
      expect(code).toBe(0);
      expect(hosted).toBe(true);
      // Far from the leaders' 30 s.
      expect(Date.now() - started).toBeLessThan(15_000);
      for (let i = 0; i < 50 && pids.some(sessionAlive); i++) await sleep(20);
      expect(pids.filter(sessionAlive)).toEqual([]);
    } finally {
      for (const pid of pids) signalSession(pid, 'SIGKILL');
    }
  });
});
