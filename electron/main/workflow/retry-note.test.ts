import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { CheckpointStore } from '../checkpoints/store';
import { RunCheckpoints } from '../checkpoints/workflow';
import { Paths } from '../paths/index';
import { debugRetryNote, interruptedRetry, retryOfBlock, unfinishedChanges } from './retry-note';
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

it("gives the attempt before's last words back, with how to hand a decision to the user", () => {
  const said = 'I changed nothing: the architecture says title_case keeps "mc" as written and the test asks for "Mc".\nWhich one is right is the user\'s decision.';
  const note = debugRetryNote([{ ...entry('core:debugging', 'tests-failed', []), lastWords: { text: said, chars: said.length } }], 'core:debugging', 1, 3);
  expect(note).toContain('What the attempt before wrote at its end: "I changed nothing: the architecture says title_case keeps "mc" as written and the test asks for "Mc". Which one is right is the user\'s decision."');
  expect(note).toContain('end your answer with a line `Cannot finish: <why>`: the run stops and asks the user');
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

it("a step run again after a block hears what happened in words for the model, not the user's commands, and what it wrote last", () => {
  const userError = 'step core:review ended without finishing (the model did not say it was done; its budget may have run out). Retry it or skip it; its changes are kept.';
  const notDone = { ...entry('core:review', 'not-done'), lastWords: { text: 'This needs a decision: which format?', chars: 36 } };
  expect(retryOfBlock([entry('core:testing', 'tests-passed'), notDone], 'core:review', userError)).toEqual({
    state: 'core:review',
    what: 'it ended without saying it was done (its budget may have run out), so the run stopped for the user',
    said: 'This needs a decision: which format?',
  });
  // A step that said it cannot finish hears that it said so (not "its budget ran out, or …"), and that the retry is the
  // user's answer: it does the step, and stops again only if it still cannot be done. Known from its last words, or from
  // the run's error when they were cut before that line.
  const cannot = { ...entry('core:review', 'not-done'), lastWords: { text: 'Verdict: none\n\nCannot finish: which format?', chars: 44 } };
  const told = retryOfBlock([cannot], 'core:review', 'The step core · review cannot finish: which format? The rest of the step\'s work and its notes are kept. …');
  expect(told.what).toMatch(/^it said it cannot finish without the user, so the run stopped for them\. That the user ran this step again is their answer that it should be done now: do it .* begin a line with `Cannot finish:` again only if it still cannot be done without them$/);
  expect(told.what).not.toContain('budget');
  expect(retryOfBlock([{ ...cannot, lastWords: { text: '…the rest of a long report', chars: 3000 } }], 'core:review', 'The step core · review cannot finish: which format? …').what).toBe(told.what);
  const untraced = { ...entry('core:testing', 'tests-untraced'), note: 'tests passed, but no passing test names C2' };
  expect(retryOfBlock([untraced], 'core:testing', 'component core is not committed: … Add such tests and retry the step, or skip it')).toEqual({ state: 'core:testing', what: 'tests passed, but no passing test names C2, so the run stopped for the user' });
  // The run's error where it says what happened (a debugging step out of attempts); an older entry of the state is not read as this block's.
  expect(retryOfBlock([entry('core:debugging', 'tests-failed')], 'core:debugging', 'tests still fail after 3 debugging attempts in core · debugging')).toEqual({ state: 'core:debugging', what: 'tests still fail after 3 debugging attempts in core · debugging' });
  expect(retryOfBlock([notDone, entry('core:fixes', 'done')], 'core:review', 'the protocol review.md is not valid')).toEqual({ state: 'core:review', what: 'the protocol review.md is not valid' });
});

it("a step stopped while it ran hears so; the user's answer its attempt carried comes along, another step's does not", () => {
  const cut = 'Erasmus stopped while it ran (stopped by the user, or its process ended).';
  expect(interruptedRetry(undefined, 'cli:development', cut)).toEqual({ state: 'cli:development', what: cut });
  const answered = { state: 'cli:development', what: 'it said it cannot finish', said: 'Cannot finish: JSON errors?', answer: 'No JSON errors.' };
  expect(interruptedRetry(answered, 'cli:development', cut)).toEqual({ state: 'cli:development', what: `${cut} The attempt before it had stopped to ask the user, and they answered with the retry that was stopped: what it asked and their answer are below, and the answer still holds`, said: 'Cannot finish: JSON errors?', answer: 'No JSON errors.' });
  // An answer for another step, or a retry note without one, is not carried.
  expect(interruptedRetry(answered, 'cli:testing', cut)).toEqual({ state: 'cli:testing', what: cut });
  expect(interruptedRetry({ state: 'cli:development', what: 'tests failed', said: 'x' }, 'cli:development', cut)).toEqual({ state: 'cli:development', what: cut });
});
