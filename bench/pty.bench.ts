// PTY benchmarks, each against a baseline measured in this run (rounds interleaved, so the load
// other processes put on the machine falls on both alike):
// 1. output throughput through the event stream, wired as the core wires it (PtyManager with the
//    core's redactor holding one secret, as on the default path's provider key → batching →
//    EventBus validating against the contract → bindPipe writing each batch as a terminal.data
//    frame of the batch's UTF-8 bytes → serve's WebSocket pipe, whose socket sends bytes as they are
//    and encodes text to UTF-8 as `ws` does; acknowledged
//    per ACK_CHUNK_CHARS like the renderer, as terminal.ack notifications through the dispatcher) vs
//    reading the same command's PTY raw with node-pty (goal: ratio ≥ 0.9)
// 2. keystroke-to-echo latency through terminal input + events vs a raw node-pty write/onData
//    (goal: no more added than the 5.2 ms measured when issue #27 was filed)
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node-pty';
import type { WebSocket } from 'ws';
import { bindPipe } from '../electron/main/api/connection';
import { Dispatcher } from '../electron/main/api/dispatcher';
import { EventBus } from '../electron/main/api/events';
import { webSocketPipe } from '../electron/main/serve/ws-pipe';
import { ACK_CHUNK_CHARS, PtyManager } from '../electron/main/runners/pty/index';
import { Redactor } from '../electron/main/secrets/redactor';

const LINE = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789abcdefghijklmnopqrstuvwxy';
const LINES = 250_000; // ~25 MB of output, ~25.5 M characters with CRLF
const COMMAND = `yes ${LINE} | head -n ${LINES}`;
const ROUNDS = 9;
const GOAL_RATIO = 0.9;
const GOAL_ADDED_MS = 5.2;
const KEYS = 200;

const dir = mkdtempSync(join(tmpdir(), 'erasmus-bench-pty-'));
const mb = (chars: number, ms: number) => chars / 1e6 / (ms / 1000);

interface Round {
  chars: number;
  ms: number;
  /** CPU time of this process (every thread) until the command's exit was seen. */
  cpuMs: number;
}
const cpuSince = (c0: NodeJS.CpuUsage) => {
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1000;
};

function rawThroughput(): Promise<Round> {
  return new Promise((resolve) => {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    let chars = 0;
    const p = spawn('bash', ['-c', COMMAND], { cols: 120, rows: 30, cwd: dir, env: process.env as Record<string, string> });
    p.onData((d) => (chars += d.length));
    p.onExit(() => resolve({ chars, ms: performance.now() - t0, cpuMs: cpuSince(c0) }));
  });
}

/** The core's wiring: one redactor for terminals and the bus, and a browser's connection to `erasmus serve`. */
function coreWiring() {
  const redactor = new Redactor();
  redactor.add('OPENAI_API_KEY', 'sk-proj-Abc123Def456Ghi789Jkl012Mno345Pqr678');
  const bus = new EventBus((v) => redactor.redactValue(v));
  const ptys = new PtyManager({ outputsDir: join(dir, 'out'), sink: bus, flowControl: 'auto', login: false, redactor });
  const dispatcher = new Dispatcher();
  dispatcher.register('terminal.ack', ({ id, chars }) => (ptys.ack(id, chars), { ok: true as const }));
  // The server's side of a WebSocket: `ws` sends a text message as its UTF-8 bytes (Buffer.byteLength,
  // then written as UTF-8) and bytes as they are, and hands a received message to the pipe as a Buffer.
  let sentBytes = 0;
  const received = new Set<(data: Buffer, isBinary: boolean) => void>();
  const socket = {
    OPEN: 1,
    readyState: 1,
    send: (message: string | Uint8Array) => void (sentBytes += typeof message === 'string' ? Buffer.from(message, 'utf8').length : message.length),
    on: (event: string, h: (data: Buffer, isBinary: boolean) => void) => void (event === 'message' && received.add(h)),
    off: (_event: string, h: (data: Buffer, isBinary: boolean) => void) => void received.delete(h),
    close: () => {},
  };
  const unbind = bindPipe(webSocketPipe(socket as unknown as WebSocket), dispatcher, bus, { face: 'browser' });
  // What the renderer does once it has written a chunk: acknowledge every ACK_CHUNK_CHARS, as a notification.
  let unacked = 0;
  bus.onEvent('terminal.data', ({ id, data }) => {
    unacked += data.length;
    if (unacked < ACK_CHUNK_CHARS) return;
    const ack = Buffer.from(JSON.stringify({ jsonrpc: '2.0', method: 'terminal.ack', params: { id, chars: unacked } }));
    unacked = 0;
    for (const h of received) h(ack, false);
  });
  return { bus, ptys, unbind, sent: () => sentBytes };
}

async function streamThroughput(): Promise<Round & { events: number; runMs: number }> {
  const { bus, ptys, unbind, sent } = coreWiring();
  let chars = 0;
  let events = 0;
  bus.onEvent('terminal.data', ({ data }) => {
    events++;
    chars += data.length;
  });
  let ms = 0;
  let cpuMs = 0;
  bus.onEvent('terminal.exited', () => {
    ms = performance.now() - t0;
    cpuMs = cpuSince(c0);
  });
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const r = await ptys.run({ command: COMMAND, cwd: dir, maxOutputChars: 1_000 });
  const runMs = performance.now() - t0;
  if (r.exitCode !== 0) throw new Error(`command failed: ${r.output}`);
  if (sent() < chars) throw new Error('the connection sent less than the terminal printed');
  unbind();
  await ptys.dispose();
  return { chars, ms, cpuMs, events, runMs };
}

function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
}

async function rawLatency(): Promise<number[]> {
  const p = spawn('cat', [], { cols: 80, rows: 24, cwd: dir, env: process.env as Record<string, string> });
  const out: number[] = [];
  let waiting: (() => void) | undefined;
  p.onData(() => waiting?.());
  for (let i = 0; i < KEYS; i++) {
    const t0 = performance.now();
    await new Promise<void>((resolve) => {
      waiting = resolve;
      p.write('x');
    });
    out.push(performance.now() - t0);
  }
  p.kill('SIGKILL');
  return out;
}

async function streamLatency(): Promise<number[]> {
  const { bus, ptys, unbind } = coreWiring();
  let id = '';
  const running = ptys.run({ command: 'cat', cwd: dir, onStart: (i) => (id = i.id), timeoutMs: 120_000 });
  let waiting: (() => void) | undefined;
  bus.onEvent('terminal.data', (d) => {
    if (d.id === id) waiting?.();
  });
  await new Promise((r) => setTimeout(r, 200));
  const out: number[] = [];
  for (let i = 0; i < KEYS; i++) {
    const t0 = performance.now();
    await new Promise<void>((resolve) => {
      waiting = resolve;
      ptys.input(id, 'x');
    });
    out.push(performance.now() - t0);
  }
  await ptys.kill(id);
  await running;
  unbind();
  await ptys.dispose();
  return out;
}

const load = () => loadavg().map((l) => l.toFixed(2)).join(' ');
console.log(`load average (1, 5, 15 min) before: ${load()}`);
const loadAtStart = loadavg()[0]!;
const raw: Round[] = [];
const stream: (Round & { events: number; runMs: number })[] = [];
await rawThroughput(); // warm-up
for (let i = 0; i < ROUNDS; i++) {
  raw.push(await rawThroughput());
  stream.push(await streamThroughput());
}
const best = <T extends { chars: number; ms: number }>(xs: T[]) => xs.reduce((a, b) => (mb(b.chars, b.ms) > mb(a.chars, a.ms) ? b : a));
const r = best(raw);
const s = best(stream);
const ratio = mb(s.chars, s.ms) / mb(r.chars, r.ms);
// Each round's own ratio: its spread shows how much the machine's load moved the figures.
const pairs = raw.map((x, i) => mb(stream[i]!.chars, stream[i]!.ms) / mb(x.chars, x.ms)).sort((a, b) => a - b);
console.log(`throughput, ${LINES} lines (best of ${ROUNDS}):`);
console.log(`  raw node-pty:   ${mb(r.chars, r.ms).toFixed(1)} M chars/s (${r.chars} chars in ${r.ms.toFixed(0)} ms)`);
console.log(`  event stream:   ${mb(s.chars, s.ms).toFixed(1)} M chars/s (${s.chars} chars in ${s.ms.toFixed(0)} ms, ${s.events} events, ${(s.chars / s.events / 1000).toFixed(1)} k chars/event)`);
console.log(`  + model result: ${s.runMs.toFixed(0)} ms until run() returns (ANSI-stripped copy written to disk, head/tail for the model)`);
console.log(`  ratio stream/raw: ${ratio.toFixed(2)} (goal ≥ ${GOAL_RATIO.toFixed(2)}) ${ratio >= GOAL_RATIO ? 'ok' : 'BELOW GOAL'}`);
console.log(`  per round:        median ${pairs[Math.floor(pairs.length / 2)]!.toFixed(2)}, ${pairs[0]!.toFixed(2)}–${pairs.at(-1)!.toFixed(2)}`);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
// CPU this process spent until the exit (the command's own CPU is not counted): what the stream adds.
console.log(`  CPU of this process until exit (median): raw ${median(raw.map((x) => x.cpuMs)).toFixed(0)} ms, event stream ${median(stream.map((x) => x.cpuMs)).toFixed(0)} ms`);

const rl = await rawLatency();
const sl = await streamLatency();
const added = percentile(sl, 50) - percentile(rl, 50);
console.log(`keystroke-to-echo latency (${KEYS} keys):`);
console.log(`  raw node-pty:   median ${percentile(rl, 50).toFixed(2)} ms, p95 ${percentile(rl, 95).toFixed(2)} ms`);
console.log(`  event stream:   median ${percentile(sl, 50).toFixed(2)} ms, p95 ${percentile(sl, 95).toFixed(2)} ms`);
console.log(`  added median:   ${added.toFixed(2)} ms (goal ≤ ${GOAL_ADDED_MS} ms) ${added <= GOAL_ADDED_MS ? 'ok' : 'ABOVE GOAL'}`);
console.log(`load average (1, 5, 15 min) after: ${load()}`);
if (Math.max(loadavg()[0]!, loadAtStart) > availableParallelism()) {
  console.log(`  the machine was loaded (more runnable processes than its ${availableParallelism()} cores): the command, this process and others`);
  console.log('  share the CPU, so the ratio follows CPU time more than overlap; compare figures from runs at a similar load.');
}
rmSync(dir, { recursive: true, force: true });
