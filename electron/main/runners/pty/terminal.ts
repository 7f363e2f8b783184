import { createWriteStream, type WriteStream } from 'node:fs';
import type { Redactor } from '../../secrets/redactor';
import { FRAME_HEADROOM, type TerminalInfo } from '../../../contract/index';
import { DataBatcher, FlowController, type FlowControlOptions } from './flow';
import { KeptOutput } from './kept-output';
import { countChars, decodeOutput, OutputFilter } from './output-stream';
import { killSession, sessionAlive } from './process-tree';
import { spawnPty } from './pty-host';
import { hasHeadroom, type PtyProcess, type PtySpawnOptions } from './pty-process';

/** A terminal: the PTY it spawns (its program, folder, size, batching) and what is kept and shown of it. */
export interface TerminalSpec extends PtySpawnOptions {
  id: string;
  kind: TerminalInfo['kind'];
  title: string;
  command?: string;
  /** Every byte of output, as the terminal received it (ANSI included). */
  rawFile: string;
  flow?: FlowControlOptions;
  /** Flow control starts off (until `enableFlowControl`), for managers in `auto` mode. */
  flowDeferred?: boolean;
  /**
   * Set for commands wrapped by `commandArgs`: the nonce of the exit marker the wrapper prints.
   * The marker is taken out of the output and its exit code reported.
   */
  exitMarker?: string;
  /** Masks secrets in everything the terminal outputs (file, events, the result), across chunks. */
  redactor?: Redactor;
}

/**
 * Arguments for `shell` that run `command` so that no output is lost at exit. Linux hangs up a
 * PTY when its session leader exits and drops output the reader has not yet taken; so the leader
 * is a wrapper that runs the command, prints an invisible exit marker (an OSC sequence with a
 * nonce and the exit code), and waits to be stopped once the marker has been read.
 * `login`: true runs the command in a login shell (`-lc`: the user's profile, read each time); a
 * string is a shell snapshot (shell-snapshot.ts) the shell sources first instead (`BASH_ENV`, read
 * by a non-interactive bash before the command: its aliases then apply to the command's first line).
 */
export function commandArgs(shell: string, command: string, login: boolean | string, nonce: string, prefix: string[] = []): string[] {
  // `prefix` (the sandbox's argv) wraps the command only: the wrapper and its marker stay outside.
  const wrap = prefix.map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  const snapshot = typeof login === 'string';
  const run = `${snapshot ? 'BASH_ENV="$2" ' : ''}${wrap ? `${wrap} ` : ''}"$0" ${login === true ? '-lc' : '-c'} "$1"`;
  const script = `${run}; __erasmus_s=$?; printf '\\033]7777;erasmus-exit;${nonce};%d\\007' "$__erasmus_s"; exec sleep 3600`;
  return ['-c', script, shell, command, ...(snapshot ? [login] : [])];
}

export { endsMidCharacter } from './output-stream';

/**
 * One piece of output for the client: its UTF-8 bytes (masked, whole characters), how many bytes before
 * them in their buffer are free for a frame's header (FRAME_HEADROOM or 0), where it starts and how many
 * characters it holds; its text is decoded only when something asks for it (`text()`, once).
 */
export interface OutputPiece {
  bytes: Buffer;
  headroom: number;
  at: number;
  chars: number;
  text(): string;
}

export interface ExitStatus {
  exitCode: number | null;
  signal: number | null;
  timedOut: boolean;
}

/** How much raw output a terminal keeps in memory at each end; the file keeps all of it. */
const KEEP_CHARS = 1_000_000;
/**
 * Output bytes gathered before they are written to the raw file, or how long output waits for its
 * write at most: a flood is written in a few large writes, not one per batch (each write is a hand-off
 * to a worker thread), and a trickle is on disk within a tenth of a second. Nothing reads the file
 * while the terminal runs (a late view and the model read the kept output in memory).
 */
const FILE_WRITE_BYTES = 1024 * 1024;
const FILE_WRITE_MS = 100;

/**
 * A batch's bytes in one allocation of their own (never Node's shared pool, so keeping them keeps
 * nothing else), FRAME_HEADROOM bytes after the allocation's start: a pipe writes the frame's header
 * there and sends the frame without copying the output again (contract/frames.ts). A batch of one
 * chunk that already is such (the pty host's) is not copied.
 */
export function joinWithHeadroom(chunks: Buffer[]): Buffer {
  if (chunks.length === 1 && hasHeadroom(chunks[0]!)) return chunks[0]!;
  let n = 0;
  for (const c of chunks) n += c.length;
  const buf = Buffer.allocUnsafeSlow(FRAME_HEADROOM + n);
  let at = FRAME_HEADROOM;
  for (const c of chunks) at += c.copy(buf, at);
  return buf.subarray(FRAME_HEADROOM);
}

/**
 * One PTY: a process (and its session) in a pseudo-terminal, its output batched to a listener and
 * written in full to a file, flow-controlled against a client that acknowledges what it rendered.
 */
export class Terminal {
  readonly info: TerminalInfo;
  readonly exited: Promise<ExitStatus>;
  private readonly pty: PtyProcess;
  private readonly file: WriteStream;
  private readonly fileClosed: Promise<void>;
  /** The PTY's bytes as read, until a batch is due (decoded, masked and sent in one piece). */
  private readonly batcher: DataBatcher<Buffer>;
  private readonly flow: FlowController;
  private readonly kept = new KeptOutput(KEEP_CHARS);
  /** Characters handed to the client so far (`terminal.data`): the next chunk's `at`. */
  private sent = 0;
  private timedOut = false;
  private killing: Promise<void> | undefined;
  private pausePoll: ReturnType<typeof setInterval> | undefined;
  private readonly listeners = new Set<(data: string) => void>();
  private readonly filter: OutputFilter;
  /** Bytes for the raw file not yet written (see `send`), and the write due for them. */
  private fileChunks: Buffer[] = [];
  private fileBytes = 0;
  private fileTimer: ReturnType<typeof setTimeout> | undefined;
  /** Each piece of output for the client. */
  private readonly onBatch: (piece: OutputPiece) => void;

  constructor(spec: TerminalSpec, onBatch: (piece: OutputPiece) => void) {
    this.file = createWriteStream(spec.rawFile);
    this.fileClosed = new Promise((resolve) => this.file.once('close', () => resolve()));
    this.file.on('error', () => {});
    this.pty = spawnPty({ file: spec.file, args: spec.args, cwd: spec.cwd, env: spec.env, cols: spec.cols, rows: spec.rows, batchMs: spec.batchMs });
    this.info = {
      id: spec.id,
      kind: spec.kind,
      title: spec.title,
      command: spec.command,
      cwd: spec.cwd,
      cols: spec.cols,
      rows: spec.rows,
      running: true,
      exitCode: null,
      outputFile: spec.rawFile,
      startedAt: Date.now(),
    };
    this.onBatch = onBatch;
    // A PTY that batches its reads itself (the pty host) has waited its batchMs already: each of its
    // batches goes at the next turn of the event loop, joined with those that came in the same turn.
    this.batcher = new DataBatcher<Buffer>(this.pty.batches ? 0 : spec.batchMs, (bytes) => this.take(bytes), undefined, joinWithHeadroom);
    this.flow = new FlowController(spec.flow, {
      pause: () => {
        this.pty.pause();
        this.watchWhilePaused();
      },
      resume: () => {
        this.stopPausePoll();
        this.pty.resume();
      },
    }, !spec.flowDeferred);
    this.filter = new OutputFilter(spec.exitMarker, spec.redactor, () => {
      // Everything the command printed has been read: stop the waiting wrapper.
      try {
        process.kill(this.pty.pid, 'SIGTERM');
      } catch {}
    });
    this.pty.onData((bytes) => this.batcher.push(bytes));
    this.exited = new Promise((resolve) => {
      this.pty.onExit(({ exitCode: code, signal: sig }) => {
        this.batcher.drain();
        // What the filter held back (a cut character, an escape, a secret's possible start); nothing past the exit marker.
        this.send(this.filter.end(), 0);
        const marker = this.filter.markerCode;
        const exitCode = marker ?? code;
        const signal = marker !== undefined ? 0 : sig;
        this.stopPausePoll();
        this.flow.release();
        this.writeFile();
        this.info.running = false;
        this.info.exitCode = signal ? null : exitCode;
        this.file.end();
        resolve({ exitCode: signal ? null : exitCode, signal: signal || null, timedOut: this.timedOut });
      });
    });
  }

  get id(): string {
    return this.info.id;
  }
  get pid(): number {
    return this.pty.pid;
  }
  get running(): boolean {
    return this.info.running;
  }
  /** Characters of output so far. */
  get outputChars(): number {
    return this.kept.chars;
  }
  /** Characters of output sent to the client so far (what a `terminal.data` chunk's `at` counts). */
  get sentChars(): number {
    return this.sent;
  }
  /**
   * What the client has been sent so far, its last `max` characters at most, from memory (the raw
   * file may lag behind its writes): for a view that connects while the terminal still runs. `end`
   * is `sentChars` at this moment, so a later chunk (`at` ≥ `end`) continues it without a repeat.
   */
  backlog(max: number): { data: string; truncated: boolean; end: number } {
    // Every piece kept has been sent: the kept output ends where the client's does.
    const end = this.sent;
    const from = Math.max(0, end - max);
    let data = this.kept.since(from);
    // Never start with half of a surrogate pair.
    if (from > 0 && /^[\udc00-\udfff]/.test(data)) data = data.slice(1);
    return { data, truncated: end - data.length > 0, end };
  }
  /** The output so far (ANSI included) when it fits in memory, else undefined: read the raw file. */
  get fullOutput(): string | undefined {
    return this.kept.chars <= KEEP_CHARS ? this.kept.headText() : undefined;
  }
  /** The first and last megabyte of output. */
  get ends(): { head: string; tail: string } {
    return { head: this.kept.headText(), tail: this.kept.tailText().text.slice(-KEEP_CHARS) };
  }
  /** Resolves once the raw output file is complete on disk (after exit). */
  get outputWritten(): Promise<void> {
    return this.fileClosed;
  }

  /** Every piece of output as it is sent (a batch, decoded and masked). */
  onData(listener: (data: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  write(data: string): void {
    if (!this.running) throw new Error(`terminal ${this.id} has exited`);
    this.batcher.inputSent();
    this.pty.write(data);
  }

  resize(cols: number, rows: number): void {
    if (!this.running) return;
    this.pty.resize(cols, rows);
    this.info.cols = cols;
    this.info.rows = rows;
  }

  ack(chars: number): void {
    this.flow.ack(chars);
  }

  /** How often flow control paused this terminal's PTY, and for how long in all (ms). */
  get flowStats(): { pauses: number; pausedMs: number } {
    return { ...this.flow.stats };
  }

  enableFlowControl(): void {
    if (this.running) this.flow.enable();
  }

  markTimedOut(): void {
    this.timedOut = true;
  }

  /**
   * Stops the process and everything else in its session: SIGHUP/SIGTERM, then SIGKILL after
   * `graceMs`. Resolves when the PTY has exited and no member of the session is left.
   */
  kill(graceMs = 2_000): Promise<void> {
    if (!this.killing) {
      const sid = this.pty.pid;
      this.flow.release();
      this.killing = (async () => {
        if (this.running || sessionAlive(sid)) await killSession(sid, graceMs);
        await this.exited;
      })();
    }
    return this.killing;
  }

  dispose(): void {
    this.batcher.dispose();
    if (this.fileTimer !== undefined) clearTimeout(this.fileTimer);
    this.flow.dispose();
    this.stopPausePoll();
    this.listeners.clear();
    if (!this.file.closed) {
      this.writeFile();
      this.file.end();
    }
  }

  /** A batch of the PTY's bytes (joinWithHeadroom's: FRAME_HEADROOM free before them): filtered, then sent. */
  private take(batch: Buffer): void {
    const bytes = this.filter.push(batch);
    // Unchanged from the batch's start, the bytes still have the room before them for a frame's header.
    this.send(bytes, bytes.buffer === batch.buffer && bytes.byteOffset === batch.byteOffset ? FRAME_HEADROOM : 0);
  }

  /**
   * One piece of output (masked, without the exit marker, whole characters): kept at both ends in memory,
   * queued for the raw file, and handed to the client, all as bytes; decoded only if a listener wants
   * text (an ASCII piece's characters are its bytes). Flow control counts what is sent (as VS Code does),
   * before the client can acknowledge it.
   */
  private send(bytes: Buffer, headroom: number): void {
    if (!bytes.length) return;
    const counted = countChars(bytes);
    const chars = counted.chars;
    let text = counted.text;
    const decoded = () => (text ??= decodeOutput(bytes));
    this.fileChunks.push(bytes);
    this.fileBytes += bytes.length;
    this.kept.add(bytes, chars);
    for (const l of this.listeners) l(decoded());
    if (this.fileBytes >= FILE_WRITE_BYTES) this.writeFile();
    else this.fileTimer ??= setTimeout(() => this.writeFile(), FILE_WRITE_MS);
    this.flow.sent(chars);
    const at = this.sent;
    this.sent += chars;
    this.onBatch({ bytes, headroom, at, chars, text: decoded });
  }

  /** Writes the queued output to the raw file, in one write. */
  private writeFile(): void {
    if (this.fileTimer !== undefined) clearTimeout(this.fileTimer);
    this.fileTimer = undefined;
    if (!this.fileChunks.length || this.file.closed || this.file.writableEnded) return;
    const chunks = this.fileChunks;
    this.fileChunks = [];
    this.fileBytes = 0;
    this.file.cork();
    for (const c of chunks) this.file.write(c);
    this.file.uncork();
  }

  /**
   * node-pty destroys its socket 200 ms after the process exits; a paused socket would lose the
   * output still buffered. While paused, watch the process and resume as soon as it has ended.
   */
  private watchWhilePaused(): void {
    this.stopPausePoll();
    const pid = this.pty.pid;
    this.pausePoll = setInterval(() => {
      try {
        process.kill(pid, 0);
      } catch {
        this.flow.release();
      }
    }, 40);
  }

  private stopPausePoll(): void {
    if (this.pausePoll !== undefined) clearInterval(this.pausePoll);
    this.pausePoll = undefined;
  }
}
