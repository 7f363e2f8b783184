import { readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import ignore, { type Ignore } from 'ignore';

/** Always left out of listings and searches: git's own store. */
const ALWAYS = new Set(['.git']);

async function rulesIn(dir: string): Promise<Ignore | undefined> {
  const text = await readFile(join(dir, '.gitignore'), 'utf8').catch(() => undefined);
  return text === undefined ? undefined : ignore().add(text);
}

const posix = (p: string) => p.split(sep).join('/');

/**
 * What a listing or search leaves out: `.git/` and what the `.gitignore` files (the root's, those of
 * the folders between the root and where the walk starts, and those it meets) ignore. A walk that
 * starts inside an ignored folder (asked for by its path) is not filtered but for `.git/`.
 */
export class IgnoreRules {
  private constructor(
    private readonly rules: Array<{ base: string; ig: Ignore }>,
    private readonly off: boolean,
    private readonly counter: { left: number },
  ) {}

  /** Entries left out so far, in the whole walk. */
  get left(): number {
    return this.counter.left;
  }

  static async forWalk(root: string, start: string): Promise<IgnoreRules> {
    const rules: Array<{ base: string; ig: Ignore }> = [];
    const parts = relative(root, start).split(sep).filter(Boolean);
    let dir = root;
    let off = false;
    for (let i = 0; ; i++) {
      const ig = await rulesIn(dir);
      if (ig) rules.push({ base: dir, ig });
      if (i >= parts.length) break;
      dir = join(dir, parts[i]!);
      if (ALWAYS.has(parts[i]!) || rules.some((r) => r.ig.ignores(`${posix(relative(r.base, dir))}/`))) off = true;
    }
    return new IgnoreRules(rules, off, { left: 0 });
  }

  /** The rules inside `dir` (its own .gitignore added). */
  async enter(dir: string): Promise<IgnoreRules> {
    const ig = this.off ? undefined : await rulesIn(dir);
    return ig ? new IgnoreRules([...this.rules, { base: dir, ig }], false, this.counter) : this;
  }

  /** Whether the entry is left out (counted when it is). */
  skips(abs: string, name: string, isDir: boolean): boolean {
    const out = ALWAYS.has(name) || (!this.off && this.rules.some((r) => r.ig.ignores(posix(relative(r.base, abs)) + (isDir ? '/' : ''))));
    if (out) this.counter.left++;
    return out;
  }
}
