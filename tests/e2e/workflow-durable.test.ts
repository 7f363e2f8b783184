// A durable run (DBOS over a real Postgres): the run in this process, its components in `erasmus worker`
// processes, each in its own clone of the project's origin (a bare repository on disk).
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Paths } from '../../electron/main/paths/index';
import { WorkflowEngine } from '../../electron/main/workflow/engine';
import { postgresBin, startPostgres, type TestPostgres } from '../support/postgres';
import { CLI, ensureBuilt, killGroup } from './workflow-helpers';

const MODEL = resolve(__dirname, '../fixtures/workflow/parallel-model.mjs');

let pg: TestPostgres;
let root: string;
const workers: ChildProcess[] = [];
const engines: WorkflowEngine[] = [];
const hung: number[] = [];

beforeAll(async () => {
  ensureBuilt();
  pg = await startPostgres();
}, 120_000);
afterAll(async () => {
  await pg?.stop();
});
afterEach(async () => {
  for (const e of engines.splice(0)) await e.dispose();
  for (const w of workers.splice(0)) {
    if (w.exitCode === null && w.signalCode === null) {
      killGroup(w);
      await new Promise((r) => w.once('exit', r));
    }
  }
  for (const pid of hung.splice(0)) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {}
  }
  if (root) await rm(root, { recursive: true, force: true });
});

const git = (dir: string, ...args: string[]) => execFileSync('git', args, { cwd: dir, encoding: 'utf8' }).trim();

/** A fresh database per test (the same server): each test's DBOS tables start empty. */
function database(name: string): string {
  execFileSync(join(postgresBin()!, 'psql'), [pg.url, '-q', '-c', `DROP DATABASE IF EXISTS ${name}`, '-c', `CREATE DATABASE ${name}`]);
  return pg.url.replace(/\/postgres$/, `/${name}`);
}

async function setup(db: string): Promise<{ dir: string; origin: string; url: string; env: Record<string, string> }> {
  root = await mkdtemp(join(tmpdir(), 'erasmus-durable-'));
  const origin = join(root, 'origin.git');
  const dir = join(root, 'project');
  git(root, 'init', '-q', '--bare', '-b', 'main', origin);
  await mkdir(dir);
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'remote', 'add', 'origin', origin);
  const env = { PARALLEL_MODEL_COMPONENTS: 'a,b', PARALLEL_MODEL_LOG: join(root, 'model.log') };
  return { dir, origin, url: database(db), env };
}

/** An `erasmus worker` with its own ERASMUS_HOME and clones folder; resolves once it takes components. */
async function worker(name: string, url: string, env: Record<string, string>): Promise<ChildProcess> {
  const home = join(root, `home-${name}`);
  const child = spawn('node', [CLI, 'worker', '--database-url', url, '--concurrency', '1', '--work-dir', join(root, `work-${name}`)], {
    env: { ...process.env, ...env, ERASMUS_HOME: home },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  workers.push(child);
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  for (let i = 0; !/takes components from queue/.test(out); i++) {
    if (child.exitCode !== null || i > 600) throw new Error(`worker ${name} did not start:\n${out}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return child;
}

async function approvedRun(dir: string, url: string, env: Record<string, string>): Promise<{ engine: WorkflowEngine; runId: string }> {
  const engine = new WorkflowEngine({ paths: new Paths(join(root, 'home-run')), env: { ...process.env, ...env }, emit: () => undefined });
  engines.push(engine);
  const { runId } = await engine.load({ projectDir: dir, goal: 'two parts', executor: { kind: 'command', command: `node ${MODEL}` }, databaseUrl: url });
  await engine.start(runId);
  const view = await engine.waitForRest(runId, 120_000);
  expect(view.status).toBe('AWAITING_APPROVAL');
  await engine.approve(runId);
  return { engine, runId };
}

const modelCalls = () => readFileSync(join(root, 'model.log'), 'utf8').split('\n').filter(Boolean).map((l) => l.split(' ')[0]!);

describe('a durable run over DBOS', () => {
  it('runs its components in a worker, each in a clone of origin, merges them in schedule order and pushes the result', async () => {
    const { dir, origin, url, env } = await setup('one_worker');
    await worker('w1', url, env);
    const { engine, runId } = await approvedRun(dir, url, env);
    const view = await engine.waitForRest(runId, 120_000);
    expect(view.error?.message).toBeUndefined();
    expect(view.status).toBe('COMPLETED');
    // Each component's steps ran in the worker's clone, and show on the run's timeline like any other run's.
    const a = view.timeline.filter((e) => e.component === 'a').map((e) => e.state);
    expect(a).toEqual(expect.arrayContaining(['a:development', 'a:commit']));
    expect(view.timeline.find((e) => e.state === 'a:development')?.worktree).toContain(join(root, 'work-w1'));
    expect(view.lanes?.map((l) => [l.component, l.status])).toEqual([['a', 'merged'], ['b', 'merged']]);
    // One commit per component on the run's branch, in schedule order; the tree is clean; origin has the branch.
    const branch = git(dir, 'symbolic-ref', '--short', 'HEAD');
    const subjects = git(dir, 'log', '--format=%s', branch).split('\n');
    expect(subjects.filter((s) => /\ba\b/.test(s) || /\bb\b/.test(s)).length).toBeGreaterThanOrEqual(2);
    expect(readFileSync(join(dir, 'a.txt'), 'utf8')).toBe('a\n');
    expect(readFileSync(join(dir, 'b.txt'), 'utf8')).toBe('b\n');
    expect(git(dir, 'status', '--porcelain')).toBe('');
    expect(git(origin, 'rev-parse', `refs/heads/${branch}`)).toBe(git(dir, 'rev-parse', 'HEAD'));
    // The run's refs on origin (bases, checkpoints, component branches) are gone.
    expect(git(origin, 'for-each-ref', '--format=%(refname)')).not.toMatch(/refs\/erasmus\/|erasmus-lane\//);
    // The tasks the worker marked are marked in the run's task list.
    expect(readFileSync(new Paths(join(root, 'home-run')).orchestrationDoc(dir, 'task_list'), 'utf8')).toMatch(/- \[x\] A1:/);
    expect(modelCalls().filter((s) => s === 'a:development')).toHaveLength(1);
  }, 180_000);
});
