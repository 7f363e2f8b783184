import { describe, expect, it } from 'vitest';
import { buildStepPrompt } from './prompt';
import type { RunRecord } from './run-record';
import { userChangesFor } from './user-changes';

const change = (state: string, at: string, text: string) => ({ state, at, from: 'a'.repeat(40), kind: 'diff' as const, text });
const protocol = (name: string) => ({ name, description: 'd', toolsets: ['files'], done: 'Done.', prompt: 'Work.', budget: { maxTurns: 5 }, source: 'builtin' }) as unknown as Parameters<typeof buildStepPrompt>[0]['protocol'];

describe("what the user changed while the run was stopped", () => {
  it("is shown to the steps of the part it stopped at until that part is committed; the review reviews it", () => {
    const fix = change('wc:debugging', '2026-01-01T00:05:00.000Z', 'diff --git a/test/wc.test.js b/test/wc.test.js\n-  assert.equal(wc("a b"), 3)\n+  assert.equal(wc("a b"), 2)');
    const record = {
      userChanges: [change('upper:testing', '2026-01-01T00:01:00.000Z', 'old'), fix],
      timeline: [{ state: 'upper:commit', enteredAt: '2026-01-01T00:02:00.000Z', leftAt: '2026-01-01T00:02:00.000Z', outcome: 'committed' }],
    } as unknown as RunRecord;
    // upper was committed after its stop: its steps see nothing; wc's steps (its review among them) see the fix.
    expect(userChangesFor(record, 'upper')).toEqual([]);
    expect(userChangesFor(record, 'wc')).toEqual([fix]);
    expect(userChangesFor(record, 'final')).toEqual([]);

    const review = buildStepPrompt({ protocol: protocol('review'), instruction: 'Review it.', contextDocPath: '/h/wc.md', userChanges: [fix] });
    expect(review).toContain('## What the user changed\n\nWhile the run was stopped at wc · debugging, the user changed the project; here is what they changed, from the files as the run left them to the files as it went on:\n\n```diff\n');
    expect(review).toContain('+  assert.equal(wc("a b"), 2)');
    expect(review).toContain('These changes are part of the work you review: review them with the rest, and say in the report what they changed.');
    const dev = buildStepPrompt({ protocol: protocol('development'), instruction: 'Fix it.', contextDocPath: '/h/wc.md', userChanges: [{ ...fix, kind: 'stat', text: ' test/wc.test.js | 2 +-' }] });
    expect(dev).toContain('the user changed these files (the whole diff is too long to show here: read them):');
    expect(dev).toContain("Keep them and build on them: do not undo them or make them again.");
    expect(buildStepPrompt({ protocol: protocol('review'), instruction: 'Review it.', contextDocPath: '/h/wc.md' })).not.toContain('What the user changed');
  });
});
