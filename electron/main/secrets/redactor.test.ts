import { describe, expect, it } from 'vitest';
import { ByteStreamRedactor, pendingPrefixBytes, redactBytes, Redactor, StreamRedactor } from './redactor';

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

describe('ByteStreamRedactor', () => {
  it("masks on UTF-8 bytes exactly what StreamRedactor masks in the text, a secret cut at any byte (inside a character too)", () => {
    const r = new Redactor();
    r.add('K', 'clé-€😀-key');
    r.add('S', 'ß€ü-x');
    const text = 'a clé-€😀-key b ß€ü-xß€ü- clé-€😀 ß€ü clé-€😀-key';
    const expected = new StreamRedactor(r);
    const want = expected.push(text) + expected.flush();
    expect(want).toBe('a [secret:K] b [secret:S]ß€ü- clé-€😀 ß€ü [secret:K]');
    const bytes = Buffer.from(text);
    for (let cut = 0; cut <= bytes.length; cut++) {
      const s = new ByteStreamRedactor(r);
      const out = Buffer.concat([s.push(bytes.subarray(0, cut)), s.push(bytes.subarray(cut)), s.flush()]);
      expect(out.toString('utf8'), `cut at byte ${cut}`).toBe(want);
    }
  });

  it('agrees with Redactor.redact on random text, secrets overlapping and nested', () => {
    const r = new Redactor();
    for (const [name, value] of [['A', 'abcabd-key'], ['B', 'aaaa'], ['C', 'xyz-123-secret'], ['D', 'aaaa-é']]) r.add(name!, value!);
    const alphabet = 'abcdxyz-123é';
    let seed = 11;
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let i = 0; i < 2000; i++) {
      const text = Array.from({ length: Math.floor(rand() * 40) }, () => alphabet[Math.floor(rand() * alphabet.length)]).join('');
      expect(redactBytes(Buffer.from(text), r.secretBytes()).toString('utf8'), text).toBe(r.redact(text));
      const bytes = Buffer.from(text);
      expect(pendingPrefixBytes(bytes, r.secretBytes()), text).toBe(Buffer.byteLength(text.slice(text.length - r.pendingPrefix(text))));
    }
  });

  it('hands a chunk with nothing to mask and nothing held back on as it was, not a copy', () => {
    const r = new Redactor();
    r.add('K', 'sk-proj-Abc123');
    const s = new ByteStreamRedactor(r);
    const chunk = Buffer.from('plain output\r\n');
    expect(s.push(chunk)).toBe(chunk);
  });
});
