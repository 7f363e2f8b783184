// The wall time of a four-component run whose components do not need each other (Depends: none), with a
// scripted model that answers each request after 2 s (tests/fixtures/workflow/parallel-model.mjs as the
// `command` executor), run with 1 slot (the baseline, in the same run) and with 2 slots.
// Goal: 2 slots ≤ 0.6× the 1-slot time. Printed for the whole run (preparation and final phase included:
// the same steps either way) and for the components' phase alone (approval to the schedule update).
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Paths } from '../electron/main/paths/index';
import { WorkflowEngine } from '../electron/main/workflow/engine';

const MODEL = fileURLToPath(new URL('../tests/fixtures/workflow/parallel-model.mjs', import.meta.url));
const DELAY_MS = 2000;

async function run(slots: number): Promise<{ totalMs: number; componentsMs: number }> {
  const root = mkdtempSync(join(tmpdir(), 'erasmus-parallel-bench-'));
  const dir = join(root, 'project');
  mkdirSync(dir);
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: dir });
  const engine = new WorkflowEngine({ paths: new Paths(join(root, 'home')), env: { ...process.env, PARALLEL_MODEL_DELAY_MS: String(DELAY_MS) }, emit: () => undefined });
  try {
    const t0 = performance.now();
    const { runId } = await engine.load({ projectDir: dir, goal: 'four parts', executor: { kind: 'command', command: `node ${MODEL}` }, parallel: slots });
    await engine.start(runId);
    let view = await engine.waitForRest(runId, 600_000);
    if (view.status !== 'AWAITING_APPROVAL') throw new Error(`expected the plan, got ${view.status}: ${view.error?.message}`);
    await engine.approve(runId);
    view = await engine.waitForRest(runId, 600_000);
    const totalMs = performance.now() - t0;
    if (view.status !== 'COMPLETED') throw new Error(`${slots} slot(s): ${view.status}: ${view.error?.message}`);
    const start = view.timeline.find((e) => e.state === 'parallel:components')!;
    const end = view.timeline.find((e) => e.state === 'parallel:orchestration')!;
    return { totalMs, componentsMs: Date.parse(end.enteredAt) - Date.parse(start.enteredAt) };
  } finally {
    await engine.dispose();
    rmSync(root, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const one = await run(1);
  const two = await run(2);
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  console.log(`four independent components, the model answering after ${DELAY_MS / 1000} s`);
  console.log(`  1 slot  (baseline): whole run ${s(one.totalMs)}, components ${s(one.componentsMs)}`);
  console.log(`  2 slots:            whole run ${s(two.totalMs)}, components ${s(two.componentsMs)}`);
  const whole = two.totalMs / one.totalMs;
  const parts = two.componentsMs / one.componentsMs;
  console.log(`  ratio: whole run ${whole.toFixed(2)}× (goal ≤ 0.60×: ${whole <= 0.6 ? 'met' : 'not met'}), components ${parts.toFixed(2)}× (${parts <= 0.6 ? 'met' : 'not met'})`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
