import { lstat, readdir, readFile } from 'node:fs/promises';
import { linksInsideRoot } from './hard-links';
import { join } from 'node:path';
import type { IgnoreRules } from './ignore-rules';
import type { Scope } from './scope';

export interface Entry {
  path: string;
  type: 'file' | 'folder' | 'symlink' | 'other';
  size: number;
}

const kind = (st: { isFile(): boolean; isDirectory(): boolean; isSymbolicLink(): boolean }): Entry['type'] =>
  st.isSymbolicLink() ? 'symlink' : st.isDirectory() ? 'folder' : st.isFile() ? 'file' : 'other';

/**
 * Walks a folder without following symlinks (a symlinked folder is listed, not entered), so a
 * listing or search never reads outside the root. With `rules`, what they leave out (.git/, what
 * .gitignore ignores) is skipped and counted. An aborted signal ends the walk.
 */
export async function* walkFolder(scope: Scope, dir: string, recursive: boolean, signal?: AbortSignal, rules?: IgnoreRules): AsyncGenerator<Entry & { abs: string }> {
  if (signal?.aborted) return;
  const names = (await readdir(dir)).sort();
  const here = rules ? await rules.enter(dir) : undefined;
  for (const name of names) {
    if (signal?.aborted) return;
    const abs = join(dir, name);
    const st = await lstat(abs).catch(() => null);
    if (!st) continue;
    const type = kind(st);
    if (here?.skips(abs, name, type === 'folder')) continue;
    yield { abs, path: scope.show(abs), type, size: st.size };
    if (recursive && type === 'folder') yield* walkFolder(scope, abs, true, signal, here);
  }
}

/** The note under a listing or search that left entries out, saying how to see them. */
export function leftOutNote(rules: IgnoreRules): string {
  return rules.left ? `\n[${rules.left} ${rules.left === 1 ? 'entry' : 'entries'} left out: .git/ and what .gitignore ignores; give such a folder as path to look inside it]` : '';
}

/** Converts a simple name glob (`*.ts`, `test_?.py`) to a RegExp; plain text matches as a substring. */
export function nameMatcher(pattern: string): (name: string) => boolean {
  if (!/[*?]/.test(pattern)) {
    const needle = pattern.toLowerCase();
    return (name) => name.toLowerCase().includes(needle);
  }
  const re = new RegExp(`^${pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.')}$`, 'i');
  return (name) => re.test(name);
}

const MAX_SEARCH_BYTES = 1024 * 1024;

/** Lines of a file that contain `text`, as `line:content`; binary and large files are skipped. */
export async function grepFile(abs: string, text: string, limit: number, links?: { root: string; cache: Map<string, number>; refused: string[] }): Promise<string[]> {
  const st = await lstat(abs);
  if (!st.isFile() || st.size > MAX_SEARCH_BYTES) return [];
  // A hard link whose other names may be outside the root is not searched (its text could be a secret's).
  if (st.nlink > 1 && !(links && (await linksInsideRoot(links.root, st, links.cache)))) {
    links?.refused.push(abs);
    return [];
  }
  const buf = await readFile(abs);
  if (buf.includes(0)) return [];
  const out: string[] = [];
  const lines = buf.toString('utf8').split('\n');
  for (let i = 0; i < lines.length && out.length < limit; i++) if (lines[i]?.includes(text)) out.push(`${i + 1}: ${lines[i]?.slice(0, 300)}`);
  return out;
}
