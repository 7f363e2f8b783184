/** One piece of output: its UTF-8 bytes and how many characters (UTF-16 units) they decode to. */
interface Piece {
  bytes: Buffer;
  chars: number;
}

/** Bytes of its allocation a kept piece may leave unused (a terminal's batch keeps FRAME_HEADROOM before its bytes). */
const SLACK_BYTES = 256;

/**
 * The bytes in an allocation of their own (or nearly). A small Buffer (Buffer.from, Buffer.concat
 * under 4 kB) is a view into Node's shared 8 kB pool: kept for long, it would hold the whole slab.
 */
function own(bytes: Buffer): Buffer {
  if (bytes.buffer.byteLength - bytes.byteLength <= SLACK_BYTES) return bytes;
  const copy = Buffer.allocUnsafeSlow(bytes.length);
  bytes.copy(copy);
  return copy;
}

/** Pieces under this many bytes (an echo, a prompt, a trickle of output) are merged in runs of SMALL_RUN. */
const SMALL_BYTES = 2048;
const SMALL_RUN = 32;

/**
 * Pieces in order, with the small ones merged: a long trickle of tiny outputs (keystrokes' echoes)
 * becomes one Buffer per SMALL_RUN pieces instead of a Buffer each.
 */
class Pieces {
  readonly list: Piece[] = [];
  chars = 0;
  private smallRun = 0;

  push(piece: Piece): void {
    this.list.push(piece);
    this.chars += piece.chars;
    if (piece.bytes.length >= SMALL_BYTES) this.smallRun = 0;
    else if (++this.smallRun === SMALL_RUN) {
      const run = this.list.splice(this.list.length - SMALL_RUN);
      this.list.push({ bytes: own(Buffer.concat(run.map((p) => p.bytes))), chars: run.reduce((n, p) => n + p.chars, 0) });
      this.smallRun = 0;
    }
  }

  shift(): void {
    this.chars -= this.list.shift()!.chars;
    this.smallRun = Math.min(this.smallRun, this.list.length);
  }
}

const decode = (pieces: Piece[]) => (pieces.length === 1 ? pieces[0]!.bytes : Buffer.concat(pieces.map((p) => p.bytes))).toString('utf8');

/**
 * The first and the last `keep` characters of a terminal's output (the file keeps all of it), for a
 * view that connects late and for the model's head and tail. Kept as the pieces' UTF-8 bytes and
 * decoded on demand: the bytes live outside V8's heap, so a flood's young-generation collections do
 * not copy a megabyte of retained text each time, and the terminal already holds the bytes for its file.
 *
 * Each piece's bytes must decode to exactly its text (whole characters), so offsets in characters stay exact.
 */
export class KeptOutput {
  private readonly head = new Pieces();
  private readonly tail = new Pieces();
  private total = 0;

  constructor(private readonly keep: number) {}

  /** Characters of output so far. */
  get chars(): number {
    return this.total;
  }

  add(bytes: Buffer, chars: number): void {
    const piece = { bytes: own(bytes), chars };
    this.total += chars;
    if (this.head.chars < this.keep) this.head.push(piece);
    this.tail.push(piece);
    while (this.tail.chars - this.tail.list[0]!.chars >= this.keep) this.tail.shift();
  }

  /** The first `keep` characters (all of the output when it is no longer). */
  headText(): string {
    const text = decode(this.head.list);
    return text.length > this.keep ? text.slice(0, this.keep) : text;
  }

  /** The last `keep` characters at least, from a piece's start: `start` is where they begin in the output. */
  tailText(): { text: string; start: number } {
    return { text: decode(this.tail.list), start: this.total - this.tail.chars };
  }

  /** Characters [from, total) as far as they are kept (from the tail's start when `from` is before it). */
  since(from: number): string {
    if (this.total <= this.keep) return decode(this.head.list).slice(from);
    const { text, start } = this.tailText();
    return text.slice(Math.max(0, from - start));
  }
}
