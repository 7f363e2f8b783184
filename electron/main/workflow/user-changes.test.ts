import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { snapshotTree } from './git';
import { PARALLEL_STATE } from './plan';
import { buildStepPrompt } from './prompt';
import type { LaneRecord, RunRecord } from './run-record';
import { carryUserChanges, changesToCarry, readUserChanges, rememberStoppedTree, userChangesFor } from './user-changes';

let root: string | undefined;
afterEach(() => {
  if (root) rmSync(root, { recursive: true, force: true });
  root = undefined;
});
const git = (dir: string, ...args: string[]) => execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...args], { cwd: dir, encoding: 'utf8' }).trim();

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

describe("what the user changed while a durable run was stopped, for a component in a worker", () => {
  it("is carried into the component's clone by its workflow's first step, told to its steps, and handed to no workflow twice", async () => {
    root = mkdtempSync(join(tmpdir(), 'erasmus-user-changes-'));
    // The run's project folder: stopped at the components' phase, the user fixes notes.txt and adds a file.
    const project = join(root, 'project');
    git(root, 'init', '-q', '-b', 'main', project);
    writeFileSync(join(project, 'notes.txt'), 'one\ntwo\n');
    git(project, 'add', '-A');
    git(project, 'commit', '-qm', 'base');
    const record = { projectDir: project, timeline: [] } as unknown as RunRecord;
    await rememberStoppedTree(record);
    writeFileSync(join(project, 'notes.txt'), 'one\n2\n');
    writeFileSync(join(project, 'fix.txt'), 'the user\'s fix\n');
    await readUserChanges(record, PARALLEL_STATE);
    expect(record.userChanges).toHaveLength(1);
    const lane = { component: 'b', status: 'blocked', entries: [] } as LaneRecord;
    const carry = await changesToCarry(record, lane, PARALLEL_STATE);
    expect(carry.map((c) => c.patch)).toEqual([expect.stringContaining('+the user\'s fix')]);
    // Handed to a workflow once: the next attempt is not handed it again.
    expect(await changesToCarry(record, { ...lane, carried: [record.userChanges![0]!.at] }, PARALLEL_STATE)).toEqual([]);

    // The worker's clone of the component (its files as its steps left them: notes.txt untouched there, another file of its own).
    const clone = join(root, 'clone');
    git(root, 'clone', '-q', project, clone);
    writeFileSync(join(clone, 'b.txt'), 'b\n');
    const before = await snapshotTree(clone);
    await carryUserChanges(clone, carry, lane);
    expect(readFileSync(join(clone, 'notes.txt'), 'utf8')).toBe('one\n2\n');
    expect(readFileSync(join(clone, 'fix.txt'), 'utf8')).toBe("the user's fix\n");
    expect(lane.userChanges).toEqual([{ state: PARALLEL_STATE, at: record.userChanges![0]!.at, from: before, kind: 'diff', text: record.userChanges![0]!.text }]);
    // Its steps are told, as a plain run's are: the lane's record is what they read.
    const told = userChangesFor({ timeline: [], userChanges: lane.userChanges }, 'b');
    expect(told).toHaveLength(1);
    const prompt = buildStepPrompt({ protocol: protocol('debugging'), instruction: 'Fix it.', contextDocPath: '/h/b.md', userChanges: told });
    expect(prompt).toContain('## What the user changed\n\nWhile the run was stopped at Components side by side, the user changed the project; here is what they changed');
    expect(prompt).toContain('+the user\'s fix');
    // The final phase is not told of it (the run's own record keeps it at the components' phase).
    expect(userChangesFor(record, 'final')).toEqual([]);

    // There already (the component started from a commit that holds it): told, not applied twice.
    const again = { component: 'b', status: 'running', entries: [] } as LaneRecord;
    await carryUserChanges(clone, carry, again);
    expect(again.userChanges).toHaveLength(1);
    expect(readFileSync(join(clone, 'fix.txt'), 'utf8')).toBe("the user's fix\n");

    // One that applies neither way: nothing of it applied, and the component blocks saying what to do.
    const other = join(root, 'other');
    git(root, 'clone', '-q', project, other);
    writeFileSync(join(other, 'notes.txt'), 'something else entirely\n');
    await expect(carryUserChanges(other, carry, { component: 'b', status: 'running', entries: [] } as LaneRecord)).rejects.toThrow(
      /^the changes you made while the run was stopped \(`fix\.txt`, `notes\.txt`\) do not apply to component b's files as its steps left them \(git apply: [\s\S]*\), so they were not carried into them; they stay in the project folder\. Retry to go on without them \(erasmus workflow retry\), or bring them into the component's files yourself once it is merged\.$/,
    );
    expect(git(other, 'status', '--porcelain')).toBe('M notes.txt');
  });
});
