import { existsSync, realpathSync, statSync } from 'node:fs';
import { lstat, realpath } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';

/** A path the files server refuses to touch, with the reason the client sees. */
export class ScopeError extends Error {}

/**
 * The folder the files server may touch. Every path is resolved before it is checked: `..` is
 * normalised, the longest existing part is passed through realpath (so symlinked files and
 * symlinked parents are followed to where they really lead), the part that does not exist yet
 * is appended, and the result must lie inside the root. Operations then use the resolved path,
 * never the string the client sent.
 */
export class Scope {
  private constructor(readonly root: string) {}

  /** Opens the scope; the root must be an existing folder (it is itself resolved through symlinks). */
  static open(root: string): Scope {
    const abs = resolve(root);
    if (!existsSync(abs)) throw new ScopeError(`the root folder does not exist: ${abs}`);
    const real = realpathSync(abs);
    if (!statSync(real).isDirectory()) throw new ScopeError(`the root is not a folder: ${abs}`);
    return new Scope(real);
  }

  /** True when `abs` (already real) is the root or inside it. */
  contains(abs: string): boolean {
    const rel = relative(this.root, abs);
    return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
  }

  /** Resolves a client path (relative to the root, or absolute) to a real path inside the root. */
  async resolve(input: string): Promise<string> {
    if (typeof input !== 'string' || input.length === 0) throw new ScopeError('the path is empty');
    if (input.includes('\0')) throw new ScopeError('the path contains a NUL character');
    const lexical = isAbsolute(input) ? resolve(input) : resolve(this.root, input);
    let existing = lexical;
    const missing: string[] = [];
    for (;;) {
      const st = await lstat(existing).catch(() => null);
      if (st) break;
      const parent = dirname(existing);
      if (parent === existing) break;
      missing.unshift(basename(existing));
      existing = parent;
    }
    let real: string;
    try {
      real = await realpath(existing);
    } catch {
      // lstat found it but realpath cannot follow it: a dangling or looping symlink, which a write would follow out.
      throw new ScopeError(`${input} goes through a broken symlink`);
    }
    const full = missing.length ? join(real, ...missing) : real;
    if (!this.contains(full)) throw new ScopeError(`${input} is outside the root folder ${this.root}`);
    return full;
  }

  /**
   * Like `resolve`, but a symlink named as the last part is the link itself, inside the root where its folder is:
   * removing a link the project holds removes the link, wherever it points (it is refused if followed outside).
   */
  async resolveEntry(input: string): Promise<string> {
    if (typeof input !== 'string' || input.length === 0 || input.includes('\0')) return this.resolve(input);
    const lexical = isAbsolute(input) ? resolve(input) : resolve(this.root, input);
    const st = await lstat(lexical).catch(() => null);
    if (!st?.isSymbolicLink() || dirname(lexical) === lexical) return this.resolve(input);
    return join(await this.resolve(dirname(lexical)), basename(lexical));
  }

  /** The path as the client should see it (relative to the root, `.` for the root). */
  show(abs: string): string {
    return relative(this.root, abs) || '.';
  }
}

/** Removing these, or anything directly inside them, is refused outright. */
export function protectedRemoval(abs: string, home: string = homedir()): string | null {
  const bases = new Set(['/', '/home', '/root', resolve(home)]);
  for (const base of bases) if (abs === base || dirname(abs) === base) return base;
  return null;
}
