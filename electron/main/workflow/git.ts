import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

async function git(cwd: string, args: string[]): Promise<{ stdout: string; code: number }> {
  try {
    const r = await run('git', args, { cwd, maxBuffer: 16 * 1024 * 1024 });
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
