import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { CheckpointStore } from '../checkpoints/store';
import { RunCheckpoints } from '../checkpoints/workflow';
import { Paths } from '../paths/index';
import { debugRetryNote, unfinishedChanges } from './retry-note';
import type { RunRecord } from './run-record';

type Entry = RunRecord['timeline'][number];
const entry = (state: string, outcome: Entry['outcome'], files?: string[]): Entry =>
  ({ state, protocol: 'debugging', enteredAt: '2026-01-01T00:00:00.000Z', leftAt: '2026-01-01T00:00:01.000Z', outcome, ...(files ? { files: files.map((path) => ({ path, change: 'modified' as const })) } : {}) }) as Entry;

it('says nothing on a first attempt', () => {
  expect(debugRetryNote([entry('core:testing', 'tests-failed', ['t.py'])], 'core:debugging', 0, 3)).toBeUndefined();
});

it('tells a second attempt that the one before changed no file (from the timeline)', () => {
  const note = debugRetryNote([entry('core:testing', 'tests-failed', ['t.py']), entry('core:debugging', 'tests-failed', [])], 'core:debugging', 1, 3);
  expect(note).toBe('This is debugging attempt 2 of 3 for these failures. The attempt before changed no file, and the tests still fail (output below): find the cause in the code before you change it.');
});

it('names what the attempt before changed, and warns on the last attempt', () => {
  const timeline = [entry('core:debugging', 'tests-failed', []), entry('cli:debugging', 'tests-failed', ['x.py']), entry('core:debugging', 'tests-failed', ['core.py'])];
  const note = debugRetryNote(timeline, 'core:debugging', 2, 3);
  expect(note).toContain('attempt 3 of 3');
  expect(note).toContain('The attempt before changed `core.py`, and the tests still fail');
  expect(note).toContain('This is the last attempt before the run stops and asks the user.');
});

it("tells a step run again what its unfinished attempt changed when its start is its checkpoint's tree (diffed among the checkpoints)", async () => {
  const root = await mkdtemp(join(tmpdir(), 'erasmus-retry-note-'));
  try {
    const dir = join(root, 'p');
    await mkdir(dir);
    execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: dir });
    await writeFile(join(dir, 'a.txt'), 'one\n');
    const paths = new Paths(join(root, 'home'));
    const store = new CheckpointStore(paths);
    const { trees } = new RunCheckpoints(store, paths);
    const { tree } = await store.take(dir, { kind: 'step', state: 'core:review' });
    const started = (outcome: Entry['outcome']): Entry[] => [{ ...entry('core:review', outcome), startTree: tree, startTreeIn: 'checkpoints' }];
    expect(await unfinishedChanges(started('interrupted'), 'core:review', dir, trees)).toEqual({ kind: 'diff', text: '' });
    await writeFile(join(dir, 'a.txt'), 'one\ntwo\n');
    expect(await trees.changedSince(dir, tree)).toEqual([{ path: 'a.txt', change: 'modified' }]);
    const changed = await unfinishedChanges(started('interrupted'), 'core:review', dir, trees);
    expect(changed?.kind).toBe('diff');
    expect(changed?.text).toMatch(/^diff --git a\/a\.txt b\/a\.txt[\s\S]*\n\+two$/);
    // A finished attempt, or no checkpoints to read the tree from: nothing is said.
    expect(await unfinishedChanges(started('done'), 'core:review', dir, trees)).toBeUndefined();
    expect(await unfinishedChanges(started('interrupted'), 'core:review', dir)).toBeUndefined();
    // A long diff: git's list of the files instead.
    await writeFile(join(dir, 'big.txt'), 'x'.repeat(80).concat('\n').repeat(100));
    const long = await unfinishedChanges(started('interrupted'), 'core:review', dir, trees);
    expect(long?.kind).toBe('stat');
    expect(long?.text).toMatch(/big\.txt \| 100 \+{10,}/);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});

