import { readFile, stat } from 'node:fs/promises';
import { isAbsolute, join, normalize } from 'node:path';
import { listProject } from '../agent/prompt/dynamic';
import { fenced } from './prompt';

const MANIFESTS = ['package.json', 'pyproject.toml', 'setup.cfg', 'Cargo.toml', 'go.mod', 'Gemfile', 'composer.json', 'pom.xml', 'build.gradle', 'deno.json'];
const READMES = ['README.md', 'readme.md', 'Readme.md', 'README.rst', 'README.txt', 'README'];
const MAX_FILE = 4000;
const MAX_NAMED = 4;

async function text(path: string, max: number): Promise<string | undefined> {
  const s = await stat(path).catch(() => undefined);
  if (!s?.isFile()) return undefined;
  const t = await readFile(path, 'utf8').catch(() => undefined);
  if (t === undefined || t.includes('\0')) return undefined;
  return t.length > max ? `${t.slice(0, max)}\n[… ${t.length - max} more characters: read the file for the rest]` : t;
}

/** Paths the goal names (`src/index.js`, `readme.md`) that are files of the project. */
function namedPaths(goal: string): string[] {
  const found = goal.match(/[\w@.-]*[\w-]+(?:\/[\w@.-]+)*\.[A-Za-z][\w]{0,5}\b/g) ?? [];
  return [...new Set(found.map((p) => p.replace(/^\.\//, '')))].filter((p) => !isAbsolute(p) && !normalize(p).startsWith('..'));
}

/**
 * What the design step of an existing project is given to read it: its manifests, README, source and
 * test layout, and the files the goal names, each fenced and bounded.
 */
export async function projectOverview(dir: string, goal: string | undefined): Promise<string> {
  const parts: string[] = [`### Layout (.gitignore respected)\n\n${fenced(listProject(dir, { maxEntries: 150, maxDepth: 3 }), '')}`];
  const shown = new Set<string>();
  for (const name of MANIFESTS) {
    const t = await text(join(dir, name), MAX_FILE);
    if (t !== undefined) {
      parts.push(`### ${name}\n\n${fenced(t.trim(), '')}`);
      shown.add(name);
    }
  }
  for (const name of READMES) {
    const t = await text(join(dir, name), MAX_FILE);
    if (t !== undefined) {
      parts.push(`### ${name}\n\n${fenced(t.trim())}`);
      shown.add(name.toLowerCase());
      break;
    }
  }
  let named = 0;
  for (const p of namedPaths(goal ?? '')) {
    if (named >= MAX_NAMED || shown.has(p) || shown.has(p.toLowerCase())) continue;
    const t = await text(join(dir, p), MAX_FILE * 2);
    if (t === undefined) continue;
    parts.push(`### ${p} (named in the goal)\n\n${fenced(t.trimEnd(), '')}`);
    named++;
  }
  return parts.join('\n\n');
}
