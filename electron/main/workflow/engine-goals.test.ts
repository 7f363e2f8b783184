import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { WorkflowTask } from '../../contract/index';
import { Paths } from '../paths/index';
import { WorkflowEngine } from './engine';
import { goodAnswer } from './testing-repo';

const FIRST = '# Task list\n\n## Component: core — the core\nTest: true\n- [ ] C1: Build the core\n';
const SECOND = '# Task list\n\n## Component: core — the core and its flag\nTest: true\n- [x] C1: Build the core\n- [ ] C2: Add a flag\n';

let root: string | undefined;
const engines: WorkflowEngine[] = [];
afterEach(async () => {
  for (const e of engines.splice(0)) await e.dispose();
  if (root) await rm(root, { recursive: true, force: true });
  root = undefined;
});

/** A fresh `git init` folder (branch main) and an engine over a home of its own, both cleaned up after the test. */
async function freshProject(): Promise<{ dir: string; e: WorkflowEngine }> {
  root = await mkdtemp(join(tmpdir(), 'erasmus-goals-'));
  const dir = join(root, 'p');
  await mkdir(dir);
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: dir });
  const e = new WorkflowEngine({ paths: new Paths(join(root, 'home')), emit: () => undefined });
  engines.push(e);
  return { dir, e };
}

/** Answers steps as a model would until the run rests; the task list step hands back `taskList(attempt)`; returns each step's prompt. */
async function drive(e: WorkflowEngine, runId: string, taskList: (attempt: number) => string): Promise<{ prompts: Map<string, string[]>; last: WorkflowTask }> {
  const prompts = new Map<string, string[]>();
  let task = await e.getTask(runId);
  for (; task.status === 'AWAITING_COGNITIVE_RESULT' || task.status === 'AWAITING_APPROVAL'; task = await e.getTask(runId)) {
    if (task.status === 'AWAITING_APPROVAL') {
      await e.approve(runId);
      continue;
    }
    const seen = [...(prompts.get(task.step.state) ?? []), task.prompt];
    prompts.set(task.step.state, seen);
    const output = task.step.state === 'prepare:task_list' ? taskList(seen.length) : task.step.answer === 'document' ? `# ${task.step.state}\n` : `${task.step.state} done`;
    await e.submitTask(runId, goodAnswer(task.step, output));
  }
  return { prompts, last: task };
}

describe('a project lives through many goals', () => {
  it('a new goal updates the documents, develops only open tasks, and marks tasks in progress as development ends and done at the commit', async () => {
    const { dir, e } = await freshProject();
    const first = await e.load({ projectDir: dir, goal: 'a core' });
    const one = await drive(e, first.runId, () => FIRST);
    expect(one.last.status).toBe('COMPLETED');
    // The component's later steps read its task as in progress once development ended ([~]), done ([x]) once committed.
    expect(one.prompts.get('core:testing')![0]).toContain('- [~] C1: Build the core');
    expect(one.prompts.get('core:development')![0]).toContain('- [ ] C1: Build the core');
    // The end-to-end pass has no tasks to name: its "Done when" is its own.
    expect(one.prompts.get('final:testing')![0]).toContain('## Done when\n\nEnd-to-end tests that use the product as a user would');
    expect(one.prompts.get('final:testing')![0]).not.toContain("Each of the component's tasks");

    // Without a goal, a project whose tasks are all done is not run again: the run asks what comes next.
    const idle = await e.load({ projectDir: dir });
    expect((await e.getTask(idle.runId)).status).toBe('AWAITING_GOAL');
    expect((await e.status(idle.runId)).nextGoal).toBe(true);
    await e.answerGoal(idle.runId, 'add a flag');
    // A list that reopens a finished task goes back to the step, saying why.
    const two = await drive(e, idle.runId, (attempt) => (attempt === 1 ? FIRST : SECOND));
    expect(two.last.status).toBe('COMPLETED');
    expect(two.prompts.get('prepare:architecture')![0]).toContain('The project already has an architecture (your context document)');
    expect(two.prompts.get('prepare:architecture')![0]).toContain('# prepare:architecture'); // the first goal's architecture, in sight
    expect(two.prompts.get('prepare:architecture')![0]).toContain('## Goal of this run');
    expect(two.prompts.get('prepare:architecture')![0]).not.toContain('## An existing project'); // Erasmus built it
    const retry = two.prompts.get('prepare:task_list')![1]!;
    expect(retry).toContain('task C1 is finished: keep it marked [x]');
    // Only the component with an open task ran, once.
    // (No retesting session: no step after the tests passed changed a file, so Erasmus ran the tests again itself.)
    expect([...two.prompts.keys()].filter((s) => s.startsWith('core:'))).toEqual(['core:development', 'core:testing', 'core:review', 'core:fixes', 'core:documentation']);
    expect(two.prompts.get('core:development')![0]).toMatch(/- \[x\] C1: Build the core\n- \[ \] C2: Add a flag/);
    // The new goal's task list retitled the component: its document says so, not the first goal's title.
    expect(two.prompts.get('core:development')![0]).toContain('# Component: core — the core and its flag\n');
    expect(one.prompts.get('core:development')![0]).toContain('# Component: core — the core\n');
    expect(two.prompts.get('core:fixes')![0]).toContain('## Done when\n\nEvery point of the review report is addressed');
    const list = await e.list(dir);
    expect(list.map((r) => [r.goal, r.status])).toEqual([['add a flag', 'COMPLETED'], ['a core', 'COMPLETED']]);
  }, 60_000);

  it('a project that had code before Erasmus stays an existing project for every later goal', async () => {
    root = await mkdtemp(join(tmpdir(), 'erasmus-goals-'));
    const dir = join(root, 'p');
    await mkdir(dir);
    execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: dir });
    await writeFile(join(dir, 'core.py'), 'def core():\n    return 1\n');
    execFileSync('git', ['add', '-A'], { cwd: dir });
    execFileSync('git', ['-c', 'user.name=m', '-c', 'user.email=m@example.com', 'commit', '-qm', 'core: first'], { cwd: dir });
    const e = new WorkflowEngine({ paths: new Paths(join(root, 'home')), emit: () => undefined });
    engines.push(e);
    const first = await e.load({ projectDir: dir, goal: 'a core' });
    expect((await drive(e, first.runId, () => FIRST)).last.status).toBe('COMPLETED');
    const second = await e.load({ projectDir: dir, goal: 'add a flag' });
    const two = await drive(e, second.runId, () => SECOND);
    expect(two.last.status).toBe('COMPLETED');
    // The maintainers' conventions still hold, and the goal reads as the change it is, after the earlier one.
    for (const state of ['prepare:architecture', 'core:development', 'final:documentation']) {
      expect(two.prompts.get(state)![0], state).toContain('## An existing project');
      expect(two.prompts.get(state)![0], state).toContain('## The change asked for\n\nA new change, after earlier ones made by Erasmus');
    }
    // Its own tests are the end-to-end gate, as for the first goal: no model writes a new end-to-end suite.
    expect(two.prompts.has('final:testing')).toBe(false);
    // That gate is traced as any other: `true` writes no report, and the report says so (not "run before Erasmus read test reports").
    const gate = (await e.status(second.runId)).timeline.find((x) => x.state === 'final:testing')!;
    expect(gate.test).toMatchObject({ command: 'true', passed: true, traced: false, traceNote: expect.stringContaining('the test command wrote no report Erasmus can read') });
    expect((await e.report(second.runId)).untraced).toContainEqual({ state: 'final:testing', command: 'true', note: gate.test!.traceNote });
  }, 60_000);
});

describe('a goal after an earlier run that did not finish', () => {
  it('each preparation step is told whose open tasks the documents hold, and that they are not this goal unless it asks', async () => {
    const { dir, e } = await freshProject();
    const first = await e.load({ projectDir: dir, goal: 'a core' });
    let task = await e.getTask(first.runId);
    for (; task.status === 'AWAITING_COGNITIVE_RESULT'; task = await e.getTask(first.runId)) await e.submitTask(first.runId, { output: task.step.state === 'prepare:task_list' ? FIRST : `# ${task.step.state}\n`, done: true });
    expect(task.status).toBe('AWAITING_APPROVAL');
    await e.stop(first.runId);
    await e.abandon(first.runId);
    const second = await e.load({ projectDir: dir, goal: 'add a flag' });
    const prompts = new Map<string, string>();
    for (let t = await e.getTask(second.runId); t.status === 'AWAITING_COGNITIVE_RESULT' && t.step.state.startsWith('prepare:'); t = await e.getTask(second.runId)) {
      prompts.set(t.step.state, t.prompt);
      if (t.step.state === 'prepare:task_list') break;
      await e.submitTask(second.runId, { output: `# ${t.step.state} for a flag\n`, done: true });
    }
    const whose = 'The documents hold work of earlier goals that was not built: core (open tasks C1), planned for the goal "a core", whose run was abandoned before building it. The project may not have its files, and it is not part of this goal unless the goal below asks for it.';
    expect(prompts.get('prepare:architecture')).toContain(`${whose} Read the project, and leave that part out of the document or describe it as not built; do not describe it as this change.`);
    expect(prompts.get('prepare:progress_schedule')).toContain(`${whose} Mark its milestone as not built and not next`);
    // Every open task left in the list is developed by this run: the step that writes the list hears it.
    expect(prompts.get('prepare:task_list')).toContain(`${whose} Every open task left in the task list is developed in this run: remove those open tasks (and a component left without a task), unless the goal below asks for that work.`);
  }, 60_000);
});
