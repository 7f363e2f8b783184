/** Flow-control thresholds, as VS Code's FlowControlConstants (characters of unacknowledged output). */
export interface FlowControlOptions {
  /** Pause the PTY when this many characters are sent and not yet acknowledged. */
  highWatermark: number;
  /** Resume once the unacknowledged count falls below this. */
  lowWatermark: number;
  /** A paused PTY whose client sends no acknowledgement for this long resumes and stops flow control (client gone). */
  stallMs: number;
}

export const DEFAULT_FLOW: FlowControlOptions = { highWatermark: 100_000, lowWatermark: 5_000, stallMs: 5_000 };
/** How many characters a client should acknowledge at once. */
export const ACK_CHUNK_CHARS = 5_000;

/**
 * Batches output per terminal over a few milliseconds (VS Code's terminalDataBuffering), so a
 * flood of small writes becomes a few events, and counts what the client has not acknowledged.
 */
export class DataBatcher {
  private chunks: string[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly batchMs: number,
    private readonly flush: (data: string) => void,
  ) {}

  push(data: string): void {
    this.chunks.push(data);
    if (this.timer === undefined) this.timer = setTimeout(() => this.drain(), this.batchMs);
  }

  drain(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.chunks.length) return;
    const data = this.chunks.length === 1 ? this.chunks[0]! : this.chunks.join('');
    this.chunks = [];
    this.flush(data);
  }

  dispose(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.chunks = [];
  }
}

/** The PTY-side half of flow control: counts unacknowledged characters and pauses/resumes. */
export class FlowController {
  private unacked = 0;
  private paused = false;
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
