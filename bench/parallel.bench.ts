// The wall time of a four-component run whose components do not need each other (Depends: none), with a
// scripted model that answers each request after 2 s (tests/fixtures/workflow/parallel-model.mjs as the
// `command` executor), run with 1 slot (the baseline, in the same run), with 2 slots, and durable over DBOS
// with 2 `erasmus worker` processes (concurrency 1 each) on a throwaway Postgres (Debian's postgresql; the
// project's origin a bare repository on disk; needs `npm run build` for the worker's CLI).
// Goal: 2 slots and 2 workers ≤ 0.6× the 1-slot time. Printed for the whole run (preparation and final phase included:
// the same steps either way, so the whole run's ratio has a floor, printed too) and for the components' phase alone
// (approval to the schedule update); then where the 2 workers' time went, per phase, from what DBOS recorded.
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Paths } from '../electron/main/paths/index';
import { WorkflowEngine } from '../electron/main/workflow/engine';
import { COMPONENT_WORKFLOW, dbosClient } from '../electron/main/workflow/durable/dbos';
import { LaneProgress } from '../electron/main/workflow/durable/component-step';
import { startPostgres } from '../tests/support/postgres';

const MODEL = fileURLToPath(new URL('../tests/fixtures/workflow/parallel-model.mjs', import.meta.url));
const DELAY_MS = 2000;

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CLI = join(ROOT, 'bin/erasmus.js');

/** Two `erasmus worker` processes on a database, each running one component at a time. */
async function startWorkers(root: string, url: string, env: NodeJS.ProcessEnv): Promise<ChildProcess[]> {
  if (!existsSync(join(ROOT, 'out/main/cli.cjs'))) spawnSync('npx', ['electron-vite', 'build'], { cwd: ROOT, stdio: 'ignore' });
  return Promise.all(
    ['w1', 'w2'].map(async (name) => {
      const child = spawn(process.execPath, [CLI, 'worker', '--database-url', url, '--concurrency', '1', '--work-dir', join(root, `work-${name}`)], {
        env: { ...env, ERASMUS_HOME: join(root, `home-${name}`) },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
      child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
      while (!/takes components from queue/.test(out)) {
        if (child.exitCode !== null) throw new Error(`worker ${name} did not start:\n${out}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      return child;
    }),
  );
}

/**
 * Where a durable run's time went, from what DBOS recorded in Postgres: per component workflow, the wait on the
 * queue (enqueued → dequeued), the start (dequeued → its first step), each step's phases as the worker timed them
 * (LaneProgress.timings), what a step cost beyond them (DBOS recording the step, the context), the gaps between two
 * steps, and the hand-over (a workflow done → the next one enqueued: the run noticing, fetching, merging, enqueuing).
 */
async function phases(url: string, components: number): Promise<string[]> {
  const client = await dbosClient(url);
  const flows = (await client.listWorkflows({ workflowName: COMPONENT_WORKFLOW })).sort((a, b) => a.createdAt - b.createdAt);
  const sum: Record<string, number> = {};
  const add = (k: string, ms: number) => (sum[k] = (sum[k] ?? 0) + ms);
  let steps = 0;
  for (const w of flows) {
    const list = (await client.listWorkflowSteps(w.workflowID)) ?? [];
    if (w.dequeuedAt) add('queue wait', w.dequeuedAt - w.createdAt);
    if (w.dequeuedAt && list[0]?.startedAtEpochMs) add('workflow start', list[0].startedAtEpochMs - w.dequeuedAt);
    let prev: number | undefined;
    for (const s of list) {
      steps++;
      const t = LaneProgress.parse(s.output).timings ?? {};
      let timed = 0;
      for (const [k, ms] of Object.entries(t)) {
        add(`step: ${k}`, ms);
        timed += ms;
      }
      if (s.startedAtEpochMs && s.completedAtEpochMs) add('step: rest (context, DBOS)', s.completedAtEpochMs - s.startedAtEpochMs - timed);
      if (prev && s.startedAtEpochMs) add('between steps', s.startedAtEpochMs - prev);
      prev = s.completedAtEpochMs;
    }
    if (prev && w.completedAt) add('workflow end', w.completedAt - prev);
    const next = flows.find((n) => n.createdAt > (w.completedAt ?? Infinity));
    if (next && w.completedAt) add('hand-over to the next', next.createdAt - w.completedAt);
  }
  return [
    `  2 workers, where the time went (${flows.length} component workflows, ${steps} steps; summed over components, ms per component):`,
    ...Object.entries(sum).map(([k, ms]) => `    ${k.padEnd(30)} ${(ms / components).toFixed(0).padStart(7)}`),
  ];
}

async function run(slots: number, durable = false): Promise<{ totalMs: number; componentsMs: number; phases?: string[] }> {
  const root = mkdtempSync(join(tmpdir(), 'erasmus-parallel-bench-'));
  const dir = join(root, 'project');
  mkdirSync(dir);
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: dir });
  const env = { ...process.env, PARALLEL_MODEL_DELAY_MS: String(DELAY_MS) };
  const pg = durable ? await startPostgres() : undefined;
  const workers = pg ? await startWorkers(root, pg.url, env) : [];
  if (pg) {
    execFileSync('git', ['init', '-q', '--bare', '-b', 'main', join(root, 'origin.git')]);
    execFileSync('git', ['remote', 'add', 'origin', join(root, 'origin.git')], { cwd: dir });
  }
  const engine = new WorkflowEngine({ paths: new Paths(join(root, 'home')), env, emit: () => undefined });
  try {
    const t0 = performance.now();
    const { runId } = await engine.load({ projectDir: dir, goal: 'four parts', executor: { kind: 'command', command: `node ${MODEL}` }, parallel: slots, ...(pg ? { databaseUrl: pg.url } : {}) });
    await engine.start(runId);
    let view = await engine.waitForRest(runId, 600_000);
    if (view.status !== 'AWAITING_APPROVAL') throw new Error(`expected the plan, got ${view.status}: ${view.error?.message}`);
    await engine.approve(runId);
    view = await engine.waitForRest(runId, 600_000);
    const totalMs = performance.now() - t0;
    if (view.status !== 'COMPLETED') throw new Error(`${slots} slot(s): ${view.status}: ${view.error?.message}`);
    const start = view.timeline.find((e) => e.state === 'parallel:components')!;
    const end = view.timeline.find((e) => e.state === 'parallel:orchestration')!;
    return { totalMs, componentsMs: Date.parse(end.enteredAt) - Date.parse(start.enteredAt), ...(pg ? { phases: await phases(pg.url, 4) } : {}) };
  } finally {
    await engine.dispose();
    for (const w of workers) {
      w.kill('SIGTERM');
      await new Promise((r) => w.once('exit', r));
    }
    await pg?.stop();
    rmSync(root, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  // PARALLEL_BENCH=workers: the durable run alone (while working on it; no ratio).
  if (process.env.PARALLEL_BENCH === 'workers') {
    const w = await run(2, true);
    console.log(`2 workers (DBOS): whole run ${(w.totalMs / 1000).toFixed(1)} s, components ${(w.componentsMs / 1000).toFixed(1)} s`);
    console.log(w.phases!.join('\n'));
    return;
  }
  const one = await run(1);
  const two = await run(2);
  const workers = await run(2, true);
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  console.log(`four independent components, the model answering after ${DELAY_MS / 1000} s (load average now ${loadavg().map((l) => l.toFixed(1)).join(' ')})`);
  console.log(`  1 slot  (baseline): whole run ${s(one.totalMs)}, components ${s(one.componentsMs)}`);
  console.log(`  2 slots:            whole run ${s(two.totalMs)}, components ${s(two.componentsMs)}`);
  console.log(`  2 workers (DBOS):   whole run ${s(workers.totalMs)}, components ${s(workers.componentsMs)}`);
  console.log(workers.phases!.join('\n'));
  // Preparation and the final phase are the same steps whatever the slots: the whole run's ratio cannot go below this.
  const bound = (one.totalMs - one.componentsMs / 2) / one.totalMs;
  console.log(`  best whole-run ratio with 2 at once (the 1-slot run's components halved, the rest as it was): ${bound.toFixed(2)}×`);
  for (const [name, r] of [['2 slots', two], ['2 workers', workers]] as const) {
    const whole = r.totalMs / one.totalMs;
    const parts = r.componentsMs / one.componentsMs;
    console.log(`  ${name} ratio: whole run ${whole.toFixed(2)}× (goal ≤ 0.60×: ${whole <= 0.6 ? 'met' : 'not met'}), components ${parts.toFixed(2)}× (${parts <= 0.6 ? 'met' : 'not met'})`);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
