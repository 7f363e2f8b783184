import { isAscii } from 'node:buffer';
import { ByteStreamRedactor, type Redactor } from '../../secrets/redactor';

const EMPTY = Buffer.alloc(0);
const MARKER_START = Buffer.from('\x1b]7777;erasmus-exit;');
/** A trailing escape sequence that starts this close to a batch's end, unfinished, waits for the next batch (the marker is about 40 bytes). */
const HOLD_ESCAPE_BYTES = 63;
const ESC = 0x1b;

/** How many bytes at the end of `buf` are the start of a UTF-8 character that the next bytes complete (0–3). */
export function incompleteTail(buf: Uint8Array): number {
  const n = buf.length;
  if (n === 0 || buf[n - 1]! < 0x80) return 0;
  for (let i = n - 1, back = 1; i >= 0 && back <= 4; i--, back++) {
    const b = buf[i]!;
    if ((b & 0xc0) === 0x80) continue; // a continuation byte
    const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    return need > back ? back : 0;
  }
  return 0;
}

/** Whether `buf` ends inside a UTF-8 sequence: its last lead byte announces more bytes than follow it. */
export function endsMidCharacter(buf: Uint8Array): boolean {
  return incompleteTail(buf) > 0;
}

/** How many characters (UTF-16 units, what a `terminal.data` offset counts) `bytes` decode to, and the text when it had to be decoded. */
export function countChars(bytes: Buffer): { chars: number; text?: string } {
  if (isAscii(bytes)) return { chars: bytes.length };
  const text = bytes.toString('utf8');
  return { chars: text.length, text };
}

/** The text of `bytes` (whole UTF-8 characters): an ASCII run is read as Latin-1, V8's cheapest string. */
export function decodeOutput(bytes: Buffer): string {
  return isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
}

/**
 * What a terminal does to its PTY's bytes before anything keeps or sends them, on bytes (nothing is
 * decoded here): a character cut at a batch's end waits for the rest of it, the wrapper's exit marker
 * is taken out (and everything after it dropped), and secrets are masked (ByteStreamRedactor). Each
 * piece that comes out is whole UTF-8 characters; a batch that needed no change comes out as the same
 * bytes (`push` returns a view from its start), so the batch's buffer and the room before it travel on.
 */
export class OutputFilter {
  /** The first bytes of a character the next batch completes. */
  private cut: Buffer = EMPTY;
  /** A trailing escape sequence that may be the exit marker, until the next batch says. */
  private escape: Buffer = EMPTY;
  private readonly masker: ByteStreamRedactor | undefined;
  private readonly marker: RegExp | undefined;
  /** The marker up to its exit code: ESC ] 7777;erasmus-exit;<nonce>; */
  private readonly markerHead: Buffer | undefined;
  /** The command's exit code, once the exit marker was read. */
  markerCode: number | undefined;

  constructor(
    /** The exit marker's nonce (commandArgs), for a wrapped command. */
    nonce: string | undefined,
    redactor: Redactor | undefined,
    /** Called once, when the exit marker is read (the wrapper can be stopped). */
    private readonly onMarker: () => void = () => {},
  ) {
    this.marker = nonce ? new RegExp(`^\x1b\\]7777;erasmus-exit;${nonce};(\\d+)\x07`) : undefined;
    this.markerHead = nonce ? Buffer.from(`\x1b]7777;erasmus-exit;${nonce};`) : undefined;
    this.masker = redactor ? new ByteStreamRedactor(redactor) : undefined;
  }

  /** A batch of the PTY's bytes: the bytes to keep and send now (possibly none). */
  push(batch: Buffer): Buffer {
    if (this.markerCode !== undefined) return EMPTY;
    let bytes = this.cut.length ? Buffer.concat([this.cut, batch]) : batch;
    const tail = incompleteTail(bytes);
    // Copied: the batch's buffer goes on to be sent and kept.
    this.cut = tail ? Buffer.from(bytes.subarray(bytes.length - tail)) : EMPTY;
    if (tail) bytes = bytes.subarray(0, bytes.length - tail);
    if (this.marker) bytes = this.takeMarker(bytes);
    return this.masker && bytes.length ? this.masker.push(bytes) : bytes;
  }

  /** At the PTY's exit: what was held back (nothing past the exit marker: that is not the command's). */
  end(): Buffer {
    if (this.markerCode !== undefined) return EMPTY;
    const held = this.escape.length && this.cut.length ? Buffer.concat([this.escape, this.cut]) : this.escape.length ? this.escape : this.cut;
    this.escape = this.cut = EMPTY;
    if (!this.masker) return held;
    const masked = held.length ? this.masker.push(held) : EMPTY;
    const rest = this.masker.flush();
    return rest.length ? Buffer.concat([masked, rest]) : masked;
  }

  /** Finds the wrapper's exit marker (possibly split across batches) and records its code; the bytes before it. */
  private takeMarker(batch: Buffer): Buffer {
    const bytes = this.escape.length ? Buffer.concat([this.escape, batch]) : batch;
    this.escape = EMPTY;
    for (let i = bytes.indexOf(MARKER_START); i >= 0; i = bytes.indexOf(MARKER_START, i + 1)) {
      const m = this.marker!.exec(bytes.toString('latin1', i, Math.min(bytes.length, i + HOLD_ESCAPE_BYTES)));
      if (!m) continue;
      this.markerCode = Number(m[1]);
      this.onMarker();
      return bytes.subarray(0, i);
    }
    // Hold back a trailing escape sequence that may be the marker's beginning until the next batch.
    // Searched forward in the last bytes, not backward through the batch.
    let esc = bytes.indexOf(ESC, Math.max(0, bytes.length - HOLD_ESCAPE_BYTES));
    for (let next = esc; next >= 0; next = bytes.indexOf(ESC, next + 1)) esc = next;
    if (esc >= 0 && this.mayBeMarker(bytes.subarray(esc))) {
      this.escape = Buffer.from(bytes.subarray(esc));
      return bytes.subarray(0, esc);
    }
    return bytes;
  }

  /** Whether `tail` (from an ESC to the batch's end) can be the start of this terminal's exit marker: its head so far, then digits. */
  private mayBeMarker(tail: Buffer): boolean {
    const head = this.markerHead!;
    const n = Math.min(tail.length, head.length);
    if (head.compare(tail, 0, n, 0, n) !== 0) return false;
    for (let i = n; i < tail.length; i++) if (tail[i]! < 0x30 || tail[i]! > 0x39) return false;
    return true;
  }
}
