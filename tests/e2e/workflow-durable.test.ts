// A durable run (DBOS over a real Postgres): the run in this process, its components in `erasmus worker`
// processes, each in its own clone of the project's origin (a bare repository on disk).
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
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
/** What each worker said so far. */
const said = new Map<ChildProcess, () => string>();

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
  for (const pid of hung.splice(0)) stopModel(pid);
  if (root) await rm(root, { recursive: true, force: true });
});

function stopModel(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {}
}

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
  said.set(child, () => out);
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

/** Waits for a file the hanging model step writes as it starts ({dir, pid}). */
async function hangs(mark: string): Promise<{ dir: string; pid: number }> {
  for (let i = 0; !existsSync(mark); i++) {
    if (i > 1200) throw new Error(`the hanging step never started; the model was asked: ${modelCalls().join(', ')}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  const m = JSON.parse(readFileSync(mark, 'utf8')) as { dir: string; pid: number };
  hung.push(m.pid);
  return m;
}

const modelCalls = () => readFileSync(join(root, 'model.log'), 'utf8').split('\n').filter(Boolean).map((l) => l.split(' ')[0]!);

describe('a durable run over DBOS', () => {
  // One run, two workers, so the suite pays for one durable run: the end-to-end path and the recovery together.
  it('runs components in workers, each in a clone of origin; a worker killed mid-step: another takes the component up from its last checkpoint, the killed step runs once more, nothing is committed twice', async () => {
    const { dir, origin, url, env } = await setup('killed_worker');
    const mark = join(root, 'hung.json');
    Object.assign(env, { PARALLEL_MODEL_HANG: 'a:documentation', PARALLEL_MODEL_HANG_MARK: mark });
    // Both start at once on the fresh database (DBOS's own migration races there: durable/dbos.ts serialises it).
    const [w1, w2] = await Promise.all([worker('w1', url, env), worker('w2', url, env)]);
    const { engine, runId } = await approvedRun(dir, url, env);
    // a:documentation hangs in whichever worker took component a; that worker dies (SIGKILL, its whole process group).
    const { dir: hungIn, pid } = await hangs(mark);
    const [killed, survivor] = hungIn.startsWith(join(root, 'work-w1')) ? [w1, 'w2'] : [w2, 'w1'];
    killGroup(killed);
    stopModel(pid); // the step's model (the command executor runs it in a process group of its own) goes with it
    const view = await engine.waitForRest(runId, 120_000);
    expect(view.error?.message).toBeUndefined();
    expect(view.status).toBe('COMPLETED');
    // The killed step ran once more, in the other worker's clone; the steps before it were not run again.
    const calls = readFileSync(join(root, 'model.log'), 'utf8').split('\n').filter(Boolean);
    const docs = calls.filter((l) => l.startsWith('a:documentation '));
    expect(docs).toHaveLength(2);
    expect(docs[1]).toContain(join(root, `work-${survivor}`));
    expect(modelCalls().filter((s) => s === 'a:development')).toHaveLength(1);
    expect(modelCalls().filter((s) => s === 'a:review')).toHaveLength(1);
    // What a:development wrote came back from the checkpoint; one commit per component, one a:commit on the timeline.
    expect(readFileSync(join(dir, 'a.txt'), 'utf8')).toBe('a\n');
    expect(git(dir, 'log', '--format=%H', '--', 'a.txt').split('\n')).toHaveLength(1);
    expect(git(dir, 'log', '--format=%H', '--', 'b.txt').split('\n')).toHaveLength(1);
    expect(view.timeline.filter((e) => e.state === 'a:commit' && e.outcome === 'committed')).toHaveLength(1);
    expect(git(dir, 'status', '--porcelain')).toBe('');
    // Each component's steps show on the run's timeline like any other run's, naming the clone they ran in.
    expect(view.lanes?.map((l) => [l.component, l.status])).toEqual([['a', 'merged'], ['b', 'merged']]);
    expect(view.durable).toEqual({ database: url });
    expect(view.timeline.find((e) => e.state === 'b:development')?.worktree).toMatch(new RegExp(`^${root}/work-w[12]/`));
    expect(view.timeline.filter((e) => e.state === 'a:documentation').map((e) => e.outcome)).toEqual(['done']);
    // The tasks the workers marked are marked in the run's task list.
    expect(readFileSync(new Paths(join(root, 'home-run')).orchestrationDoc(dir, 'task_list'), 'utf8')).toMatch(/- \[x\] A1:[^]*- \[x\] B1:/);
    // The merged result is on origin; the run's refs there (bases, checkpoints, component branches) are gone.
    expect(git(origin, 'rev-parse', `refs/heads/${git(dir, 'symbolic-ref', '--short', 'HEAD')}`)).toBe(git(dir, 'rev-parse', 'HEAD'));
    expect(git(origin, 'for-each-ref', '--format=%(refname)')).not.toMatch(/refs\/erasmus\/|erasmus-lane\//);
  }, 180_000);

  it("abandoned: its components' workflows are cancelled, the work only origin held is kept in the project, and origin keeps no ref of the run, even one a worker pushes after", async () => {
    const { dir, origin, url, env } = await setup('abandoned');
    const mark = join(root, 'hung.json');
    // One worker, one component at a time: a:testing hangs (after a:development wrote a.txt and pushed its checkpoint); b runs before it or waits.
    Object.assign(env, { PARALLEL_MODEL_HANG: 'a:testing', PARALLEL_MODEL_HANG_MARK: mark });
    const w = await worker('w1', url, env);
    const { engine, runId } = await approvedRun(dir, url, env);
    const { pid } = await hangs(mark);
    await engine.stop(runId);
    const { status, kept } = await engine.abandon(runId);
    expect(status).toBe('ABANDONED');
    // a's work, which only origin held, is kept in the project as the one-machine path keeps a worktree's (b's too
    // when it ran first: committed, fetched, waiting to be merged after a, its branch is kept as any lane branch).
    const b = (await engine.status(runId)).lanes?.find((l) => l.component === 'b');
    expect(kept.map((k) => [k.component, k.ref])).toEqual([...(b?.kept ? [['b', `refs/erasmus/kept/${runId}/b`]] : []), ['a', `refs/erasmus/kept/${runId}/a`]]);
    expect(git(dir, 'show', `refs/erasmus/kept/${runId}/a:a.txt`)).toBe('a');
    expect((await engine.status(runId)).lanes?.find((l) => l.component === 'a')?.kept).toBe(`refs/erasmus/kept/${runId}/a`);
    expect(git(origin, 'for-each-ref', '--format=%(refname)')).not.toMatch(/refs\/erasmus\/|erasmus-lane\//);
    // The step under way ends (its model dies, leaving a-hung.txt: a new checkpoint the worker pushes); the worker finds its workflow cancelled and drops what it pushed.
    stopModel(pid);
    for (let i = 0; !/the run was abandoned/.test(said.get(w)!()); i++) {
      if (i > 600) throw new Error(`the worker did not see the run abandoned:\n${said.get(w)!()}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(execFileSync('git', ['ls-remote', origin], { encoding: 'utf8' })).not.toMatch(/refs\/erasmus\/|erasmus-lane\//);
    expect(existsSync(join(root, 'work-w1', runId, 'a'))).toBe(false);
  }, 120_000);
});
