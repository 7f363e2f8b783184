import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Paths } from '../paths/index';
import { WorkflowEngine } from './engine';
import { statusText } from '../../cli/commands/workflow-print';
import { runsInParallel } from './parallel';
import type { RunRecord } from './run-record';

const MODEL = resolve(__dirname, '../../../tests/fixtures/workflow/parallel-model.mjs');

let root: string | undefined;
const engines: WorkflowEngine[] = [];
afterEach(async () => {
  for (const e of engines.splice(0)) await e.dispose();
  if (root) await rm(root, { recursive: true, force: true });
  root = undefined;
});

const git = (dir: string, ...args: string[]) => execFileSync('git', args, { cwd: dir, encoding: 'utf8' }).trim();

async function setup(env: Record<string, string>): Promise<{ dir: string; engine: WorkflowEngine; events: Array<{ event: string; payload: unknown }> }> {
  root = await mkdtemp(join(tmpdir(), 'erasmus-parallel-'));
  const dir = join(root, 'project');
  await mkdir(dir);
  git(dir, 'init', '-q', '-b', 'main');
  const events: Array<{ event: string; payload: unknown }> = [];
  const engine = new WorkflowEngine({ paths: new Paths(join(root, 'home')), env: { ...process.env, ...env }, emit: (event, payload) => void events.push({ event, payload }) });
  engines.push(engine);
  return { dir, engine, events };
}

async function approved(engine: WorkflowEngine, dir: string, parallel: number): Promise<string> {
  const { runId } = await engine.load({ projectDir: dir, goal: 'four parts', executor: { kind: 'command', command: `node ${MODEL}` }, parallel });
  await engine.start(runId);
  const view = await engine.waitForRest(runId, 120_000);
  expect(view.status).toBe('AWAITING_APPROVAL');
  // Each component's dependencies show in the run's view (its Depends: line).
  expect(view.plan?.components.map((c) => c.depends)).toEqual(view.plan?.components.map(() => []));
  await engine.approve(runId);
  return runId;
}

async function runToEnd(engine: WorkflowEngine, dir: string, parallel: number) {
  const runId = await approved(engine, dir, parallel);
  return { runId, view: await engine.waitForRest(runId, 120_000) };
}

/** Polls the run until `ok` says so. */
async function until(engine: WorkflowEngine, runId: string, ok: (v: Awaited<ReturnType<WorkflowEngine['status']>>) => boolean): Promise<void> {
  for (let i = 0; i < 1200; i++) {
    if (ok(await engine.status(runId))) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('the run never got there');
}

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
  });
});

describe('parallel components', () => {
  it('four independent components with two slots: each in its own worktree, merged in schedule order, one commit each, a clean tree', async () => {
    const { dir, engine } = await setup({ PARALLEL_MODEL_SLOW: 'a' });
    const runId = await approved(engine, dir, 2);
    // The process dies while two components are in flight (one merged already): a new one resumes each where it stood.
    await until(engine, runId, (v) => !!v.lanes?.some((l) => l.status === 'merged') && v.timeline.filter((e) => e.worktree && !e.leftAt).length === 2);
    await engine.dispose();
    const again = new WorkflowEngine({ paths: new Paths(join(root!, 'home')), env: { ...process.env, PARALLEL_MODEL_SLOW: 'a' }, emit: () => undefined });
    engines.push(again);
    const crashed = await again.status(runId);
    expect(crashed.interrupted).toBe(true);
    expect(crashed.lanes?.filter((l) => l.status !== 'merged').length).toBeGreaterThanOrEqual(2);
    await again.resume(runId);
    const view = await again.waitForRest(runId, 120_000);
    expect(view.status, JSON.stringify(view.error)).toBe('COMPLETED');
    // The two steps in flight were closed as interrupted and ran again; nothing was committed twice.
    const interrupted = view.timeline.filter((e) => e.outcome === 'interrupted');
    expect(interrupted.length).toBeGreaterThanOrEqual(1);
    expect(interrupted.length).toBeLessThanOrEqual(2);
    for (const e of interrupted) expect(view.timeline.some((x) => x.state === e.state && x.enteredAt > e.enteredAt && x.outcome !== 'interrupted')).toBe(true);
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
    // Each component's commit entry names its commit on the run's branch; the lanes are merged.
    for (const id of ['a', 'b', 'c', 'd']) {
      const entry = view.timeline.find((e) => e.state === `${id}:commit`);
      expect(entry?.outcome).toBe('committed');
      expect(entry?.commit).toBe(git(dir, 'log', '-1', '--format=%H', `--grep=^Write ${id}.txt$`));
    }
    expect(view.lanes?.map((l) => [l.component, l.status])).toEqual([['a', 'merged'], ['b', 'merged'], ['c', 'merged'], ['d', 'merged']]);
    expect(existsSync(join(dir, '.git', 'erasmus', 'worktrees', runId))).toBe(false);
  }, 180_000);

  it('a conflicting pair: the second merge stops on both sides, a merge step resolves it, and the run completes', async () => {
    const { dir, engine } = await setup({ PARALLEL_MODEL_COMPONENTS: 'a,b', PARALLEL_MODEL_SHARED: '1' });
    const { runId, view } = await runToEnd(engine, dir, 2);
    expect(view.status, JSON.stringify(view.error)).toBe('COMPLETED');
    const merge = view.timeline.find((e) => e.state === 'b:merge');
    expect(merge?.outcome).toBe('committed');
    expect(merge?.note).toContain('shared.txt');
    // The merge step's prompt had both sides of the conflicted file.
    const prompt = await engine.stepPrompt(runId, view.timeline.indexOf(merge!));
    expect(prompt).toContain('shared.txt on the run\'s branch');
    expect(prompt).toContain('written by a');
    expect(prompt).toContain('written by b');
    expect(await readFile(join(dir, 'shared.txt'), 'utf8')).toMatch(/written by a\n.*written by b|written by b\n.*written by a/s);
    expect(git(dir, 'log', '--format=%s').split('\n')).toEqual(['Update the documentation', 'Write b.txt', 'Write a.txt']);
    expect(git(dir, 'status', '--porcelain')).toBe('');
  }, 180_000);
});

describe('a parallel run across its life', () => {
  /** Two components side by side, b's tests never passing: the run blocks once a is merged. */
  async function blockedRun(fixed: string) {
    const { dir, engine, events } = await setup({ PARALLEL_MODEL_COMPONENTS: 'a,b', PARALLEL_MODEL_BROKEN: 'b', PARALLEL_MODEL_FIXED: fixed });
    const { runId, view } = await runToEnd(engine, dir, 2);
    expect(view.status).toBe('BLOCKED');
    // What the user sees: the run's error names the component and its step; a is merged, b blocked with its worktree.
    expect(view.error?.message).toMatch(/^component b \(b:debugging\): tests still fail after 3 debugging attempt/);
    expect(view.lanes?.map((l) => [l.component, l.status])).toEqual([['a', 'merged'], ['b', 'blocked']]);
    const b = view.lanes![1]!;
    expect(b.state).toBe('b:debugging');
    expect(b.worktree).toBe(join(dir, '.git', 'erasmus', 'worktrees', runId, 'b'));
    expect(await readFile(join(b.worktree!, 'b-draft.txt'), 'utf8')).toBe('a draft of b\n');
    expect(git(dir, 'log', '--format=%s')).toBe('Write a.txt');
    // The CLI's status says which component, where its work is, and both ways on.
    const text = statusText(view);
    expect(text).toContain(`component b is blocked at b · debugging; its work is in its worktree ${b.worktree}. To go on: fix the cause, then run its step again: erasmus workflow retry ${dir}, or skip that step: erasmus workflow skip ${dir}`);
    expect(text).toMatch(/ {2}b: blocked, at b · debugging in .*: tests still fail/);
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

  /** A run whose development steps wait while the file `hold` exists (those of `only`, or all), approved and under way. */
  async function heldRun(env: Record<string, string>, commitFirst = false) {
    const hold = join(tmpdir(), `erasmus-parallel-hold-${process.pid}-${Math.random().toString(36).slice(2)}`);
    await writeFile(hold, '');
    const s = await setup({ PARALLEL_MODEL_HOLD: hold, ...env });
    if (commitFirst) {
      await writeFile(join(s.dir, 'README.md'), 'project\n');
      git(s.dir, 'add', 'README.md');
      git(s.dir, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '-m', 'Start');
    }
    const runId = await approved(s.engine, s.dir, 2);
    return { ...s, runId, hold, release: () => rm(hold, { force: true }) };
  }
  const open = (v: { timeline: Array<{ worktree?: string; leftAt?: string; state: string }> }) => v.timeline.filter((e) => e.worktree && !e.leftAt);

  it('pause with two lanes in flight: each finishes its step, the third does not start, their worktrees stay; resume completes', async () => {
    const { dir, engine, runId, release } = await heldRun({ PARALLEL_MODEL_COMPONENTS: 'a,b,c' });
    try {
      await until(engine, runId, (v) => open(v).length === 2);
      await engine.pause(runId);
      await release();
      const paused = await engine.waitForRest(runId, 120_000);
      expect(paused.status, JSON.stringify(paused.error)).toBe('PAUSED');
      // Both steps in flight ended done (not aborted); nothing is left open; c never started.
      expect(paused.timeline.filter((e) => e.state.endsWith(':development')).map((e) => [e.state, e.outcome]).sort()).toEqual([['a:development', 'done'], ['b:development', 'done']]);
      expect(paused.timeline.every((e) => e.leftAt)).toBe(true);
      expect(paused.lanes?.map((l) => [l.component, l.status])).toEqual([['a', 'running'], ['b', 'running'], ['c', 'waiting']]);
      for (const l of paused.lanes!.slice(0, 2)) expect(await readFile(join(l.worktree!, `${l.component}.txt`), 'utf8')).toBe(`${l.component}\n`);
      expect(git(dir, 'worktree', 'list').split('\n')).toHaveLength(3);
      await engine.resume(runId);
      const view = await engine.waitForRest(runId, 120_000);
      expect(view.status, JSON.stringify(view.error)).toBe('COMPLETED');
      // The paused steps did not run again.
      expect(view.timeline.filter((e) => e.state.endsWith(':development'))).toHaveLength(3);
      expect(git(dir, 'log', '--format=%s').split('\n')).toEqual(['Update the documentation', 'Write c.txt', 'Write b.txt', 'Write a.txt']);
      expect(git(dir, 'worktree', 'list').split('\n')).toHaveLength(1);
      expect(git(dir, 'branch', '--format=%(refname:short)')).toBe('main');
    } finally {
      await release();
    }
  }, 180_000);

  it('stop with two lanes in flight: both steps are aborted and closed, the worktrees kept; resume runs them again and completes', async () => {
    const { dir, engine, runId, release } = await heldRun({ PARALLEL_MODEL_COMPONENTS: 'a,b' });
    try {
      await until(engine, runId, (v) => open(v).length === 2);
      await engine.stop(runId);
      const stopped = await engine.status(runId);
      expect(stopped.status).toBe('STOPPED');
      expect(stopped.timeline.filter((e) => e.state.endsWith(':development')).map((e) => e.outcome)).toEqual(['aborted', 'aborted']);
      expect(stopped.timeline.every((e) => e.leftAt)).toBe(true);
      expect(stopped.lanes?.map((l) => l.status)).toEqual(['running', 'running']);
      expect(git(dir, 'worktree', 'list').split('\n')).toHaveLength(3);
      await release();
      await engine.resume(runId);
      const view = await engine.waitForRest(runId, 120_000);
      expect(view.status, JSON.stringify(view.error)).toBe('COMPLETED');
      expect(view.timeline.filter((e) => e.state.endsWith(':development')).map((e) => e.outcome)).toEqual(['aborted', 'aborted', 'done', 'done']);
      expect(git(dir, 'log', '--format=%s').split('\n')).toEqual(['Update the documentation', 'Write b.txt', 'Write a.txt']);
      expect(git(dir, 'worktree', 'list').split('\n')).toHaveLength(1);
    } finally {
      await release();
    }
  }, 180_000);

  it('rewind to before the parallel phase, one lane merged and one in flight: a consistent tree and record; resume starts afresh, the rewound work kept', async () => {
    const { dir, engine, runId, release } = await heldRun({ PARALLEL_MODEL_COMPONENTS: 'a,b', PARALLEL_MODEL_HOLD_ONLY: 'b' }, true);
    try {
      await until(engine, runId, (v) => v.lanes?.[0]?.status === 'merged' && open(v).length === 1);
      await engine.pause(runId);
      await release();
      const paused = await engine.waitForRest(runId, 120_000);
      expect(paused.status).toBe('PAUSED');
      expect(git(dir, 'log', '--format=%s').split('\n')).toEqual(['Write a.txt', 'Start']);
      const cp = paused.timeline.find((e) => e.state === 'parallel:components')?.checkpoint;
      expect(cp).toBeDefined();
      const r = await engine.rewind(runId, cp!);
      expect(r.status).toBe('PAUSED');
      expect(r.state).toBe('parallel:components');
      // The tree and HEAD are those before the phase; the record has no lanes; the rewound commit is kept by rewind.
      const rewound = await engine.status(runId);
      expect(rewound.lanes).toBeUndefined();
      expect(git(dir, 'log', '--format=%s')).toBe('Start');
      expect(git(dir, 'status', '--porcelain')).toBe('');
      expect(existsSync(join(dir, 'a.txt'))).toBe(false);
      await engine.resume(runId);
      const view = await engine.waitForRest(runId, 120_000);
      expect(view.status, JSON.stringify(view.error)).toBe('COMPLETED');
      expect(git(dir, 'log', '--format=%s').split('\n')).toEqual(['Update the documentation', 'Write b.txt', 'Write a.txt', 'Start']);
      expect(git(dir, 'status', '--porcelain')).toBe('');
      expect(git(dir, 'worktree', 'list').split('\n')).toHaveLength(1);
      expect(git(dir, 'branch', '--format=%(refname:short)').split('\n').filter((b) => b.startsWith('erasmus-lane/'))).toEqual([]);
      // b's work of the rewound attempt (its file, not committed) is kept, and the phase's entry says where.
      const kept = `refs/erasmus/kept/${runId}/b`;
      expect(git(dir, 'show', `${kept}:b.txt`)).toBe('b');
      expect(view.timeline.filter((e) => e.state === 'parallel:components' && !e.rewound).at(-1)?.note).toContain(kept);
    } finally {
      await release();
    }
  }, 180_000);
});
