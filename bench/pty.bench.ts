// PTY benchmarks, each against a baseline measured in this run:
// 1. output throughput through the event stream (PtyManager → batching → EventBus with contract
//    validation → JSON-RPC notification text, acknowledged for flow control) vs reading the same
//    command's PTY raw with node-pty (goal: ratio ≥ 0.8)
// 2. keystroke-to-echo latency through terminal input + events vs a raw node-pty write/onData
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node-pty';
import { EventBus } from '../electron/main/api/events';
import { PtyManager } from '../electron/main/runners/pty/index';

const LINE = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789abcdefghijklmnopqrstuvwxy';
const LINES = 250_000; // ~25 MB of output, ~25.5 M characters with CRLF
const COMMAND = `yes ${LINE} | head -n ${LINES}`;
const ROUNDS = 5;
const KEYS = 200;

const dir = mkdtempSync(join(tmpdir(), 'erasmus-bench-pty-'));
const mb = (chars: number, ms: number) => chars / 1e6 / (ms / 1000);

function rawThroughput(): Promise<{ chars: number; ms: number }> {
  return new Promise((resolve) => {
    const t0 = performance.now();
    let chars = 0;
    const p = spawn('bash', ['-c', COMMAND], { cols: 120, rows: 30, cwd: dir, env: process.env as Record<string, string> });
    p.onData((d) => (chars += d.length));
    p.onExit(() => resolve({ chars, ms: performance.now() - t0 }));
  });
}

async function streamThroughput(): Promise<{ chars: number; ms: number; events: number; runMs: number }> {
  const bus = new EventBus();
  const ptys = new PtyManager({ outputsDir: join(dir, 'out'), sink: bus, flowControl: true, login: false });
  let chars = 0;
  let events = 0;
  // What a connection does: serialize each event as a notification; the client acknowledges what it rendered.
  bus.on((event, payload) => {
    const text = JSON.stringify({ jsonrpc: '2.0', method: event, params: payload });
    if (event !== 'terminal.data') return;
    events++;
    const { id, data } = payload as { id: string; data: string };
    chars += data.length;
    if (text.length > 0) ptys.ack(id, data.length);
  });
  let ms = 0;
  bus.onEvent('terminal.exited', () => (ms = performance.now() - t0));
  const t0 = performance.now();
  const r = await ptys.run({ command: COMMAND, cwd: dir, maxOutputChars: 1_000 });
  const runMs = performance.now() - t0;
  if (r.exitCode !== 0) throw new Error(`command failed: ${r.output}`);
  await ptys.dispose();
  return { chars, ms, events, runMs };
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
  const bus = new EventBus();
  const ptys = new PtyManager({ outputsDir: join(dir, 'out'), sink: bus, flowControl: true, login: false });
  let id = '';
  const running = ptys.run({ command: 'cat', cwd: dir, onStart: (i) => (id = i.id), timeoutMs: 120_000 });
  let waiting: (() => void) | undefined;
  bus.onEvent('terminal.data', (d) => {
    JSON.stringify({ jsonrpc: '2.0', method: 'terminal.data', params: d });
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
  await ptys.dispose();
  return out;
}

const raw: { chars: number; ms: number }[] = [];
const stream: { chars: number; ms: number; events: number; runMs: number }[] = [];
await rawThroughput(); // warm-up
for (let i = 0; i < ROUNDS; i++) {
  raw.push(await rawThroughput());
  stream.push(await streamThroughput());
}
const best = <T extends { chars: number; ms: number }>(xs: T[]) => xs.reduce((a, b) => (mb(b.chars, b.ms) > mb(a.chars, a.ms) ? b : a));
const r = best(raw);
const s = best(stream);
const ratio = mb(s.chars, s.ms) / mb(r.chars, r.ms);
console.log(`throughput, ${LINES} lines (best of ${ROUNDS}):`);
console.log(`  raw node-pty:   ${mb(r.chars, r.ms).toFixed(1)} M chars/s (${r.chars} chars in ${r.ms.toFixed(0)} ms)`);
console.log(`  event stream:   ${mb(s.chars, s.ms).toFixed(1)} M chars/s (${s.chars} chars in ${s.ms.toFixed(0)} ms, ${s.events} events, ${(s.chars / s.events / 1000).toFixed(1)} k chars/event)`);
console.log(`  + model result: ${s.runMs.toFixed(0)} ms until run() returns (ANSI-stripped copy written to disk, head/tail for the model)`);
console.log(`  ratio stream/raw: ${ratio.toFixed(2)} (goal ≥ 0.80) ${ratio >= 0.8 ? 'ok' : 'BELOW GOAL'}`);

const rl = await rawLatency();
const sl = await streamLatency();
console.log(`keystroke-to-echo latency (${KEYS} keys):`);
console.log(`  raw node-pty:   median ${percentile(rl, 50).toFixed(2)} ms, p95 ${percentile(rl, 95).toFixed(2)} ms`);
console.log(`  event stream:   median ${percentile(sl, 50).toFixed(2)} ms, p95 ${percentile(sl, 95).toFixed(2)} ms (includes the ~5 ms output batching)`);
console.log(`  added median:   ${(percentile(sl, 50) - percentile(rl, 50)).toFixed(2)} ms`);
rmSync(dir, { recursive: true, force: true });
