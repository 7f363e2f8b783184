// Line-level rules of prose: where a fence opens, which chunks are plain text, what a `!` line runs.
import { BACKTICK, BANG, SP, TILDE } from './scan';
import type { ShellEvent } from './types';

/** Characters that a line start reacts to: spaces and fence characters (a fence), `!` (a shell line). */
export function lineStartMatters(c: number, shell: boolean): boolean {
  return c === SP || c === TILDE || c === BACKTICK || (shell && c === BANG);
}

/**
 * For a chunk of prose with nothing held before it: null when it needs the full scan (a tag, a backtick,
 * or a line start that matters); otherwise the index where its last line begins (0 without line breaks).
 */
export function plainProse(chunk: string, lineStart: boolean, shell: boolean): number | null {
  if (chunk.indexOf('<') >= 0 || chunk.indexOf('`') >= 0) return null;
  if (lineStart && lineStartMatters(chunk.charCodeAt(0), shell)) return null;
  const n = chunk.length;
  let from = 0;
  for (let nl = chunk.indexOf('\n'); nl >= 0; nl = chunk.indexOf('\n', nl + 1)) {
    from = nl + 1;
    if (from < n && lineStartMatters(chunk.charCodeAt(from), shell)) return null;
  }
  return from;
}

export type FenceOpening = { kind: 'hold' } | { kind: 'none' } | { kind: 'fence'; ch: number; len: number; end: number };

/** At a line start: up to three spaces and a run of at least three backticks or tildes. */
export function readFenceOpening(s: string, i: number, final: boolean): FenceOpening {
  const len = s.length;
  let k = i;
  while (k < len && k - i < 3 && s.charCodeAt(k) === SP) k++;
  if (k === len) return final ? { kind: 'none' } : { kind: 'hold' };
  const f = s.charCodeAt(k);
  if (f !== BACKTICK && f !== TILDE) return { kind: 'none' };
  let e = k;
  while (e < len && s.charCodeAt(e) === f) e++;
  if (e === len && !final) return { kind: 'hold' };
  return e - k >= 3 ? { kind: 'fence', ch: f, len: e - k, end: e } : { kind: 'none' };
}

/** A finished `!` line: its shell event, or null when it is not a command (`![image]`, `!!`, `!=`, `!`). */
export function shellLine(raw: string): ShellEvent | null {
  const rest = raw.slice(1);
  const command = rest.trim();
  return command === '' || /^[[!=]/.test(rest) ? null : { type: 'shell', command, raw };
}
