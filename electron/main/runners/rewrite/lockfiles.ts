import { readdirSync } from 'node:fs';

/** Lockfile → the tool that wrote it (the project's package manager). */
const LOCKFILES: Record<string, string> = {
  'pnpm-lock.yaml': 'pnpm',
  'yarn.lock': 'yarn',
  'bun.lockb': 'bun',
  'bun.lock': 'bun',
  'package-lock.json': 'npm',
  'npm-shrinkwrap.json': 'npm',
  'uv.lock': 'uv',
  'poetry.lock': 'poetry',
  'Pipfile.lock': 'pipenv',
};

/**
 * The tools the project's lockfiles name (at its root). A command is rewritten only toward one of
 * them: an npm project (package-lock.json, or no lockfile) is never turned into a pnpm one, nor a
 * plain Python folder into a uv project.
 */
export function lockfileTools(root: string): Set<string> {
  let entries: string[] = [];
  try {
    entries = readdirSync(root);
  } catch {
    // An unreadable root names no tool: nothing is rewritten.
  }
  return new Set(entries.flatMap((e) => (LOCKFILES[e] ? [LOCKFILES[e]] : [])));
}
