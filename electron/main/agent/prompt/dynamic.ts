import { existsSync, readdirSync, readFileSync, type Dirent } from 'node:fs';
import { arch, platform, release, type as osType } from 'node:os';
import { join, relative } from 'node:path';
import ignore, { type Ignore } from 'ignore';
import type { PromptSection } from './sections';

export interface ListingOptions {
  maxEntries?: number;
  maxDepth?: number;
}

const ALWAYS_SKIP = new Set(['.git', 'node_modules']);

/**
 * A bounded, sorted listing of a folder that respects .gitignore files (root and nested) and
 * always skips .git and node_modules. Folders end with '/'. Says how much was left out.
 */
export function listProject(root: string, opts: ListingOptions = {}): string {
  const max = opts.maxEntries ?? 200;
  const maxDepth = opts.maxDepth ?? 4;
  const lines: string[] = [];
  let omitted = 0;
  const walk = (dir: string, depth: number, rules: { base: string; ig: Ignore }[]) => {
    const gi = join(dir, '.gitignore');
    const here = existsSync(gi) ? [...rules, { base: dir, ig: ignore().add(readFileSync(gi, 'utf8')) }] : rules;
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    entries.sort((a, b) => a.name.localeCompare(b.name));
    for (const e of entries) {
      if (ALWAYS_SKIP.has(e.name)) continue;
      const full = join(dir, e.name);
      const isDir = e.isDirectory();
      if (here.some((r) => r.ig.ignores(relative(r.base, full) + (isDir ? '/' : '')))) continue;
      if (lines.length >= max) {
        omitted++;
        continue;
      }
      lines.push(`${'  '.repeat(depth)}${e.name}${isDir ? '/' : ''}`);
      if (isDir && depth + 1 < maxDepth) walk(full, depth + 1, here);
    }
  };
  walk(root, 0, []);
  if (omitted) lines.push(`… and ${omitted} more entries not shown`);
  return lines.length ? lines.join('\n') : '(empty)';
}

/** Sections made at session start: system, time, working directory and its listing. */
export function dynamicSections(o: { cwd?: string; now: number; listing?: ListingOptions }): PromptSection[] {
  const sections: PromptSection[] = [
    { title: 'Environment', body: `Operating system: ${osType()} ${release()} (${platform()}, ${arch()})\nCurrent time: ${new Date(o.now).toISOString()}` },
  ];
  if (o.cwd) sections.push({ title: 'Working directory', body: `${o.cwd}\n\n\`\`\`\n${listProject(o.cwd, o.listing)}\n\`\`\`` });
  return sections;
}
