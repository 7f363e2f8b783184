import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, type Dirent } from 'node:fs';
import { arch, platform, release, type as osType } from 'node:os';
import { join, relative } from 'node:path';
import { guardGitPointers } from '../../runners/pty/git-guard';
import ignore, { type Ignore } from 'ignore';
import type { PromptSection } from './sections';

export interface ListingOptions {
  maxEntries?: number;
  maxDepth?: number;
}

const ALWAYS_SKIP = new Set(['.git', 'node_modules']);

/**
 * A bounded, sorted listing of a folder as git sees it: what it tracks and what it would (untracked files git does not
 * ignore by any of its rules: .gitignore files at any level, including above the folder, .git/info/exclude, the user's
 * core.excludesFile; and a folder whose own .gitignore ignores all of it, as .venv's and .pytest_cache's do). Outside a
 * repository, the folder's .gitignore files (root and nested) are read. Always skips .git and node_modules. Folders end
 * with '/'. Says how much was left out.
 */
export function listProject(root: string, opts: ListingOptions = {}): string {
  const max = opts.maxEntries ?? 200;
  const maxDepth = opts.maxDepth ?? 4;
  const tree = gitTree(root) ?? walkTree(root, maxDepth);
  const lines: string[] = [];
  let omitted = 0;
  const show = (node: Tree, depth: number) => {
    for (const [name, child] of [...node].sort((a, b) => a[0].localeCompare(b[0]))) {
      if (lines.length >= max) {
        omitted++;
        continue;
      }
      lines.push(`${'  '.repeat(depth)}${name}${child ? '/' : ''}`);
      if (child && depth + 1 < maxDepth) show(child, depth + 1);
    }
  };
  show(tree, 0);
  if (omitted) lines.push(`… and ${omitted} more entries not shown`);
  return lines.length ? lines.join('\n') : '(empty)';
}

/** A folder's entries by name: a folder's own entries, or null for a file. */
type Tree = Map<string, Tree | null>;

function addPath(tree: Tree, parts: string[]): void {
  let node = tree;
  for (let i = 0; i < parts.length; i++) {
    const name = parts[i]!;
    if (ALWAYS_SKIP.has(name)) return;
    if (i === parts.length - 1) {
      if (!node.has(name)) node.set(name, null);
      return;
    }
    let next = node.get(name);
    if (!next) {
      next = new Map();
      node.set(name, next);
    }
    node = next;
  }
}

/** The folder's files as git lists them (tracked and still on disk, and untracked ones not ignored); undefined outside a repository. */
function gitTree(root: string): Tree | undefined {
  // Erasmus's own git, unsandboxed: never through a .git pointer a command running now rewrote (git-guard.ts).
  guardGitPointers();
  const ls = (extra: string[]) => spawnSync('git', ['ls-files', '-z', ...extra], { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, timeout: 20_000 });
  const files = ls(['--cached', '--others', '--exclude-standard']);
  if (files.status !== 0) return undefined;
  const deleted = new Set(ls(['--deleted']).stdout?.split('\0') ?? []);
  const tree: Tree = new Map();
  for (const path of files.stdout.split('\0')) if (path && !deleted.has(path)) addPath(tree, path.split('/'));
  return tree;
}

/** A folder read from disk, with its .gitignore files (root and nested), to `maxDepth` levels. */
function walkTree(root: string, maxDepth: number): Tree {
  const walk = (dir: string, depth: number, rules: { base: string; ig: Ignore }[]): Tree => {
    const node: Tree = new Map();
    const gi = join(dir, '.gitignore');
    const here = existsSync(gi) ? [...rules, { base: dir, ig: ignore().add(readFileSync(gi, 'utf8')) }] : rules;
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return node;
    }
    for (const e of entries) {
      if (ALWAYS_SKIP.has(e.name)) continue;
      const full = join(dir, e.name);
      const isDir = e.isDirectory();
      if (here.some((r) => r.ig.ignores(relative(r.base, full) + (isDir ? '/' : '')))) continue;
      node.set(e.name, isDir ? (depth + 1 < maxDepth ? walk(full, depth + 1, here) : new Map()) : null);
    }
    return node;
  };
  return walk(root, 0, []);
}

/** Sections made at session start: system, time, working directory and its listing. */
export function dynamicSections(o: { cwd?: string; now: number; listing?: ListingOptions }): PromptSection[] {
  const sections: PromptSection[] = [
    { title: 'Environment', body: `Operating system: ${osType()} ${release()} (${platform()}, ${arch()})\nCurrent time: ${new Date(o.now).toISOString()}` },
  ];
  if (o.cwd) sections.push({ title: 'Working directory', body: `${o.cwd}\n\n\`\`\`\n${listProject(o.cwd, o.listing)}\n\`\`\`` });
  return sections;
}
