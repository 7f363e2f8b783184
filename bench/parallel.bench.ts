// The wall time of a four-component run whose components do not need each other (Depends: none), with a scripted
// model that answers each request after 2 s, run with 1 slot (the baseline, in the same run), with 2 slots, and
// durable over DBOS with 2 `erasmus worker` processes (concurrency 1 each) on a throwaway Postgres (Debian's
// postgresql; the project's origin a bare repository on disk; needs `npm run build` for the worker's CLI).
// Two paths, each with its own baseline:
// - agent (the default path, what users run): a fresh ERASMUS_HOME holding one OpenAI-compatible provider (the
//   scripted server on 127.0.0.1, tests/fixtures/scripted-llm; each worker's home holds the same provider), the
//   core as `erasmus workflow start --yes` has it (the built-in files and runners servers, the sandboxed runner,
//   approvals accepted), every step an agent session of several requests, 2 s each:
//   tests/fixtures/workflow/parallel-agent-model.ts says how many per step and why (48 for the components, 9
//   for the rest);
// - command (tests/fixtures/workflow/parallel-model.mjs as the `command` executor: one 2 s answer per step), the
//   workflow's own cost with no model conversation.
// Goal: 2 slots and 2 workers ≤ 0.6× the 1-slot time. Printed for the whole run (preparation and final phase included:
// the same steps either way, so the whole run's ratio has a floor, printed too) and for the components' phase alone
// (approval to the schedule update); then, per run, where the time went: each step kind's wall time beside the time
// its requests waited for the model (the rest is Erasmus: sessions, tool servers, sandboxed commands, gates, git),
// and for the workers the phases DBOS recorded.
// PARALLEL_BENCH=agent|command runs one path; PARALLEL_BENCH=workers|agent-workers one durable run alone.
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { WorkflowRunView } from '../electron/contract/index';
import { approvalPath } from '../electron/main/agent/approval-path';
import { Core } from '../electron/main/api/core';
import { Paths } from '../electron/main/paths/index';
import { WorkflowEngine } from '../electron/main/workflow/engine';
import { COMPONENT_WORKFLOW, dbosClient } from '../electron/main/workflow/durable/dbos';
import { LaneProgress } from '../electron/main/workflow/durable/component-step';
import { attachBuiltinServers } from '../electron/servers/builtin';
import { startScriptedLlm, type ScriptedLlm } from '../tests/fixtures/scripted-llm/index';
import { agentModel, placeOf } from '../tests/fixtures/workflow/parallel-agent-model';
import { startPostgres } from '../tests/support/postgres';

const MODEL = fileURLToPath(new URL('../tests/fixtures/workflow/parallel-model.mjs', import.meta.url));
// PARALLEL_BENCH_DELAY_MS: another delay while looking for Erasmus's own costs (0: the model answers at once).
const DELAY_MS = Number(process.env.PARALLEL_BENCH_DELAY_MS ?? 2000);

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
        // `ahead`: how long the step ran before its DBOS step began (begun beside the push of the one before): not a phase of its own.
        add(k === 'ahead' ? 'step: begun ahead (beside the push before)' : `step: ${k}`, ms);
        timed += k === 'ahead' ? -ms : ms;
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

/**
 * CPU seconds a process used so far, its children that ended included (/proc/<pid>/stat: utime, stime, cutime, cstime;
 * clock ticks of 1/100 s). What a run costs the machine beside its wall time: on a loaded machine, polls and extra
 * processes slow every step.
 */
function cpuSeconds(pid: number): number {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) / 100;
  } catch {
    return 0;
  }
}

type Path = 'agent' | 'command';
interface Result {
  totalMs: number;
  componentsMs: number;
  /** Per step kind: where the time went (agent path). */
  steps?: string[];
  /** Where the 2 workers' time went, from DBOS. */
  phases?: string[];
  /** CPU seconds used during the run: the run's process (with the scripted model, and what it started), each worker, Postgres. */
  cpu: string;
}

/** A timeline state, or a request's step (parallel-agent-model's names), as one kind of step. */
function kindOf(state: string): string | undefined {
  const [scope, phase] = state.split(':') as [string, string];
  if (scope === 'prepare' || scope === 'final') return state;
  if (scope === 'orchestration' || state === 'parallel:orchestration') return 'orchestration';
  if (scope === 'parallel') return undefined; // the phase holding the components' steps
  return `component ${phase}`;
}
const REQUEST_KINDS: Record<string, string> = {
  architecture: 'prepare:architecture',
  schedule: 'prepare:progress_schedule',
  tasks: 'prepare:task_list',
  e2e: 'final:testing',
  'final-docs': 'final:documentation',
  'final-review': 'final:review',
  orchestration: 'orchestration',
};

/**
 * Each kind of step, summed over the run (over components too, whichever ran at once): how many, their wall time,
 * the requests they made and the time those waited for the model (2 s each); the rest is Erasmus's own.
 */
function stepTimes(view: WorkflowRunView, llm: ScriptedLlm): string[] {
  const rows = new Map<string, { steps: number; ms: number; requests: number }>();
  const row = (k: string) => rows.get(k) ?? rows.set(k, { steps: 0, ms: 0, requests: 0 }).get(k)!;
  for (const e of view.timeline) {
    const k = kindOf(e.state);
    if (!k || !e.leftAt) continue;
    row(k).steps++;
    row(k).ms += Date.parse(e.leftAt) - Date.parse(e.enteredAt);
  }
  for (const r of llm.requests) {
    const { step } = placeOf(r.body.messages ?? []);
    row(REQUEST_KINDS[step] ?? `component ${step}`).requests++;
  }
  // Between two steps of one component (or of the run): Erasmus alone (saving the run, building the prompt, a merge, a worktree).
  let between = 0;
  let gaps = 0;
  const scopes = new Map<string, WorkflowRunView['timeline']>();
  for (const e of view.timeline) {
    const scope = e.component ?? 'run';
    scopes.set(scope, [...(scopes.get(scope) ?? []), e]);
  }
  for (const [scope, list] of scopes) {
    for (let i = 1; i < list.length; i++) {
      const prev = list[i - 1]!;
      // The run's own entries enclose the components' phase: its gap is the components' time, not Erasmus's.
      if (!prev.leftAt || (scope === 'run' && prev.state === 'parallel:components')) continue;
      between += Math.max(0, Date.parse(list[i]!.enteredAt) - Date.parse(prev.leftAt));
      gaps++;
    }
  }
  // A component that starts when another ends (its slot freed): from that one's commit to its first step (the merge
  // of the one ended, its worktree removed, this one's added; for workers, the hand-over through DBOS and origin).
  let refill = 0;
  let refills = 0;
  const firsts = [...scopes].filter(([scope]) => scope !== 'run').map(([, list]) => list[0]!).sort((a, b) => Date.parse(a.enteredAt) - Date.parse(b.enteredAt));
  const commits = view.timeline.filter((e) => e.component && e.state.endsWith(':commit') && e.leftAt).map((e) => Date.parse(e.leftAt!));
  for (const first of firsts) {
    const start = Date.parse(first.enteredAt);
    const freed = Math.max(...commits.filter((t) => t <= start));
    if (Number.isFinite(freed)) {
      refill += start - freed;
      refills++;
    }
  }
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`.padStart(8);
  return [
    `    ${'step'.padEnd(28)} steps  requests     wall    model  Erasmus (wall − model, summed over steps)`,
    ...[...rows].map(([k, r]) => `    ${k.padEnd(28)} ${String(r.steps).padStart(5)} ${String(r.requests).padStart(9)} ${s(r.ms)} ${s(r.requests * DELAY_MS)} ${s(r.ms - r.requests * DELAY_MS)}`),
    `    ${'between steps'.padEnd(28)} ${String(gaps).padStart(5)} ${'0'.padStart(9)} ${s(between)} ${s(0)} ${s(between)}`,
    `    ${'a freed slot taken'.padEnd(28)} ${String(refills).padStart(5)} ${'0'.padStart(9)} ${s(refill)} ${s(0)} ${s(refill)}`,
  ];
}

/** A core as `erasmus workflow start --yes` has it: the hub on the project, the built-in servers, approvals accepted. */
async function agentCore(home: string, dir: string, env: NodeJS.ProcessEnv): Promise<Core> {
  const core = new Core({ face: 'cli', home, env });
  await core.hub.start({ projectDir: dir, watch: false });
  const path = approvalPath({ yes: true });
  core.hub.setElicitationHandler(path.elicitation);
  core.agent.setApprovals(path.approvals);
  await attachBuiltinServers(core, { root: dir });
  return core;
}

async function run(path: Path, slots: number, durable = false): Promise<Result> {
  const root = mkdtempSync(join(tmpdir(), 'erasmus-parallel-bench-'));
  const dir = join(root, 'project');
  mkdirSync(dir);
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: dir });
  const env = { ...process.env, PARALLEL_MODEL_DELAY_MS: String(DELAY_MS) };
  const llm = path === 'agent' ? await startScriptedLlm([], { respond: agentModel(DELAY_MS) }) : undefined;
  if (llm) {
    // The default path's ERASMUS_HOME: one provider and nothing else (each worker's home holds the same one).
    const config = `defaultProvider: scripted\nproviders:\n  - id: scripted\n    kind: openai-compatible\n    model: scripted\n    baseUrl: ${llm.baseUrl}\n    nativeTools: true\n`;
    for (const home of ['home', 'home-w1', 'home-w2']) {
      mkdirSync(join(root, home));
      writeFileSync(join(root, home, 'config.yaml'), config);
    }
  }
  const pg = durable ? await startPostgres() : undefined;
  const workers = pg ? await startWorkers(root, pg.url, env) : [];
  if (pg) {
    execFileSync('git', ['init', '-q', '--bare', '-b', 'main', join(root, 'origin.git')]);
    execFileSync('git', ['remote', 'add', 'origin', join(root, 'origin.git')], { cwd: dir });
  }
  const core = llm ? await agentCore(join(root, 'home'), dir, env) : undefined;
  const engine = core?.workflow ?? new WorkflowEngine({ paths: new Paths(join(root, 'home')), env, emit: () => undefined });
  const cpu = () => ({ run: cpuSeconds(process.pid), workers: workers.map((w) => cpuSeconds(w.pid!)), pg: pg ? cpuSeconds(pg.pid) : 0 });
  try {
    const c0 = cpu();
    const t0 = performance.now();
    const executor = llm ? ({ kind: 'agent', autoApprove: true } as const) : ({ kind: 'command', command: `node ${MODEL}` } as const);
    const { runId } = await engine.load({ projectDir: dir, goal: 'a small text toolkit: slugify, wordcount, titlecase, truncate', executor, parallel: slots, ...(pg ? { databaseUrl: pg.url } : {}) });
    await engine.start(runId);
    let view = await engine.waitForRest(runId, 900_000);
    if (view.status !== 'AWAITING_APPROVAL') throw new Error(`expected the plan, got ${view.status}: ${view.error?.message}`);
    await engine.approve(runId);
    view = await engine.waitForRest(runId, 900_000);
    const totalMs = performance.now() - t0;
    const c1 = cpu();
    const cpuSaid = `CPU during the run: the run's process ${(c1.run - c0.run).toFixed(1)} s${workers.length ? `, workers ${c1.workers.map((c, i) => (c - c0.workers[i]!).toFixed(1)).join(' + ')} s, Postgres ${(c1.pg - c0.pg).toFixed(1)} s` : ''} (finished children included)`;
    if (view.status !== 'COMPLETED') throw new Error(`${path}, ${slots} slot(s)${pg ? ', workers' : ''}: ${view.status}: ${view.error?.message}`);
    const start = view.timeline.find((e) => e.state === 'parallel:components');
    const end = view.timeline.find((e) => e.state === 'parallel:orchestration');
    // One slot has no components' phase of its own: from the first component step to the last component's commit.
    const first = view.timeline.find((e) => e.component || /^[a-z]+:development$/.test(e.state));
    const last = [...view.timeline].reverse().find((e) => /:commit$/.test(e.state) && !e.state.startsWith('final:'));
    const componentsMs = start && end ? Date.parse(end.enteredAt) - Date.parse(start.enteredAt) : Date.parse(last!.leftAt!) - Date.parse(first!.enteredAt);
    return { totalMs, componentsMs, cpu: cpuSaid, ...(llm ? { steps: stepTimes(view, llm) } : {}), ...(pg ? { phases: await phases(pg.url, 4) } : {}) };
  } finally {
    await (core ?? engine).dispose();
    for (const w of workers) {
      w.kill('SIGTERM');
      await new Promise((r) => w.once('exit', r));
    }
    await llm?.close();
    await pg?.stop();
    if (process.env.PARALLEL_BENCH_KEEP) console.log(`kept ${root}`);
    else rmSync(root, { recursive: true, force: true });
  }
}

const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** One path: 1 slot (the baseline), 2 slots and 2 workers, their ratios and where the time went. */
async function bench(path: Path): Promise<void> {
  const one = await run(path, 1);
  const two = await run(path, 2);
  const workers = await run(path, 2, true);
  const what = path === 'agent' ? 'the agent executor (default path)' : 'the command executor (one answer per step)';
  console.log(`\n${path}: ${what}, four independent components, the model answering after ${DELAY_MS / 1000} s (load average now ${loadavg().map((l) => l.toFixed(1)).join(' ')})`);
  console.log(`  1 slot  (baseline): whole run ${s(one.totalMs)}, components ${s(one.componentsMs)}`);
  console.log(`  2 slots:            whole run ${s(two.totalMs)}, components ${s(two.componentsMs)}`);
  console.log(`  2 workers (DBOS):   whole run ${s(workers.totalMs)}, components ${s(workers.componentsMs)}`);
  for (const [name, r] of [['1 slot', one], ['2 slots', two], ['2 workers', workers]] as const) console.log(`  ${name}: ${r.cpu}${r.steps ? `; per step kind:\n${r.steps.join('\n')}` : ''}`);
  console.log(workers.phases!.join('\n'));
  // Preparation and the final phase are the same steps whatever the slots: the whole run's ratio cannot go below this.
  const bound = (one.totalMs - one.componentsMs / 2) / one.totalMs;
  console.log(`  ${path}: best whole-run ratio with 2 at once (the 1-slot run's components halved, the rest as it was): ${bound.toFixed(2)}×`);
  for (const [name, r] of [['2 slots', two], ['2 workers', workers]] as const) {
    const whole = r.totalMs / one.totalMs;
    const parts = r.componentsMs / one.componentsMs;
    console.log(`  ${path}, ${name} ratio: whole run ${whole.toFixed(2)}× (goal ≤ 0.60×: ${whole <= 0.6 ? 'met' : 'not met'}), components ${parts.toFixed(2)}× (${parts <= 0.6 ? 'met' : 'not met'})`);
  }
}

async function main(): Promise<void> {
  const only = process.env.PARALLEL_BENCH;
  // PARALLEL_BENCH=workers / agent-workers: one durable run alone (while working on it; no ratio).
  if (only === 'workers' || only === 'agent-workers') {
    const w = await run(only === 'workers' ? 'command' : 'agent', 2, true);
    console.log(`2 workers (DBOS): whole run ${s(w.totalMs)}, components ${s(w.componentsMs)}; ${w.cpu}`);
    if (w.steps) console.log(w.steps.join('\n'));
    console.log(w.phases!.join('\n'));
    return;
  }
  // PARALLEL_BENCH=agent-1 / agent-2: one agent run alone with 1 or 2 slots.
  if (only === 'agent-1' || only === 'agent-2') {
    const r = await run('agent', Number(only.slice(-1)));
    console.log(`agent, ${only.slice(-1)} slot(s): whole run ${s(r.totalMs)}, components ${s(r.componentsMs)}; ${r.cpu}\n${r.steps!.join('\n')}`);
    return;
  }
  for (const path of ['agent', 'command'] as const) if (!only || only === path) await bench(path);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
