import type { ShellNode } from './parser';

/**
 * What a shell word is worth before it runs, as far as that can be known statically.
 * `text` is the value once quotes are removed and `~`/`$HOME` expanded; `pattern` is the same
 * value written as a glob (characters that were quoted are backslash-escaped) and `glob` tells
 * whether unquoted `* ? [ {a,b}` make it a pattern at all. `null` means the word depends on the
 * run (a substitution, an unknown variable, arithmetic).
 */
export interface StaticWord {
  text: string;
  pattern: string;
  glob: boolean;
}

export interface WordEnv {
  home: string;
  cwd: string;
  /** The session's temporary folder, when known: `$TMPDIR` (and `$TMP`, `$TEMP`, which the runner sets alike) is this path. */
  tmpDir?: string;
}

const GLOB_CHARS = /[*?[]/;
const ESCAPE_FOR_GLOB = /[*?[\]{}\\]/g;
const escapeGlob = (s: string): string => s.replace(ESCAPE_FOR_GLOB, (c) => `\\${c}`);

function part(text: string, pattern: string, glob: boolean): StaticWord {
  return { text, pattern, glob };
}

function quoted(text: string): StaticWord {
  return part(text, escapeGlob(text), false);
}

/** An unquoted bare word: backslash escapes, globbing and brace lists. */
function bareWord(raw: string): StaticWord {
  let text = '';
  let pattern = '';
  let glob = false;
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i] as string;
    if (c === '\\') {
      const next = raw[i + 1];
      i++;
      if (next === undefined || next === '\n') continue;
      text += next;
      pattern += escapeGlob(next);
      continue;
    }
    if (GLOB_CHARS.test(c)) glob = true;
    if (c === '{' && /\{[^{}]*(,|\.\.)[^{}]*\}/.test(raw.slice(i))) glob = true;
    text += c;
    pattern += c;
  }
  return { text, pattern, glob };
}

/** Expands a leading `~`, `~/…`, `~user` as bash does for the first unquoted part of a word. */
function tilde(w: StaticWord, env: WordEnv): StaticWord {
  const m = /^~([A-Za-z0-9._-]*|[+-])(?=\/|$)/.exec(w.text);
  if (!m) return w;
  const who = m[1] ?? '';
  const base = who === '' ? env.home : who === '+' ? env.cwd : who === '-' ? null : who === 'root' ? '/root' : `/home/${who}`;
  if (base === null) return w;
  const rest = w.text.slice(m[0].length);
  const restPattern = w.pattern.slice(m[0].length);
  return { text: base + rest, pattern: escapeGlob(base) + restPattern, glob: w.glob };
}

const HOME_VARS = new Set(['HOME']);
const TMP_VARS = new Set(['TMPDIR', 'TMP', 'TEMP']);

/** A variable whose value is known before the run: the home folder, and the session's temporary folder when given. */
function knownVar(name: string | null, env: WordEnv): string | undefined {
  if (!name) return undefined;
  if (HOME_VARS.has(name)) return env.home;
  return TMP_VARS.has(name) ? env.tmpDir : undefined;
}

function expansionName(node: ShellNode): string | null {
  // `$NAME` or `${NAME}` with nothing else inside.
  if (node.type === 'simple_expansion') {
    const v = node.namedChildren.find((c) => c?.type === 'variable_name');
    return v ? v.text : null;
  }
  if (node.type === 'expansion') {
    const named = node.namedChildren.filter((c) => c !== null);
    if (named.length === 1 && named[0]?.type === 'variable_name' && node.text === `\${${named[0].text}}`) return named[0].text;
  }
  return null;
}

function stringContent(raw: string): string {
  // Inside double quotes a backslash escapes only $ ` " \ and newline.
  return raw.replace(/\\([$`"\\\n])/g, (_m, c: string) => (c === '\n' ? '' : c));
}

function evalPart(node: ShellNode, env: WordEnv, first: boolean): StaticWord | null {
  switch (node.type) {
    case 'word':
    case 'number': {
      const w = bareWord(node.text);
      return first ? tilde(w, env) : w;
    }
    case 'raw_string':
      return quoted(node.text.slice(1, -1));
    case 'string': {
      let text = '';
      for (const child of node.namedChildren) {
        if (!child) continue;
        if (child.type === 'string_content') text += stringContent(child.text);
        else {
          const known = knownVar(expansionName(child), env);
          if (known !== undefined) text += known;
          else return null;
        }
      }
      return quoted(text);
    }
    case 'simple_expansion':
    case 'expansion': {
      const known = knownVar(expansionName(node), env);
      return known !== undefined ? quoted(known) : null;
    }
    case 'concatenation': {
      const parts: StaticWord[] = [];
      let i = 0;
      for (const child of node.namedChildren) {
        if (!child) continue;
        const p = evalPart(child, env, first && i === 0);
        if (!p) return null;
        parts.push(p);
        i++;
      }
      return {
        text: parts.map((p) => p.text).join(''),
        pattern: parts.map((p) => p.pattern).join(''),
        glob: parts.some((p) => p.glob),
      };
    }
    default:
      return null;
  }
}

/** The static value of a word node, or null when it depends on the run. */
export function evalWord(node: ShellNode, env: WordEnv): StaticWord | null {
  // A concatenation that starts with a bare word gets tilde expansion on that word; bare `~` too.
  return evalPart(node, env, true);
}

/** Turns a glob pattern (as produced in `pattern`) into a RegExp for one path segment. */
export function segmentRegExp(segment: string): RegExp {
  let re = '';
  for (let i = 0; i < segment.length; i++) {
    const c = segment[i] as string;
    if (c === '\\') {
      re += (segment[++i] ?? '\\').replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    } else if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else if (c === '[') {
      const end = segment.indexOf(']', i + 2);
      if (end < 0) re += '\\[';
      else {
        const body = segment.slice(i + 1, end).replace(/^!/, '^').replace(/\\/g, '\\\\');
        re += `[${body}]`;
        i = end;
      }
    } else if (c === '{') {
      const end = segment.indexOf('}', i);
      const body = end > 0 ? segment.slice(i + 1, end) : '';
      if (end > 0 && body.includes(',')) {
        re += `(?:${body.split(',').map((alt) => segmentRegExp(alt).source.slice(1, -1)).join('|')})`;
        i = end;
      } else re += '\\{';
    } else re += c.replace(/[.+^$()|\]\\/}]/g, '\\$&');
  }
  return new RegExp(`^${re}$`, 's');
}
