import { existsSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { describe, expect, it, onTestFinished } from 'vitest';
import { approved, cleanUpAfterEach, engineAgain, git, runToEnd, setup, until } from '../../../tests/fixtures/workflow/parallel-harness';
import { Paths } from '../paths/index';
import { agentTask } from './agent-executor';
import { laneViews, runsInParallel } from './parallel';
import { SCHEDULE_BY_ERASMUS } from './schedule-status';
import { fenceLanguage } from './prompt';
import type { RunRecord } from './run-record';

cleanUpAfterEach();

describe('whether a run goes side by side', () => {
  type C = { id: string; title: string; tasks: Array<{ id: string; title: string; status: 'todo' | 'done' }>; depends?: string[] };
  const comp = (id: string, depends?: string[]): C => ({ id, title: '', tasks: [{ id: `${id}1`, title: 't', status: 'todo' }], ...(depends ? { depends } : {}) });
  const record = (components: C[], over: Partial<RunRecord> = {}) =>
    ({ plan: { components, maxDebugAttempts: 2 }, git: { mode: 'branch' }, executor: { kind: 'agent' }, ...over }) as unknown as RunRecord;
  it('only where Depends: lines let two open components run at once, in a repository, with an executor that runs steps at once', () => {
    expect(runsInParallel(record([comp('a', []), comp('b', [])]))).toBe(true);
    expect(runsInParallel(record([comp('a'), comp('b'), comp('c', ['a'])]))).toBe(true); // b and c both need only a
    expect(runsInParallel(record([comp('a'), comp('b')]))).toBe(false); // no Depends: line: schedule order, as before
    expect(runsInParallel(record([comp('a', []), comp('b', ['a'])]))).toBe(false); // a chain
    expect(runsInParallel(record([comp('a', []), comp('b', [])], { git: undefined }))).toBe(false); // no worktrees outside git
    expect(runsInParallel(record([comp('a', []), comp('b', [])], { executor: { kind: 'external' } }))).toBe(false); // one step at a time
    const done: C = { ...comp('b', []), tasks: [{ id: 'b1', title: 't', status: 'done' }] };
    expect(runsInParallel(record([comp('a', []), done]))).toBe(false); // one open component
    // A durable run sends every component to its workers, whatever the shape: one open component, a chain, no Depends: lines.
    const durable = { durable: { database: 'postgres://localhost/e' } };
    expect(runsInParallel(record([comp('a', []), done], durable))).toBe(true);
    expect(runsInParallel(record([comp('a', []), comp('b', ['a'])], durable))).toBe(true);
    expect(runsInParallel(record([comp('a'), comp('b')], durable))).toBe(true);
    expect(runsInParallel(record([done], durable))).toBe(false); // nothing open: no components' phase
  });
});

describe("a component's place in the run's view", () => {
  it('is the step under way (a worker publishes its entry as it starts), or the one that runs again (interrupted), not the last state its lane recorded; else that state', () => {
    const at = '2026-01-01T00:00:00.000Z';
    const record = {
      plan: { components: [{ id: 'count', title: '', tasks: [] }], maxDebugAttempts: 2 },
      timeline: [
        { state: 'count:development', component: 'count', enteredAt: at, leftAt: at, outcome: 'done' },
        { state: 'count:testing', component: 'count', enteredAt: at, leftAt: at, outcome: 'aborted', rewound: true },
        { state: 'count:testing', component: 'count', enteredAt: at },
      ],
      lanes: [{ component: 'count', status: 'running', state: 'count:development', entries: [0, 2] }],
    } as unknown as RunRecord;
    expect(laneViews(record)[0]).toMatchObject({ component: 'count', status: 'running', state: 'count:testing' });
    // Its worker died mid-step: the step closed interrupted is where it stands (it runs again), not the step before it that ended.
    Object.assign(record.timeline[2]!, { leftAt: at, outcome: 'interrupted' });
    expect(laneViews(record)[0]!.state).toBe('count:testing');
    record.timeline[2]!.outcome = 'done';
    expect(laneViews(record)[0]!.state).toBe('count:development');
  });
});

describe('parallel components', () => {
  it('four independent components with two slots: each in its own worktree, merged in schedule order, one commit each, a clean tree', async () => {
    const { root, dir, engine } = await setup({ PARALLEL_MODEL_SLOW: 'a' });
    const runId = await approved(engine, dir, 2);
    // The process dies while two components are in flight (one merged already): a new one resumes each where it stood.
    await until(engine, runId, (v) => !!v.lanes?.some((l) => l.status === 'merged') && v.timeline.filter((e) => e.worktree && !e.leftAt).length === 2);
    await engine.dispose();
    const again = engineAgain(join(root, 'home'), { PARALLEL_MODEL_SLOW: 'a' });
    const crashed = await again.status(runId);
    expect(crashed.interrupted).toBe(true);
    // The sessions list's record of it says so too (the app lists its steps as cut off, not running).
    expect((await again.runSteps(dir, 1))[0]).toMatchObject({ runId, interrupted: true });
    expect(crashed.lanes?.filter((l) => l.status !== 'merged').length).toBeGreaterThanOrEqual(2);
    await again.resume(runId);
    const view = await again.waitForRest(runId, 120_000);
    expect(view.status, JSON.stringify(view.error)).toBe('COMPLETED');
    // The two steps in flight were closed as interrupted and ran again; nothing was committed twice.
    const interrupted = view.timeline.filter((e) => e.outcome === 'interrupted');
    expect(interrupted.length).toBeGreaterThanOrEqual(1);
    expect(interrupted.length).toBeLessThanOrEqual(2);
    for (const e of interrupted) expect(view.timeline.some((x) => x.state === e.state && x.enteredAt > e.enteredAt && x.outcome !== 'interrupted')).toBe(true);
    // Each cut-off step ended at its last activity the record shows (by the run file's last save before the restart), not when resume closed it: its duration leaves out the downtime.
    for (const e of interrupted) expect(Date.parse(e.leftAt!)).toBeLessThanOrEqual(Date.parse(crashed.updatedAt));
    for (const e of interrupted) expect(e.durationMs).toBe(Date.parse(e.leftAt!) - Date.parse(e.enteredAt));
    expect(view.timeline.filter((e) => e.outcome === 'committed' && e.component)).toHaveLength(4);
    expect(view.plan?.parallel).toBe(true);
    // One commit per component, in schedule order (a is the slowest, yet merged first), then the final phase's.
    const log = git(dir, 'log', '--format=%s').split('\n');
    expect(log).toEqual(['Update the documentation', 'Write d.txt', 'Write c.txt', 'Write b.txt', 'Write a.txt']);
    expect(git(dir, 'status', '--porcelain')).toBe('');
    for (const id of ['a', 'b', 'c', 'd']) expect(await readFile(join(dir, `${id}.txt`), 'utf8')).toBe(`${id}\n`);
    // Each component's steps ran in a worktree under .git/erasmus (never in the project's tree), all gone once merged.
    const steps = view.timeline.filter((e) => e.state.endsWith(':development') && e.outcome === 'done');
    expect(steps).toHaveLength(4);
    for (const e of steps) expect(e.worktree).toContain(`${join(dir, '.git', 'erasmus', 'worktrees')}/`);
    expect(git(dir, 'worktree', 'list').split('\n')).toHaveLength(1);
    expect(git(dir, 'branch', '--format=%(refname:short)')).toBe('main'); // a fresh repository's history starts on its branch
    // At most two at once, and two did run at once: the development steps overlap in time.
    const spans = view.timeline.filter((e) => e.worktree && e.outcome !== 'interrupted').map((e) => [Date.parse(e.enteredAt), Date.parse(e.leftAt!)] as const);
    const most = Math.max(...spans.map(([t]) => spans.filter(([a, b]) => a <= t && t < b).length));
    expect(most).toBe(2);
    // Each component's commit entry names its commit on the run's branch; the lanes are merged. (The last one: the
    // crash above may have cut a commit step short, which ran again.)
    for (const id of ['a', 'b', 'c', 'd']) {
      const entry = view.timeline.findLast((e) => e.state === `${id}:commit`);
      expect(entry?.outcome).toBe('committed');
      expect(entry?.commit).toBe(git(dir, 'log', '-1', '--format=%H', `--grep=^Write ${id}.txt$`));
    }
    expect(view.lanes?.map((l) => [l.component, l.status])).toEqual([['a', 'merged'], ['b', 'merged'], ['c', 'merged'], ['d', 'merged']]);
    // Each review report is named where the project keeps it (it named the worktree, gone once merged); the crash above may have interrupted a review once.
    expect(['a', 'b', 'c', 'd'].map((id) => view.timeline.findLast((e) => e.state === `${id}:review` && e.outcome === 'done')?.note)).toEqual(['a', 'b', 'c', 'd'].map((id) => `docs/reviews/${id}.md`));
    expect(existsSync(join(dir, '.git', 'erasmus', 'worktrees', runId))).toBe(false);
    // Two slots: the final documentation ran beside the end-to-end tests (it started before they ended), once, and the final review after both.
    const [e2e, docs, review] = ['final:testing', 'final:documentation', 'final:review'].map((s) => view.timeline.filter((e) => e.state === s));
    expect([e2e!.length, docs!.length, review!.length]).toEqual([1, 1, 1]);
    expect(docs![0]!.outcome).toBe('done');
    expect(docs![0]!.checkpoint).toBeUndefined();
    expect(Date.parse(docs![0]!.enteredAt)).toBeLessThan(Date.parse(e2e![0]!.leftAt!));
    expect(Date.parse(review![0]!.enteredAt)).toBeGreaterThanOrEqual(Math.max(Date.parse(docs![0]!.leftAt!), Date.parse(e2e![0]!.leftAt!)));
    // What the documentation beside handed back is the architecture the run keeps (stamped with the final commit).
    expect((await again.readDoc(dir, { doc: 'architecture' })).text).toContain('As built: every part writes its file.');
  }, 180_000);

  it('the final documentation beside the end-to-end tests, cut off by the process ending: it runs again in its place, hearing why, once', async () => {
    const mark = join(tmpdir(), `erasmus-hung-${process.pid}-${Date.now()}.json`);
    const env = { PARALLEL_MODEL_COMPONENTS: 'a,b', PARALLEL_MODEL_HANG: 'final:documentation', PARALLEL_MODEL_HANG_MARK: mark };
    onTestFinished(() => rm(mark, { force: true }));
    const { root, dir, engine } = await setup(env);
    const runId = await approved(engine, dir, 2);
    // The end-to-end tests end while the documentation beside them hangs; the run waits for it at final:documentation.
    await until(engine, runId, (v) => existsSync(mark) && v.timeline.some((e) => e.state === 'final:testing' && e.leftAt));
    await engine.dispose();
    const again = engineAgain(join(root, 'home'), env);
    await again.resume(runId);
    const view = await again.waitForRest(runId, 120_000);
    expect(view.status, JSON.stringify(view.error)).toBe('COMPLETED');
    const docs = view.timeline.filter((e) => e.state === 'final:documentation');
    expect(docs.map((e) => e.outcome), JSON.stringify(view.timeline.map((e) => [e.state, e.outcome, e.enteredAt, e.leftAt, e.note]))).toEqual(['interrupted', 'done']);
    expect(view.timeline.filter((e) => e.state === 'final:testing')).toHaveLength(1); // not run again
    const prompt = await again.stepPrompt(runId, view.timeline.indexOf(docs[1]!));
    expect(prompt).toContain('Erasmus stopped while it ran');
    expect(await readFile(join(dir, 'final-hung.txt'), 'utf8')).toContain('never answered'); // what it wrote is kept, and committed
    expect(git(dir, 'status', '--porcelain')).toBe('');
  }, 180_000);

  it('a conflicting pair: the second merge stops on both sides, a merge step resolves it, and the run completes', async () => {
    const seen = join(tmpdir(), `erasmus-merge-seen-${process.pid}-${Date.now()}`);
    const { root, dir, engine, events } = await setup({ PARALLEL_MODEL_COMPONENTS: 'a,b', PARALLEL_MODEL_SHARED: '1', PARALLEL_MODEL_SEEN: seen });
    const { runId, view } = await runToEnd(engine, dir, 2);
    expect(view.status, JSON.stringify(view.error)).toBe('COMPLETED');
    // The merge step works in the project folder without b's worktree in it: b's work is in its commit, and a copy of
    // its tests under .git/erasmus/worktrees would run again with `node --test` in the project (it searches .git too).
    expect(await readFile(seen, 'utf8')).toBe('');
    await rm(seen, { force: true });
    // Each component's commit is announced as made on its lane, then as the commit merged into the run's branch: the one its entry names, in the history.
    const notices = events.filter((e) => e.event === 'app.notify').map((e) => e.payload as { title: string; body: string });
    for (const id of ['a', 'b']) {
      const entry = view.timeline.find((e) => e.state === `${id}:commit` && e.outcome === 'committed')!;
      expect(entry.commit).toBe(git(dir, 'log', '-1', '--format=%H', `--grep=^Write ${id}.txt$`));
      expect(entry.laneCommit).toMatch(/^[0-9a-f]{40}$/);
      expect(entry.laneCommit).not.toBe(entry.commit);
      expect(notices).toContainEqual({ title: `Component ${id} complete`, body: `committed on its lane as ${entry.laneCommit!.slice(0, 8)}; to be merged into the run's branch in schedule order` });
      expect(notices).toContainEqual({ title: `Component ${id} merged`, body: `into the run's branch as ${entry.commit!.slice(0, 8)} (its lane's commit ${entry.laneCommit!.slice(0, 8)})` });
    }
    const merge = view.timeline.find((e) => e.state === 'b:merge');
    expect(merge?.outcome).toBe('committed');
    expect(merge?.note).toContain('shared.txt');
    // The merge step's prompt had both sides of the conflicted file.
    const prompt = await engine.stepPrompt(runId, view.timeline.indexOf(merge!));
    expect(prompt).toContain('shared.txt on the run\'s branch');
    expect(prompt).toContain('written by a');
    expect(prompt).toContain('written by b');
    // The merge step's own role, not development's (which sends test tasks to a testing step a merge has not).
    expect(prompt).toContain("You merge one component into the run's branch");
    expect(prompt).toMatch(/^# Protocol: merge\n/);
    expect(agentTask({ prompt: prompt!, protocol: 'development', role: 'merge', protocolPrompt: prompt!.split('\n\n## Your task')[0]!.replace('# Protocol: merge\n\n', '') })).toMatch(/^# Step of the merge protocol /);
    expect(prompt).not.toContain('Tasks about tests belong to the testing step');
    // git status in the folder reads "You are currently cherry-picking … git cherry-pick --continue": the prompt says whose that is.
    expect(prompt).toContain('`git status` says a cherry-pick is in progress and suggests `git cherry-pick --continue`: that is Erasmus\'s to run');
    // Each side is fenced in its file's language, not as markdown (a .txt has none).
    expect(prompt).toMatch(/## shared\.txt on the run's branch[^\n]*\n\n`{3,}\n/);
    expect([fenceLanguage('package.json'), fenceLanguage('src/a.MJS'), fenceLanguage('README.md'), fenceLanguage('Makefile')]).toEqual(['json', 'js', 'markdown', '']);
    expect(await readFile(join(dir, 'shared.txt'), 'utf8')).toMatch(/written by a\n.*written by b|written by b\n.*written by a/s);
    expect(git(dir, 'log', '--format=%s').split('\n')).toEqual(['Update the documentation', 'Write b.txt', 'Write a.txt']);
    expect(git(dir, 'status', '--porcelain')).toBe('');
    // The schedule update after the components is Erasmus's own (no model step): each component finished, with its merged commit.
    const update = view.timeline.find((e) => e.state === 'parallel:orchestration');
    expect(update?.outcome).toBe('done');
    expect(update?.note).toBe(SCHEDULE_BY_ERASMUS);
    expect(update?.hasPrompt).toBeUndefined();
    expect(update?.sessionLog).toBeUndefined();
    const schedule = await readFile(new Paths(join(root, 'home')).orchestrationDoc(dir, 'progress_schedule'), 'utf8');
    expect(schedule).toMatch(/^# Progress schedule\n\n1\. a\n2\. b\n\n## Status after the components/);
    expect(schedule).toContain(`- a — part a (tasks A1): finished; committed and merged into the run's branch as ${git(dir, 'log', '-1', '--format=%H', '--grep=^Write a.txt$').slice(0, 8)}.`);
    expect(schedule).toContain(`- b — part b (tasks B1): finished; committed and merged into the run's branch as ${merge!.commit!.slice(0, 8)}.`);
  }, 180_000);
});
