import { describe, expect, it } from 'vitest';
import { cleanOutput, truncateHeadTail } from './output';

describe('cleanOutput', () => {
  it('strips colours, folds CRLF and keeps the last state of a redrawn line', () => {
    expect(cleanOutput('\x1b[31mred\x1b[0m\r\nplain\r\n')).toBe('red\nplain\n');
    // A spinner redrawing its line with erase-line and cursor-to-column codes: only its last frame is kept.
    expect(cleanOutput('\x1b[?25l⠋ installing\x1b[2K\x1b[1G⠙ installing\x1b[2K\x1b[1G✔ installed\nnext\n')).toBe('✔ installed\nnext\n');
    expect(cleanOutput('10%\r50%\r100%\r\ndone')).toBe('100%\ndone');
    expect(cleanOutput('bell\x07 here\x1b]0;title\x07')).toBe('bell here');
  });
});

describe('truncateHeadTail', () => {
  it('leaves short text alone', () => {
    expect(truncateHeadTail('abc\n', { maxChars: 10 })).toEqual({ text: 'abc\n', truncated: false, omittedChars: 0, omittedLines: 0 });
  });
  it('keeps head and tail with a note naming the file', () => {
    const text = Array.from({ length: 1000 }, (_, i) => `line ${i}`).join('\n');
    const t = truncateHeadTail(text, { maxChars: 500, file: '/tmp/out.log' });
    expect(t.truncated).toBe(true);
    expect(t.text.startsWith('line 0\n')).toBe(true);
    expect(t.text.endsWith('line 999')).toBe(true);
    expect(t.text).toContain('omitted. The full output is saved in /tmp/out.log.');
    expect(t.text.length).toBeLessThan(700);
    expect(text.length - t.omittedChars).toBeLessThanOrEqual(500);
  });
});
