import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { blockedLastWords } from '../../electron/contract/index';
import { statusText } from '../../electron/cli/commands/workflow-print';
import { finishedStates, gitLog, MODEL, sandbox, type Sandbox } from './workflow-helpers';

let sb: Sandbox | undefined;
afterEach(async () => {
  await sb?.cleanup();
  sb = undefined;
});

const command = { kind: 'command' as const, command: `node ${MODEL}` };
const GOOD_TASKS = '# Task list\n\n## Component: adder\nTest: node --test test/\n- [ ] A1: Implement add\n- [ ] A2: Test add\n';

describe('workflow: clear, recoverable failures with nothing lost', () => {
  it('a malformed task list blocks with line numbers; fixing it and retrying continues', async () => {
    sb = await sandbox();
    await sb.setControl({ badTaskList: true });
    const { runId } = await sb.engine.load({ projectDir: sb.project, goal: 'add numbers', executor: command });
    await sb.engine.start(runId);
    let view = await sb.engine.waitForRest(runId, 60_000);
    expect(view.status).toBe('BLOCKED');
    expect(view.error?.kind).toBe('PARSE_ERROR');
    expect(view.error?.file).toBe(sb.paths.orchestrationDoc(sb.project, 'task_list'));
    expect(view.error?.issues?.map((i) => i.line)).toEqual([3, 4, 5]); // no valid task in the component, then the two bad lines
    expect(view.error?.message).toMatch(/line 4: malformed task/);
    // Nothing already written is lost: the architecture, the schedule and the bad list itself stay.
    const arch = await readFile(sb.paths.orchestrationDoc(sb.project, 'architecture'), 'utf8');
    expect(arch).toContain('# Architecture');
    expect(await readFile(sb.paths.orchestrationDoc(sb.project, 'task_list'), 'utf8')).toContain('A1 Implement add without a colon');
    const doc = await sb.engine.readDoc(sb.project, { doc: 'task_list' });
    expect(doc.issues?.length).toBe(3);

    await sb.engine.writeDoc(sb.project, { doc: 'task_list' }, GOOD_TASKS);
    await sb.engine.retry(runId);
    view = await sb.engine.waitForRest(runId, 60_000);
    expect(view.status).toBe('AWAITING_APPROVAL');
    expect(await readFile(sb.paths.orchestrationDoc(sb.project, 'architecture'), 'utf8')).toBe(arch); // loaded, not regenerated
    expect(view.plan?.components[0]?.tasks.map((t) => t.id)).toEqual(['A1', 'A2']);
  });

  it('a protocol with bad front matter blocks naming the file and field; fixing it continues', async () => {
    sb = await sandbox();
    const file = join(sb.project, '.erasmus', 'protocols', 'review.md');
    await mkdir(join(sb.project, '.erasmus', 'protocols'), { recursive: true });
    await writeFile(file, '---\nname: review\ndescription: strict review\ndone: all good\nmaxAttempts: many\n---\nReview strictly.\n');
    await sb.trust();
    const { runId } = await sb.engine.load({ projectDir: sb.project, goal: 'add numbers', executor: command });
    await sb.engine.start(runId);
    let view = await sb.engine.waitForRest(runId, 60_000);
    expect(view.status).toBe('BLOCKED');
    expect(view.error).toMatchObject({ kind: 'PARSE_ERROR', file, field: 'maxAttempts' });
    expect(view.error?.message).toContain(file);
    await writeFile(file, '---\nname: review\ndescription: strict review\ndone: all good\nmaxAttempts: 2\n---\nReview strictly.\n');
    await sb.trust();
    await sb.engine.retry(runId);
    view = await sb.engine.waitForRest(runId, 60_000);
    expect(view.status).toBe('AWAITING_APPROVAL');
  });

  it('a model that never says it is done blocks the step; its work is kept; retry finishes the run', async () => {
    sb = await sandbox();
    await sb.setControl({ neverDone: 'adder:testing' });
    const { runId } = await sb.engine.load({ projectDir: sb.project, goal: 'add numbers', executor: command });
    await sb.engine.start(runId);
    expect((await sb.engine.waitForRest(runId, 60_000)).status).toBe('AWAITING_APPROVAL');
    await sb.engine.approve(runId);
    let view = await sb.engine.waitForRest(runId, 60_000);
    expect(view.status).toBe('BLOCKED');
    expect(view.state).toBe('adder:testing');
    expect(view.error?.message).toMatch(/adder:testing ended without finishing/);
    expect(view.timeline.at(-1)).toMatchObject({ state: 'adder:testing', outcome: 'not-done' });
    // The development step's work is still there, and the run file says where it stopped.
    expect(await readFile(join(sb.project, 'src/adder.mjs'), 'utf8')).toContain('export function add');
    const saved = JSON.parse(await readFile(sb.paths.run(sb.project, runId), 'utf8'));
    expect(saved).toMatchObject({ status: 'BLOCKED', state: 'adder:testing' });

    const log = join(sb.project, '..', 'prompts.jsonl');
    await sb.setControl({ log });
    await sb.engine.retry(runId);
    view = await sb.engine.waitForRest(runId, 90_000);
    expect(view.status).toBe('COMPLETED');
    // Each documentation pass reads its own "Done when": the component's, then the final pass's.
    const prompts = (await readFile(log, 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as { state: string; prompt: string });
    const doneOf = (state: string) => /## Done when\n\n(.*)/.exec(prompts.find((p) => p.state === state)!.prompt)![1];
    expect(doneOf('adder:documentation')).toMatch(/^What the component adds or changes is documented/);
    expect(doneOf('adder:documentation')).not.toContain('final pass');
    expect(doneOf('final:documentation')).toBe('The README describes the product as it now is, and the context document you hand back is the architecture as built.');
    expect(finishedStates(view.timeline)).toContain('adder:testing=not-done');
    expect(gitLog(sb.project).slice(0, 2)).toEqual(['update the documentation', 'add adder, which adds two numbers']);
  });

  /** A run whose model never fixes the failing test: blocked in adder · debugging after 2 attempts. */
  async function blockedInDebugging(s: Sandbox, log: string) {
    await mkdir(join(s.project, '.erasmus', 'protocols'), { recursive: true });
    const builtin = await readFile(join(__dirname, '../../resources/protocols/debugging.md'), 'utf8');
    await writeFile(join(s.project, '.erasmus', 'protocols', 'debugging.md'), builtin.replace('maxAttempts: 3', 'maxAttempts: 2'));
    await s.trust();
    await s.setControl({ neverFix: true, log });
    await s.engine.writeDoc(s.project, { doc: 'architecture' }, '# Architecture\n\nadder\n');
    await s.engine.writeDoc(s.project, { doc: 'progress_schedule' }, '# Schedule\n\n1. adder\n');
    await s.engine.writeDoc(s.project, { doc: 'task_list' }, GOOD_TASKS);
    const { runId } = await s.engine.load({ projectDir: s.project, executor: command });
    await s.engine.start(runId);
    let view = await s.engine.waitForRest(runId, 60_000);
    expect(view.status).toBe('AWAITING_APPROVAL'); // existing documents were loaded: no goal needed
    expect(finishedStates(view.timeline)).toEqual(['prepare:architecture=loaded', 'prepare:progress_schedule=loaded', 'prepare:task_list=loaded']);
    await s.engine.approve(runId);
    view = await s.engine.waitForRest(runId, 60_000);
    expect(view.status).toBe('BLOCKED');
    return { runId, view };
  }
  const debugPromptsOf = async (log: string) =>
    (await readFile(log, 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as { state: string; prompt: string }).filter((e) => e.state === 'adder:debugging').map((e) => e.prompt);

  it('tests that keep failing block after the bounded debugging attempts; skip moves on', async () => {
    sb = await sandbox();
    const log = join(sb.project, '..', 'prompts.jsonl');
    const blocked = await blockedInDebugging(sb, log);
    const runId = blocked.runId;
    let view = blocked.view;
    expect(view.error?.message).toContain('tests still fail after 2 debugging attempts in adder · debugging');
    // The second attempt hears which one it is and that the first changed nothing (from the timeline).
    const debugPrompts = await debugPromptsOf(log);
    expect(debugPrompts).toHaveLength(2);
    expect(debugPrompts[0]).not.toContain('debugging attempt');
    expect(debugPrompts[1]).toContain('This is debugging attempt 2 of 2 for these failures. The attempt before changed no file, and the tests still fail');
    expect(debugPrompts[1]).toContain('This is the last attempt before the run stops and asks the user.');
    expect(view.timeline.filter((e) => e.state === 'adder:debugging').map((e) => e.outcome)).toEqual(['tests-failed', 'tests-failed']);
    // Beside the gate's reason, the model's own last words in the step that blocked (what `workflow status` and the app show).
    const said = 'I looked but could not find it. This needs a decision: should add() accept strings? Done.';
    expect(blockedLastWords(view)).toMatchObject({ state: 'adder:debugging', text: said, chars: said.length });
    expect(statusText(view)).toContain(`the model's last words in adder · debugging:\n  > ${said}`);
    await sb.engine.skip(runId);
    view = await sb.engine.waitForRest(runId, 60_000);
    expect(view.timeline.some((e) => e.state === 'adder:debugging' && e.outcome === 'skipped')).toBe(true);
    expect(view.timeline.find((e) => e.state === 'adder:review')?.outcome).toBe('done');
    // The review runs for the first time: the skipped step's failure is not told to it as its own retry.
    const review = (await readFile(log, 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as { state: string; prompt: string }).find((e) => e.state === 'adder:review')!;
    expect(review.prompt).not.toContain('## This is a retry');
  });

  it('the user fixes the cause and retries: Erasmus runs the tests first, and with them passing the model is not asked again', async () => {
    sb = await sandbox();
    const log = join(sb.project, '..', 'prompts.jsonl');
    const { runId } = await blockedInDebugging(sb, log);
    expect(await debugPromptsOf(log)).toHaveLength(2);
    // What the blocked run says to do: fix the cause (here, by hand), then run the step again.
    await writeFile(join(sb.project, 'src/adder.mjs'), 'export function add(a, b) {\n  return a + b;\n}\n');
    // The review then stops the run (the rest of the run is the other tests').
    await sb.setControl({ neverFix: true, log, neverDone: 'adder:review' });
    await sb.engine.retry(runId);
    const view = await sb.engine.waitForRest(runId, 60_000);
    expect(view).toMatchObject({ status: 'BLOCKED', state: 'adder:review' });
    // No third debugging session: the retry's test run passed, and the step says so.
    expect(await debugPromptsOf(log)).toHaveLength(2);
    const retried = view.timeline.filter((e) => e.state === 'adder:debugging').at(-1)!;
    expect(retried).toMatchObject({ outcome: 'tests-passed', note: 'the tests pass now (Erasmus ran them before asking the model again)' });
    expect(retried.sessionLog).toBeUndefined();
    // The steps after it read, in the component's notes, that the tests pass now and why (the attempts before wrote that they fail).
    expect((await sb.engine.readDoc(sb.project, { doc: 'component', component: 'adder' })).text).toContain('- `node --test test/` passes now: the project changed after the tests last failed (by the user, or by an attempt that was interrupted)');
  });
});
