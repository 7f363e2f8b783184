import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { addLaneWorktree, finishMerge, keepLaneLeftovers, keptRef, mergeUnderWay } from './worktrees';

let root: string | undefined;
afterEach(() => {
  if (root) rmSync(root, { recursive: true, force: true });
  root = undefined;
});

const git = (dir: string, ...args: string[]) => execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...args], { cwd: dir, encoding: 'utf8' }).trim();

describe('a component that ends with nothing to merge', () => {
  it('keeps what its worktree still holds under a ref before the worktree goes; with nothing there, keeps nothing', async () => {
    root = mkdtempSync(join(tmpdir(), 'erasmus-worktrees-'));
    const dir = join(root, 'p');
    execFileSync('git', ['init', '-q', '-b', 'main', dir]);
    writeFileSync(join(dir, 'base.txt'), 'base\n');
    git(dir, 'add', '-A');
    git(dir, 'commit', '-qm', 'base');
    const a = await addLaneWorktree(dir, 'r1', 'a');
    expect(await keepLaneLeftovers(dir, 'r1', 'a', a.worktree)).toBeUndefined();
    // A file its commit left out (a crash, a refusal): kept, with the base's files, on top of the lane's commit.
    writeFileSync(join(a.worktree, 'a.txt'), 'a\n');
    const kept = await keepLaneLeftovers(dir, 'r1', 'a', a.worktree);
    expect(kept?.ref).toBe(keptRef('r1', 'a'));
    expect(git(dir, 'show', `${kept!.ref}:a.txt`)).toBe('a');
    expect(git(dir, 'rev-parse', `${kept!.ref}^`)).toBe(git(dir, 'rev-parse', 'main'));
  });
});

describe('a merge that stopped after git wrote its result, before its commit (a crash)', () => {
  it('is committed as git left it, without the files of the user that lie beside it', async () => {
    root = mkdtempSync(join(tmpdir(), 'erasmus-worktrees-'));
    const dir = join(root, 'p');
    execFileSync('git', ['init', '-q', '-b', 'main', dir]);
    git(dir, 'commit', '-q', '--allow-empty', '-m', 'base');
    git(dir, 'switch', '-q', '-c', 'lane');
    writeFileSync(join(dir, 'a.txt'), 'a\n');
    git(dir, 'add', 'a.txt');
    git(dir, 'commit', '-qm', 'Write a.txt');
    git(dir, 'switch', '-q', 'main');
    writeFileSync(join(dir, 'notes.txt'), 'the user\'s, never committed by the run\n');
    // What a cherry-pick leaves when it dies between its result and its commit: the result staged, CHERRY_PICK_HEAD.
    git(dir, 'cherry-pick', '-n', 'lane');
    git(dir, 'update-ref', 'CHERRY_PICK_HEAD', 'lane');
    expect(await mergeUnderWay(dir)).toBe(true);
    await finishMerge(dir, []);
    expect(git(dir, 'log', '-1', '--format=%s')).toBe('Write a.txt');
    expect(git(dir, 'show', '--name-only', '--format=', 'HEAD')).toBe('a.txt');
    expect(git(dir, 'status', '--porcelain')).toBe('?? notes.txt');
    expect(await mergeUnderWay(dir)).toBe(false);
  });
});

describe("a component's worktree whose `git worktree add` never finished (killed while it checked the files out)", () => {
  it('is made again, whole and unlocked, whether half its files are there or its folder is gone', async () => {
    root = mkdtempSync(join(tmpdir(), 'erasmus-worktrees-'));
    const dir = join(root, 'p');
    execFileSync('git', ['init', '-q', '-b', 'main', dir]);
    for (const f of ['one.txt', 'two.txt']) writeFileSync(join(dir, f), `${f}\n`);
    git(dir, 'add', '-A');
    git(dir, 'commit', '-qm', 'base');
    // What git leaves: its admin folder locked "initializing", a file not yet written, the worktree's index locked.
    const unfinish = (worktree: string) => {
      const admin = git(worktree, 'rev-parse', '--absolute-git-dir');
      writeFileSync(join(admin, 'locked'), 'initializing\n');
      writeFileSync(join(admin, 'index.lock'), '');
      unlinkSync(join(worktree, 'two.txt'));
    };
    const a = await addLaneWorktree(dir, 'r1', 'a');
    unfinish(a.worktree);
    expect((await addLaneWorktree(dir, 'r1', 'a')).worktree).toBe(a.worktree);
    expect(existsSync(join(a.worktree, 'two.txt'))).toBe(true);
    expect(git(a.worktree, 'status', '--porcelain')).toBe('');
    expect(git(dir, 'worktree', 'list', '--porcelain')).not.toMatch(/locked/);
    // Killed sooner: the folder is not there yet, the worktree is registered and locked.
    unfinish(a.worktree);
    rmSync(a.worktree, { recursive: true, force: true });
    await addLaneWorktree(dir, 'r1', 'a');
    expect(git(a.worktree, 'status', '--porcelain')).toBe('');
    expect(git(dir, 'worktree', 'list', '--porcelain')).not.toMatch(/locked/);
    // Killed while it moved the branch: the branch's lock is left too (made before this process started).
    unfinish(a.worktree);
    rmSync(a.worktree, { recursive: true, force: true });
    const lock = join(dir, '.git/refs/heads/erasmus-lane/r1/a.lock');
    writeFileSync(lock, '');
    utimesSync(lock, new Date(Date.now() - 3_600_000), new Date(Date.now() - 3_600_000));
    await addLaneWorktree(dir, 'r1', 'a');
    expect(git(a.worktree, 'status', '--porcelain')).toBe('');
    expect(existsSync(lock)).toBe(false);
  });
});
