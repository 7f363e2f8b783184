import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { readHead } from './head';

let root: string | undefined;
afterEach(async () => {
  if (root) await rm(root, { recursive: true, force: true });
  root = undefined;
});

const git = (cwd: string, ...args: string[]) => execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...args], { cwd, encoding: 'utf8' }).trim();
/** What git itself says HEAD is. */
const gitsHead = (cwd: string) => {
  const commit = (() => {
    try {
      return git(cwd, 'rev-parse', '-q', '--verify', 'HEAD^{commit}');
    } catch {
      return '';
    }
  })();
  const ref = (() => {
    try {
      return git(cwd, 'symbolic-ref', '-q', 'HEAD');
    } catch {
      return '';
    }
  })();
  return { ...(commit ? { commit } : {}), ...(ref.startsWith('refs/heads/') ? { branch: ref.slice('refs/heads/'.length) } : {}) };
};

it("reads HEAD from the repository's files as git says it: unborn, on a branch, packed, detached, in a linked worktree, and outside a repository", async () => {
  root = await mkdtemp(join(tmpdir(), 'erasmus-head-'));
  const dir = join(root, 'p');
  expect(await readHead(root)).toEqual({});
  git(root, 'init', '-q', '-b', 'main', dir);
  expect(await readHead(dir)).toEqual({ branch: 'main' });
  await writeFile(join(dir, 'a.txt'), 'a\n');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-qm', 'one');
  const one = gitsHead(dir);
  expect(one.commit).toMatch(/^[0-9a-f]{40}$/);
  expect(await readHead(dir)).toEqual(one);
  // A new commit after the folders were first read: the branch's file is read again.
  git(dir, 'commit', '-q', '--allow-empty', '-m', 'two');
  expect(await readHead(dir)).toEqual(gitsHead(dir));
  expect((await readHead(dir)).commit).not.toBe(one.commit);
  // The branch only in packed-refs (no loose file).
  git(dir, 'pack-refs', '--all');
  expect(await readHead(dir)).toEqual({ ...gitsHead(dir), branch: 'main' });
  // A branch with a slash, then detached at a commit.
  git(dir, 'switch', '-q', '-c', 'erasmus/run-1');
  expect(await readHead(dir)).toEqual({ ...gitsHead(dir), branch: 'erasmus/run-1' });
  git(dir, 'switch', '-q', '--detach', one.commit!);
  expect(await readHead(dir)).toEqual({ commit: one.commit });
  // A linked worktree: its own HEAD, the branches of the repository it belongs to.
  const wt = join(root, 'wt');
  git(dir, 'worktree', 'add', '-q', '-b', 'lane', wt, 'main');
  expect(await readHead(wt)).toEqual({ ...gitsHead(wt), branch: 'lane' });
  git(wt, 'commit', '-q', '--allow-empty', '-m', 'on the lane');
  expect(await readHead(wt)).toEqual(gitsHead(wt));
  // A folder inside the repository reads the repository's HEAD.
  git(wt, 'switch', '-q', 'erasmus/run-1');
  await mkdir(join(dir, 'sub'));
  expect(await readHead(join(dir, 'sub'))).toEqual({ commit: one.commit });
  expect(await readHead(wt)).toEqual({ ...gitsHead(wt), branch: 'erasmus/run-1' });
  // Once the repository's folders are known, HEAD is read without git: git cannot read this repository's config now.
  await writeFile(join(dir, '.git', 'config'), '[core\n', { flag: 'a' });
  expect(() => git(dir, 'rev-parse', 'HEAD')).toThrow();
  expect(await readHead(dir)).toEqual({ commit: one.commit });
});
