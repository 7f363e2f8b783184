import { execFile } from 'node:child_process';
import { copyFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import type { WorkflowTimelineEntry } from '../../contract/methods/workflow';

const run = promisify(execFile);

async function git(cwd: string, args: string[], env?: NodeJS.ProcessEnv): Promise<{ stdout: string; code: number }> {
  try {
    const r = await run('git', args, { cwd, maxBuffer: 16 * 1024 * 1024, ...(env ? { env: { ...process.env, ...env } } : {}) });
    return { stdout: r.stdout, code: 0 };
  } catch (err) {
    const e = err as { code?: number | string; stdout?: string; stderr?: string; message: string };
    if (typeof e.code === 'number') return { stdout: (e.stdout ?? '') + (e.stderr ?? ''), code: e.code };
    throw err;
  }
}

export type CommitOutcome = { kind: 'committed'; sha: string } | { kind: 'nothing-to-commit' } | { kind: 'not-a-repository' };

/**
 * Records the component's changes in git: everything changed in the project since the last commit
 * (the previous component was committed when it completed). Uses the user's identity when set.
 */
export async function commitChanges(projectDir: string, message: string): Promise<CommitOutcome> {
  const inside = await git(projectDir, ['rev-parse', '--is-inside-work-tree']);
  if (inside.code !== 0 || inside.stdout.trim() !== 'true') return { kind: 'not-a-repository' };
  const add = await git(projectDir, ['add', '-A', '--', '.']);
  if (add.code !== 0) throw new Error(`git add failed: ${add.stdout.trim()}`);
  const diff = await git(projectDir, ['diff', '--cached', '--quiet']);
  if (diff.code === 0) return { kind: 'nothing-to-commit' };
  const identity: string[] = [];
  if ((await git(projectDir, ['config', 'user.email'])).code !== 0) identity.push('-c', 'user.email=erasmus@localhost');
  if ((await git(projectDir, ['config', 'user.name'])).code !== 0) identity.push('-c', 'user.name=Erasmus');
  const commit = await git(projectDir, [...identity, 'commit', '--no-verify', '-m', message]);
  if (commit.code !== 0) throw new Error(`git commit failed: ${commit.stdout.trim()}`);
  const sha = await git(projectDir, ['rev-parse', 'HEAD']);
  return { kind: 'committed', sha: sha.stdout.trim() };
}

/** The newest commit whose message contains `marker` (a commit made before a crash, found on resume). */
export async function findCommit(projectDir: string, marker: string): Promise<string | undefined> {
  const r = await git(projectDir, ['log', '-n', '20', '--format=%H', '-F', `--grep=${marker}`]);
  return r.code === 0 ? r.stdout.split('\n')[0]?.trim() || undefined : undefined;
}

/** The commit the project's HEAD points at (absent outside a repository or before its first commit). */
export async function headCommit(projectDir: string): Promise<string | undefined> {
  const r = await git(projectDir, ['rev-parse', '--verify', '-q', 'HEAD']).catch(() => undefined);
  return r?.code === 0 ? r.stdout.trim() || undefined : undefined;
}

/** Where each repository keeps its index (asked once per folder: a folder that is a repository stays one). */
const indexes = new Map<string, string>();
async function indexOf(projectDir: string): Promise<string | undefined> {
  const known = indexes.get(projectDir);
  if (known) return known;
  const where = await git(projectDir, ['rev-parse', '--is-inside-work-tree', '--git-path', 'index']).catch(() => undefined);
  const [inside, index] = where?.code === 0 ? where.stdout.trim().split('\n') : [];
  if (inside !== 'true' || !index) return undefined;
  const path = resolve(projectDir, index);
  indexes.set(projectDir, path);
  return path;
}

/**
 * The working tree as a git tree object (tracked and untracked files, minus ignored ones), written
 * through a temporary index so the user's index and history stay as they are. Undefined outside a
 * repository. Two snapshots around a step say which files it touched (`changedFiles`).
 */
export async function snapshotTree(projectDir: string): Promise<string | undefined> {
  const realIndex = await indexOf(projectDir);
  if (!realIndex) return undefined;
  const index = join(tmpdir(), `erasmus-index-${process.pid}-${Math.random().toString(36).slice(2)}`);
  try {
    // Seeded from the real index, so unchanged files are not hashed again.
    await copyFile(realIndex, index).catch(() => undefined);
    const env = { GIT_INDEX_FILE: index };
    if ((await git(projectDir, ['add', '-A', '--', '.'], env)).code !== 0) return undefined;
    const tree = await git(projectDir, ['write-tree'], env);
    return tree.code === 0 ? tree.stdout.trim() : undefined;
  } finally {
    await rm(index, { force: true });
  }
}

type FileChange = NonNullable<WorkflowTimelineEntry['files']>[number];
const CHANGE: Record<string, FileChange['change']> = { A: 'added', M: 'modified', D: 'deleted', T: 'modified' };

/** Files that differ between two snapshots, paths relative to the repository's top. */
export async function changedFiles(projectDir: string, before: string, after: string): Promise<FileChange[]> {
  if (before === after) return [];
  const r = await git(projectDir, ['diff', '--name-status', '--no-renames', '-z', before, after]);
  if (r.code !== 0) return [];
  const parts = r.stdout.split('\0').filter(Boolean);
  const out: FileChange[] = [];
  for (let i = 0; i + 1 < parts.length; i += 2) out.push({ path: parts[i + 1]!, change: CHANGE[parts[i]!.charAt(0)] ?? 'modified' });
  return out;
}
