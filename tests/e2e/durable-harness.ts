// What the durable-run tests share (DBOS over a real Postgres): the run in the test's process, its components in
// `erasmus worker` processes, each in its own clone of the project's origin (a bare repository on disk).
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import type { Core } from '../../electron/main/api/core';
import { Paths } from '../../electron/main/paths/index';
import { WorkflowEngine } from '../../electron/main/workflow/engine';
import type { ScriptedLlm } from '../fixtures/scripted-llm/index';
import { postgresBin, startPostgres, type TestPostgres } from '../support/postgres';
import { CLI, ensureBuilt, killGroup } from './workflow-helpers';

export const MODEL = resolve(__dirname, '../fixtures/workflow/parallel-model.mjs');

let pg: TestPostgres;
/** This test's folder (the project, its origin, the homes and work folders, the model's log). */
export let root: string;
export const workers: ChildProcess[] = [];
export const engines: WorkflowEngine[] = [];
export const cores: Core[] = [];
let llm: ScriptedLlm | undefined;
/** The scripted model this test started (closed after it). */
export function useLlm(l: ScriptedLlm): ScriptedLlm {
  llm = l;
  return l;
}
export const hung: number[] = [];
/** The notices (`title: body`) the run of approvedRun gave. */
export const notices: string[] = [];
/** What each worker said so far. */
export const said = new Map<ChildProcess, () => string>();

/** One Postgres for the file (a database per test); after each test its processes, servers and folder go. */
export function durableHooks(): void {
  beforeAll(async () => {
    ensureBuilt();
    pg = await startPostgres();
  }, 120_000);
  afterAll(async () => {
    await pg?.stop();
  });
  afterEach(cleanUp);
}

async function cleanUp(): Promise<void> {
  for (const e of engines.splice(0)) await e.dispose();
  for (const c of cores.splice(0)) await c.dispose();
  await llm?.close();
  llm = undefined;
  for (const w of workers.splice(0)) {
    if (w.exitCode === null && w.signalCode === null) {
      killGroup(w);
      await new Promise((r) => w.once('exit', r));
    }
  }
  for (const pid of hung.splice(0)) stopModel(pid);
  notices.length = 0;
  if (root) await rm(root, { recursive: true, force: true });
}

export function stopModel(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {}
}

export const git = (dir: string, ...args: string[]) => execFileSync('git', args, { cwd: dir, encoding: 'utf8' }).trim();

/** A fresh database per test (the same server): each test's DBOS tables start empty. */
export function database(name: string): string {
  execFileSync(join(postgresBin()!, 'psql'), [pg.url, '-q', '-c', `DROP DATABASE IF EXISTS ${name}`, '-c', `CREATE DATABASE ${name}`]);
  return pg.url.replace(/\/postgres$/, `/${name}`);
}

export async function setup(db: string): Promise<{ dir: string; origin: string; url: string; env: Record<string, string> }> {
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
export async function worker(name: string, url: string, env: Record<string, string>, concurrency = 1): Promise<ChildProcess> {
  const home = join(root, `home-${name}`);
  const child = spawn('node', [CLI, 'worker', '--database-url', url, '--concurrency', String(concurrency), '--work-dir', join(root, `work-${name}`)], {
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

export async function approvedRun(dir: string, url: string, env: Record<string, string>, goal = 'two parts'): Promise<{ engine: WorkflowEngine; runId: string }> {
  const emit = (event: string, payload: unknown) => {
    const n = payload as { title: string; body: string };
    if (event === 'app.notify') notices.push(`${n.title}: ${n.body}`);
  };
  const engine = new WorkflowEngine({ paths: new Paths(join(root, 'home-run')), env: { ...process.env, ...env }, emit });
  engines.push(engine);
  const { runId } = await engine.load({ projectDir: dir, goal, executor: { kind: 'command', command: `node ${MODEL}` }, databaseUrl: url });
  await engine.start(runId);
  const view = await engine.waitForRest(runId, 120_000);
  expect(view.status).toBe('AWAITING_APPROVAL');
  await engine.approve(runId);
  return { engine, runId };
}

/** Waits for a file the hanging model step writes as it starts ({dir, pid}). */
export async function hangs(mark: string): Promise<{ dir: string; pid: number }> {
  for (let i = 0; !existsSync(mark); i++) {
    if (i > 1200) throw new Error(`the hanging step never started; the model was asked: ${modelCalls().join(', ')}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  const m = JSON.parse(readFileSync(mark, 'utf8')) as { dir: string; pid: number };
  hung.push(m.pid);
  return m;
}

/** Whether a process runs (a zombie, killed and not yet reaped, does not). */
export function alive(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/** The DBOS workflows of the database, `id status`, by id. */
export const workflows = (url: string) =>
  execFileSync(join(postgresBin()!, 'psql'), [url, '-qAt', '-F', ' ', '-c', 'SELECT workflow_uuid, status FROM dbos.workflow_status ORDER BY workflow_uuid'], { encoding: 'utf8' }).trim().split('\n').filter(Boolean);

export async function until(what: string, ok: () => boolean | Promise<boolean>, log = () => ''): Promise<void> {
  for (let i = 0; !(await ok()); i++) {
    if (i > 1200) throw new Error(`${what} did not happen:\n${log()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export const modelCalls = () => readFileSync(join(root, 'model.log'), 'utf8').split('\n').filter(Boolean).map((l) => l.split(' ')[0]!);
