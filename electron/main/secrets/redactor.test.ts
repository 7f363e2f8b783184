import { describe, expect, it } from 'vitest';
import { Redactor, StreamRedactor } from './redactor';

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

describe('Redactor.pendingPrefix', () => {
  it('finds the longest end of a text that begins a secret, as checking every length would', () => {
    const r = new Redactor();
    for (const [name, value] of [['A', 'abcabd-key'], ['B', 'aaaa'], ['C', 'xyz-123-secret']]) r.add(name!, value!);
    const naive = (text: string) => {
      let best = 0;
      for (const v of ['abcabd-key', 'aaaa', 'xyz-123-secret']) for (let n = Math.min(v.length - 1, text.length); n > best; n--) if (text.endsWith(v.slice(0, n))) best = n;
      return best;
    };
    const alphabet = 'abcdxyz-123';
    let seed = 7;
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let i = 0; i < 2000; i++) {
      const text = Array.from({ length: Math.floor(rand() * 24) }, () => alphabet[Math.floor(rand() * alphabet.length)]).join('');
      expect(r.pendingPrefix(text), text).toBe(naive(text));
    }
    expect(r.pendingPrefix('...xyz-123-secre')).toBe(13);
    expect(r.pendingPrefix('..abcab')).toBe(5);
  });

  it('lets a stream catch a secret cut anywhere', () => {
    const r = new Redactor();
    r.add('K', 'abcabd-key');
    const text = 'x abcabd-key y abcab abcabd-key';
    for (let cut = 0; cut <= text.length; cut++) {
      const s = new StreamRedactor(r);
      expect(s.push(text.slice(0, cut)) + s.push(text.slice(cut)) + s.flush()).toBe('x [secret:K] y abcab [secret:K]');
    }
  });
});
