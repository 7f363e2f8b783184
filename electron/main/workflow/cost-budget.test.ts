import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { Paths } from '../paths/index';
import { WorkflowEngine } from './engine';
import type { StepRequest } from './executor';

let root: string | undefined;
let engine: WorkflowEngine | undefined;
afterEach(async () => {
  await engine?.dispose();
  if (root) await rm(root, { recursive: true, force: true });
});

it("a run's dollar budget: each step gets what is left, and the run stops cleanly before a step once it is spent", async () => {
  root = await mkdtemp(join(tmpdir(), 'erasmus-cost-'));
  const dir = join(root, 'p');
  await mkdir(dir, { recursive: true });
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: dir });
  const seen: { state: string; left?: number }[] = [];
  // Each step (a stand-in for the agent executor) costs $0.40.
  const executor = {
    kind: 'agent',
    run: async (step: StepRequest) => {
      seen.push({ state: step.state, left: step.budget.maxCostUsd });
      return { output: 'done', contextDoc: '# doc\n', done: true, usage: { inputTokens: 1000, cacheReadTokens: 900, outputTokens: 10, totalTokens: 1010, costUsd: 0.4 } };
    },
  };
  engine = new WorkflowEngine({ paths: new Paths(join(root, 'home')), emit: () => undefined, agentExecutor: () => executor });
  const { runId } = await engine.load({ projectDir: dir, goal: 'x', executor: { kind: 'agent', maxCostUsd: 0.8 } });
  await engine.start(runId);
  let status = await engine.status(runId);
  for (let i = 0; i < 250 && !status.error; i++) {
    await new Promise((r) => setTimeout(r, 20));
    status = await engine.status(runId);
  }
  expect(seen.map((s) => s.left?.toFixed(2))).toEqual(['0.80', '0.40']);
  expect(status.totals).toMatchObject({ cacheReadTokens: 1800, costUsd: expect.closeTo(0.8, 9) });
  expect(JSON.stringify(status.error)).toMatch(/cost budget of \$0.8 is spent \(\$0\.8000 so far\); step .* did not start/);
});

it("config.yaml's runBudgetUsd is the budget of a run started without one; a run's own budget wins", async () => {
  root = await mkdtemp(join(tmpdir(), 'erasmus-cost-'));
  const dir = join(root, 'p');
  const home = join(root, 'home');
  await mkdir(dir, { recursive: true });
  await mkdir(home, { recursive: true });
  await writeFile(join(home, 'config.yaml'), 'runBudgetUsd: 2.5\n');
  engine = new WorkflowEngine({ paths: new Paths(home), emit: () => undefined, agentExecutor: () => ({ kind: 'agent', run: async () => ({ output: '', done: true }) }) });
  const store = engine.store;
  const a = await engine.load({ projectDir: dir, goal: 'x', executor: { kind: 'agent' } });
  expect((await store.find(a.runId))!.executor).toMatchObject({ kind: 'agent', maxCostUsd: 2.5 });
  const b = await engine.load({ projectDir: dir, goal: 'x', executor: { kind: 'agent', maxCostUsd: 0.3 } });
  expect((await store.find(b.runId))!.executor).toMatchObject({ kind: 'agent', maxCostUsd: 0.3 });
});
