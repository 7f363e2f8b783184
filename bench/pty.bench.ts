// PTY benchmarks, each against a baseline measured in this run:
// 1. output throughput through the event stream as `erasmus serve` runs it: a Core (its redactor
//    holding one secret, as on the default path's provider key; its PtyManager batching, masking,
//    writing the raw log and keeping the output; its EventBus validating against the contract), served
//    over a real WebSocket on 127.0.0.1 (bindPipe writing each batch as a terminal.data frame of its
//    UTF-8 bytes), read by a browser-like consumer in a process of its own (bench/pty-consumer.ts:
//    TextDecoder, RpcClient, terminal.ack every ACK_CHUNK_CHARS, so flow control is on) until the
//    command's exit has reached it (how often flow control paused the PTY, and for how long, is printed); vs reading the same command's PTY raw with node-pty, a consumer
//    that only counts. Rounds alternate (raw, stream, raw, stream, …, raw) and each stream round is
//    compared with the mean of the raw rounds on either side of it, so both see the same load; the
//    median of those paired ratios is the figure (goal ≥ 0.9). CPU time per MB of output is printed
//    for each part (this process, the consumer, the command), which load moves far less than wall time.
// 2. keystroke-to-echo latency through terminal input + events vs a raw node-pty write/onData
//    (goal: no more added than the 5.2 ms measured when issue #27 was filed)
import { fork } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node-pty';
import { Core } from '../electron/main/api/core';
import { serve } from '../electron/main/serve/server';
import type { ConsumerReport } from './pty-consumer';

const LINE = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789abcdefghijklmnopqrstuvwxy';
const LINES = 250_000; // ~25 MB of output, 24.75 M characters with CRLF
const COMMAND = `yes ${LINE} | head -n ${LINES}`;
const CHARS = LINES * (LINE.length + 2);
const ROUNDS = Number(process.env.ERASMUS_BENCH_PTY_ROUNDS ?? 9);
const GOAL_RATIO = 0.9;
const GOAL_ADDED_MS = 5.2;
const KEYS = 200;

const dir = mkdtempSync(join(tmpdir(), 'erasmus-bench-pty-'));
const mbPerS = (r: { chars: number; ms: number }) => r.chars / 1e6 / (r.ms / 1000);

/** CPU time (ms) of this process's reaped children and theirs (/proc: cutime + cstime): a finished command's. */
const TICK_MS = 10; // USER_HZ is 100 on Linux
function childrenCpuMs(): number {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(f[13]) + Number(f[14])) * TICK_MS;
}
/** CLOCK_MONOTONIC in ms: the consumer's process reads the same clock. */
const now = () => Number(process.hrtime.bigint()) / 1e6;
const ownCpuMs = () => {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
};

interface Round {
  chars: number;
  ms: number;
  /** CPU of this process (every thread) until the output was read. */
  cpuMs: number;
  /** Of which its main thread's. */
  mainCpuMs: number;
  /** CPU of the command (its processes, reaped by then). */
  commandCpuMs: number;
  /** Times this process waited (voluntary context switches, every thread): a wake-up each, which load moves little. */
  waits: number;
  /** How long the PTY's reader was runnable but waited for a CPU (ms), and the main thread. */
  readerWaitMs: number;
  mainWaitMs: number;
}
const waits = () => process.resourceUsage().voluntaryContextSwitches;
/** CPU time (ms) of this process's main thread alone (/proc: its task's utime + stime); the rest is the pty host's and V8's helper threads. */
function mainThreadCpuMs(): number {
  const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12])) * TICK_MS;
}

/** CPU time (ms) of each thread of this process now, by thread id (/proc: utime + stime). */
function threadsCpuMs(): Map<string, number> {
  const out = new Map<string, number>();
  for (const t of readdirSync('/proc/self/task')) {
    try {
      const stat = readFileSync(`/proc/self/task/${t}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.set(t, (Number(f[11]) + Number(f[12])) * TICK_MS);
    } catch {} // a thread that ended meanwhile
  }
  return out;
}
/**
 * This process's CPU since `before` split by thread: its main thread, its busiest other thread (with the
 * pty host on, the host's: it reads every byte) and the rest (V8's helpers, libuv's pool: file writes).
 */
function threadSplit(before: Map<string, number>): { busiestMs: number; restMs: number } {
  const deltas: number[] = [];
  for (const [t, ms] of threadsCpuMs()) if (t !== String(process.pid)) deltas.push(ms - (before.get(t) ?? 0));
  deltas.sort((a, b) => b - a);
  const busiestMs = deltas[0] ?? 0;
  return { busiestMs, restMs: deltas.slice(1).reduce((a, b) => a + b, 0) };
}

/** Each thread's time on a CPU and time runnable but waiting for one (ns, /proc: schedstat), by thread id. */
function schedStats(): Map<string, [number, number]> {
  const out = new Map<string, [number, number]>();
  for (const t of readdirSync('/proc/self/task')) {
    try {
      const [run, wait] = readFileSync(`/proc/self/task/${t}/schedstat`, 'utf8').split(' ').map(Number);
      out.set(t, [run!, wait!]);
    } catch {} // a thread that ended meanwhile
  }
  return out;
}
/**
 * How long (ms) the thread that read the PTY waited for a CPU since `before`: the main thread (raw), or the
 * thread that ran most other than the main thread (the pty host's); and the main thread's wait.
 */
function readerWait(before: Map<string, [number, number]>, reader: 'main' | 'busiest'): { readerWaitMs: number; mainWaitMs: number } {
  let best: [number, number] = [0, 0];
  let main: [number, number] = [0, 0];
  for (const [t, [run, wait]] of schedStats()) {
    const [run0, wait0] = before.get(t) ?? [0, 0];
    const d: [number, number] = [run - run0, wait - wait0];
    if (t === String(process.pid)) main = d;
    else if (d[0] > best[0]) best = d;
  }
  return { readerWaitMs: (reader === 'main' ? main[1] : best[1]) / 1e6, mainWaitMs: main[1] / 1e6 };
}

function rawThroughput(): Promise<Round> {
  return new Promise((resolve) => {
    const cpu0 = ownCpuMs();
    const main0 = mainThreadCpuMs();
    const cmd0 = childrenCpuMs();
    const w0 = waits();
    const s0 = schedStats();
    const t0 = performance.now();
    let chars = 0;
    const p = spawn('bash', ['-c', COMMAND], { cols: 120, rows: 30, cwd: dir, env: process.env as Record<string, string> });
    p.onData((d) => (chars += d.length));
    p.onExit(() => resolve({ chars, ms: performance.now() - t0, cpuMs: ownCpuMs() - cpu0, mainCpuMs: mainThreadCpuMs() - main0, commandCpuMs: childrenCpuMs() - cmd0, waits: waits() - w0, ...readerWait(s0, 'main') }));
  });
}

// `erasmus serve`'s core, with the default path's one provider key among its secrets, and a browser-like consumer.
const core = new Core({ face: 'browser', home: join(dir, 'home') });
core.redactor.add('OPENAI_API_KEY', 'sk-proj-Abc123Def456Ghi789Jkl012Mno345Pqr678');
const server = await serve(core);
const consumer = fork(join(import.meta.dirname, 'pty-consumer.ts'), [server.wsUrl], { execArgv: ['--import', 'tsx', ...(process.env.X_CPROF ? ['--cpu-prof', '--cpu-prof-dir=' + process.env.X_CPROF] : [])] });
const reports = new Map<string, (r: ConsumerReport) => void>();
let echoed: ((times: number[]) => void) | undefined;
await new Promise<void>((resolve, reject) => {
  consumer.once('exit', (code) => reject(new Error(`the consumer exited (${code})`)));
  consumer.on('message', (m: 'ready' | ConsumerReport | { echoTimes: number[] }) => {
    if (m === 'ready') resolve();
    else if ('echoTimes' in m) echoed?.(m.echoTimes);
    else reports.get(m.id)?.(m);
  });
});
let consumerCpu = 0;

// ERASMUS_BENCH_PTY_PROFILE=<file.cpuprofile>: a CPU profile of this process over the stream rounds'
// measured spans only (from the command's start until the consumer has read its exit), for `node --cpu-prof`'s tools.
const profileFile = process.env.ERASMUS_BENCH_PTY_PROFILE;
const inspector = profileFile ? new Session() : undefined;
if (inspector) {
  inspector.connect();
  await inspector.post('Profiler.enable');
  await inspector.post('Profiler.setSamplingInterval', { interval: 200 });
}
const profiles: unknown[] = [];

async function streamThroughput(): Promise<Round & { busiestMs: number; restMs: number; consumerCpuMs: number; runMs: number; frames: number; pauses: number; pausedMs: number }> {
  await inspector?.post('Profiler.start');
  let id = '';
  let started!: () => void;
  const report = new Promise<ConsumerReport>((resolve) => (started = () => reports.set(id, resolve)));
  // CPU is read when the core emits the exit (the ANSI-stripped copy for the model, made after, is not
  // the stream's work); the time when the consumer has read the exit, on its clock (the same monotonic one).
  let cpuMs = 0;
  let mainCpuMs = 0;
  let split = { busiestMs: 0, restMs: 0 };
  let commandCpuMs = 0;
  let waited = 0;
  let sched = { readerWaitMs: 0, mainWaitMs: 0 };
  let frames = 0;
  const offExit = core.bus.onEvent('terminal.exited', (e) => {
    if (e.id !== id) return;
    cpuMs = ownCpuMs() - cpu0;
    mainCpuMs = mainThreadCpuMs() - main0;
    split = threadSplit(threads0);
    commandCpuMs = childrenCpuMs() - cmd0;
    waited = waits() - w0;
    sched = readerWait(s0, 'busiest');
  });
  const offData = core.bus.onEvent('terminal.data', (d) => void (d.id === id && frames++));
  const cpu0 = ownCpuMs();
  const main0 = mainThreadCpuMs();
  const threads0 = threadsCpuMs();
  const s0 = schedStats();
  const cmd0 = childrenCpuMs();
  const w0 = waits();
  const t0 = now();
  const running = core.ptys.run({
    command: COMMAND,
    cwd: dir,
    maxOutputChars: 1_000,
    onStart: (info) => {
      id = info.id;
      started();
    },
  });
  const r = await report;
  const ms = r.readAt - t0;
  const flow = core.ptys.get(id)?.flowStats ?? { pauses: 0, pausedMs: 0 };
  offExit();
  offData();
  if (inspector) profiles.push((await inspector.post('Profiler.stop')).profile);
  const result = await running;
  const runMs = now() - t0;
  reports.delete(id);
  if (result.exitCode !== 0) throw new Error(`command failed: ${result.output}`);
  if (r.chars !== CHARS || r.gaps || !r.tail.endsWith(`${LINE}\r\n`)) throw new Error(`the consumer read ${r.chars} of ${CHARS} characters (${r.gaps} out of order)`);
  const consumerCpuMs = r.cpuMs - consumerCpu;
  consumerCpu = r.cpuMs;
  await core.ptys.close(id);
  return { chars: r.chars, ms, cpuMs, mainCpuMs, ...split, commandCpuMs, consumerCpuMs, runMs, waits: waited, ...sched, frames, ...flow };
}

function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
}
const median = (xs: number[]) => percentile(xs, 50);

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
  let id = '';
  const running = core.ptys.run({ command: 'cat', cwd: dir, onStart: (i) => (id = i.id), timeoutMs: 120_000 });
  let waiting: (() => void) | undefined;
  const off = core.bus.onEvent('terminal.data', (d) => {
    if (d.id === id) waiting?.();
  });
  await new Promise((r) => setTimeout(r, 200));
  const out: number[] = [];
  for (let i = 0; i < KEYS; i++) {
    const t0 = performance.now();
    await new Promise<void>((resolve) => {
      waiting = resolve;
      core.ptys.input(id, 'x');
    });
    out.push(performance.now() - t0);
  }
  await core.ptys.kill(id);
  await running;
  off();
  return out;
}

/** Keystroke to echo as a browser meets it: typed by the consumer over the WebSocket, its echo read there. */
async function wsLatency(): Promise<number[]> {
  let id = '';
  const running = core.ptys.run({ command: 'cat', cwd: dir, onStart: (i) => (id = i.id), timeoutMs: 120_000 });
  await new Promise((r) => setTimeout(r, 200));
  const times = await new Promise<number[]>((resolve) => {
    echoed = resolve;
    consumer.send({ echo: id, keys: KEYS });
  });
  await core.ptys.kill(id);
  await running;
  return times;
}

const load = () => loadavg().map((l) => l.toFixed(2)).join(' ');
console.log(`load average (1, 5, 15 min) before: ${load()}`);
const loadAtStart = loadavg()[0]!;
// Warm-up: node-pty, the login environment's snapshot, the consumer's first frames.
await rawThroughput();
await streamThroughput();
const raw: Round[] = [await rawThroughput()];
const stream: Awaited<ReturnType<typeof streamThroughput>>[] = [];
for (let i = 0; i < ROUNDS; i++) {
  stream.push(await streamThroughput());
  raw.push(await rawThroughput());
}
// Each stream round against the raw rounds on either side of it.
const ratios = stream.map((s, i) => mbPerS(s) / ((mbPerS(raw[i]!) + mbPerS(raw[i + 1]!)) / 2));
const ratio = median(ratios);
const perMb = (ms: number) => (ms / (CHARS / 1e6)).toFixed(2);
const cpu = (xs: number[]) => `${perMb(median(xs))} ms/MB (${perMb(Math.min(...xs))}–${perMb(Math.max(...xs))})`;
console.log(`PTYs read ${process.env.ERASMUS_PTY_HOST === '0' ? 'on the main thread (ERASMUS_PTY_HOST=0)' : "on the pty host's thread"}`);
console.log(`throughput, ${LINES} lines (${(CHARS / 1e6).toFixed(2)} M characters), ${ROUNDS} stream rounds between ${ROUNDS + 1} raw rounds:`);
console.log(`  raw node-pty:   median ${median(raw.map(mbPerS)).toFixed(1)} M chars/s (${Math.min(...raw.map(mbPerS)).toFixed(1)}–${Math.max(...raw.map(mbPerS)).toFixed(1)})`);
console.log(`  event stream:   median ${median(stream.map(mbPerS)).toFixed(1)} M chars/s (${Math.min(...stream.map(mbPerS)).toFixed(1)}–${Math.max(...stream.map(mbPerS)).toFixed(1)}), read whole and in order by the consumer`);
console.log(`  + model result: median ${median(stream.map((s) => s.runMs)).toFixed(0)} ms until run() returns (ANSI-stripped copy written to disk, head/tail for the model)`);
console.log(`  ratio stream/raw, paired rounds: median ${ratio.toFixed(2)} (goal ≥ ${GOAL_RATIO.toFixed(2)}) ${ratio >= GOAL_RATIO ? 'ok' : 'BELOW GOAL'}; quartiles ${percentile(ratios, 25).toFixed(2)}–${percentile(ratios, 75).toFixed(2)}, range ${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}`);
console.log('  CPU per MB of output (median, range):');
console.log(`    this process, raw:       ${cpu(raw.map((r) => r.cpuMs))}`);
console.log(`    this process, stream:    ${cpu(stream.map((r) => r.cpuMs))}  (the core: batching, masking, log, frames, WebSocket)`);
console.log(`      its main thread:       ${cpu(stream.map((r) => r.mainCpuMs))}  (raw: ${cpu(raw.map((r) => r.mainCpuMs))}: decode, mask, log, kept output, bus, frames, WebSocket)`);
console.log(`      its busiest other:     ${cpu(stream.map((r) => r.busiestMs))}  (with the pty host on: the host's thread, reading and batching)`);
console.log(`      its other threads:     ${cpu(stream.map((r) => r.restMs))}  (V8's helpers: GC; libuv's pool: the raw log's writes)`);
console.log(`    consumer (stream only):  ${cpu(stream.map((r) => r.consumerCpuMs))}  (the browser's share: decode, frames, acks)`);
console.log(`    command, raw / stream:   ${cpu(raw.map((r) => r.commandCpuMs))} / ${cpu(stream.map((r) => r.commandCpuMs))}`);
const added = median(stream.map((r) => r.cpuMs)) - median(raw.map((r) => r.cpuMs));
console.log(`    the core adds:           ${perMb(added)} ms/MB over reading the PTY raw`);
// With no idle core, throughput follows the CPU every MB costs all the processes of a path.
const rawAll = median(raw.map((r) => r.cpuMs + r.commandCpuMs));
const streamAll = median(stream.map((r) => r.cpuMs + r.consumerCpuMs + r.commandCpuMs));
console.log(`    all processes, raw / stream: ${perMb(rawAll)} / ${perMb(streamAll)} ms/MB: ratio ${(rawAll / streamAll).toFixed(2)} (what stream/raw comes to on a machine with no idle core)`);
const perMbCount = (n: number) => (n / (CHARS / 1e6)).toFixed(0);
console.log(`  waits of this process per MB (median): raw ${perMbCount(median(raw.map((r) => r.waits)))}, stream ${perMbCount(median(stream.map((r) => r.waits)))}; frames per MB: ${perMbCount(median(stream.map((r) => r.frames)))}`);
const pausedShare = (r: { pausedMs: number; ms: number }) => (100 * r.pausedMs) / r.ms;
console.log(`  flow control (median): ${(median(stream.map((r) => r.pauses)) / (CHARS / 1e6)).toFixed(2)} pauses per MB, the PTY paused ${median(stream.map(pausedShare)).toFixed(0)} % of the time (range ${Math.min(...stream.map(pausedShare)).toFixed(0)}–${Math.max(...stream.map(pausedShare)).toFixed(0)} %)`);
console.log(`  runnable but waiting for a CPU, per MB (median): the PTY's reader raw ${perMb(median(raw.map((r) => r.readerWaitMs)))} ms (the main thread) / stream ${perMb(median(stream.map((r) => r.readerWaitMs)))} ms (the host's thread); the core's main thread ${perMb(median(stream.map((r) => r.mainWaitMs)))} ms`);

const rl = await rawLatency();
const sl = await streamLatency();
const addedMs = percentile(sl, 50) - percentile(rl, 50);
console.log(`keystroke-to-echo latency (${KEYS} keys):`);
console.log(`  raw node-pty:   median ${percentile(rl, 50).toFixed(2)} ms, p95 ${percentile(rl, 95).toFixed(2)} ms`);
console.log(`  event stream:   median ${percentile(sl, 50).toFixed(2)} ms, p95 ${percentile(sl, 95).toFixed(2)} ms`);
console.log(`  added median:   ${addedMs.toFixed(2)} ms (goal ≤ ${GOAL_ADDED_MS} ms, not raised) ${addedMs <= GOAL_ADDED_MS ? 'ok' : 'ABOVE GOAL'}`);
const wl = await wsLatency();
console.log(`  over the WebSocket, typed and read by the consumer: median ${percentile(wl, 50).toFixed(2)} ms, p95 ${percentile(wl, 95).toFixed(2)} ms (the browser's view; adds the two hops and the consumer's turn)`);
console.log(`load average (1, 5, 15 min) after: ${load()}`);
if (Math.max(loadavg()[0]!, loadAtStart) > availableParallelism()) {
  console.log(`  the machine was loaded (more runnable processes than its ${availableParallelism()} cores): the paired ratio's spread`);
  console.log('  shows how much; CPU per MB is the steadier figure.');
}
if (profileFile) {
  writeFileSync(profileFile, JSON.stringify(profiles.at(-1)));
  console.log(`CPU profile of the last stream round: ${profileFile}`);
}
consumer.disconnect();
await server.close();
await core.dispose();
rmSync(dir, { recursive: true, force: true });
