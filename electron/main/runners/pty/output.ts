import stripAnsi from 'strip-ansi';

/**
 * Terminal output as text for a model or a file: ANSI codes stripped, CRLF folded to LF, lines
 * redrawn with a bare carriage return or a cursor-to-column / erase-line code (progress bars,
 * spinners) reduced to their final state, and other
 * control characters (bell, backspace…) removed.
 */
export function cleanOutput(raw: string): string {
  // A spinner that redraws its line with "cursor to column n" or "erase line" rather than \r: the same as \r.
  // eslint-disable-next-line no-control-regex
  let text = stripAnsi(raw.replace(/\x1b\[[0-2]?K|\x1b\[\d*G/g, '\r')).replace(/\r+\n/g, '\n');
  if (text.includes('\r')) {
    text = text
      .split('\n')
      .map((line) => {
        const cr = line.lastIndexOf('\r', line.length - 2);
        return (cr >= 0 ? line.slice(cr + 1) : line).replace(/\r$/, '');
      })
      .join('\n');
  }
  // eslint-disable-next-line no-control-regex
  const control = /[\x00-\x08\x0b-\x1f\x7f]/g;
  return control.test(text) ? text.replace(control, '') : text;
}

export interface TruncateOptions {
  /** The most characters the model receives (head + tail), before the note. */
  maxChars: number;
  /** Where the complete text is saved, named in the note. */
  file?: string;
}

export interface Truncated {
  text: string;
  truncated: boolean;
  omittedChars: number;
  omittedLines: number;
}

/**
 * Keeps the head (40 %) and the tail (60 %) of a long text, cut at line boundaries where that
 * costs little, with a note in the middle saying what was left out and where the whole text is.
 */
export function truncateHeadTail(text: string, { maxChars, file }: TruncateOptions): Truncated {
  if (text.length <= maxChars) return { text, truncated: false, omittedChars: 0, omittedLines: 0 };
  const headBudget = Math.floor(maxChars * 0.4);
  const tailBudget = maxChars - headBudget;
  let headEnd = headBudget;
  const nl = text.lastIndexOf('\n', headBudget);
  if (nl > headBudget * 0.5) headEnd = nl + 1;
  let tailStart = text.length - tailBudget;
  const nl2 = text.indexOf('\n', tailStart);
  if (nl2 >= 0 && nl2 - tailStart < tailBudget * 0.5) tailStart = nl2 + 1;
  const omitted = text.slice(headEnd, tailStart);
  const omittedLines = omitted.split('\n').length - (omitted.endsWith('\n') ? 1 : 0);
  const where = file ? ` The full output is saved in ${file}.` : '';
  const note = `\n[… ${omitted.length} characters (${omittedLines} lines) omitted.${where} …]\n`;
  return {
    text: text.slice(0, headEnd) + note + text.slice(tailStart),
    truncated: true,
    omittedChars: omitted.length,
    omittedLines,
  };
}
