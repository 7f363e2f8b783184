import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { undoUnfinishedMerge } from './merge-recovery';
import { SET_ASIDE } from './set-aside';
import { mergeLaneCommit, mergeUnderWay } from './worktrees';

let root: string | undefined;
afterEach(() => {
  if (root) rmSync(root, { recursive: true, force: true });
  root = undefined;
});

const git = (dir: string, ...args: string[]) => execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...args], { cwd: dir, encoding: 'utf8' }).trim();

/** A run's branch (main) with a component merged before, and component b's commit on a branch of its own from main's first commit. */
function project(): { dir: string; b: string } {
  root = mkdtempSync(join(tmpdir(), 'erasmus-merge-recovery-'));
  const dir = join(root, 'p');
  execFileSync('git', ['init', '-q', '-b', 'main', dir]);
  for (const [f, text] of Object.entries({ 'shared.txt': 'one\n', 'old.txt': 'old\n', 'notes.txt': 'notes\n' })) writeFileSync(join(dir, f), text);
  git(dir, 'add', '-A');
  git(dir, 'commit', '-qm', 'base');
  git(dir, 'checkout', '-qb', 'lane');
  writeFileSync(join(dir, 'shared.txt'), 'one\ntwo\n');
  writeFileSync(join(dir, 'b.txt'), 'b\n');
  writeFileSync(join(dir, 'b2.txt'), 'b2\n');
  unlinkSync(join(dir, 'old.txt'));
  git(dir, 'add', '-A');
  git(dir, 'commit', '-qm', 'Write b');
  const b = git(dir, 'rev-parse', 'HEAD');
  git(dir, 'checkout', '-q', 'main');
  writeFileSync(join(dir, 'a.txt'), 'a\n');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-qm', 'Write a');
  return { dir, b };
}

describe('a merge of a component git did not finish (killed while it wrote the files)', () => {
  it('takes back what git left (its files, a staged one, its index.lock), keeps the user\'s own files, and the merge is made again', async () => {
    const { dir, b } = project();
    const head = git(dir, 'rev-parse', 'HEAD');
    // The user's own: a change beside the merge, and an untracked file.
    writeFileSync(join(dir, 'notes.txt'), 'notes, edited by the user\n');
    writeFileSync(join(dir, 'mine.txt'), 'mine\n');
    // What git left: two files written, one deleted, one already in the index too, and its lock.
    writeFileSync(join(dir, 'shared.txt'), 'one\ntwo\n');
    writeFileSync(join(dir, 'b.txt'), 'b\n');
    unlinkSync(join(dir, 'old.txt'));
    writeFileSync(join(dir, 'b2.txt'), 'b2\n');
    git(dir, 'add', 'b2.txt');
    writeFileSync(join(dir, '.git', 'index.lock'), '');
    // (A resumed run takes back what an unfinished merge left before merging again: parallel.ts.)

    expect((await undoUnfinishedMerge(dir, b, Date.now() + 1000)).sort()).toEqual(['b.txt', 'b2.txt', 'old.txt', 'shared.txt']);
    expect(existsSync(join(dir, '.git', 'index.lock'))).toBe(false);
    expect(git(dir, 'status', '--porcelain')).toBe('M notes.txt\n?? mine.txt');
    const r = await mergeLaneCommit(dir, b);
    expect(r.kind).toBe('merged');
    expect(git(dir, 'rev-parse', 'HEAD^')).toBe(head);
    expect(git(dir, 'show', '--name-status', '--format=%s', 'HEAD').split('\n')).toEqual(['Write b', '', 'A\tb.txt', 'A\tb2.txt', 'D\told.txt', 'M\tshared.txt']);
    expect(readFileSync(join(dir, 'notes.txt'), 'utf8')).toBe('notes, edited by the user\n');
    expect(readFileSync(join(dir, 'mine.txt'), 'utf8')).toBe('mine\n');
  });

  it("leaves a file the merge writes that holds the user's own content, a lock younger than the process, and the merge says how to go on", async () => {
    const { dir, b } = project();
    writeFileSync(join(dir, 'b.txt'), 'the user\'s b\n');
    writeFileSync(join(dir, 'shared.txt'), 'one\ntwo\n'); // git's
    expect(await undoUnfinishedMerge(dir, b, Date.now() + 1000)).toEqual(['shared.txt']);
    expect(readFileSync(join(dir, 'b.txt'), 'utf8')).toBe("the user's b\n");
    await expect(mergeLaneCommit(dir, b)).rejects.toThrow(/would be overwritten by merge[\s\S]*b\.txt[\s\S]*commit, stash or move them, then retry\.$/);
    // The user's included changes (the run started with them): said as theirs, with the way round.
    await expect(mergeLaneCommit(dir, b, ['b.txt'])).rejects.toThrow(/b\.txt\n[\s\S]* `b\.txt` holds your uncommitted changes \(the run started with them included\), and this component changed it too: commit it, or stash it \(git stash\), then retry \(after the merge, git stash pop brings your changes back onto the component's\)\.$/);
    // A lock made after this process started may be another git's at work: it stays.
    writeFileSync(join(dir, '.git', 'index.lock'), '');
    await undoUnfinishedMerge(dir, b, Date.now() - 60_000);
    expect(existsSync(join(dir, '.git', 'index.lock'))).toBe(true);
  });
});

describe('a merge after a git killed while it updated or deleted a ref (an earlier process of the run)', () => {
  it('removes the locks it left (packed-refs.lock, a lane ref\'s), so the cherry-pick ends whole: no CHERRY_PICK_HEAD left to refuse every later commit', async () => {
    const { dir, b } = project();
    git(dir, 'pack-refs', '--all');
    git(dir, 'branch', 'erasmus-lane/run/a');
    // What a durable run's process killed while it wrote a lane's ref left: that ref's lock and packed-refs.lock,
    // both older than this process (the earlier process's git made them).
    const locks = [join(dir, '.git', 'packed-refs.lock'), join(dir, '.git', 'refs', 'heads', 'erasmus-lane', 'run', 'a.lock')];
    const before = new Date(performance.timeOrigin - 60_000);
    for (const l of locks) {
      writeFileSync(l, '');
      utimesSync(l, before, before);
    }
    const r = await mergeLaneCommit(dir, b);
    expect(r.kind).toBe('merged');
    expect(git(dir, 'log', '-1', '--format=%s')).toBe('Write b');
    // With packed-refs.lock left, git commits the pick but cannot delete CHERRY_PICK_HEAD: a cherry-pick stays "in progress".
    expect(await mergeUnderWay(dir)).toBe(false);
    expect(locks.filter((l) => existsSync(l))).toEqual([]);
    // And the run's next commit (with --only, as commit steps make it) is made.
    writeFileSync(join(dir, 'next.txt'), 'next\n');
    git(dir, 'add', 'next.txt');
    git(dir, 'commit', '-q', '-m', 'next', '--only', '--', 'next.txt');
    expect(git(dir, 'log', '-1', '--format=%s')).toBe('next');
  });
});

describe("a merge with the user's included changes in the index", () => {
  const status = (dir: string) => git(dir, 'status', '--porcelain');
  it('sets them aside around the merge and puts them back as they were, staged or not, when the component does not touch them', async () => {
    const { dir, b } = project();
    const head = git(dir, 'rev-parse', 'HEAD');
    writeFileSync(join(dir, 'notes.txt'), 'notes, staged by the user\n');
    git(dir, 'add', 'notes.txt');
    writeFileSync(join(dir, 'a.txt'), 'a, edited\n');
    writeFileSync(join(dir, 'mine.txt'), 'mine\n');
    const r = await mergeLaneCommit(dir, b, ['notes.txt', 'a.txt', 'mine.txt']);
    expect(r).toMatchObject({ kind: 'merged' });
    expect(git(dir, 'rev-parse', 'HEAD^')).toBe(head);
    expect(git(dir, 'show', '--name-only', '--format=%s', 'HEAD').split('\n')).toEqual(['Write b', '', 'b.txt', 'b2.txt', 'old.txt', 'shared.txt']);
    expect(status(dir)).toBe('M a.txt\nM  notes.txt\n?? mine.txt'); // (trimmed: ' M a.txt')
    expect(readFileSync(join(dir, 'notes.txt'), 'utf8')).toBe('notes, staged by the user\n');
    expect(git(dir, 'stash', 'list')).toBe('');
  });

  it('blocks, changing nothing, when the component changes one of their files; and when its merge conflicts', async () => {
    const { dir, b } = project();
    writeFileSync(join(dir, 'shared.txt'), 'one, the user\n');
    git(dir, 'add', 'shared.txt');
    await expect(mergeLaneCommit(dir, b, ['shared.txt'])).rejects.toThrow(/`shared\.txt` holds your uncommitted changes \(the run started with them included\), and this component changed it too: commit it, or stash it \(git stash\), then retry/);
    expect(status(dir)).toBe('M  shared.txt');
    expect(git(dir, 'stash', 'list')).toBe('');
    // The run's branch changed shared.txt too (an earlier component): the merge conflicts, which a merge step resolves,
    // but not while the user's changes are set aside: they go back as they were, and it blocks saying why.
    git(dir, 'checkout', '-q', '--', '.');
    git(dir, 'reset', '-q');
    writeFileSync(join(dir, 'shared.txt'), 'one\nfrom a\n');
    git(dir, 'commit', '-qam', 'a changes shared');
    writeFileSync(join(dir, 'notes.txt'), 'notes, staged\n');
    git(dir, 'add', 'notes.txt');
    await expect(mergeLaneCommit(dir, b, ['notes.txt'])).rejects.toThrow(
      /it conflicts with the run's branch in shared\.txt, which a merge step resolves; yet git makes no merge while your uncommitted changes \(`notes\.txt` staged\) are in the index, and they were set aside and put back as they were\. Commit them, or stash them \(git stash\), then retry/,
    );
    expect(await mergeUnderWay(dir)).toBe(false);
    expect(status(dir)).toBe('M  notes.txt');
    expect(git(dir, 'stash', 'list')).toBe('');
  });

  it("goes through the user's copy of a file the component changes when it is byte for byte the component's (their change carried into it); else blocks", async () => {
    const { dir, b } = project();
    writeFileSync(join(dir, 'b.txt'), 'b\n'); // untracked, as component b writes it
    writeFileSync(join(dir, 'shared.txt'), 'one\ntwo\n'); // modified, as component b leaves it
    writeFileSync(join(dir, 'notes.txt'), 'notes, staged\n');
    git(dir, 'add', 'notes.txt', 'shared.txt');
    expect(await mergeLaneCommit(dir, b, ['b.txt', 'shared.txt', 'notes.txt'])).toMatchObject({ kind: 'merged' });
    expect(git(dir, 'show', '--name-only', '--format=%s', 'HEAD').split('\n')).toEqual(['Write b', '', 'b.txt', 'b2.txt', 'old.txt', 'shared.txt']);
    expect(status(dir)).toBe('M  notes.txt');
    expect(readFileSync(join(dir, 'b.txt'), 'utf8')).toBe('b\n');
    // A copy that differs from the component's: theirs, in the way.
    rmSync(root!, { recursive: true, force: true });
    const other = project();
    writeFileSync(join(other.dir, 'b.txt'), 'the user\'s b\n');
    await expect(mergeLaneCommit(other.dir, other.b, ['b.txt'])).rejects.toThrow(/`b\.txt` holds your uncommitted changes/);
    expect(status(other.dir)).toBe('?? b.txt');
  });

  it('puts back what a merge cut short by a crash left set aside, before merging', async () => {
    const { dir, b } = project();
    writeFileSync(join(dir, 'notes.txt'), 'notes, staged\n');
    git(dir, 'add', 'notes.txt');
    git(dir, 'stash', 'push', '--message', SET_ASIDE); // as the crash left it
    expect(status(dir)).toBe('');
    expect(await mergeLaneCommit(dir, b, ['notes.txt'])).toMatchObject({ kind: 'merged' });
    expect(status(dir)).toBe('M  notes.txt');
    expect(git(dir, 'stash', 'list')).toBe('');
  });
});

describe('the user copies a merge clears and writes back (set-aside.ts)', () => {
  it('come back byte for byte and with their mode, a binary file and a script included, staged as they were', async () => {
    const { clearCopies, restoreCopies } = await import('./set-aside');
    root = mkdtempSync(join(tmpdir(), 'erasmus-set-aside-'));
    const dir = join(root, 'p');
    execFileSync('git', ['init', '-q', '-b', 'main', dir]);
    writeFileSync(join(dir, 'README'), 'x\n');
    git(dir, 'add', '-A');
    git(dir, 'commit', '-qm', 'base');
    const binary = Buffer.from(Array.from({ length: 512 }, (_, i) => (i * 37) % 256));
    git(dir, 'checkout', '-qb', 'lane');
    writeFileSync(join(dir, 'logo.bin'), binary);
    writeFileSync(join(dir, 'run.sh'), '#!/bin/sh\necho hi\n', { mode: 0o755 });
    git(dir, 'add', '-A');
    git(dir, 'commit', '-qm', 'lane');
    const commit = git(dir, 'rev-parse', 'HEAD');
    git(dir, 'checkout', '-q', 'main');
    // The user's copies: the same as the commit's, logo.bin staged, run.sh not.
    writeFileSync(join(dir, 'logo.bin'), binary);
    writeFileSync(join(dir, 'run.sh'), '#!/bin/sh\necho hi\n', { mode: 0o755 });
    git(dir, 'add', 'logo.bin');
    await clearCopies(dir, ['logo.bin', 'run.sh']);
    expect(existsSync(join(dir, 'logo.bin'))).toBe(false);
    await restoreCopies(dir, commit, ['logo.bin', 'run.sh'], ['logo.bin']);
    expect(readFileSync(join(dir, 'logo.bin')).equals(binary)).toBe(true);
    expect(statSync(join(dir, 'run.sh')).mode & 0o111).not.toBe(0);
    expect(git(dir, 'diff', '--cached', '--name-only')).toBe('logo.bin');
    expect(git(dir, 'status', '--porcelain', '--', 'run.sh')).toBe('?? run.sh');
  });
});
