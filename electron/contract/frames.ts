import { terminalEvents } from './methods/terminal';

/**
 * `terminal.data` travels as a frame of its own instead of a JSON-RPC notification. Terminal output
 * is the bulk of everything the core sends, and JSON would escape each of its control characters
 * (every line's `\r\n`, every colour code) on the way out and unescape them again on the way in.
 *
 * A frame is text, so every pipe carries it as it carries JSON (IPC, the WebSocket's text frames,
 * the in-memory pair): a header of fields separated by U+0000, then the output as it is:
 *
 *     U+0001 "terminal.data" U+0000 <id> U+0000 <at> U+0000 <data>
 *
 * U+0001 cannot start JSON text, and a terminal id cannot hold U+0000, so the header ends at the
 * third U+0000 whatever the output holds.
 */
const TERMINAL_DATA_HEADER = '\u0001terminal.data\u0000';
const SEP = '\u0000';

export type TerminalData = { id: string; at: number; data: string };

export function encodeTerminalData(p: TerminalData): string {
  return `${terminalDataHeader(p)}${p.data}`;
}

/** The frame's header: the frame is this followed by the output (as text, or as its UTF-8 bytes). */
export function terminalDataHeader(p: Pick<TerminalData, 'id' | 'at'>): string {
  return `${TERMINAL_DATA_HEADER}${p.id}${SEP}${p.at}${SEP}`;
}

/**
 * Bytes an emitter may keep free in front of a batch's bytes, in the same buffer, so the frame's
 * header is written there and the frame sent without copying the output. A core's terminal ids
 * (`t12-a1b2c3`) fit with any offset; a header longer than this (an id of over 30 characters) is copied.
 */
export const FRAME_HEADROOM = 64;

const encoder = new TextEncoder();

/**
 * The frame of `p` as UTF-8 bytes, given `bytes`: `p.data` encoded. When `headroom` bytes before
 * `bytes` in its buffer are free (FRAME_HEADROOM, kept by the emitter), the header is written there
 * and the frame is a view of the same memory; else header and bytes are copied into a new array.
 * Every pipe writes the same header (the same id and offset) into that room, so a frame another
 * pipe still holds is not changed.
 */
export function terminalDataFrameBytes(p: Pick<TerminalData, 'id' | 'at'>, bytes: Uint8Array, headroom = 0): Uint8Array {
  const header = encoder.encode(terminalDataHeader(p));
  const n = header.length;
  if (n <= headroom && n <= bytes.byteOffset) {
    const frame = new Uint8Array(bytes.buffer, bytes.byteOffset - n, n + bytes.length);
    frame.set(header);
    return frame;
  }
  const frame = new Uint8Array(n + bytes.length);
  frame.set(header);
  frame.set(bytes, n);
  return frame;
}

/** Whether a message is a frame (starts with U+0001) rather than JSON. */
export function isFrame(text: string): boolean {
  return text.charCodeAt(0) === 1;
}

/**
 * Reads a `terminal.data` frame, checked against the contract's schema of the event. Throws naming
 * what is wrong with a frame it cannot read.
 */
export function decodeTerminalData(text: string): TerminalData {
  if (!text.startsWith(TERMINAL_DATA_HEADER)) throw new Error(`unknown frame ${JSON.stringify(text.slice(1, 40).split(SEP)[0])}: only terminal.data travels as a frame`);
  const idEnd = text.indexOf(SEP, TERMINAL_DATA_HEADER.length);
  const atEnd = idEnd < 0 ? -1 : text.indexOf(SEP, idEnd + 1);
  if (atEnd < 0) throw new Error('a terminal.data frame ends inside its header (it needs id, at and data, separated by U+0000)');
  const at = text.slice(idEnd + 1, atEnd);
  const parsed = terminalEvents['terminal.data'].safeParse({
    id: text.slice(TERMINAL_DATA_HEADER.length, idEnd),
    at: /^\d+$/.test(at) ? Number(at) : at,
    data: text.slice(atEnd + 1),
  });
  if (!parsed.success) throw new Error(`a terminal.data frame does not match the contract: ${parsed.error.message}`);
  return parsed.data;
}
