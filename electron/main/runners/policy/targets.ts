import { existsSync, lstatSync, realpathSync } from 'node:fs';
import { posix } from 'node:path';
import { segmentRegExp, type StaticWord, type WordEnv } from '../sh/words';

/**
 * The folders whose removal (or the removal of anything directly inside them) is refused:
 * `/`, `/home`, `/root` and the user's home folder.
 */
export function protectedBases(env: WordEnv): string[] {
  return [...new Set(['/', '/home', '/root', posix.resolve(env.home)])];
}

const segments = (p: string): string[] => p.split('/').filter((s) => s.length > 0);

/** Follows symlinks when the word names a directory's contents (`link/`, `link/.`), as rm -r does. */
function resolveFollowing(text: string, cwd: string): string {
  const abs = posix.resolve(cwd, text);
  if (!/\/\.?$/.test(text) || !existsSync(abs)) return abs;
  try {
    return realpathSync(abs);
  } catch {
    return abs;
  }
}

/**
 * If removing what `word` names would remove a protected folder or something directly inside
 * one, returns that folder; otherwise null. Globs count when they could match such a path.
 */
export function protectedHit(word: StaticWord, env: WordEnv): string | null {
  const bases = protectedBases(env);
  if (!word.glob) {
    const abs = resolveFollowing(word.text, env.cwd);
    for (const base of bases) if (abs === base || posix.dirname(abs) === base) return base;
    return null;
  }
  const pattern = segments(posix.resolve(env.cwd, word.pattern));
  for (const base of bases) {
    const b = segments(base);
    if (pattern.length < b.length || pattern.length > b.length + 1) continue;
    if (b.every((seg, i) => segmentRegExp(pattern[i] as string).test(seg))) return base;
  }
  return null;
}

/** Whether the word names an existing regular file (or a symlink to one). */
export function existingFile(word: StaticWord, env: WordEnv): string | null {
  if (word.glob) return null;
  const abs = posix.resolve(env.cwd, word.text);
  try {
    const st = lstatSync(abs);
    if (st.isDirectory()) return null;
    if (st.isSymbolicLink()) return existsSync(abs) ? abs : null;
    return abs;
  } catch {
    return null;
  }
}

const DEVICES = /^\/dev\/(null|zero|stdout|stderr|stdin|tty|fd\/\d+|pts\/\d+)$/;

/** Paths that writing to never destroys anything. */
export function harmlessSink(word: StaticWord, env: WordEnv): boolean {
  return DEVICES.test(posix.resolve(env.cwd, word.text));
}
