import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EXPECTED, finishedStates, gitLog, MODEL, sandbox, type Sandbox } from './workflow-helpers';

let sb: Sandbox | undefined;
afterEach(async () => {
  await sb?.cleanup();
  sb = undefined;
});


describe('workflow end to end (scripted model as a command executor)', () => {
  it('writes the documents, waits for approval, develops, tests (fail → debug → pass), reviews, commits', async () => {
    sb = await sandbox();
    await sb.setControl({ log: join(sb.root, 'prompts.jsonl') });
    const { runId } = await sb.engine.load({ projectDir: sb.project, goal: 'a function that adds two numbers', executor: { kind: 'command', command: `node ${MODEL}` } });
    await sb.engine.start(runId);
    let view = await sb.engine.waitForRest(runId, 60_000);
    expect(view.status).toBe('AWAITING_APPROVAL');
    for (const doc of ['architecture', 'progress_schedule', 'task_list'] as const) {
      expect(readFileSync(sb.paths.orchestrationDoc(sb.project, doc), 'utf8')).toMatch(/\S/);
    }
    expect(view.plan?.components.map((c) => c.id)).toEqual(['adder']);
    expect(sb.events.some((e) => e.event === 'workflow.plan')).toBe(true);
    expect(gitLog(sb.project)).toEqual(['initial']); // nothing happens before approval

    await sb.engine.approve(runId);
    view = await sb.engine.waitForRest(runId, 90_000);
    expect(view.error).toBeUndefined();
    expect(view.status).toBe('COMPLETED');
    expect(finishedStates(view.timeline)).toEqual(EXPECTED);
    for (const e of view.timeline) {
      expect(Date.parse(e.leftAt!)).toBeGreaterThanOrEqual(Date.parse(e.enteredAt));
    }
    const times = view.timeline.map((e) => Date.parse(e.enteredAt));
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    const failing = view.timeline.find((e) => e.state === 'adder:testing')!;
    expect(failing.test).toMatchObject({ command: 'node --test test/', passed: false });
    expect(view.totals.totalTokens).toBeGreaterThan(0);

    // The code really works now, the review report is in the project, the commit names the component.
    expect(readFileSync(join(sb.project, 'src/adder.mjs'), 'utf8')).toContain('a + b');
    expect(readFileSync(join(sb.project, 'docs/reviews/adder.md'), 'utf8')).toContain('# Review: adder');
    expect(existsSync(join(sb.project, 'docs/reviews/final.md'))).toBe(true);
    expect(gitLog(sb.project).slice(0, 2)).toEqual(['update the documentation', 'add adder, which adds two numbers']);
    const commit = view.timeline.find((e) => e.state === 'adder:commit')!.commit!;
    expect(commit).toMatch(/^[0-9a-f]{40}$/);
    expect(readFileSync(sb.paths.orchestrationDoc(sb.project, 'task_list'), 'utf8')).toContain('- [x] A1:');
    // The final steps keep their notes in a document of their own; the task list keeps its form for the next run.
    expect(readFileSync(sb.paths.componentDoc(sb.project, 'final'), 'utf8')).toMatch(/^# End-to-end phase[\s\S]*- final:testing: nothing to change/);
    expect(readFileSync(sb.paths.orchestrationDoc(sb.project, 'task_list'), 'utf8')).not.toContain('final:');

    // The context swap: each step of the component saw the notes the previous ones left.
    const prompts = readFileSync(join(sb.root, 'prompts.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { state: string; prompt: string });
    expect(prompts.find((p) => p.state === 'adder:testing')!.prompt).toContain('development: add() written');
    // Testing and debugging steps are told the command that gates them; the others are not.
    expect(prompts.find((p) => p.state === 'adder:testing')!.prompt).toMatch(/## Test command\n\nWhen this step ends, Erasmus runs `node --test[^`]*` in your working directory \(where your tools work\)/);
    expect(prompts.find((p) => p.state === 'adder:debugging')!.prompt).toContain('## Test command');
    expect(prompts.find((p) => p.state === 'final:testing')!.prompt).toContain('## Test command');
    expect(prompts.find((p) => p.state === 'adder:development')!.prompt).not.toContain('## Test command');
    expect(prompts.find((p) => p.state === 'adder:debugging')!.prompt).toContain('testing: test/adder.test.mjs');
    expect(prompts.find((p) => p.state === 'adder:debugging')!.prompt).toMatch(/exited with status 1/);
    expect(prompts.find((p) => p.state === 'adder:fixes')!.prompt).toContain('# Review: adder');
    const componentDoc = readFileSync(sb.paths.componentDoc(sb.project, 'adder'), 'utf8');
    expect(componentDoc).toContain('documentation: README explains add()');

    // Persisted after every transition; notifications for the component and the run.
    const saved = JSON.parse(readFileSync(sb.paths.run(sb.project, runId), 'utf8'));
    expect(saved.status).toBe('COMPLETED');
    expect(saved.snapshot.status).toBe('done');
    const notes = sb.events.filter((e) => e.event === 'app.notify').map((e) => (e.payload as { title: string }).title);
    expect(notes).toEqual(['Component adder complete', 'Final phase complete', 'Workflow complete']);
    expect(sb.events.filter((e) => e.event === 'app.notify').at(-1)!.payload).toMatchObject({ body: `${sb.project}: its component is done` });
  });

  it('a review that asks for no changes passes over the fixes step, saying why', async () => {
    sb = await sandbox();
    await sb.setControl({ cleanReview: true, log: join(sb.root, 'prompts.jsonl') });
    const { runId } = await sb.engine.load({ projectDir: sb.project, goal: 'a function that adds two numbers', executor: { kind: 'command', command: `node ${MODEL}` } });
    await sb.engine.start(runId);
    expect((await sb.engine.waitForRest(runId, 60_000)).status).toBe('AWAITING_APPROVAL');
    await sb.engine.approve(runId);
    const view = await sb.engine.waitForRest(runId, 90_000);
    expect(view.status).toBe('COMPLETED');
    expect(finishedStates(view.timeline)).toEqual(EXPECTED.map((s) => (s === 'adder:fixes=done' ? 'adder:fixes=skipped' : s)));
    expect(view.timeline.find((e) => e.state === 'adder:fixes')!.note).toBe('the review asked for no changes (docs/reviews/adder.md)');
    const prompts = readFileSync(join(sb.root, 'prompts.jsonl'), 'utf8').trim().split('\n').map((l) => (JSON.parse(l) as { state: string }).state);
    expect(prompts).not.toContain('adder:fixes');
    expect(prompts).toContain('adder:documentation');
  });
});
