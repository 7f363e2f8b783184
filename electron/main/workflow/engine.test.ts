import { execFileSync } from 'node:child_process';
import { cp, mkdir, mkdtemp, readdir, readFile, realpath, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { WorkflowTask } from '../../contract/index';
import { Paths } from '../paths/index';
import { WorkflowEngine } from './engine';
import { processStart } from '../common/process-alive';
import { StepAbortedError } from './executor';
import { goodAnswer } from './testing-repo';

const TASKS = `# Task list

## Component: core — the core
Test: true
- [ ] C1: Build the core

## Component: cli — the command line
Test: true
- [ ] L1: Build the CLI
`;

let root: string | undefined;
const engines: WorkflowEngine[] = [];
afterEach(async () => {
  for (const e of engines.splice(0)) await e.dispose();
  if (root) await rm(root, { recursive: true, force: true });
  root = undefined;
});

async function project(name: string): Promise<string> {
  const dir = join(root!, name);
  await mkdir(dir, { recursive: true });
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: dir });
  return dir;
}

function engine(home: string): WorkflowEngine {
  const e = new WorkflowEngine({ paths: new Paths(home), emit: () => undefined });
  engines.push(e);
  return e;
}

/** A client acting as the model: each step leaves a file named after its state in the project. */
async function answer(e: WorkflowEngine, runId: string, task: WorkflowTask): Promise<void> {
  if (task.status !== 'AWAITING_COGNITIVE_RESULT') throw new Error(`expected a step, got ${task.status}`);
  const { step } = task;
  const out = step.state === 'prepare:task_list' ? TASKS : `${step.state} output`;
  const file = join(step.projectDir, 'notes', `${step.state.replace(':', '-')}.txt`);
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, out);
  await e.submitTask(runId, goodAnswer(step, out));
}

async function driveToEnd(e: WorkflowEngine, runId: string, onApproval: () => Promise<unknown> = () => e.approve(runId)): Promise<string[]> {
  const states: string[] = [];
  for (let task = await e.getTask(runId); task.status !== 'COMPLETED'; task = await e.getTask(runId)) {
    if (task.status === 'AWAITING_APPROVAL') await onApproval();
    else {
      if (task.status === 'AWAITING_COGNITIVE_RESULT') states.push(task.step.state);
      await answer(e, runId, task);
    }
  }
  return states;
}

describe('WorkflowEngine', () => {
  it('runs two components with orchestration between them and a commit for each', async () => {
    root = await mkdtemp(join(tmpdir(), 'erasmus-engine-'));
    const dir = await project('two');
    const e = engine(join(root, 'home'));
    const { runId } = await e.load({ projectDir: dir, goal: 'two parts' });
    const states = await driveToEnd(e, runId);
    expect(states.slice(3)).toEqual([
      'core:development', 'core:testing', 'core:review', 'core:fixes', 'core:documentation', 'core:retesting',
      'orchestration:core',
      'cli:development', 'cli:testing', 'cli:review', 'cli:fixes', 'cli:documentation', 'cli:retesting',
      'orchestration:cli',
      'final:testing', 'final:documentation', 'final:review', 'final:fixes',
    ]);
    const log = execFileSync('git', ['log', '--format=%s'], { cwd: dir, encoding: 'utf8' }).trim().split('\n');
    // Plain subjects (the repository has no history to learn a style from). A fresh repository has nothing to branch
    // from: its history starts on the branch checked out, a commit per component, and no other branch is made.
    expect(log).toEqual(['Update the documentation', 'Build the CLI', 'Build the core']);
    expect(execFileSync('git', ['branch', '--format=%(refname:short)'], { cwd: dir, encoding: 'utf8' }).trim()).toBe('main');
    expect((await e.status(runId)).git).toMatchObject({ mode: 'current' });
    // The final phase's work is committed too: nothing is left in the working tree.
    expect(execFileSync('git', ['status', '--porcelain'], { cwd: dir, encoding: 'utf8' })).toBe('');
    const finalFiles = execFileSync('git', ['show', '--name-only', '--format=', 'HEAD'], { cwd: dir, encoding: 'utf8' });
    expect(finalFiles).toContain('docs/reviews/final.md');
    // core's commit holds core's work only; cli's work came after it.
    const coreFiles = execFileSync('git', ['show', '--name-only', '--format=', 'HEAD~2'], { cwd: dir, encoding: 'utf8' });
    expect(coreFiles).toContain('notes/core-development.txt');
    expect(coreFiles).not.toContain('notes/cli-development.txt');
  });

  it('the final review is acted on: a fixes step, the end-to-end gate again (debugged when it fails), and the points left open in the completion', async () => {
    root = await mkdtemp(join(tmpdir(), 'erasmus-engine-'));
    const dir = await project('final-fix');
    const e = engine(join(root, 'home'));
    const { runId } = await e.load({ projectDir: dir, goal: 'x' });
    const gated = `# Task list\n\n## Component: core — the core\nTest: test ! -e BROKEN\n- [ ] C1: Build the core\n`;
    const states: string[] = [];
    let task = await e.getTask(runId);
    for (; task.status !== 'COMPLETED'; task = await e.getTask(runId)) {
      if (task.status === 'AWAITING_APPROVAL') {
        await e.approve(runId);
        continue;
      }
      if (task.status !== 'AWAITING_COGNITIVE_RESULT') throw new Error(`unexpected ${task.status}: ${JSON.stringify((await e.status(runId)).error)}`);
      const { state } = task.step;
      states.push(state);
      if (state === 'prepare:task_list') await e.submitTask(runId, { output: gated, done: true });
      else if (state === 'core:development') {
        // The project gains a whole-suite command after the plan was made: every final gate runs it, the one after the fixes too.
        await writeFile(join(dir, 'package.json'), JSON.stringify({ name: 'x', private: true, scripts: { test: 'test ! -e BROKEN' } }));
        await answer(e, runId, task);
      } else if (state === 'final:review') await e.submitTask(runId, { output: '# Final review\n\n**Verdict:** one small fix needed.\n\n1. README lacks usage.\n2. The CLI lacks --help.\n', done: true });
      else if (state === 'core:fixes') {
        expect(task.prompt).toContain("those about tests too: change the tests it names here (what your protocol leaves to the testing step is the component's own test tasks, not a review's points)");
        await e.submitTask(runId, goodAnswer(task.step, 'Done.\n\n## Left open\n- none\n'));
      }
      else if (state === 'final:fixes') {
        // The fixes step sees the report, is told the gate runs after it, and is asked for what it leaves open.
        expect(task.prompt).toContain('The CLI lacks --help.');
        expect(task.prompt).toContain('## Test command');
        expect(task.prompt).toContain('Erasmus runs `npm test --silent`');
        expect(task.prompt).toContain('`## Left open`');
        // The review's points about tests are this step's too (its development protocol leaves test tasks to a testing step).
        expect(task.prompt).toContain('those about tests too (change the tests it names here)');
        await writeFile(join(dir, 'BROKEN'), 'oops');
        await e.submitTask(runId, goodAnswer(task.step, 'README usage added.\n\n## Left open\n- The CLI lacks --help: out of scope for this goal.\n'));
      } else if (state === 'final:redebugging') {
        expect(task.prompt).toContain('The end-to-end tests fail after the final review fixes');
        await rm(join(dir, 'BROKEN'));
        await e.submitTask(runId, goodAnswer(task.step, 'Removed the stray file.'));
      } else await answer(e, runId, task);
    }
    expect(states.slice(-4)).toEqual(['final:documentation', 'final:review', 'final:fixes', 'final:redebugging']);
    const view = await e.status(runId);
    const at = (state: string) => view.timeline.find((x) => x.state === state)!;
    expect(at('final:review')).toMatchObject({ outcome: 'done', verdict: 'Verdict: one small fix needed' });
    expect(at('final:fixes')).toMatchObject({ outcome: 'tests-failed', openPoints: ['The CLI lacks --help: out of scope for this goal.'] });
    expect(at('final:redebugging')).toMatchObject({ outcome: 'tests-passed' });
    expect(at('final:commit')).toMatchObject({ outcome: 'committed' });
    // The completion names the point left open; the component's review, all fixed, is not listed.
    expect(task.output.filter((l) => l.startsWith('review point open'))).toEqual([
      // The report named as the project keeps it (a component's worktree, where a lane's review wrote, is gone once merged).
      `review point open: the final review (docs/reviews/final.md) — Verdict: one small fix needed: left open: The CLI lacks --help: out of scope for this goal.`,
    ]);
  });

  it('a final review that asks for no changes passes over its fixes step and the gate, saying why', async () => {
    root = await mkdtemp(join(tmpdir(), 'erasmus-engine-'));
    const dir = await project('final-clean');
    const e = engine(join(root, 'home'));
    const { runId } = await e.load({ projectDir: dir, goal: 'x' });
    const states: string[] = [];
    let task = await e.getTask(runId);
    for (; task.status !== 'COMPLETED'; task = await e.getTask(runId)) {
      if (task.status === 'AWAITING_APPROVAL') await e.approve(runId);
      else if (task.status === 'AWAITING_COGNITIVE_RESULT' && task.step.state === 'final:review') {
        states.push(task.step.state);
        await e.submitTask(runId, { output: '# Final review\n\nVerdict: no changes needed\n', done: true });
      } else if (task.status === 'AWAITING_COGNITIVE_RESULT' && task.step.state.endsWith(':fixes')) {
        // A model that never says what it left open: asked for it once, it answers again without it.
        states.push(task.step.state);
        await e.submitTask(runId, { ...goodAnswer(task.step, 'Fixed the points.'), output: 'Fixed the points.' });
      } else {
        if (task.status === 'AWAITING_COGNITIVE_RESULT') states.push(task.step.state);
        await answer(e, runId, task);
      }
    }
    expect(states.at(-1)).toBe('final:review');
    const view = await e.status(runId);
    expect(view.timeline.find((x) => x.state === 'final:fixes')).toMatchObject({ outcome: 'skipped', note: 'the review asked for no changes (docs/reviews/final.md)' });
    expect(view.timeline.map((x) => x.state)).not.toContain('final:redebugging');
    // Each components' fixes step was asked once (its state handed out twice), then taken as it was, the timeline saying so.
    expect(states.filter((x) => x === 'core:fixes')).toHaveLength(2);
    expect(view.timeline.find((x) => x.state === 'core:fixes')).toMatchObject({ note: 'asked once for its `## Left open` section, the model answered again without it: the answer was taken as it is' });
    // The components' fixes steps did not say what they left open: the completion says so instead of a plain "complete".
    expect(task.output.filter((l) => l.startsWith('review point open'))).toEqual([
      expect.stringMatching(/^review point open: the review of core .*: the fixes step did not say whether it left any point open; read the report$/),
      expect.stringMatching(/^review point open: the review of cli .*: the fixes step did not say whether it left any point open; read the report$/),
    ]);
  });

  it("a review report is never written through a symbolic link that leads out of the project: the step blocks, naming the link", async () => {
    root = await mkdtemp(join(tmpdir(), 'erasmus-engine-'));
    const dir = await project('report-link');
    const outside = join(root, 'outside');
    await mkdir(outside);
    const e = engine(join(root, 'home'));
    const { runId } = await e.load({ projectDir: dir, goal: 'x' });
    let task = await e.getTask(runId);
    for (; task.status !== 'BLOCKED' && task.status !== 'COMPLETED'; task = await e.getTask(runId)) {
      if (task.status === 'AWAITING_APPROVAL') await e.approve(runId);
      else if (task.status === 'AWAITING_COGNITIVE_RESULT' && task.step.state === 'final:review') {
        // An earlier step (a command in the sandbox) replaced the reports' folder with a link to a folder outside.
        await rm(join(dir, 'docs', 'reviews'), { recursive: true, force: true });
        await symlink(outside, join(dir, 'docs', 'reviews'));
        await e.submitTask(runId, { output: '# Final review\n\nVerdict: no changes needed\n', done: true });
      } else await answer(e, runId, task);
    }
    if (task.status !== 'BLOCKED') throw new Error(`expected a blocked run, got ${task.status}`);
    expect(task.error?.message).toContain(`the review report docs/reviews/final.md leads outside the project, to ${await realpath(outside)} (docs/reviews leads there through a symbolic link)`);
    expect(await readdir(outside)).toEqual([]);
  });

  it('the final documentation brings the architecture up to date: it is that step\'s context document, shown once', async () => {
    root = await mkdtemp(join(tmpdir(), 'erasmus-engine-'));
    const dir = await project('arch');
    const e = engine(join(root, 'home'));
    const { runId } = await e.load({ projectDir: dir, goal: 'x' });
    let seen = false;
    for (let task = await e.getTask(runId); task.status !== 'COMPLETED'; task = await e.getTask(runId)) {
      if (task.status === 'AWAITING_APPROVAL') await e.approve(runId);
      else if (task.status === 'AWAITING_COGNITIVE_RESULT' && task.step.state === 'final:documentation') {
        seen = true;
        expect(task.step.contextDocPath).toBe((await e.readDoc(dir, { doc: 'architecture' })).path);
        expect(task.prompt).toContain('Your context document is the architecture: bring it up to date with the product as built');
        expect(task.prompt).toContain('## Context document\n\nKept by Erasmus outside the project (file tools cannot reach it); its current text, between the fences:\n\n```markdown\n# prepare:architecture\n\nprepare:architecture output\n```');
        expect(task.prompt).not.toContain('## Architecture\n'); // not shown a second time as a reference
        await e.submitTask(runId, { output: 'README written.', done: true, contextDoc: '# Architecture\n\nAs built: core and cli.\n' });
      } else await answer(e, runId, task);
    }
    expect(seen).toBe(true);
    // As handed back, and then stamped with the final commit it describes (drift.ts).
    expect((await e.readDoc(dir, { doc: 'architecture' })).text).toMatch(/^# Architecture\n\nAs built: core and cli\.\n\n<!-- erasmus: describes commit [0-9a-f]{40} -->\n$/);
  });

  it('approves an edited plan (fewer components); rejects components the task list does not have', async () => {
    root = await mkdtemp(join(tmpdir(), 'erasmus-engine-'));
    const dir = await project('edit');
    const e = engine(join(root, 'home'));
    const { runId } = await e.load({ projectDir: dir, goal: 'x' });
    const states = await driveToEnd(e, runId, async () => {
      const { plan } = await e.plan(runId);
      await expect(e.approve(runId, { ...plan!, components: [{ id: 'ghost', title: '', tasks: [] }] })).rejects.toThrow(/ghost/);
      await e.approve(runId, { ...plan!, components: plan!.components.filter((c) => c.id === 'cli') });
    });
    expect(states.some((s) => s.startsWith('core:'))).toBe(false);
    expect(states).toContain('cli:development');
  });

  it('plan review: the task list as saved is what runs; a broken one is refused and the plan keeps waiting', async () => {
    root = await mkdtemp(join(tmpdir(), 'erasmus-engine-'));
    const dir = await project('reread');
    const planEvents: unknown[] = [];
    const e = new WorkflowEngine({ paths: new Paths(join(root, 'home')), emit: (event, payload) => void (event === 'workflow.plan' && planEvents.push(payload)) });
    engines.push(e);
    const { runId } = await e.load({ projectDir: dir, goal: 'x' });
    let task = await e.getTask(runId);
    while (task.status !== 'AWAITING_APPROVAL') {
      await answer(e, runId, task);
      task = await e.getTask(runId);
    }
    // An architecture without a section of components names none the plan could miss.
    expect(task.plan.unplanned).toBeUndefined();
    await e.writeDoc(dir, { doc: 'architecture' }, '# Architecture\n\n## Components\n\n### `core`\nThe core.\n\n### `cli`\nThe command line.\n\n### `docs`\nThe manual.\n\n### `config`\nSettings.\n\n## Tests\n\n- `npm test`: all of them\n');
    await e.writeDoc(dir, { doc: 'task_list' }, '## Component: core\n- [ ] C1 no colon\n');
    await expect(e.approve(runId)).rejects.toMatchObject({ kind: 'PARSE_ERROR' });
    expect((await e.status(runId)).status).toBe('AWAITING_APPROVAL');
    const edited = TASKS.replace('- [ ] L1: Build the CLI', '- [ ] L1: Build the CLI\n- [ ] L2: Add --help') + '\n## Component: docs — the manual\nTest: true\n- [ ] D1: Write it\n';
    await e.writeDoc(dir, { doc: 'task_list' }, edited.replace('Build the core', 'Build the `core` module'));
    // The plan under review follows the saved task list at once (before approval), and says so with workflow.plan.
    const shown = await e.plan(runId);
    expect(shown.approved).toBe(false);
    expect(shown.plan!.components[0]!.tasks[0]!.title).toBe('Build the `core` module');
    expect(shown.plan!.components.map((c) => c.id)).toEqual(['core', 'cli', 'docs']);
    // The architecture's component the task list leaves out is named for plan review: this run would build none of it.
    expect(shown.plan!.unplanned).toEqual(['config']);
    expect(planEvents.at(-1)).toMatchObject({ runId, plan: { components: [{ id: 'core' }, { id: 'cli' }, { id: 'docs' }] } });
    await e.approve(runId);
    const { plan } = await e.plan(runId);
    expect(plan!.components.map((c) => c.id)).toEqual(['core', 'cli', 'docs']);
    expect(plan!.components[1]!.tasks.map((t) => t.id)).toEqual(['L1', 'L2']);
    await e.stop(runId);
  });

  it('a task list the step hands back broken goes back to the step with its lines (bounded); retry asks again, and a fixed list reaches the plan', async () => {
    root = await mkdtemp(join(tmpdir(), 'erasmus-engine-'));
    const dir = await project('fixlist');
    const e = engine(join(root, 'home'));
    const { runId } = await e.load({ projectDir: dir, goal: 'x' });
    const broken = TASKS.replace('- [ ] L1', '- [ ] C1');
    const prompts: string[] = [];
    let task = await e.getTask(runId);
    for (; task.status === 'AWAITING_COGNITIVE_RESULT'; task = await e.getTask(runId)) {
      if (task.step.state !== 'prepare:task_list') await answer(e, runId, task);
      else {
        prompts.push(task.prompt);
        await e.submitTask(runId, { output: broken, done: true });
      }
    }
    // The first answer and two corrections, each told what is wrong with the list it hands back.
    expect(prompts).toHaveLength(3);
    for (const p of prompts.slice(1)) {
      expect(p).toContain('line 9: task id C1 is already used on line 5');
      expect(p).toContain(broken.trim());
    }
    expect(task).toMatchObject({ status: 'BLOCKED', error: { kind: 'PARSE_ERROR', issues: [{ line: 9 }] } });
    await e.retry(runId);
    task = await e.getTask(runId);
    expect(task).toMatchObject({ status: 'AWAITING_COGNITIVE_RESULT', step: { state: 'prepare:task_list' } });
    await e.submitTask(runId, { output: TASKS, done: true });
    task = await e.getTask(runId);
    expect(task.status).toBe('AWAITING_APPROVAL');
    expect((await e.plan(runId)).plan!.components.map((c) => c.id)).toEqual(['core', 'cli']);
    await e.stop(runId);
  });

  it('pause abandons a waiting step and resume asks it again; a restarted engine continues from the file', async () => {
    root = await mkdtemp(join(tmpdir(), 'erasmus-engine-'));
    const dir = await project('pause');
    const home = join(root, 'home');
    const e1 = engine(home);
    const { runId } = await e1.load({ projectDir: dir, goal: 'x' });
    const first = await e1.getTask(runId);
    expect(first).toMatchObject({ status: 'AWAITING_COGNITIVE_RESULT', step: { state: 'prepare:architecture' } });
    await e1.pause(runId);
    expect((await e1.waitForRest(runId)).status).toBe('PAUSED');
    await expect(e1.submitTask(runId, { output: 'late', done: true })).rejects.toMatchObject({ kind: 'INVALID_STATE' });
    await e1.resume(runId);
    const again = await e1.getTask(runId);
    expect(again).toMatchObject({ status: 'AWAITING_COGNITIVE_RESULT', step: { state: 'prepare:architecture' } });
    await answer(e1, runId, again);
    const second = await e1.getTask(runId);
    expect(second).toMatchObject({ step: { state: 'prepare:progress_schedule' } });
    await e1.dispose(); // the process goes away while a step waits

    const e2 = engine(home);
    expect((await e2.list()).map((r) => r.runId)).toEqual([runId]);
    expect(await e2.latest(dir)).toBe(runId);
    const resumed = await e2.getTask(runId);
    expect(resumed).toMatchObject({ status: 'AWAITING_COGNITIVE_RESULT', step: { state: 'prepare:progress_schedule' } });
    const view = await e2.status(runId);
    expect(view.timeline.map((t) => `${t.state}=${t.outcome ?? ''}`)).toEqual([
      'prepare:architecture=aborted',
      'prepare:architecture=written',
      'prepare:progress_schedule=',
    ]);
    // The waiting step was in the file: the new process answers it as it was asked (no second entry).
    await answer(e2, runId, resumed);
    expect(await e2.getTask(runId)).toMatchObject({ step: { state: 'prepare:task_list' } });
    expect((await e2.status(runId)).timeline.map((t) => `${t.state}=${t.outcome ?? ''}`).slice(2)).toEqual(['prepare:progress_schedule=written', 'prepare:task_list=']);
  });

  it('a step one process issued is taken and answered by another; each step is asked once, and a stale waiter lets go', async () => {
    root = await mkdtemp(join(tmpdir(), 'erasmus-engine-'));
    const dir = await project('two-processes');
    const home = join(root, 'home');
    const [a, b] = [engine(home), engine(home)];
    const { runId } = await a.load({ projectDir: dir, goal: 'x' });
    const issued = await a.getTask(runId);
    expect(issued).toMatchObject({ status: 'AWAITING_COGNITIVE_RESULT', step: { state: 'prepare:architecture' } });
    // b never issued it: it reads the same step from the file, prompt and all, and answers it.
    const taken = await b.getTask(runId);
    expect(taken).toEqual(issued);
    await answer(b, runId, taken);
    // a's late answer to the same step names it: refused, never applied to the step that waits now.
    await expect(a.submitTask(runId, { output: '# Late', done: true }, 'prepare:architecture')).rejects.toMatchObject({ kind: 'INVALID_STATE', message: expect.stringMatching(/waits on prepare:progress_schedule, not prepare:architecture: your answer was not applied/) });
    // a's own waiter is stale now: a reads the run back and hands out the step b is waiting on.
    const states = ['prepare:architecture'];
    const engines = [a, b];
    for (let i = 0, task = await a.getTask(runId); task.status !== 'COMPLETED'; i++, task = await engines[i % 2]!.getTask(runId)) {
      const e = engines[i % 2]!;
      if (task.status === 'AWAITING_APPROVAL') await e.approve(runId);
      else {
        if (task.status === 'AWAITING_COGNITIVE_RESULT') states.push(task.step.state);
        await answer(e, runId, task);
      }
      if (i > 60) throw new Error('no end');
    }
    const view = await a.status(runId);
    expect(view.status).toBe('COMPLETED');
    const asked = view.timeline.filter((t) => t.outcome !== 'committed' && t.outcome !== 'nothing-to-commit' && t.outcome !== 'loaded').map((t) => t.state);
    expect(asked).toEqual(states.filter((s) => s !== 'prepare:plan'));
    expect(view.timeline.filter((t) => t.outcome === 'interrupted' || t.outcome === 'aborted')).toEqual([]);
    expect(execFileSync('git', ['log', '--format=%s'], { cwd: dir, encoding: 'utf8' }).trim().split('\n')[0]).toBe('Update the documentation');
    // Submitting to a run that waits on nothing is refused in either process.
    await expect(b.submitTask(runId, { output: 'late', done: true })).rejects.toMatchObject({ kind: 'INVALID_STATE' });
  });

  it("an external engine's answer that lacks a part the step requires is sent back once, naming it; the step waits on", async () => {
    root = await mkdtemp(join(tmpdir(), 'erasmus-engine-'));
    const dir = await project('follow-up');
    const home = join(root, 'home');
    const [a, b] = [engine(home), engine(home)];
    const { runId } = await a.load({ projectDir: dir, goal: 'two parts' });
    /** Answers well up to `state`, and returns its task. */
    const upTo = async (state: string): Promise<Extract<WorkflowTask, { status: 'AWAITING_COGNITIVE_RESULT' }>> => {
      for (let task = await a.getTask(runId); ; task = await a.getTask(runId)) {
        if (task.status === 'AWAITING_APPROVAL') await a.approve(runId);
        else if (task.status === 'AWAITING_COGNITIVE_RESULT' && task.step.state === state) return task;
        else await answer(a, runId, task);
      }
    };
    // A document answer that is words about the document (no heading): not taken; the caller hears what a document is here.
    const arch = await a.getTask(runId);
    expect(arch).toMatchObject({ status: 'AWAITING_COGNITIVE_RESULT', step: { state: 'prepare:architecture' } });
    const words = await b.submitTask(runId, { output: 'The architecture is ready: two components, core and cli.', done: true }, 'prepare:architecture');
    expect(words).toEqual({
      success: true,
      status: 'AWAITING_COGNITIVE_RESULT',
      followUp: `Your final answer lacks the document itself: Erasmus saves \`output\` whole as the context document, and yours has no markdown heading, so it reads as words about the document rather than the document. Your answer was not taken: step prepare:architecture still waits for it. Call workflow_submit_task again with your whole answer: {"runId": "${runId}", "state": "prepare:architecture", "result": {"output": "<the complete document in markdown, headings included, and nothing else>", "done": true}}.`,
    });
    expect((await a.readDoc(dir, { doc: 'architecture' })).exists).toBe(false);
    await a.submitTask(runId, { output: '# Architecture\n\nTwo components: core and cli.\n', done: true }, 'prepare:architecture');
    expect((await a.readDoc(dir, { doc: 'architecture' })).text).toBe('# Architecture\n\nTwo components: core and cli.\n');
    // The step's own "How to answer" says both parts before any follow-up does.
    const dev = await upTo('core:development');
    expect(dev.prompt).toContain('`contextDoc` is required, as Erasmus saves the context document only from it');
    const docPath = dev.step.contextDocPath;
    // A notes answer without its context document: not taken, the caller told what is missing and how to give it.
    const first = await a.submitTask(runId, { output: 'Built the core.', done: true }, 'core:development');
    expect(first.status).toBe('AWAITING_COGNITIVE_RESULT');
    expect(first.followUp).toBe(
      `Your final answer lacks the context document, which Erasmus saves only from \`result.contextDoc\`: the complete new text of the context document, as one string. Your answer was not taken: step core:development still waits for it. Call workflow_submit_task again with your whole answer: {"runId": "${runId}", "state": "core:development", "result": {"output": "<your output as before>", "done": true, "contextDoc": "<the complete new text of the context document>"}}.`,
    );
    // Asked again (another process, a caller that lost the thread): the same step, its prompt saying what was lacking.
    const again = await b.getTask(runId);
    expect(again).toMatchObject({ status: 'AWAITING_COGNITIVE_RESULT', step: { state: 'core:development' } });
    if (again.status === 'AWAITING_COGNITIVE_RESULT') expect(again.prompt).toContain(`## Your answer to this step was not taken\n\n${first.followUp}`);
    // The whole answer again, with the document: taken, and the document saved.
    const second = await a.submitTask(runId, { output: 'Built the core.', done: true, contextDoc: '# Component: core\n\n- C1 built in core.js\n' }, 'core:development');
    expect(second.followUp).toBeUndefined();
    expect(await readFile(docPath, 'utf8')).toContain('- C1 built in core.js');
    // A fixes answer without its `## Left open` section: sent back once, asking for that section only (the document is there).
    const fixes = await upTo('core:fixes');
    expect(fixes.prompt).toContain('ends with the `## Left open` section your task asks for');
    const asked = await a.submitTask(runId, { output: 'Fixed both points.', done: true, contextDoc: '# Component: core\n\n- review points fixed\n' });
    expect(asked.followUp).toMatch(/^Your final answer lacks the section `## Left open`: that heading, then each point of the review report you did not address and why/);
    expect(asked.followUp).toContain('"result": {"output": "<your output as before, then the ## Left open section>", "done": true, "contextDoc": "<the context document as before>"}}.');
    expect(asked.followUp).not.toMatch(/lacks[^.]*the context document/);
    // Still without it, answered from another process: taken as it is (asked once only), the timeline saying so.
    const still = await b.submitTask(runId, { output: 'Fixed both points.', done: true, contextDoc: '# Component: core\n\n- review points fixed, again\n' });
    expect(still.followUp).toBeUndefined();
    expect(await readFile(docPath, 'utf8')).toContain('- review points fixed, again');
    const at = (await b.status(runId)).timeline.find((t) => t.state === 'core:fixes')!;
    expect(at.note).toBe('asked once for its `## Left open` section, the model answered again without it: the answer was taken as it is');
    // An answer that says it cannot finish is never sent back for a missing part: the step stops for the user.
    const cli = await (async () => {
      for (let task = await b.getTask(runId); ; task = await b.getTask(runId)) {
        if (task.status === 'AWAITING_APPROVAL') await b.approve(runId);
        else if (task.status === 'AWAITING_COGNITIVE_RESULT' && task.step.state === 'cli:development') return task;
        else await answer(b, runId, task);
      }
    })();
    // Its "How to answer" says how to stop for the user, as an agent step's does.
    expect(cli.prompt).toContain('submit `done` false with a line of `output` beginning `Cannot finish:` and what you need; the run stops and asks the user, and the step comes again with their answer');
    const cannot = await b.submitTask(runId, { output: 'Cannot finish: the user must say which flags the CLI takes.', done: false }, cli.step.state);
    expect(cannot).toEqual({ success: true, status: 'BLOCKED' });
    // It asked: said as the agent path says it (not "its budget may have run out"), the project's folder in the command line.
    const stopped = await b.status(runId);
    expect(stopped.timeline.find((t) => t.state === 'cli:development')).toMatchObject({ outcome: 'not-done', asked: true });
    expect(stopped.error).toMatchObject({ asks: true });
    expect(stopped.error?.message).toBe(
      `The step cli · development cannot finish: the user must say which flags the CLI takes. The rest of the step's work and its notes are kept. Answer it with the retry (in the app, write the answer in the box under the step and press Retry with this answer; on a terminal, \`erasmus workflow retry ${dir} --answer TEXT\`), or settle it yourself (change the code, a test or the documents) and retry without an answer, or skip the step.`,
    );
    // The user answers with the retry (`workflow retry --answer`): the step run again hears the answer with what it said.
    expect(await b.retry(runId, { answer: 'It takes --lower and --upper, nothing else.' })).toMatch(/^(RUNNING|AWAITING_COGNITIVE_RESULT)$/);
    const retried = await b.getTask(runId);
    expect(retried).toMatchObject({ status: 'AWAITING_COGNITIVE_RESULT', step: { state: 'cli:development' } });
    const prompt = retried.status === 'AWAITING_COGNITIVE_RESULT' ? retried.prompt : '';
    expect(prompt).toContain('the run stopped there: it said it cannot finish without the user, so the run stopped for them. The user answered (their answer is below) and ran this step again: do the step now, as their answer says');
    expect(prompt).toMatch(/Cannot finish: the user must say which flags the CLI takes\.\n```\n\nThe user's answer, given with a retry of this step \(it settles what the step stopped for; where it differs from the documents, the answer holds\):\n\n```\nIt takes --lower and --upper, nothing else\.\n```/);
    expect(prompt).not.toContain('That the user ran this step again is their answer');
    // Stopped while the answered step runs, then resumed: the step run again still hears what it asked and the answer
    // (played as a user: a restart cut the answered step off, and on resume it heard only that Erasmus had stopped).
    expect(await b.stop(runId)).toBe('STOPPED');
    expect(await b.resume(runId)).toMatch(/^(RUNNING|AWAITING_COGNITIVE_RESULT)$/);
    const resumed = await b.getTask(runId);
    expect(resumed).toMatchObject({ status: 'AWAITING_COGNITIVE_RESULT', step: { state: 'cli:development' } });
    const heard = resumed.status === 'AWAITING_COGNITIVE_RESULT' ? resumed.prompt : '';
    expect(heard).toContain('the run stopped there: Erasmus stopped while it ran (stopped by the user, or its process ended). The attempt before it had stopped to ask the user, and they answered with the retry that was stopped: what it asked and their answer are below, and the answer still holds.');
    expect(heard).toMatch(/Cannot finish: the user must say which flags the CLI takes\.\n```\n\nThe user's answer, given with a retry of this step \(it settles what the step stopped for; where it differs from the documents, the answer holds\):\n\n```\nIt takes --lower and --upper, nothing else\.\n```/);
    // Answered and done, the next step hears no retry; a retry with an answer where no step stopped is refused, the run as it was.
    await answer(b, runId, resumed);
    // The timeline keeps the answer with each attempt that ran with it: the one the stop cut off and the one resumed.
    const answered = (await b.status(runId)).timeline.filter((t) => t.state === 'cli:development');
    expect(answered.map((t) => t.answer)).toEqual([undefined, 'It takes --lower and --upper, nothing else.', 'It takes --lower and --upper, nothing else.']);
    const next = await b.getTask(runId);
    expect(next.status === 'AWAITING_COGNITIVE_RESULT' ? next.prompt : 'no step').not.toContain('## This is a retry');
    // Where no step ran and stopped (a run stopped before its first step), an answer has nothing to answer: refused, the run as it was.
    const fresh = await a.load({ projectDir: await project('answer-nothing'), goal: 'x' });
    expect(await a.stop(fresh.runId)).toBe('STOPPED');
    await expect(b.retry(fresh.runId, { answer: 'use yargs' })).rejects.toThrow(/^there is no stopped step to answer: no step of this run has run yet, so none asked anything\. Retry without an answer \(or resume the run\)/);
    expect(await b.status(fresh.runId)).toMatchObject({ status: 'STOPPED', timeline: [] });
  });

  it('a step waiting in the file can be stopped from another process and asked again on resume', async () => {
    root = await mkdtemp(join(tmpdir(), 'erasmus-engine-'));
    const dir = await project('stop-elsewhere');
    const home = join(root, 'home');
    const [a, b] = [engine(home), engine(home)];
    const { runId } = await a.load({ projectDir: dir, goal: 'x' });
    await a.getTask(runId);
    expect(await b.stop(runId)).toBe('STOPPED');
    await expect(a.submitTask(runId, { output: '# A', done: true })).rejects.toMatchObject({ kind: 'INVALID_STATE' });
    await a.resume(runId);
    expect(await a.getTask(runId)).toMatchObject({ status: 'AWAITING_COGNITIVE_RESULT', step: { state: 'prepare:architecture' } });
    expect((await a.status(runId)).timeline.map((t) => t.outcome ?? '')).toEqual(['aborted', '']);
  });

  it('a running step names its session as soon as the session has a log: in the file, the event, and workflow.runs', async () => {
    root = await mkdtemp(join(tmpdir(), 'erasmus-engine-'));
    const dir = await project('early-session');
    const home = join(root, 'home');
    const log = join(home, 'sessions', 's-arch.jsonl');
    const steps: Array<{ state: string; sessionLog?: string; leftAt?: string }> = [];
    const statuses: Array<{ status: string; pausing?: boolean }> = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const e = new WorkflowEngine({
      paths: new Paths(home),
      emit: (name, p) => {
        if (name === 'workflow.step') steps.push({ ...(p as { entry: { state: string } }).entry });
        if (name === 'workflow.status') statuses.push(p as { status: string; pausing?: boolean });
      },
      agentExecutor: () => ({
        kind: 'agent',
        run: async (step) => {
          step.onSession?.(log);
          await gate;
          return { output: 'written', done: true, contextDoc: '# Architecture\n\nOne part.\n', sessionLog: log };
        },
      }),
    });
    engines.push(e);
    const { runId } = await e.load({ projectDir: dir, goal: 'add numbers', executor: { kind: 'agent' } });
    await e.start(runId);
    await expect.poll(() => steps.some((s) => s.sessionLog === log && !s.leftAt)).toBe(true);
    const running = (await e.status(runId)).timeline.at(-1)!;
    expect(running).toMatchObject({ state: 'prepare:architecture', sessionLog: log });
    expect(running.leftAt).toBeUndefined();
    expect((await e.runSteps(dir, 5))[0]!.steps).toEqual([expect.objectContaining({ state: 'prepare:architecture', sessionId: 's-arch' })]);
    await e.pause(runId);
    // Pause waits for the step under way, and says so at once: in the view and in an event.
    expect(await e.status(runId)).toMatchObject({ status: 'RUNNING', pausing: true });
    expect(statuses.at(-1)).toMatchObject({ status: 'RUNNING', pausing: true });
    release();
    await e.waitForRest(runId);
    expect((await e.status(runId)).pausing).toBeUndefined();
    // The file another process reads says so too.
    const onDisk = await new WorkflowEngine({ paths: new Paths(home), emit: () => undefined }).runSteps(dir, 5);
    expect(onDisk[0]!.steps[0]).toMatchObject({ state: 'prepare:architecture', sessionId: 's-arch' });
  });

  it('a run paused while a step runs rests at the step it goes on with: the view names it and Skip skips it, never the step that finished', async () => {
    root = await mkdtemp(join(tmpdir(), 'erasmus-engine-'));
    const dir = await project('pause-after');
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const ran: string[] = [];
    const e = new WorkflowEngine({
      paths: new Paths(join(root, 'home')),
      emit: () => undefined,
      agentExecutor: () => ({
        kind: 'agent',
        run: async (step) => {
          ran.push(step.state);
          if (step.state === 'core:development') await gate;
          return { output: 'done', done: true };
        },
      }),
    });
    engines.push(e);
    await e.writeDoc(dir, { doc: 'architecture' }, '# Architecture\n\ncore and cli\n');
    await e.writeDoc(dir, { doc: 'progress_schedule' }, '# Schedule\n\n1. core\n2. cli\n');
    await e.writeDoc(dir, { doc: 'task_list' }, TASKS);
    const { runId } = await e.load({ projectDir: dir, executor: { kind: 'agent' } });
    await e.start(runId);
    expect((await e.waitForRest(runId)).status).toBe('AWAITING_APPROVAL');
    await e.approve(runId);
    await expect.poll(() => ran.includes('core:development')).toBe(true);
    await e.pause(runId);
    release();
    const paused = await e.waitForRest(runId);
    expect(paused.status).toBe('PAUSED');
    expect(paused.timeline.at(-1)).toMatchObject({ state: 'core:development', outcome: 'done' });
    expect(paused.state).toBe('core:testing');
    await e.skip(runId);
    const after = await e.status(runId);
    expect(after.timeline.filter((t) => t.outcome === 'skipped').map((t) => t.state)).toEqual(['core:testing']);
    await e.stop(runId);
  });

  it('a step stopped while it ran is told on resume that it is a retry, and what the stopped attempt changed', async () => {
    // Played as the model: a development step stopped (Ctrl-C) after its edit was asked again on resume as if new, not told
    // the edit was made; an edit whose old text still matches goes in twice. After a kill it was told; after a stop, not.
    root = await mkdtemp(join(tmpdir(), 'erasmus-engine-'));
    const dir = await project('stopped-retry');
    const prompts: Array<{ state: string; prompt: string }> = [];
    const e = new WorkflowEngine({
      paths: new Paths(join(root, 'home')),
      emit: () => undefined,
      agentExecutor: () => ({
        kind: 'agent',
        run: async (step) => {
          prompts.push({ state: step.state, prompt: step.prompt });
          if (step.state.startsWith('prepare:')) return { output: step.state === 'prepare:task_list' ? TASKS : `# ${step.state}\n`, done: true };
          if (step.state === 'core:development' && prompts.filter((p) => p.state === step.state).length === 1) {
            await writeFile(join(step.projectDir, 'core.txt'), 'the core\n');
            return new Promise((_, reject) => step.signal.addEventListener('abort', () => reject(new StepAbortedError(step.state))));
          }
          return { output: 'done', done: true };
        },
      }),
    });
    engines.push(e);
    const { runId } = await e.load({ projectDir: dir, goal: 'a core and a CLI', executor: { kind: 'agent' } });
    await e.start(runId);
    expect((await e.waitForRest(runId, 30_000)).status).toBe('AWAITING_APPROVAL');
    await e.approve(runId);
    await expect.poll(() => prompts.filter((p) => p.state === 'core:development').length, { timeout: 30_000 }).toBe(1);
    await expect.poll(async () => readFile(join(dir, 'core.txt'), 'utf8').catch(() => '')).toBe('the core\n');
    expect(await e.stop(runId)).toBe('STOPPED');
    expect((await e.status(runId)).timeline.at(-1)).toMatchObject({ state: 'core:development', outcome: 'aborted' });
    await e.resume(runId);
    await expect.poll(() => prompts.filter((p) => p.state === 'core:development').length, { timeout: 30_000 }).toBe(2);
    const again = prompts.filter((p) => p.state === 'core:development')[1]!.prompt;
    expect(again).toContain('## This is a retry\n\nThis step ran before, and the run stopped there: Erasmus stopped while it ran (stopped by the user, or its process ended).');
    expect(again).toMatch(/Those changes are made: do not make them again[\s\S]*\+\+\+ b\/core\.txt\n@@ -0,0 \+1 @@\n\+the core/);
    // Heard once: the step after it is not a retry.
    await expect.poll(() => prompts.some((p) => p.state === 'core:testing'), { timeout: 30_000 }).toBe(true);
    expect(prompts.find((p) => p.state === 'core:testing')!.prompt).not.toContain('## This is a retry');
    await e.stop(runId);
  });

  it('a run its process left running (killed) can be rewound at once: nothing drives it, so there is nothing to pause or stop', async () => {
    root = await mkdtemp(join(tmpdir(), 'erasmus-engine-'));
    const dir = await project('rewind-interrupted');
    execFileSync('git', ['-c', 'user.email=a@b', '-c', 'user.name=A', 'commit', '-q', '--allow-empty', '-m', 'initial'], { cwd: dir });
    const home = join(root, 'home');
    let asked = 0;
    const hang = {
      kind: 'agent' as const,
      run: (step: { state: string; signal: AbortSignal }) => {
        asked++;
        return new Promise<never>((_, reject) => {
          if (step.signal.aborted) return reject(new StepAbortedError(step.state));
          step.signal.addEventListener('abort', () => reject(new StepAbortedError(step.state)));
        });
      },
    };
    const first = new WorkflowEngine({ paths: new Paths(home), emit: () => undefined, agentExecutor: () => hang });
    const { runId } = await first.load({ projectDir: dir, goal: 'add numbers', executor: { kind: 'agent' } });
    await first.start(runId);
    // The step runs (its checkpoint taken), then the process is gone: its engine shut down as a killed process leaves it,
    // the record still saying RUNNING.
    await expect.poll(() => asked, { timeout: 20_000 }).toBe(1);
    expect(await first.checkpoints(runId)).toHaveLength(1);
    await first.dispose();
    const e = new WorkflowEngine({ paths: new Paths(home), emit: () => undefined, agentExecutor: () => hang });
    engines.push(e);
    const view = await e.status(runId);
    expect(view).toMatchObject({ status: 'RUNNING', interrupted: true });
    const [checkpoint] = await e.checkpoints(runId);
    const r = await e.rewind(runId, checkpoint!.id);
    expect(r).toMatchObject({ status: 'PAUSED', state: 'prepare:architecture' });
    expect((await e.status(runId)).interrupted).toBeUndefined();
  });

  it("a step stopped before its session answered keeps the tokens its log says it spent, in the step and the run's totals", async () => {
    root = await mkdtemp(join(tmpdir(), 'erasmus-engine-'));
    const dir = await project('stopped-usage');
    const home = join(root, 'home');
    const log = join(home, 'sessions', 's-cut.jsonl');
    const usage = (n: number) => ({ inputTokens: n, cacheReadTokens: 0, cacheWriteTokens: 0, outputTokens: 10, reasoningTokens: 0, totalTokens: n + 10, costUsd: null });
    await mkdir(dirname(log), { recursive: true });
    await writeFile(log, [
      { v: 1, id: 'e1', at: 1, type: 'header', sessionId: 's-cut', provider: 'p', model: 'm', toolMode: 'native' },
      { v: 1, id: 'e2', at: 2, type: 'event', event: { type: 'usage', sessionId: 's-cut', at: 2, turn: usage(100), session: usage(100) } },
      { v: 1, id: 'e3', at: 3, type: 'event', event: { type: 'usage', sessionId: 's-cut', at: 3, turn: usage(200), session: usage(300) } },
    ].map((x) => JSON.stringify(x)).join('\n') + '\n');
    const e = new WorkflowEngine({
      paths: new Paths(home),
      emit: () => undefined,
      agentExecutor: () => ({
        kind: 'agent',
        run: (step) => {
          step.onSession?.(log);
          return new Promise((_, reject) => step.signal.addEventListener('abort', () => reject(new StepAbortedError(step.state))));
        },
      }),
    });
    engines.push(e);
    const { runId } = await e.load({ projectDir: dir, goal: 'add numbers', executor: { kind: 'agent' } });
    await e.start(runId);
    await expect.poll(async () => (await e.status(runId)).timeline.at(-1)?.sessionLog).toBe(log);
    expect(await e.stop(runId)).toBe('STOPPED');
    const view = await e.status(runId);
    expect(view.timeline[0]).toMatchObject({ outcome: 'aborted', usage: { totalTokens: 310 } });
    expect(view.totals.totalTokens).toBe(310);
  });

  it('a step whose protocol could not be read never ran: it blocks saying why, and its retry is not told of an attempt', async () => {
    root = await mkdtemp(join(tmpdir(), 'erasmus-engine-'));
    const dir = await project('setup');
    const protocols = join(root, 'protocols');
    await cp(join(process.cwd(), 'resources', 'protocols'), protocols, { recursive: true });
    const e = new WorkflowEngine({ paths: new Paths(join(root, 'home')), emit: () => undefined, protocolsDir: protocols });
    engines.push(e);
    const { runId } = await e.load({ projectDir: dir, goal: 'x' });
    let task = await e.getTask(runId);
    for (; !(task.status === 'AWAITING_COGNITIVE_RESULT' && task.step.state === 'core:testing'); task = await e.getTask(runId)) {
      if (task.status === 'AWAITING_APPROVAL') await e.approve(runId);
      else await answer(e, runId, task);
    }
    // The review's protocol is gone when its step starts (played: a run driven by a copy of Erasmus without it).
    await rename(join(protocols, 'review.md'), join(protocols, 'review.md.away'));
    await answer(e, runId, task);
    const blocked = await e.waitForRest(runId, 10_000);
    expect(blocked).toMatchObject({ status: 'BLOCKED', state: 'core:review', error: { message: expect.stringContaining('review.md') } });
    await rename(join(protocols, 'review.md.away'), join(protocols, 'review.md'));
    await e.retry(runId);
    task = await e.getTask(runId);
    expect(task.status === 'AWAITING_COGNITIVE_RESULT' && task.step.state).toBe('core:review');
    // Told nothing of an attempt that never ran ("This step ran before … ENOENT …", "that attempt changed nothing").
    expect(task.status === 'AWAITING_COGNITIVE_RESULT' && task.prompt).not.toContain('This is a retry');
  });

  it('a retest after Markdown-only changes is the gate alone, no model session; after a code change the step is asked', async () => {
    root = await mkdtemp(join(tmpdir(), 'erasmus-engine-'));
    const dir = await project('retest');
    const e = engine(join(root, 'home'));
    const { runId } = await e.load({ projectDir: dir, goal: 'x' });
    const asked: string[] = [];
    let task = await e.getTask(runId);
    for (; task.status !== 'COMPLETED'; task = await e.getTask(runId)) {
      if (task.status === 'AWAITING_APPROVAL') {
        await e.approve(runId);
        continue;
      }
      if (task.status !== 'AWAITING_COGNITIVE_RESULT') throw new Error(`unexpected ${task.status}`);
      const { state } = task.step;
      asked.push(state);
      if (state.endsWith(':review')) await e.submitTask(runId, { output: 'Verdict: no changes needed', done: true });
      else if (state === 'cli:retesting' && task.status === 'AWAITING_COGNITIVE_RESULT') {
        // The review asked for no changes: the retest is not told of review fixes that were never made.
        expect(task.prompt).not.toContain('after the review fixes');
        expect(task.prompt).toContain('Run the component tests again after the documentation step (the review asked for no changes, so no review fixes were made)');
        await answer(e, runId, task);
      } else if (state.endsWith(':documentation')) {
        // core's documentation writes Markdown only; cli's documentation also touches code.
        await writeFile(join(dir, `${task.step.component}.md`), '# Docs\n');
        if (task.step.component === 'cli') await writeFile(join(dir, 'cli.js'), '// documented\n');
        await e.submitTask(runId, goodAnswer(task.step, 'Documented.'));
      } else await answer(e, runId, task);
    }
    expect(asked).not.toContain('core:retesting');
    expect(asked).toContain('cli:retesting');
    const view = await e.status(runId);
    expect(view.timeline.find((x) => x.state === 'core:retesting')).toMatchObject({ outcome: 'tests-passed', note: expect.stringContaining('only Markdown changed since the tests passed') });
    expect(view.timeline.find((x) => x.state === 'core:commit')).toMatchObject({ outcome: 'committed' });
  });

  it('runs several projects at once, each in its own run file', async () => {
    root = await mkdtemp(join(tmpdir(), 'erasmus-engine-'));
    const e = engine(join(root, 'home'));
    const dirs = await Promise.all(['a', 'b', 'c'].map(project));
    const runs = await Promise.all(dirs.map((d) => e.load({ projectDir: d, goal: d })));
    await Promise.all(runs.map(({ runId }) => driveToEnd(e, runId)));
    // The app's Recent list has each project, though no window opened them (the CLI or an MCP client started the runs).
    const recent = JSON.parse(await readFile(new Paths(join(root, 'home')).recentProjects, 'utf8')) as { projects: Array<{ path: string }> };
    expect(recent.projects.map((p) => p.path).sort()).toEqual([...dirs].sort());
    for (const [i, d] of dirs.entries()) {
      const saved = JSON.parse(await readFile(new Paths(join(root, 'home')).run(d, runs[i]!.runId), 'utf8'));
      expect(saved).toMatchObject({ status: 'COMPLETED', projectDir: d });
      expect(execFileSync('git', ['log', '--format=%s'], { cwd: d, encoding: 'utf8' })).toContain('Build the core');
    }
    expect((await e.list()).length).toBe(3);
  }, 60_000); // three runs of ~25 steps, each step snapshotting the tree with git twice, on a shared machine

  it('stop aborts a waiting step; skip is refused in preparation; unknown runs are RUN_NOT_FOUND', async () => {
    root = await mkdtemp(join(tmpdir(), 'erasmus-engine-'));
    const dir = await project('stop');
    const e = engine(join(root, 'home'));
    const { runId } = await e.load({ projectDir: dir, goal: 'x' });
    await e.getTask(runId);
    expect(await e.stop(runId)).toBe('STOPPED');
    await expect(e.skip(runId)).rejects.toMatchObject({ kind: 'INVALID_STATE' });
    await expect(e.status('missing')).rejects.toMatchObject({ kind: 'RUN_NOT_FOUND' });
    await expect(e.load({ projectDir: join(root, 'nope') })).rejects.toThrow(/project folder not found/);
  });

  it('an orchestration step that breaks the task list blocks with its lines; fixing the file and skipping goes on', async () => {
    root = await mkdtemp(join(tmpdir(), 'erasmus-engine-'));
    const dir = await project('orch');
    const e = engine(join(root, 'home'));
    const { runId } = await e.load({ projectDir: dir, goal: 'x' });
    let task = await e.getTask(runId);
    for (; task.status !== 'BLOCKED'; task = await e.getTask(runId)) {
      if (task.status === 'AWAITING_APPROVAL') await e.approve(runId);
      else if (task.status === 'AWAITING_COGNITIVE_RESULT' && task.step.state === 'orchestration:core') {
        // The orchestrator's document is the schedule; someone (a person, a tool) broke the task list meanwhile.
        await e.writeDoc(dir, { doc: 'task_list' }, '## Component: core\n- [x] C1 no colon\n');
        await e.submitTask(runId, { output: 'updated', done: true, contextDoc: '# Schedule\n\n1. core: finished\n2. cli: next\n' });
      } else await answer(e, runId, task);
    }
    expect(task.error).toMatchObject({ kind: 'PARSE_ERROR', issues: [{ line: 1 }, { line: 2 }] });
    expect((await e.status(runId)).state).toBe('orchestration:core');
    await e.writeDoc(dir, { doc: 'task_list' }, TASKS.replace('- [ ] C1', '- [x] C1'));
    await e.skip(runId);
    const next = await e.getTask(runId);
    expect(next).toMatchObject({ status: 'AWAITING_COGNITIVE_RESULT', step: { state: 'cli:development' } });
  });

  it('refuses to drive a run another live process drives; takes over the lock of a dead one', async () => {
    root = await mkdtemp(join(tmpdir(), 'erasmus-engine-'));
    const dir = await project('lock');
    const home = join(root, 'home');
    const e = engine(home);
    const { runId } = await e.load({ projectDir: dir, goal: 'x' });
    const lock = new Paths(home).run(dir, runId) + '.lock';
    await writeFile(lock, String(process.ppid)); // a live process that is not us
    await expect(e.getTask(runId)).rejects.toMatchObject({ kind: 'INVALID_STATE', message: expect.stringMatching(/another Erasmus process/) });
    await writeFile(lock, '4194303'); // no such process
    expect(await e.getTask(runId)).toMatchObject({ status: 'AWAITING_COGNITIVE_RESULT' });
    // While a step waits for the engine no process holds the run: whichever answers takes it.
    await expect.poll(() => readFile(lock, 'utf8').catch(() => 'none')).toBe('none');
    await e.stop(runId);
    await expect(readFile(lock, 'utf8')).rejects.toThrow(/ENOENT/);
    if (processStart(process.ppid)) {
      // The pid lives, but the process that wrote the lock started at another time (the pid was given again): taken over.
      await writeFile(lock, `${process.ppid} 1`);
      expect((await e.status(runId)).interrupted).toBeUndefined(); // STOPPED, not RUNNING
      await e.resume(runId);
      expect(await e.getTask(runId)).toMatchObject({ status: 'AWAITING_COGNITIVE_RESULT' });
    }
  });
});
