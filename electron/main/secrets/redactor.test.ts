import { describe, expect, it } from 'vitest';
import { Redactor } from './redactor';

const SECRET = 'sk-proj-Abc123Def456Ghi789';

describe('Redactor.redactValue', () => {
  const r = new Redactor();
  r.add('KEY', SECRET);

  it('masks every string and key inside objects and arrays, and leaves the rest as it was', () => {
    const value = { text: `key=${SECRET}`, list: [1, SECRET, { deep: [`"${SECRET}"`] }], [SECRET]: true, n: null, ok: false };
    expect(r.redactValue(value)).toEqual({
      text: 'key=[secret:KEY]',
      list: [1, '[secret:KEY]', { deep: ['"[secret:KEY]"'] }],
      '[secret:KEY]': true,
      n: null,
      ok: false,
    });
    expect(value.text).toBe(`key=${SECRET}`); // the original is not changed
  });

  it('masks a secret next to characters JSON escapes', () => {
    expect(r.redactValue({ s: `a\\${SECRET}\n"` })).toEqual({ s: 'a\\[secret:KEY]\n"' });
  });

  it('hands back a value without a secret as it was, not a copy', () => {
    const clean = { id: 't1', data: 'plain output\r\n'.repeat(1000), at: 0, list: [{ a: 'b' }] };
    expect(r.redactValue(clean)).toBe(clean);
  });

  it('masks class instances through what JSON would carry of them', () => {
    class Note {
      constructor(readonly text: string) {}
    }
    expect(r.redactValue({ note: new Note(SECRET), when: new Date(0) })).toEqual({ note: { text: '[secret:KEY]' }, when: '1970-01-01T00:00:00.000Z' });
  });

  it('with no secret known, is the identity', () => {
    const v = { a: 'x' };
    expect(new Redactor().redactValue(v)).toBe(v);
  });
});
