import { describe, expect, it } from 'vitest';
import { parseVerdict } from './model-reviewer';

describe('parseVerdict', () => {
  it('reads the JSON verdict from prose or a code fence', () => {
    expect(parseVerdict('Sure.\n```json\n{"verdict":"reject","reasons":["deletes $HOME"]}\n```')).toEqual({ verdict: 'reject', reasons: ['deletes $HOME'] });
    expect(parseVerdict('{"verdict":"approve"}')).toEqual({ verdict: 'approve', reasons: [] });
  });
  it('throws a clear error on anything else (the reviewer then rejects)', () => {
    expect(() => parseVerdict('I think it is fine')).toThrow(/did not answer with a JSON object/);
    expect(() => parseVerdict('{"verdict":"maybe"}')).toThrow(/not a verdict/);
  });
});
