import { existsSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { statusText } from '../../cli/commands/workflow-print';
import { runStatusWords } from '../../contract/words';
import { approved, cleanUpAfterEach, git, MODEL, runToEnd, setup, until } from '../../../tests/fixtures/workflow/parallel-harness';

// A parallel run whose one component blocks while the other merges: what the user sees, skip, abandon.
cleanUpAfterEach();

describe('a blocked lane in a parallel run', () => {
  /** Two components side by side, b's tests never passing: the run blocks once a is merged. */
  async function blockedRun(fixed: string) {
    const { dir, engine, events } = await setup({ PARALLEL_MODEL_COMPONENTS: 'a,b', PARALLEL_MODEL_BROKEN: 'b', PARALLEL_MODEL_FIXED: fixed });
    const { runId, view } = await runToEnd(engine, dir, 2);
    expect(view.status).toBe('BLOCKED');
    // What the user sees: the run's error names the component and its step; a is merged, b blocked with its worktree.
    // The step in words, once: the error names it already ("… in b · debugging"), so no "(b:debugging)" before it.
    expect(view.error?.message).toMatch(/^component b: tests still fail after 3 debugging attempts in b · debugging/);
    expect(view.lanes?.map((l) => [l.component, l.status])).toEqual([['a', 'merged'], ['b', 'blocked']]);
    const b = view.lanes![1]!;
    expect(b.state).toBe('b:debugging');
    expect(b.worktree).toBe(join(dir, '.git', 'erasmus', 'worktrees', runId, 'b'));
    expect(await readFile(join(b.worktree!, 'b-draft.txt'), 'utf8')).toBe('a draft of b\n');
    expect(git(dir, 'log', '--format=%s')).toBe('Write a.txt');
    // The CLI's status says which component, where its work is, and both ways on.
    const text = statusText(view);
    expect(text).toContain(`component b is blocked at b · debugging; its work is in its worktree ${b.worktree}. To go on: fix the cause, then run its step again: erasmus workflow retry ${dir} --component b, or skip that step: erasmus workflow skip ${dir} --component b`);
    // The lane's line does not repeat the error the run's names: said once.
    expect(text).toMatch(/ {2}b: blocked, at b · debugging in \S+\n/);
    expect(text.split('tests still fail after 3 debugging attempt').length - 1).toBe(1);
    // The app's timeline draws b's steps in its lane: every one of its entries names its worktree.
    expect(view.timeline.filter((e) => e.component === 'b' && e.state !== 'b:merge').every((e) => e.worktree === b.worktree)).toBe(true);
    return { dir, engine, events, runId };
  }

  it('a blocked lane while the other merged: skip goes on after its step, which then passes; one commit each, no worktree or lane branch left', async () => {
    const fixed = join(tmpdir(), `erasmus-parallel-fixed-${process.pid}-1`);
    const { dir, engine, runId } = await blockedRun(fixed);
    try {
      await writeFile(fixed, '');
      await engine.skip(runId);
      const view = await engine.waitForRest(runId, 120_000);
      expect(view.status, JSON.stringify(view.error)).toBe('COMPLETED');
      expect(view.timeline.filter((e) => e.outcome === 'skipped' && e.state === 'b:debugging')).toHaveLength(1);
      expect(view.timeline.some((e) => e.state === 'b:redebugging' && e.outcome === 'tests-passed')).toBe(true);
    } finally {
      await rm(fixed, { force: true });
    }
    expect(git(dir, 'log', '--format=%s').split('\n')).toEqual(['Update the documentation', 'Write b.txt', 'Write a.txt']);
    expect(git(dir, 'status', '--porcelain')).toBe('');
    expect(git(dir, 'worktree', 'list').split('\n')).toHaveLength(1);
    expect(git(dir, 'branch', '--format=%(refname:short)')).toBe('main');
  }, 180_000);

  it('abandon removes every worktree and lane branch, keeping the unmerged work under a ref; the next run removes what a crash left', async () => {
    const { dir, engine, events, runId } = await blockedRun(join(tmpdir(), 'erasmus-parallel-never'));
    const { kept } = await engine.abandon(runId);
    expect(kept.map((k) => [k.component, k.ref])).toEqual([['b', `refs/erasmus/kept/${runId}/b`]]);
    expect(git(dir, 'worktree', 'list').split('\n')).toHaveLength(1);
    expect(git(dir, 'branch', '--format=%(refname:short)')).toBe('main');
    expect(existsSync(join(dir, '.git', 'erasmus', 'worktrees', runId))).toBe(false);
    // b's uncommitted draft is in the kept commit, on top of its base; the run's view names the ref.
    expect(git(dir, 'show', `${kept[0]!.ref}:b-draft.txt`)).toBe('a draft of b');
    expect(git(dir, 'log', '-1', '--format=%s', kept[0]!.ref)).toBe(`Uncommitted work of component b (run ${runId}, abandoned)`);
    const view = await engine.status(runId);
    expect(view.status).toBe('ABANDONED');
    expect(view.lanes?.find((l) => l.component === 'b')).toMatchObject({ kept: kept[0]!.ref });
    expect(view.lanes?.find((l) => l.component === 'b')?.worktree).toBeUndefined();
    expect(view.timeline.every((e) => e.leftAt)).toBe(true);
    expect(statusText(view)).toContain(`not merged, its work is kept under ${kept[0]!.ref}`);
    // A crash left a lane of a run nobody has a record of (one commit on its branch, a file not committed): the next run's load removes both, keeping the work.
    const lane = join(dir, '.git', 'erasmus', 'worktrees', 'gone', 'c');
    git(dir, 'worktree', 'add', '-q', '-b', 'erasmus-lane/gone/c', lane);
    await writeFile(join(lane, 'c.txt'), 'c\n');
    git(lane, '-c', 'user.name=t', '-c', 'user.email=t@t', 'add', 'c.txt');
    git(lane, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '-m', 'Write c.txt');
    await writeFile(join(lane, 'c2.txt'), 'c2\n');
    await engine.load({ projectDir: dir, goal: 'next', executor: { kind: 'command', command: `node ${MODEL}` } });
    expect(git(dir, 'worktree', 'list').split('\n')).toHaveLength(1);
    expect(git(dir, 'branch', '--format=%(refname:short)')).toBe('main');
    expect(git(dir, 'show', 'refs/erasmus/kept/gone/c:c2.txt')).toBe('c2');
    expect(git(dir, 'log', '--format=%s', 'refs/erasmus/kept/gone/c').split('\n').slice(0, 2)).toEqual(['Uncommitted work of component c (run gone, left by a run no longer driven)', 'Write c.txt']);
    const note = events.find((e) => e.event === 'app.notify' && JSON.stringify(e.payload).includes('refs/erasmus/kept/gone/c'));
    expect(note).toBeDefined();
  }, 180_000);

  it('a lane that blocks while another runs is shown blocked at once and is retried without waiting for the other; retry or skip of a component not blocked is refused', async () => {
    const fixed = join(tmpdir(), `erasmus-parallel-fixed-${process.pid}-3`);
    const hold = join(tmpdir(), `erasmus-parallel-hold-${process.pid}-3`);
    await writeFile(hold, '');
    try {
      // a's development is held in flight while b's tests fail three debugging attempts.
      const { dir, engine, events } = await setup({ PARALLEL_MODEL_COMPONENTS: 'a,b', PARALLEL_MODEL_BROKEN: 'b', PARALLEL_MODEL_FIXED: fixed, PARALLEL_MODEL_HOLD: hold, PARALLEL_MODEL_HOLD_ONLY: 'a' });
      const runId = await approved(engine, dir, 2);
      await until(engine, runId, (v) => v.lanes?.find((l) => l.component === 'b')?.status === 'blocked');
      const view = await engine.status(runId);
      expect(view.status).toBe('RUNNING');
      expect(view.lanes?.map((l) => [l.component, l.status])).toEqual([['a', 'running'], ['b', 'blocked']]);
      expect(view.lanes![1]).toMatchObject({ state: 'b:debugging', error: expect.stringMatching(/tests still fail after 3 debugging attempt/) });
      // Said at once, in every face: a status event to refresh the views, a notice naming the component, its step and both ways on.
      const note = events.find((e) => e.event === 'app.notify' && (e.payload as { title: string }).title === 'Component b is blocked at b · debugging');
      expect((note?.payload as { body: string } | undefined)?.body).toMatch(/tests still fail after \d debugging attempts in \S+ · debugging\. The components under way go on and no new one starts; retry or skip its step now/);
      // Only a blocked component is retried or skipped while others run.
      await expect(engine.skip(runId, { component: 'a' })).rejects.toThrow('component a is not blocked');
      await expect(engine.retry(runId, { component: 'a' })).rejects.toThrow('component a is not blocked');
      await writeFile(fixed, '');
      // The user writes in b's worktree while it is blocked: b's steps after the retry are told, as the user's change.
      await writeFile(join(view.lanes![1]!.worktree!, 'b-fix.txt'), 'fixed by hand\n');
      // With the user's answer: the retried step of b hears it (and a's step, which runs on, does not).
      await engine.retry(runId, { component: 'b', answer: 'Write b.txt as the task list says.' });
      // b runs its step again and reaches its commit while a is still held: it waits, ready, for a to merge first.
      await until(engine, runId, (v) => v.lanes?.find((l) => l.component === 'b')?.status === 'ready');
      expect((await engine.status(runId)).lanes?.[0]?.status).toBe('running');
      await rm(hold, { force: true });
      const done = await engine.waitForRest(runId, 120_000);
      expect(done.status, JSON.stringify(done.error)).toBe('COMPLETED');
      expect(git(dir, 'log', '--format=%s').split('\n')).toEqual(['Update the documentation', 'Write b.txt', 'Write a.txt']);
      const review = done.timeline.findIndex((e) => e.state === 'b:review');
      const prompt = (await engine.stepPrompt(runId, review)) ?? '';
      expect(prompt).toContain('## What the user changed\n\nWhile the run was stopped at b · debugging, the user changed the project');
      expect(prompt).toContain('+fixed by hand');
      expect(prompt).toContain('These changes are part of the work you review');
      const retried = done.timeline.findLastIndex((e) => e.state === 'b:debugging');
      expect(await engine.stepPrompt(runId, retried)).toContain("The user's answer, given with a retry of this step (it settles what the step stopped for; where it differs from the documents, the answer holds):\n\n```\nWrite b.txt as the task list says.\n```");
      for (const [i, e] of done.timeline.entries()) if (e.component === 'a') expect((await engine.stepPrompt(runId, i)) ?? '').not.toContain("The user's answer");
    } finally {
      await rm(fixed, { force: true });
      await rm(hold, { force: true });
    }
  }, 180_000);

  it('a component that stops to ask while another runs says so in every face, names the project and itself in its command lines, and its answer goes to its step alone and shows on the timeline', async () => {
    const hold = join(tmpdir(), `erasmus-parallel-hold-${process.pid}-4`);
    await writeFile(hold, '');
    try {
      // a's development is held in flight while b's development stops to ask.
      const { dir, engine, events } = await setup({ PARALLEL_MODEL_COMPONENTS: 'a,b', PARALLEL_MODEL_ASKS: 'b', PARALLEL_MODEL_HOLD: hold, PARALLEL_MODEL_HOLD_ONLY: 'a' });
      const runId = await approved(engine, dir, 2);
      await until(engine, runId, (v) => v.lanes?.find((l) => l.component === 'b')?.status === 'blocked');
      const view = await engine.status(runId);
      const b = view.lanes!.find((l) => l.component === 'b')!;
      // It asked: its lane says so, and its error gives the ways on as the main path's does, naming the project's
      // folder (not its worktree, not <dir>) and the component, whose step alone the answer is for.
      expect(b).toMatchObject({ status: 'blocked', asks: true, state: 'b:development' });
      expect(b.error).toMatch(/^The step b · development cannot finish: should b\.txt say "b" or "part b"\? The rest of the step's work and its notes are kept\./);
      expect(b.error).toContain(`in the box on component b's card and press Retry with this answer; on a terminal, \`erasmus workflow retry ${dir} --component b --answer TEXT\``);
      expect(b.error).toContain(`skip the step (\`erasmus workflow skip ${dir} --component b\`)`);
      expect(b.error).not.toContain('<dir>');
      expect(view.timeline.find((e) => e.state === 'b:development')).toMatchObject({ outcome: 'not-done', asked: true });
      // Said at once: the notice and the status words say it stopped to ask and needs the answer, not "is blocked".
      const note = events.find((e) => e.event === 'app.notify' && (e.payload as { title: string }).title === 'Component b stopped to ask you at b · development');
      expect((note?.payload as { body: string } | undefined)?.body).toMatch(/The components under way go on and no new one starts; answer it now, on its card in the app or on a terminal \(the process that drives the run takes it\)\.$/);
      expect(runStatusWords(view)).toBe('Running; b stopped to ask you, needs your answer');
      // A component named that is not blocked is refused, naming the one that is (not the run's step retried instead).
      await expect(engine.retry(runId, { component: 'c', answer: 'x' })).rejects.toThrow('component c is not blocked: nothing to retry (the plan has no such component; the blocked one is b)');
      await engine.retry(runId, { component: 'b', answer: 'part b' });
      await until(engine, runId, (v) => v.lanes?.find((l) => l.component === 'b')?.status === 'ready');
      await rm(hold, { force: true });
      const done = await engine.waitForRest(runId, 120_000);
      expect(done.status, JSON.stringify(done.error)).toBe('COMPLETED');
      expect(git(dir, 'show', 'HEAD:b.txt')).toBe('part b');
      // The answer shows where the user looks: the retried step's entry keeps it (the step before it, which asked, has none).
      const steps = done.timeline.filter((e) => e.state === 'b:development');
      expect(steps.map((e) => [e.outcome, e.answer])).toEqual([['not-done', undefined], ['done', 'part b']]);
      expect(done.timeline.filter((e) => e.answer).map((e) => e.state)).toEqual(['b:development']);
      expect(statusText(done)).toMatch(/ b · development: done in [^\n]*\n {4}with your answer: “part b”\n/);
    } finally {
      await rm(hold, { force: true });
    }
  }, 180_000);

  it('a run blocked at a component that stopped to ask: the CLI says so with the answer, naming the component; a retry answers it', async () => {
    const { dir, engine } = await setup({ PARALLEL_MODEL_COMPONENTS: 'a,b', PARALLEL_MODEL_ASKS: 'b' });
    const { runId, view } = await runToEnd(engine, dir, 2);
    expect(view.status).toBe('BLOCKED');
    expect(view.error).toMatchObject({ asks: true });
    const b = view.lanes!.find((l) => l.component === 'b')!;
    const text = statusText(view);
    expect(text).toContain('The step needs your answer: The step b · development cannot finish:');
    expect(text).toContain(`component b stopped to ask you at b · development; its work is in its worktree ${b.worktree}. To go on: answer it: erasmus workflow retry ${dir} --component b --answer TEXT ('-' reads the answer from stdin); or settle it yourself (in its worktree) and retry without --answer, or skip that step: erasmus workflow skip ${dir} --component b`);
    expect(text).toMatch(/ {2}b: stopped to ask you, at b · development in \S+\n/);
    expect(text).toMatch(/b · development: stopped to ask you in /);
    await expect(engine.skip(runId, { component: 'a' })).rejects.toThrow('component a is not blocked: nothing to skip (the blocked one is b)');
    await engine.retry(runId, { component: 'b', answer: 'b, answered' });
    const done = await engine.waitForRest(runId, 120_000);
    expect(done.status, JSON.stringify(done.error)).toBe('COMPLETED');
    expect(git(dir, 'show', 'HEAD:b.txt')).toBe('b, answered');
    expect(done.timeline.filter((e) => e.answer).map((e) => [e.state, e.answer])).toEqual([['b:development', 'b, answered']]);
  }, 180_000);

  it("a merge step that stops to ask blocks the run asking; the retry's answer reaches that merge step and shows on its entry", async () => {
    const { dir, engine } = await setup({ PARALLEL_MODEL_COMPONENTS: 'a,b', PARALLEL_MODEL_SHARED: '1', PARALLEL_MODEL_ASKS_MERGE: '1' });
    const { runId, view } = await runToEnd(engine, dir, 2);
    expect(view.status).toBe('BLOCKED');
    // The merge step works in the project folder (the run's block, not a component's): its lines name the project alone.
    expect(view.error).toMatchObject({ asks: true });
    expect(view.error?.message).toBe(
      `The step b · merge into the run's branch cannot finish: shared.txt says who wrote it on both sides; should it name a, b, or both? The conflicts and what the step did to them stay in the project folder. Answer it with the retry (in the app, write the answer in the box under the step and press Retry with this answer; on a terminal, \`erasmus workflow retry ${dir} --answer TEXT\`), or resolve the conflicts yourself in ${dir} (remove every <<<<<<< ======= >>>>>>> marker; do not commit) and retry without an answer: Erasmus commits the merge.`,
    );
    expect(view.timeline.find((e) => e.state === 'b:merge')).toMatchObject({ outcome: 'not-done', asked: true });
    // Nothing at the components' phase can be skipped with none blocked: no skip is offered.
    expect(statusText(view)).toContain(`to go on: answer it: erasmus workflow retry ${dir} --answer TEXT ('-' reads the answer from stdin); or resolve the conflicts yourself in ${dir} (no marker left; do not commit) and retry without --answer\n`);
    await engine.retry(runId, { answer: 'Both: keep both lines.' });
    const done = await engine.waitForRest(runId, 120_000);
    expect(done.status, JSON.stringify(done.error)).toBe('COMPLETED');
    const merges = done.timeline.flatMap((e, i) => (e.state === 'b:merge' ? [[i, e] as const] : []));
    expect(merges.map(([, e]) => [e.outcome, e.answer])).toEqual([['not-done', undefined], ['committed', 'Both: keep both lines.']]);
    expect(await engine.stepPrompt(runId, merges[1]![0])).toContain("The user's answer, given with a retry of this step (it settles what the step stopped for; where it differs from the documents, the answer holds):\n\n```\nBoth: keep both lines.\n```");
  }, 180_000);

  it('two components blocked asking: an answer that names neither is refused, each is answered alone, the CLI names each', async () => {
    const { dir, engine } = await setup({ PARALLEL_MODEL_COMPONENTS: 'a,b', PARALLEL_MODEL_ASKS: 'a,b' });
    const { runId, view } = await runToEnd(engine, dir, 2);
    expect(view.status).toBe('BLOCKED');
    expect(view.lanes?.map((l) => [l.component, l.status, l.asks])).toEqual([['a', 'blocked', true], ['b', 'blocked', true]]);
    expect(view.error).toMatchObject({ asks: true, message: expect.stringMatching(/^2 components blocked:\ncomponent a: The step a · development cannot finish/) });
    const text = statusText(view);
    for (const c of ['a', 'b']) expect(text).toContain(`component ${c} stopped to ask you at ${c} · development; its work is in its worktree ${view.lanes!.find((l) => l.component === c)!.worktree}. To go on: answer it: erasmus workflow retry ${dir} --component ${c} --answer TEXT`);
    // Which component an answer is for must be said: the first blocked one is never taken for it, and nothing runs.
    await expect(engine.retry(runId, { answer: 'part b' })).rejects.toThrow('2 components are blocked (a, b): say which one your answer is for (--component ID on a terminal; its own card in the app). Nothing was retried');
    expect((await engine.status(runId)).status).toBe('BLOCKED');
    // b answered: it goes on with its answer; a stays blocked, its step not run again unasked (it would hear the retry as
    // the user's word to go on as things are), and the run blocks again at it once b is done.
    await engine.retry(runId, { component: 'b', answer: 'part b' });
    const again = await engine.waitForRest(runId, 120_000);
    expect(again.status, JSON.stringify(again.error)).toBe('BLOCKED');
    expect(again.lanes?.map((l) => [l.component, l.status, l.asks])).toEqual([['a', 'blocked', true], ['b', 'ready', undefined]]);
    expect(again.timeline.filter((e) => e.state === 'a:development')).toHaveLength(1);
    expect(again.error).toMatchObject({ asks: true, message: expect.stringMatching(/^The step a · development cannot finish/) });
    await engine.retry(runId, { component: 'a', answer: 'part a' });
    const done = await engine.waitForRest(runId, 120_000);
    expect(done.status, JSON.stringify(done.error)).toBe('COMPLETED');
    expect([git(dir, 'show', 'HEAD:a.txt'), git(dir, 'show', 'HEAD:b.txt')]).toEqual(['part a', 'part b']);
    expect(done.timeline.filter((e) => e.answer).map((e) => [e.state, e.answer])).toEqual([['b:development', 'part b'], ['a:development', 'part a']]);
  }, 180_000);
});
