import { structuredPatch } from 'diff';

/** One replacement: `oldText` exactly as the file has it (once), and what takes its place. */
export interface Edit {
  oldText: string;
  newText: string;
}

export type EditOutcome = { ok: true; text: string; diff: string; lines: string[] } | { ok: false; message: string };

const count = (hay: string, needle: string): number[] => {
  const at: number[] = [];
  for (let i = hay.indexOf(needle); i !== -1; i = hay.indexOf(needle, i + 1)) at.push(i);
  return at;
};
const lineAt = (text: string, index: number): number => text.slice(0, index).split('\n').length;

/**
 * Applies replacements in order, each to the text the ones before it left. All or nothing: the first
 * edit that does not match exactly once ends it with a message that names the edit, says why, and
 * (not found) shows the closest text of the file so the next call can copy it. A file with CRLF line
 * ends matches an `oldText` written with LF (the replacement keeps the file's line ends).
 */
export function applyEdits(path: string, original: string, edits: Edit[]): EditOutcome {
  let text = original;
  const changed: string[] = [];
  const crlf = original.includes('\r\n');
  for (const [n, raw] of edits.entries()) {
    const which = edits.length > 1 ? `edit ${n + 1} of ${edits.length}` : 'the edit';
    const after = n > 0 ? ' (after the edits before it)' : '';
    if (raw.oldText === '') return { ok: false, message: `${which}: oldText is empty; copy the lines next to where the new text goes into oldText and repeat them in newText with the addition; nothing was changed.` };
    let e = raw;
    if (crlf && !raw.oldText.includes('\r') && !text.includes(raw.oldText)) e = { oldText: raw.oldText.replaceAll('\n', '\r\n'), newText: raw.newText.replaceAll(/\r?\n/g, '\r\n') };
    const hits = count(text, e.oldText);
    if (hits.length === 0) return { ok: false, message: `${which}: oldText was not found in ${path}${after}. ${closest(text, e.oldText)} Nothing was changed.` };
    if (hits.length > 1) {
      const lines = [...new Set(hits.slice(0, 8).map((i) => lineAt(text, i)))];
      return { ok: false, message: `${which}: oldText occurs ${hits.length} times in ${path}${after} (at lines ${lines.join(', ')}${hits.length > 8 ? ', …' : ''}); it must match once: add the neighbouring lines that make it unique. Nothing was changed.` };
    }
    if (e.oldText === e.newText) return { ok: false, message: `${which}: oldText and newText are the same, so it changes nothing; nothing was changed.` };
    const at = hits[0]!;
    const first = lineAt(text, at);
    text = text.slice(0, at) + e.newText + text.slice(at + e.oldText.length);
    // The lines the new text fills: a line end it closes with is not a line of its own (`x\n` at line 4 fills line 4 only).
    const last = first + Math.max(0, e.newText.replace(/\r?\n$/, '').split('\n').length - 1);
    changed.push(first === last ? `line ${first}` : `lines ${first}–${last}`);
  }
  return { ok: true, text, diff: unifiedDiff(path, original, text), lines: changed };
}

/** A unified diff with two lines of context (no file header: the caller names the file). */
export function unifiedDiff(path: string, before: string, after: string): string {
  const patch = structuredPatch(path, path, before, after, '', '', { context: 2 });
  return patch.hunks.map((h) => [`@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@`, ...h.lines.map((l) => l.replace(/\r$/, ''))].join('\n')).join('\n');
}

/** Character bigrams of a trimmed line, for a cheap similarity that survives small typos. */
function bigrams(s: string): Map<string, number> {
  const m = new Map<string, number>();
  const t = s.trim();
  for (let i = 0; i < t.length - 1; i++) m.set(t.slice(i, i + 2), (m.get(t.slice(i, i + 2)) ?? 0) + 1);
  return m;
}
function dice(a: Map<string, number>, b: Map<string, number>, at: string, bt: string): number {
  if (at.trim() === bt.trim()) return 1;
  let both = 0;
  let total = 0;
  for (const [k, v] of a) {
    both += Math.min(v, b.get(k) ?? 0);
    total += v;
  }
  for (const v of b.values()) total += v;
  return total === 0 ? 0 : (2 * both) / total;
}

/** Past this many line comparisons the search compares trimmed lines for equality only. */
const FINE_LIMIT = 400_000;

/** Where the file has the text most like `wanted`, shown verbatim with its line numbers, or why there is none. */
export function closest(text: string, wanted: string): string {
  const fileLines = text.split('\n');
  const want = wanted.replace(/\n$/, '').split('\n');
  const n = Math.min(want.length, fileLines.length);
  const fine = fileLines.length * want.length <= FINE_LIMIT;
  const wantGrams = fine ? want.map(bigrams) : [];
  const fileGrams = fine ? fileLines.map(bigrams) : [];
  let best = { start: -1, score: 0 };
  for (let s = 0; s + n <= fileLines.length; s++) {
    let score = 0;
    for (let k = 0; k < n; k++) {
      const a = fileLines[s + k]!;
      const b = want[k]!;
      score += fine ? dice(fileGrams[s + k]!, wantGrams[k]!, a, b) : a.trim() === b.trim() ? 1 : 0;
    }
    if (score > best.score) best = { start: s, score };
  }
  if (best.start < 0 || best.score / want.length < 0.5) {
    return 'No part of the file is close to it: read the file (read_file) and copy the text to replace exactly, whitespace included.';
  }
  const found = fileLines.slice(best.start, best.start + n);
  const sameTrimmed = found.length === want.length && found.every((l, k) => l.trim() === want[k]!.trim());
  const why = sameTrimmed ? 'It differs only in indentation or spaces at line ends. ' : '';
  const from = best.start + 1;
  const to = best.start + n;
  const shown = found.map((l) => l.replace(/\r$/, '')).join('\n');
  return `The closest text is at ${from === to ? `line ${from}` : `lines ${from}–${to}`}:\n${shown}\n${why}Copy the text to replace exactly as the file has it (read_file with offset ${from} and limit ${n} shows it), whitespace included, and call again.`;
}
