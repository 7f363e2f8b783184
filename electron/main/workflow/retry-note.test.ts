import { expect, it } from 'vitest';
import { debugRetryNote } from './retry-note';
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
