/** Flow-control thresholds (characters of unacknowledged output), as VS Code's FlowControlConstants name them. */
export interface FlowControlOptions {
  /** Pause the PTY when this many characters are sent and not yet acknowledged. */
  highWatermark: number;
  /** Resume once the unacknowledged count falls below this. */
  lowWatermark: number;
  /** A paused PTY whose client sends no acknowledgement for this long resumes and stops flow control (client gone). */
  stallMs: number;
}

/**
 * A sliding window, as xterm.js's flow-control guide sizes it (pause past about 500 000 characters not yet
 * rendered, go on under about 200 000), not VS Code's 100 000 / 5 000. Resuming only once the client had
 * acknowledged all but 5 000 emptied the whole pipeline at each pause (the command stopped, then every hop
 * waited for the next read): on 2 cores the PTY stood paused for 10–30 % of a flood and the stream reached
 * about 0.65× raw node-pty. Resuming at half the window keeps 250 000 characters in flight while the resume
 * travels back, and 500 000 covers the round trip (frame out, render, ack back) at the stream's speed, so
 * a client that keeps up is not paused at all; one that falls behind (a busy renderer) still holds the
 * command back with at most half a megabyte unrendered, which xterm.js renders in a few tens of ms.
 */
export const DEFAULT_FLOW: FlowControlOptions = { highWatermark: 500_000, lowWatermark: 250_000, stallMs: 5_000 };
/**
 * How much output (bytes as the PTY gives them) one batch gathers at most when output floods (see
 * DataBatcher): one `terminal.data` event. Kept well under V8's 128 kB large-object size, so each
 * batch's string is allocated (and dies) in the young generation; a 5 ms flood batch used to reach
 * 200 k characters.
 */
export const BATCH_MAX_CHARS = 32_768;
/** How many characters a client should acknowledge at once. */
export const ACK_CHUNK_CHARS = 5_000;

/**
 * Batches output per terminal (VS Code's terminalDataBuffering), so a flood of small writes
 * becomes a few events. A terminal batches the PTY's bytes as they are read (about 4 kB a read) and
 * decodes, masks and sends each batch in one piece, so the work per read is a push.
 *
 * - After a quiet spell (nothing flushed for `batchMs`), or after input was typed (`inputSent`),
 *   output goes out as soon as the reads of this turn of the event loop are in (setImmediate): a
 *   keystroke's echo is not held back, even when keys follow each other fast.
 * - While output keeps coming, it is gathered for `batchMs`.
 * - A batch that reaches `maxChars` goes out at once. The kernel buffers only a few kilobytes
 *   between the command and us; one long flush (copy to file, events, serialisation) would stall
 *   the command, where short ones overlap with its writing.
 */
export class DataBatcher<T extends { length: number } = string> {
  private chunks: T[] = [];
  private chars = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private immediate: ReturnType<typeof setImmediate> | undefined;
  private lastFlush = -Infinity;
  private echoDue = false;

  constructor(
    private readonly batchMs: number,
    /** `full`: the batch reached `maxChars` (output is flooding). */
    private readonly flush: (data: T, full: boolean) => void,
    private readonly maxChars = BATCH_MAX_CHARS,
    /** Makes one piece of the batch's chunks, one or more (strings are joined; a terminal copies its bytes into one buffer). */
    private readonly join: (chunks: T[]) => T = (chunks) => (chunks.length === 1 ? chunks[0]! : ((chunks as unknown as string[]).join('') as unknown as T)),
  ) {}

  push(data: T): void {
    this.chunks.push(data);
    this.chars += data.length;
    if (this.chars >= this.maxChars) return this.drain(true);
    if (this.immediate !== undefined) return;
    if (this.echoDue || performance.now() - this.lastFlush >= this.batchMs) this.flushSoon();
    else if (this.timer === undefined) this.timer = setTimeout(() => this.drain(), this.batchMs);
  }

  /** Input was written to the terminal: its echo (the next output) goes out without waiting. */
  inputSent(): void {
    this.echoDue = true;
    if (this.chunks.length) this.flushSoon();
  }

  private flushSoon(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.immediate ??= setImmediate(() => this.drain());
  }

  drain(full = false): void {
    this.cancel();
    if (!this.chunks.length) return;
    const data = this.join(this.chunks);
    this.chunks = [];
    this.chars = 0;
    this.echoDue = false;
    this.lastFlush = performance.now();
    this.flush(data, full);
  }

  dispose(): void {
    this.cancel();
    this.chunks = [];
    this.chars = 0;
  }

  private cancel(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    if (this.immediate !== undefined) clearImmediate(this.immediate);
    this.timer = undefined;
    this.immediate = undefined;
  }
}

/** The PTY-side half of flow control: counts unacknowledged characters and pauses/resumes. */
export class FlowController {
  private unacked = 0;
  private paused = false;
  private pausedAt = 0;
  /** How often the PTY was paused, and for how long in all (ms): what the window cost the command. */
  readonly stats = { pauses: 0, pausedMs: 0 };
  private released = false;
  private enabled: boolean;
  private stallTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly options: FlowControlOptions | undefined,
    private readonly pty: { pause(): void; resume(): void },
    enabled = true,
  ) {
    this.enabled = options !== undefined && enabled;
  }

  /** Starts flow control (a client that acknowledges has shown up). */
  enable(): void {
    if (this.options && !this.released) this.enabled = true;
  }

  get isPaused(): boolean {
    return this.paused;
  }

  sent(chars: number): void {
    if (!this.enabled || !this.options) return;
    this.unacked += chars;
    if (!this.paused && this.unacked > this.options.highWatermark) {
      this.paused = true;
      this.stats.pauses++;
      this.pausedAt = performance.now();
      this.pty.pause();
      this.armStall();
    }
  }

  ack(chars: number): void {
    if (!this.enabled || !this.options) return;
    this.unacked = Math.max(0, this.unacked - chars);
    if (this.paused) {
      if (this.unacked < this.options.lowWatermark) this.resume();
      else this.armStall();
    }
  }

  /** Resume now and for good (the process ended, or the client stopped acknowledging). */
  release(): void {
    this.enabled = false;
    this.released = true;
    this.resume();
  }

  private resume(): void {
    if (this.stallTimer !== undefined) clearTimeout(this.stallTimer);
    this.stallTimer = undefined;
    if (!this.paused) return;
    this.paused = false;
    this.stats.pausedMs += performance.now() - this.pausedAt;
    this.pty.resume();
  }

  private armStall(): void {
    if (this.stallTimer !== undefined) clearTimeout(this.stallTimer);
    this.stallTimer = setTimeout(() => this.release(), this.options!.stallMs);
  }

  dispose(): void {
    if (this.stallTimer !== undefined) clearTimeout(this.stallTimer);
    this.stallTimer = undefined;
  }
}
