import { describe, expect, it } from 'vitest';
import { coerceString, decodeXmlValue, schemaType } from './values';

describe('decodeXmlValue', () => {
  it.each([
    ['\nsrc/a.ts\n', 'src/a.ts'],
    ['  padded  ', 'padded'],
    ['\r\nline 1\r\n  line 2\r\n', 'line 1\r\n  line 2\r\n'],
    ['\nline 1\nline 2\n', 'line 1\nline 2\n'],
    ['\nline 1\nline 2', 'line 1\nline 2'],
    ['\n  one line  \n', 'one line'],
    ['\n\nkeeps one blank line\n\n', '\nkeeps one blank line\n\n'],
    ['Tom &amp; Jerry &#8212; &quot;x&quot;', 'Tom & Jerry \u2014 "x"'],
    ['<a href="?a=1&amp;b=2">', '<a href="?a=1&amp;b=2">'],
    [' <![CDATA[ raw &amp; <kept> ]]> ', ' raw &amp; <kept> '],
  ])('%j → %j', (raw, value) => {
    expect(decodeXmlValue(raw)).toBe(value);
  });
});

describe('decodeXmlValue of file content', () => {
  it('with its tags on their own lines, content ends with exactly one line break, one line or many', () => {
    expect(decodeXmlValue('\nhello\n', { text: true })).toBe('hello\n');
    expect(decodeXmlValue('\r\nhello\r\n', { text: true })).toBe('hello\n');
    expect(decodeXmlValue('\nline 1\nline 2\n', { text: true })).toBe('line 1\nline 2\n');
    // Written inline, or a path, it is trimmed as before.
    expect(decodeXmlValue('hello', { text: true })).toBe('hello');
    expect(decodeXmlValue('\nhello', { text: true })).toBe('hello');
    expect(decodeXmlValue('\nsrc/a.ts\n')).toBe('src/a.ts');
    expect(decodeXmlValue('\n\n', { text: true })).toBe('');
  });
});

describe('coerceString', () => {
  it('follows the schema type, including unions and enums', () => {
    expect(schemaType({ type: ['null', 'integer'] })).toBe('integer');
    expect(schemaType({ anyOf: [{ type: 'null' }, { type: 'boolean' }] })).toBe('boolean');
    expect(coerceString(' -1.5e3 ', { type: 'number' })).toEqual({ ok: true, value: -1500 });
    expect(coerceString('Yes', { type: ['boolean', 'null'] })).toEqual({ ok: true, value: true });
    expect(coerceString('null', { type: 'null' })).toEqual({ ok: true, value: null });
    expect(coerceString('["a"]', { type: 'array' })).toEqual({ ok: true, value: ['a'] });
    expect(coerceString('a.ts\n\nb.ts\n', { type: 'array', items: { type: 'string' } })).toEqual({ ok: true, value: ['a.ts', 'b.ts'] });
    expect(coerceString('{"a":1}', { type: 'object' })).toEqual({ ok: true, value: { a: 1 } });
    expect(coerceString('text', {})).toEqual({ ok: true, value: 'text' });
  });

  it('says what was expected when the value does not fit', () => {
    expect(coerceString('', { type: 'integer' })).toEqual({ ok: false, message: 'must be a number, got ""' });
    expect(coerceString('[1,', { type: 'array' })).toEqual({ ok: false, message: 'must be a JSON array such as ["a", "b"], got "[1,"' });
    expect(coerceString('1\nx', { type: 'array', items: { type: 'integer' } })).toEqual({ ok: false, message: 'item "x" must be a number, got "x"' });
    expect(coerceString('[]', { type: 'object' })).toEqual({ ok: false, message: 'must be a JSON object such as {"key": "value"}, got "[]"' });
    expect(coerceString('c', { enum: ['a', 'b'] })).toEqual({ ok: false, message: 'must be one of "a", "b", got "c"' });
  });
});
