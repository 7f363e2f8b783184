// A step cut off by a killed process left no list of its files; the step run again after the restart records them, so
// a later retest still knows whether only Markdown changed since the tests passed (and needs no model session).
import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { Paths } from '../paths/index';
import { WorkflowEngine } from './engine';
import { StepAbortedError, stepView, type StepExecutor, type StepRequest } from './executor';
import { goodAnswer, useEngineWorld } from './testing-repo';

const TASKS = '# Task list\n\n## Component: core — the core\nTest: true\n- [ ] C1: Build the core\n';

const world = useEngineWorld('erasmus-retest-cut-');

/** A model that does each step (code for development, Markdown for documentation, nothing for a review); `hangAt`: that step never answers. */
function model(dir: string, asked: string[], hangAt?: string): StepExecutor {
  return {
    kind: 'agent',
    run: async (request: StepRequest) => {
      const step = { ...stepView(request), signal: request.signal };
      asked.push(step.state);
      if (step.state === hangAt) {
        return new Promise<never>((_, reject) => {
          if (step.signal.aborted) return reject(new StepAbortedError(step.state));
          step.signal.addEventListener('abort', () => reject(new StepAbortedError(step.state)));
        });
      }
      if (step.state === 'prepare:task_list') return goodAnswer(step, TASKS);
      if (step.state === 'core:development') await writeFile(join(dir, 'core.js'), 'module.exports = 1;\n');
      if (step.state === 'core:documentation') await writeFile(join(dir, 'core.md'), '# Core\n');
      if (step.state === 'core:review') return goodAnswer(step, '# Review: core\n\nVerdict: no changes needed.\n');
      return goodAnswer(step, `${step.state} done`);
    },
  };
}

it('a review cut off by a killed process, run again after the restart: the retest is the gate alone, as without the cut', async () => {
  const root = world.root();
  const dir = join(root, 'p');
  await mkdir(dir);
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: dir });
  const home = join(root, 'home');
  const first: string[] = [];
  const a = new WorkflowEngine({ paths: new Paths(home), emit: () => undefined, agentExecutor: () => model(dir, first, 'core:review') });
  const { runId } = await a.load({ projectDir: dir, goal: 'a core', executor: { kind: 'agent' } });
  await a.start(runId);
  await a.waitForRest(runId, 20_000);
  await a.approve(runId);
  await expect.poll(() => first.at(-1), { timeout: 20_000 }).toBe('core:review');
  // The process is gone mid-review: its engine shut down as a killed process leaves the run (RUNNING, interrupted).
  await a.dispose();
  const again: string[] = [];
  const b = world.track(new WorkflowEngine({ paths: new Paths(home), emit: () => undefined, agentExecutor: () => model(dir, again) }));
  expect(await b.status(runId)).toMatchObject({ interrupted: true });
  await b.resume(runId);
  const done = await b.waitForRest(runId, 30_000);
  expect(done.status).toBe('COMPLETED');
  expect(again[0]).toBe('core:review');
  expect(again).toContain('core:documentation');
  expect(again).not.toContain('core:retesting');
  const view = await b.status(runId);
  const reviews = view.timeline.filter((x) => x.state === 'core:review');
  expect(reviews.map((x) => x.outcome)).toEqual(['interrupted', 'done']);
  expect(reviews[0]!.files).toEqual([]); // the cut-off attempt changed nothing: known now
  expect(view.timeline.find((x) => x.state === 'core:retesting')).toMatchObject({ outcome: 'tests-passed', note: expect.stringContaining('only Markdown changed since the tests passed') });
}, 60_000);
