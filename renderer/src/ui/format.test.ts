import { describe, expect, it } from 'vitest';
import { formatDuration } from './format';

describe('formatDuration', () => {
  it('rounds once at the precision it shows, so no unit reads 60', () => {
    expect(formatDuration(719_600)).toBe('12 m 0 s'); // the timeline showed "11 m 60 s"
    expect(formatDuration(59_960)).toBe('1 m 0 s'); // not "60.0 s"
    expect(formatDuration(999.6)).toBe('1.0 s'); // not "1000 ms"
    expect(formatDuration(7_199_000)).toBe('2 h 0 m'); // not "1 h 60 m"
    expect(formatDuration(42)).toBe('42 ms');
    expect(formatDuration(8_040)).toBe('8.0 s');
    expect(formatDuration(83_000)).toBe('1 m 23 s');
    expect(formatDuration(undefined)).toBe('–');
  });
});
