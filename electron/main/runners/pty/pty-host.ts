import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { FRAME_HEADROOM } from '../../../contract/index';
import { BATCH_MAX_CHARS } from './flow';
import { signalSession } from './process-tree';
import { PTY_HOST_SOURCE } from './pty-host-source';
import { afterHeadroom, spawnHere, type PtyProcess, type PtySpawnOptions } from './pty-process';

/** Bytes of an error's text the host can hand back with a failed spawn. */
const TEXT_BYTES = 4096;
/** The host pauses a PTY while this many bytes it sent are not yet taken by the main thread, until they fall under LOW. */
const HIGH_BYTES = 1024 * 1024;
const LOW_BYTES = 512 * 1024;
/**
 * The main thread tells the host what it has taken every this many bytes at most (a message each), and
 * at most every half of the backlog's low mark: what it took and has not told is then below that mark,
 * so a host paused for its backlog always hears enough to resume.
 */
const TOOK_EVERY = 128 * 1024;
/** How long the process's exit waits at most for the host to end its PTYs (it takes at most a second). */
const SHUTDOWN_TIMEOUT_MS = 1_500;
/** How long a spawn waits for the host's answer; the first includes starting the thread and loading node-pty. */
const START_TIMEOUT_MS = 10_000;
const SPAWN_TIMEOUT_MS = 5_000;

const STOPPED = 'the pty host was stopped';

type FromHost = { t: 'data'; id: number; b: ArrayBuffer } | { t: 'exit'; id: number; exitCode: number; signal: number };
type ToHost =
  | ({ t: 'spawn'; id: number } & PtySpawnOptions)
  | { t: 'write'; id: number; data: string }
  | { t: 'resize'; id: number; cols: number; rows: number }
  | { t: 'pause' | 'resume' | 'cancel'; id: number }
  | { t: 'took'; id: number; n: number }
  | { t: 'shutdown' };

/** A PTY that lives in the host: calls go to it as messages, its reads and exit come back as messages. */
class HostedPty implements PtyProcess {
  readonly batches = true;
  private readonly dataListeners: ((bytes: Buffer) => void)[] = [];
  private readonly exitListeners: ((e: { exitCode: number; signal: number }) => void)[] = [];
  private took = 0;

  constructor(
    readonly pid: number,
    private readonly id: number,
    private readonly post: (m: ToHost) => void,
    private readonly tookEvery: number,
  ) {}

  write(data: string): void {
    this.post({ t: 'write', id: this.id, data });
  }
  resize(cols: number, rows: number): void {
    // node-pty's own check, made here so a bad size still throws to the caller.
    if (!(cols > 0 && rows > 0 && Number.isFinite(cols) && Number.isFinite(rows))) throw new Error('resizing must be done using positive cols and rows');
    this.post({ t: 'resize', id: this.id, cols, rows });
  }
  pause(): void {
    this.post({ t: 'pause', id: this.id });
  }
  resume(): void {
    this.post({ t: 'resume', id: this.id });
  }
  onData(listener: (bytes: Buffer) => void): void {
    this.dataListeners.push(listener);
  }
  onExit(listener: (e: { exitCode: number; signal: number }) => void): void {
    this.exitListeners.push(listener);
  }

  /** A batch from the host: handed on, then counted as taken. */
  data(bytes: Buffer): void {
    for (const l of this.dataListeners) l(bytes);
    this.took += bytes.length;
    if (this.took >= this.tookEvery) {
      this.post({ t: 'took', id: this.id, n: this.took });
      this.took = 0;
    }
  }
  exit(exitCode: number, signal: number): void {
    for (const l of this.exitListeners) l({ exitCode, signal });
  }
}

/**
 * The pty host: one worker thread that spawns PTYs and reads them, so a command's output is read while
 * the main thread decodes, masks, logs and sends what came before (a PTY's kernel buffer holds only a few
 * kilobytes: a command writing to it waits whenever its reader is busy). The thread holds the process
 * open only while one of its PTYs runs.
 */
export class PtyHost {
  private worker: Worker | undefined;
  private readonly shared = new SharedArrayBuffer(16 + TEXT_BYTES);
  private readonly state = new Int32Array(this.shared, 0, 4);
  private readonly live = new Map<number, HostedPty>();
  private seq = 0;
  /** Why the host cannot run, once it cannot. */
  failure: string | undefined;

  constructor(
    private readonly ptyPath: string,
    /** How far the host may read ahead of the main thread (bytes sent not yet taken): pause above `high`, resume under `low`. */
    private readonly backlog = { high: HIGH_BYTES, low: LOW_BYTES },
  ) {}

  /**
   * Spawns a PTY in the host and waits for its pid (a spawn's error is thrown, as node-pty throws it).
   * Undefined when the host cannot run (`failure` says why): the caller spawns on its own thread.
   */
  spawn(opts: PtySpawnOptions): PtyProcess | undefined {
    if (this.failure) return undefined;
    const first = !this.worker;
    let worker: Worker;
    try {
      worker = this.worker ??= this.start();
    } catch (err) {
      return this.fail(`the pty host's thread did not start: ${(err as Error).message}`);
    }
    const id = ++this.seq;
    Atomics.store(this.state, 0, 0);
    this.post({ t: 'spawn', id, ...opts });
    if (Atomics.wait(this.state, 0, 0, first ? START_TIMEOUT_MS : SPAWN_TIMEOUT_MS) === 'timed-out') {
      // Its PTYs keep being read; should it spawn this one late, it hangs it up.
      this.post({ t: 'cancel', id });
      this.failure = `the pty host did not answer a spawn within ${first ? START_TIMEOUT_MS : SPAWN_TIMEOUT_MS} ms`;
      return undefined;
    }
    const pid = Atomics.load(this.state, 1);
    const text = Buffer.from(this.shared, 16, Atomics.load(this.state, 2)).toString('utf8');
    if (pid === -2) return this.fail(`node-pty did not load in the pty host: ${text}`);
    if (pid < 0) throw new Error(text);
    const p = new HostedPty(pid, id, (m) => this.post(m), Math.min(TOOK_EVERY, this.backlog.low / 2));
    this.live.set(id, p);
    if (this.live.size === 1) worker.ref();
    return p;
  }

  /** Ends the thread (tests): its PTYs are hung up first (`shutdown`). Later PTYs are spawned on the main thread. */
  async stop(): Promise<void> {
    this.failure ??= STOPPED;
    this.shutdown();
    await this.worker?.terminate();
  }

  /**
   * Has the host hang up its PTYs' sessions and kill their leaders, and waits (blocking this thread, at most
   * SHUTDOWN_TIMEOUT_MS) until node-pty has seen them exit: at the process's exit, before Node ends the
   * thread. Ending it under running PTYs would wait for any leader that ignores SIGHUP (node-pty joins
   * the thread that waits for its process), and abort the process if an exit callback ran meanwhile.
   */
  private readonly shutdown = (): void => {
    if (!this.worker || !this.live.size) return;
    Atomics.store(this.state, 3, 0);
    this.post({ t: 'shutdown' });
    Atomics.wait(this.state, 3, 0, SHUTDOWN_TIMEOUT_MS);
  };

  private start(): Worker {
    const worker = new Worker(PTY_HOST_SOURCE, {
      eval: true,
      workerData: { ptyPath: this.ptyPath, shared: this.shared, headroom: FRAME_HEADROOM, maxBytes: BATCH_MAX_CHARS, highBytes: this.backlog.high, lowBytes: this.backlog.low },
    });
    worker.unref();
    process.on('exit', this.shutdown);
    worker.on('exit', () => process.off('exit', this.shutdown));
    worker.on('message', (m: FromHost) => {
      const p = this.live.get(m.id);
      if (!p) return;
      if (m.t === 'data') p.data(afterHeadroom(m.b));
      else {
        this.live.delete(m.id);
        if (!this.live.size) worker.unref();
        p.exit(m.exitCode, m.signal);
      }
    });
    worker.on('error', (err) => this.lost(worker, `the pty host failed: ${err.message}`));
    worker.on('exit', (code) => this.lost(worker, `the pty host's thread exited (${code})`));
    return worker;
  }

  private post(m: ToHost): void {
    this.worker?.postMessage(m);
  }

  /** The host cannot run here (no PTY of it ever ran): its thread, if any, is ended. */
  private fail(why: string): undefined {
    this.failure = why;
    const w = this.worker;
    this.worker = undefined;
    void w?.terminate();
    return undefined;
  }

  /**
   * The thread ended under its PTYs: nothing reads them any more. Each session is hung up (as a closed
   * terminal would) and its terminal told it ended by that signal; later PTYs are spawned on the main thread.
   */
  private lost(worker: Worker, why: string): void {
    if (this.worker === worker) this.worker = undefined;
    this.failure ??= why;
    if (!this.live.size) return;
    if (this.failure !== STOPPED) console.error(`${why}; its ${this.live.size} terminal(s) are hung up`);
    for (const p of this.live.values()) {
      signalSession(p.pid, 'SIGHUP');
      p.exit(129, 1);
    }
    this.live.clear();
  }
}

let host: PtyHost | undefined;

/**
 * Spawns a PTY in the process's pty host (started at the first PTY). `ERASMUS_PTY_HOST=0` reads PTYs on
 * this thread from the start (to compare the two).
 */
export function spawnPty(opts: PtySpawnOptions): PtyProcess {
  if (process.env.ERASMUS_PTY_HOST === '0') return spawnHere(opts);
  if (!host) {
    let path: string | undefined;
    try {
      path = createRequire(import.meta.url).resolve('node-pty');
    } catch {}
    host = new PtyHost(path ?? 'node-pty');
  }
  return spawnIn(host, opts);
}

/** Why PTYs are read on the main thread here, if they are (the host cannot run, or ERASMUS_PTY_HOST=0). */
export function ptyHostFailure(): string | undefined {
  return process.env.ERASMUS_PTY_HOST === '0' ? 'ERASMUS_PTY_HOST=0 is set' : host?.failure;
}

/**
 * Spawns a PTY in `host`. If the host cannot run here (its thread does not start, or node-pty does not
 * load in it), the PTY is spawned on this thread, as every later one: `warn` says so once.
 */
export function spawnIn(host: PtyHost, opts: PtySpawnOptions, warn: (message: string) => void = console.warn): PtyProcess {
  const p = host.spawn(opts);
  if (p) return p;
  if (!warned.has(host)) {
    warned.add(host);
    warn(`${host.failure}; PTYs are read on the main thread instead`);
  }
  return spawnHere(opts);
}
const warned = new WeakSet<PtyHost>();
