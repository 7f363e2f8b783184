import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Paths } from '../paths/index';
import { CheckpointStore } from './store';

let root: string;
let project: string;
let paths: Paths;
const git = (...args: string[]) => execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...args], { cwd: project, encoding: 'utf8' }).trim();

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'erasmus-ckpt-'));
  project = join(root, 'project');
  paths = new Paths(join(root, 'home'));
  mkdirSync(join(project, 'src'), { recursive: true });
  writeFileSync(join(project, '.gitignore'), 'build/\n*.log\n');
  writeFileSync(join(project, 'README.md'), '# p\n');
  writeFileSync(join(project, 'src/a.txt'), 'one\n');
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-q', '-m', 'initial');
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('CheckpointStore', () => {
  it('restores tracked, untracked and deleted files and HEAD, leaves ignored files and keeps undone commits reachable', async () => {
    const store = new CheckpointStore(paths);
    mkdirSync(join(project, 'build'));
    writeFileSync(join(project, 'build/out.bin'), 'ignored');
    writeFileSync(join(project, 'debug.log'), 'ignored');
    writeFileSync(join(project, 'notes.txt'), 'untracked then\n');
    const initial = git('rev-parse', 'HEAD');
    const before = await store.take(project, { kind: 'step', state: 'x:development', runId: 'r1' });
    expect(before).toMatchObject({ commit: initial, branch: 'main' });

    // What a step does by shell: rm a tracked file, sed an edit, create a file, commit, and touch ignored files.
    execFileSync('sh', ['-c', "rm README.md && sed -i 's/one/two/' src/a.txt && echo new > src/b.txt && rm notes.txt && echo again > build/out.bin"], { cwd: project });
    git('add', '-A');
    git('commit', '-q', '-m', 'step work');
    const later = git('rev-parse', 'HEAD');
    writeFileSync(join(project, 'src/c.txt'), 'uncommitted\n');

    const undo = await store.take(project, { kind: 'rewind', state: 'completed', runId: 'r1' });
    const preview = await store.preview(before);
    // The ignored entries of the project now (build/ and debug.log), left alone by the rewind.
    expect(preview.ignored).toBe(2);
    expect(preview.commitsUndone.map((c) => c.subject)).toEqual(['step work']);
    expect(preview.files.sort((a, b) => (a.path < b.path ? -1 : 1))).toEqual([
      { path: 'README.md', change: 'added' },
      { path: 'notes.txt', change: 'added' },
      { path: 'src/a.txt', change: 'modified' },
      { path: 'src/b.txt', change: 'deleted' },
      { path: 'src/c.txt', change: 'deleted' },
    ]);

    await store.restore(before, undo);
    expect(readFileSync(join(project, 'README.md'), 'utf8')).toBe('# p\n');
    expect(readFileSync(join(project, 'src/a.txt'), 'utf8')).toBe('one\n');
    expect(readFileSync(join(project, 'notes.txt'), 'utf8')).toBe('untracked then\n');
    expect(existsSync(join(project, 'src/b.txt'))).toBe(false);
    expect(existsSync(join(project, 'src/c.txt'))).toBe(false);
    expect(readFileSync(join(project, 'build/out.bin'), 'utf8')).toBe('again\n'); // ignored: left alone
    expect(git('rev-parse', 'HEAD')).toBe(initial);
    expect(git('status', '--porcelain')).toBe('?? notes.txt');
    expect(git('rev-parse', `refs/erasmus/rewound/${undo.id}`)).toBe(later);
    expect(existsSync(join(project, '.git', 'refs', 'checkpoints'))).toBe(false); // the project's .git holds no checkpoint

    // The rewind itself can be undone.
    const again = await store.take(project, { kind: 'rewind', state: 'x:development', runId: 'r1' });
    await store.restore(undo, again);
    expect(git('rev-parse', 'HEAD')).toBe(later);
    expect(readFileSync(join(project, 'src/c.txt'), 'utf8')).toBe('uncommitted\n');
    expect(existsSync(join(project, 'README.md'))).toBe(false);

    expect((await store.list(project, { runId: 'r1' })).map((c) => c.id)).toEqual([before.id, undo.id, again.id]);
  });

  it('prunes checkpoints older than the retention, never the newest, and drops their objects', async () => {
    const store = new CheckpointStore(paths);
    const old = await store.take(project, { kind: 'turn', state: 'turn 1', sessionId: 's' });
    writeFileSync(join(project, 'big.txt'), 'x'.repeat(100_000));
    const newer = await store.take(project, { kind: 'turn', state: 'turn 2', sessionId: 's' });
    const r = await store.prune(project, { maxAgeDays: -1, maxBytes: 2 * 1024 ** 3 });
    expect(r.dropped).toBe(1);
    expect((await store.list(project)).map((c) => c.id)).toEqual([newer.id]);
    expect(await store.get(project, old.id)).toBeUndefined();
  });
});
