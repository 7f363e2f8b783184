// Small scanning helpers shared by the parser's states. Positions are UTF-16 indexes into the string
// being scanned; `final` means no more input will come, so nothing may be held back.

export const LT = 60; // <
export const GT = 62; // >
export const NL = 10;
export const CR = 13;
export const SP = 32;
export const TAB = 9;
export const BANG = 33; // !
export const BACKTICK = 96;
export const TILDE = 126;

/** Longest opening tag (name and attributes) the parser waits for before calling it text. */
export const MAX_OPEN_TAG = 512;
/** Spaces or tabs allowed between a tool's opening tag and the line break or tag that must follow it. */
export const MAX_FOLLOW_SPACE = 64;
/** Whitespace allowed between a parameter's closing tag and the tag that confirms it. */
export const MAX_CLOSE_GAP = 256;

export function isNameChar(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 45 || c === 46 || c === 58;
}

export function isSpace(c: number): boolean {
  return c === SP || c === TAB || c === NL || c === CR;
}

/**
 * Index of `tag` (which starts with '<' and has no other '<') in s from `from`, or -1. Short strings are
 * scanned by '<' (a multi-character indexOf prepares search tables: too costly for a 1–16 character chunk).
 */
export function findTag(s: string, tag: string, from: number): number {
  if (s.length - from > 256) return s.indexOf(tag, from);
  for (let lt = s.indexOf('<', from); lt >= 0; lt = s.indexOf('<', lt + 1)) {
    if (s.startsWith(tag, lt)) return lt;
  }
  return -1;
}

/** Whether s, which has nothing held before it, holds `tag` (a '<'-tag) or ends with a start of it. */
export function touchesTag(s: string, tag: string): boolean {
  const n = s.length;
  for (let k = 0; k < n; k++) {
    if (s.charCodeAt(k) !== LT) continue;
    if (k + 1 === n) return true;
    if (s.charCodeAt(k + 1) === tag.charCodeAt(1) && (n - k >= tag.length ? s.startsWith(tag, k) : tag.startsWith(s.slice(k)))) return true;
  }
  return false;
}

/**
 * Where a possible start of `tag` begins in the tail of s (from `from` on): the first index p such that
 * s.slice(p) is a proper prefix of tag; s.length when there is none.
 */
export function partialTail(s: string, from: number, tag: string): number {
  const len = s.length;
  for (let p = Math.max(from, len - tag.length + 1); p < len; p++) {
    if (s.charCodeAt(p) === tag.charCodeAt(0) && tag.startsWith(s.slice(p))) return p;
  }
  return len;
}

export type OpenTag =
  | { kind: 'hold' }
  | { kind: 'none' }
  | { kind: 'tag'; name: string; attrs: Array<[string, string]>; end: number; selfClosing: boolean };

const HOLD: OpenTag = { kind: 'hold' };
const NONE: OpenTag = { kind: 'none' };
const ATTR = /\s+([A-Za-z_][\w.:-]*)\s*=\s*(?:"([^"]*)"|'([^']*)')/y;
/** What may follow a tool name in a tag that is not finished yet: attributes, perhaps cut short. */
const ATTRS_PREFIX = /^(?:\s+[A-Za-z_][\w.:-]*\s*=\s*(?:"[^"]*"|'[^']*'))*(?:\s+(?:[A-Za-z_][\w.:-]*(?:\s*=\s*(?:"[^"]*|'[^']*)?)?)?)?\s*\/?$/;

/**
 * Reads an opening tag `<name attr="v" …>` or `<name … />` at s[j] === '<' whose name `accept`s.
 * 'hold' when the input ends before it is decided.
 */
export function readOpenTag(s: string, j: number, final: boolean, accept: (name: string) => boolean, maxName: number): OpenTag {
  const len = s.length;
  let k = j + 1;
  while (k < len && isNameChar(s.charCodeAt(k))) k++;
  const nameLen = k - j - 1;
  if (nameLen > maxName) return NONE;
  if (k === len) return final ? NONE : HOLD;
  if (nameLen === 0) return NONE;
  const name = s.slice(j + 1, k);
  if (!accept(name)) return NONE;
  const c = s.charCodeAt(k);
  if (c !== GT && c !== 47 && !isSpace(c)) return NONE;
  // The end of the tag: the first '>' outside quotes.
  let quote = 0;
  let e = k;
  const limit = Math.min(len, j + MAX_OPEN_TAG);
  for (; e < limit; e++) {
    const d = s.charCodeAt(e);
    if (quote !== 0) {
      if (d === quote) quote = 0;
    } else if (d === 34 || d === 39) quote = d;
    else if (d === GT) break;
    else if (d === LT) return NONE;
  }
  if (e === limit) return limit === len && len < j + MAX_OPEN_TAG && !final && ATTRS_PREFIX.test(s.slice(k)) ? HOLD : NONE;
  const attrs: Array<[string, string]> = [];
  let p = k;
  ATTR.lastIndex = p;
  for (let m = ATTR.exec(s); m !== null && ATTR.lastIndex <= e; m = ATTR.exec(s)) {
    attrs.push([m[1] as string, m[2] ?? m[3] ?? '']);
    p = ATTR.lastIndex;
  }
  const rest = s.slice(p, e);
  const tail = /^\s*(\/?)$/.exec(rest);
  if (!tail) return NONE;
  return { kind: 'tag', name, attrs, end: e + 1, selfClosing: tail[1] === '/' };
}

/**
 * After a tool's opening tag: a real call goes on with a line break or a tag (`<param>`, `</tool>`);
 * anything else on the same line means the tag is only mentioned in prose.
 */
export function followsOpenTag(s: string, e: number, final: boolean, selfClosing: boolean): 'call' | 'mention' | 'hold' {
  const len = s.length;
  let p = e;
  while (p < len && p - e < MAX_FOLLOW_SPACE && (s.charCodeAt(p) === SP || s.charCodeAt(p) === TAB)) p++;
  if (p - e >= MAX_FOLLOW_SPACE) return 'mention';
  // At the end of the message a complete self-closing call still runs; a bare opening tag is a mention.
  if (p === len) return final ? (selfClosing ? 'call' : 'mention') : 'hold';
  const c = s.charCodeAt(p);
  return c === NL || c === CR || c === LT ? 'call' : 'mention';
}
