// Parameter values: from the raw text between `<param>` and `</param>` to a typed value.
import { decodeHTML } from 'entities';
import type { JsonSchema } from './types';

const CDATA_OPEN = '<![CDATA[';
const CDATA_CLOSE = ']]>';

/**
 * The text of an XML parameter value — one rule for every parameter:
 * - the line break right after the opening tag is dropped (a value may start on the next line);
 * - a value on one line is trimmed (`<path>\n src/a.ts \n</path>` is `src/a.ts`), except file content
 *   (`text`: content, text, body…) whose tags stand on their own lines: it keeps one final line break,
 *   as a file of several lines does (`<content>\nhi\n</content>` is `hi\n`);
 * - a value of several lines is taken verbatim up to the closing tag, so with the closing tag on its
 *   own line it ends with exactly one line break (a file written that way keeps its final newline);
 * - `<![CDATA[ … ]]>` around the whole value: the inside is taken verbatim;
 * - HTML entities (`&lt;` `&amp;` `&#x41;` …) are decoded only when the value has no raw `<`: a model
 *   that escapes, escapes throughout; raw code or markup (which may mean `&amp;` literally) is left alone.
 */
export function decodeXmlValue(raw: string, opts: { text?: boolean } = {}): string {
  let v = raw;
  const ownLines = /^\r?\n/.test(v) && /\n[ \t]*$/.test(v);
  if (v.startsWith('\r\n')) v = v.slice(2);
  else if (v.startsWith('\n')) v = v.slice(1);
  const t = v.trim();
  if (t.startsWith(CDATA_OPEN) && t.endsWith(CDATA_CLOSE) && t.length >= CDATA_OPEN.length + CDATA_CLOSE.length) {
    return t.slice(CDATA_OPEN.length, -CDATA_CLOSE.length);
  }
  const body = v.endsWith('\r\n') ? v.slice(0, -2) : v.endsWith('\n') ? v.slice(0, -1) : v;
  if (!body.includes('\n')) v = opts.text && ownLines && t ? `${t}\n` : t;
  if (v.includes('&') && !v.includes('<')) v = decodeHTML(v);
  return v;
}

/** Parameters that carry file or text content: with their tags on their own lines, one line keeps its final line break too. */
export const TEXT_PARAMS = new Set(['content', 'contents', 'text', 'body', 'code', 'script', 'new_content', 'file_text']);

/** The effective type of a schema: its `type` (the first that is not null), or that of its first anyOf/oneOf branch. */
export function schemaType(s: JsonSchema | undefined): string | undefined {
  if (!s) return undefined;
  if (typeof s.type === 'string') return s.type;
  if (Array.isArray(s.type)) return s.type.find((t) => t !== 'null') ?? s.type[0];
  for (const branch of [...(s.anyOf ?? []), ...(s.oneOf ?? [])]) {
    const t = schemaType(branch);
    if (t && t !== 'null') return t;
  }
  if (s.enum && s.enum.length > 0) return jsonTypeOf(s.enum[0]);
  if (s.const !== undefined) return jsonTypeOf(s.const);
  return undefined;
}

function jsonTypeOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v === 'number' ? 'number' : typeof v;
}

export type Coerced = { ok: true; value: unknown } | { ok: false; message: string };

const TRUE = new Set(['true', 'yes', '1']);
const FALSE = new Set(['false', 'no', '0']);

/** Turns a string value into what the schema asks for; errors say what was expected. */
export function coerceString(value: string, s: JsonSchema | undefined): Coerced {
  const type = schemaType(s);
  const t = value.trim();
  switch (type) {
    case 'number':
    case 'integer': {
      const n = t === '' ? Number.NaN : Number(t);
      if (!Number.isFinite(n)) return { ok: false, message: `must be a number, got "${clip(value)}"` };
      if (type === 'integer' && !Number.isInteger(n)) return { ok: false, message: `must be an integer, got "${clip(value)}"` };
      return checkEnum(n, s);
    }
    case 'boolean': {
      const l = t.toLowerCase();
      if (TRUE.has(l)) return { ok: true, value: true };
      if (FALSE.has(l)) return { ok: true, value: false };
      return { ok: false, message: `must be true or false, got "${clip(value)}"` };
    }
    case 'null':
      return t === '' || t === 'null' ? { ok: true, value: null } : { ok: false, message: `must be null, got "${clip(value)}"` };
    case 'array':
      return coerceArray(value, t, s);
    case 'object': {
      const parsed = parseJson(t);
      if (parsed.ok && isPlainObject(parsed.value)) return parsed;
      return { ok: false, message: `must be a JSON object such as {"key": "value"}, got "${clip(value)}"` };
    }
    default:
      return checkEnum(value, s);
  }
}

function coerceArray(value: string, t: string, s: JsonSchema | undefined): Coerced {
  if (t.startsWith('[')) {
    const parsed = parseJson(t);
    if (parsed.ok && Array.isArray(parsed.value)) return parsed;
    return { ok: false, message: `must be a JSON array such as ["a", "b"], got "${clip(value)}"` };
  }
  // Lenient form for arrays of scalars: one item per line.
  const itemType = schemaType(s?.items);
  if (itemType === 'object' || itemType === 'array') {
    return { ok: false, message: `must be a JSON array, got "${clip(value)}"` };
  }
  const out: unknown[] = [];
  for (const line of t.split(/\r?\n/)) {
    if (line.trim() === '') continue;
    const item = coerceString(line.trim(), s?.items);
    if (!item.ok) return { ok: false, message: `item "${clip(line.trim())}" ${item.message}` };
    out.push(item.value);
  }
  return { ok: true, value: out };
}

/** A value from the JSON form: already typed; strings are coerced when the schema wants another type. */
export function coerceJsonValue(value: unknown, s: JsonSchema | undefined): Coerced {
  const type = schemaType(s);
  if (typeof value === 'string' && type !== undefined && type !== 'string') return coerceString(value, s);
  return checkEnum(value, s);
}

function checkEnum(value: unknown, s: JsonSchema | undefined): Coerced {
  if (s?.enum && s.enum.length > 0 && !s.enum.some((e) => e === value)) {
    return { ok: false, message: `must be one of ${s.enum.map((e) => JSON.stringify(e)).join(', ')}, got ${JSON.stringify(value)}` };
  }
  return { ok: true, value };
}

function parseJson(t: string): Coerced {
  try {
    return { ok: true, value: JSON.parse(t) as unknown };
  } catch (e) {
    return { ok: false, message: (e as Error).message };
  }
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function clip(s: string): string {
  return s.length > 60 ? `${s.slice(0, 57)}...` : s;
}
