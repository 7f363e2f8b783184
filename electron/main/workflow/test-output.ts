/**
 * Test output as a step's prompt shows it: each failure once. node --test's spec reporter prints a failure where it
 * happens (under its describe block, beside the test's own output) and again in a "✖ failing tests:" list at the end,
 * with where the test is ("test at file:line:col"). A failure found in both places keeps the first, with the location
 * moved above it; one the output holds only in the list (the start was cut off) stays in the list as node wrote it.
 */

const SUMMARY = /^✖ failing tests:\s*$/;
const LOCATION = /^test at (.+)$/;
const HEADER = /^✖ (.+)$/;

interface Failure {
  location?: string;
  header: string;
  /** The error under the header, as the list prints it (blank lines at its end left out). */
  body: string[];
  /** The whole block: location, header, error. */
  lines: string[];
}

/** The blocks of one "failing tests:" list, from `start` (the line after its heading); `end` is the first line after it. */
function readSummary(lines: string[], start: number): { failures: Failure[]; end: number } {
  const failures: Failure[] = [];
  let i = start;
  while (i < lines.length) {
    const line = lines[i]!;
    if (line.trim() === '') {
      i++;
      continue;
    }
    const loc = LOCATION.exec(line);
    const headerAt = loc ? i + 1 : i;
    const header = lines[headerAt];
    if (header === undefined || !HEADER.test(header)) break;
    let j = headerAt + 1;
    while (j < lines.length && (lines[j]!.trim() === '' || /^\s/.test(lines[j]!))) j++;
    // Blank lines between blocks belong to none.
    let last = j;
    while (last > headerAt + 1 && lines[last - 1]!.trim() === '') last--;
    const body = lines.slice(headerAt + 1, last);
    failures.push({ ...(loc ? { location: loc[1]! } : {}), header: header.trim(), body, lines: lines.slice(i, last) });
    i = j;
  }
  return { failures, end: i };
}

/**
 * The line where `f` was printed as it failed, in lines[from, to), not taken by another failure yet: its header, then
 * its whole error, line for line (indented deeper there). A list entry that matches none is kept, so nothing is lost.
 */
function findInline(lines: string[], from: number, to: number, f: Failure, taken: Set<number>): number | undefined {
  for (let k = from; k < to; k++) {
    if (taken.has(k) || lines[k]!.trim() !== f.header) continue;
    if (k + f.body.length < to && f.body.every((l, n) => l.trim() === lines[k + 1 + n]!.trim())) return k;
  }
  return undefined;
}

/** The test command's output with each node --test failure once (see above); any other output as it is. */
export function onceEachFailure(output: string): string {
  const lines = output.split('\n');
  if (!lines.some((l) => SUMMARY.test(l))) return output;
  // Each list, by the line of its heading: the lines that replace it and the line after it.
  const lists = new Map<number, { lines: string[]; end: number }>();
  const located = new Map<number, string>();
  const taken = new Set<number>();
  // Where the current node process's output began: after the previous list (several node --test in one command).
  let from = 0;
  for (let i = 0; i < lines.length; i++) {
    if (!SUMMARY.test(lines[i]!)) continue;
    const { failures, end } = readSummary(lines, i + 1);
    const repeated: string[] = [];
    const listed: string[] = [];
    for (const f of failures) {
      const at = findInline(lines, from, i, f, taken);
      if (at === undefined) {
        listed.push(...f.lines, '');
        continue;
      }
      taken.add(at);
      if (f.location) located.set(at, f.location);
      repeated.push(f.header.replace(/^✖ /, '').replace(/\s*\([\d.]+m?s\)$/, ''));
    }
    const note = repeated.length
      ? [`✖ failing tests${listed.length ? ' also' : ''}: ${repeated.join(', ')} (each is shown above, with its error and where it is; node's repeat of ${repeated.length === 1 ? 'it' : 'them'} here is left out)`, '']
      : [];
    lists.set(i, { lines: [...(listed.length || !repeated.length ? [lines[i]!, '', ...listed] : []), ...note], end });
    from = end;
    i = end - 1;
  }
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const list = lists.get(i);
    if (list) {
      out.push(...list.lines);
      i = list.end - 1;
      continue;
    }
    const loc = located.get(i);
    if (loc !== undefined) out.push(`${/^\s*/.exec(lines[i]!)![0]}test at ${loc}`);
    out.push(lines[i]!);
  }
  return out.join('\n');
}
