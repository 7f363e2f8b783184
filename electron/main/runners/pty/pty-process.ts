import { spawn } from 'node-pty';
import { FRAME_HEADROOM } from '../../../contract/index';

/** What a terminal needs of its PTY: node-pty's `IPty` as Terminal uses it, bytes for data. */
export interface PtyProcess {
  /** The process's id, also its session's and process group's (node-pty calls setsid). */
  readonly pid: number;
  /** The PTY gathers its reads into batches itself (the pty host does, as DataBatcher would). */
  readonly batches: boolean;
  write(data: string): void;
  resize(cols: number, rows: number): void;
  pause(): void;
  resume(): void;
  /** Every read, in order; all of them come before the exit. */
  onData(listener: (bytes: Buffer) => void): void;
  onExit(listener: (e: { exitCode: number; signal: number }) => void): void;
}

export interface PtySpawnOptions {
  file: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  cols: number;
  rows: number;
  /** How long output that keeps coming is gathered into one batch (ms), where the PTY batches itself. */
  batchMs: number;
}

/**
 * The ArrayBuffers whose bytes start FRAME_HEADROOM bytes in, the room before them free and the buffer
 * the batch's alone (the pty host's batches): a terminal sends such a batch on without copying it.
 */
const withHeadroom = new WeakSet<ArrayBufferLike>();

/** `bytes` over the whole of `buffer` after its FRAME_HEADROOM free bytes, marked as such. */
export function afterHeadroom(buffer: ArrayBuffer): Buffer {
  withHeadroom.add(buffer);
  return Buffer.from(buffer, FRAME_HEADROOM, buffer.byteLength - FRAME_HEADROOM);
}

/** Whether `b` has FRAME_HEADROOM free bytes before it, in an allocation of its own (see `afterHeadroom`). */
export function hasHeadroom(b: Buffer): boolean {
  return b.byteOffset === FRAME_HEADROOM && b.byteOffset + b.length === b.buffer.byteLength && withHeadroom.has(b.buffer);
}

/** node-pty on this thread: the fallback when the pty host cannot run. */
export function spawnHere(opts: PtySpawnOptions): PtyProcess {
  const p = spawn(opts.file, opts.args, {
    // Bytes, decoded by the terminal: the raw file gets the PTY's own bytes wherever the text is unchanged.
    encoding: null,
    name: 'xterm-256color',
    cols: opts.cols,
    rows: opts.rows,
    cwd: opts.cwd,
    env: opts.env,
  });
  return {
    pid: p.pid,
    batches: false,
    write: (data) => p.write(data),
    resize: (cols, rows) => p.resize(cols, rows),
    pause: () => p.pause(),
    resume: () => p.resume(),
    // node-pty hands Buffers (encoding: null), though its type says string.
    onData: (listener) => void (p.onData as unknown as (l: (bytes: Buffer) => void) => void)(listener),
    onExit: (listener) => void p.onExit(({ exitCode, signal }) => listener({ exitCode, signal: signal ?? 0 })),
  };
}
