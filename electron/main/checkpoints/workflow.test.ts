import { execFileSync, spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Paths } from '../paths/index';
import { WorkflowEngine } from '../workflow/engine';
import { goodAnswer } from '../workflow/testing-repo';
import { CheckpointStore } from './store';

const TASKS = '# Task list\n\n## Component: core — the core\nTest: true\n- [ ] C1: Build the core\n';

let root: string | undefined;
const engines: WorkflowEngine[] = [];
afterEach(async () => {
  for (const e of engines.splice(0)) await e.dispose();
  if (root) await rm(root, { recursive: true, force: true });
  root = undefined;
});

/** Drives an external-engine run to the end: each step writes notes/<state>.txt; stops early at `until`. */
async function drive(e: WorkflowEngine, runId: string, project: string, until?: string): Promise<void> {
  for (let task = await e.getTask(runId); task.status !== 'COMPLETED'; task = await e.getTask(runId)) {
    if (task.status === 'AWAITING_APPROVAL') await e.approve(runId);
    else if (task.status === 'AWAITING_COGNITIVE_RESULT') {
      if (task.step.state === until) return;
      const out = task.step.state === 'prepare:task_list' ? TASKS : `${task.step.state} output`;
      await mkdir(join(project, 'notes'), { recursive: true });
      await writeFile(join(project, 'notes', `${task.step.state.replace(':', '-')}.txt`), out);
      await e.submitTask(runId, task.step.component ? { output: out, done: true, contextDoc: `# core\n\nafter ${task.step.state}\n` } : goodAnswer(task.step, out));
    } else throw new Error(`unexpected ${task.status}`);
  }
}

describe('workflow checkpoints (engine)', () => {
  it('a checkpoint before every step; a rewind restores the files, HEAD and the context document of that moment', async () => {
    root = await mkdtemp(join(tmpdir(), 'erasmus-wfck-'));
    const project = join(root, 'p');
    await mkdir(project);
    execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: project });
    const paths = new Paths(join(root, 'home'));
    const e = new WorkflowEngine({ paths, emit: () => undefined });
    engines.push(e);
    const { runId } = await e.load({ projectDir: project, goal: 'a core' });
    await drive(e, runId, project);
    const list = await e.checkpoints(runId);
    const view = await e.status(runId);
    expect(list.map((c) => c.state)).toEqual(view.timeline.map((t) => t.state));
    const review = list.find((c) => c.state === 'core:review')!;
    const doc = paths.componentDoc(project, 'core');
    expect(await readFile(doc, 'utf8')).toContain('after core:retesting');

    const r = await e.rewind(runId, review.id);
    expect(r).toMatchObject({ status: 'PAUSED', state: 'core:review' });
    expect(await readFile(doc, 'utf8')).toContain('after core:testing'); // the context document as it was
    expect(await readFile(doc, 'utf8')).not.toContain('after core:review');
    await expect(readFile(join(project, 'notes', 'core-review.txt'), 'utf8')).rejects.toThrow();
    // Before the component's commit, the first of the repository: HEAD is unborn again; the undone commits stay reachable.
    expect(spawnSync('git', ['rev-parse', '-q', '--verify', 'HEAD'], { cwd: project }).status).not.toBe(0);
    expect(execFileSync('git', ['log', '--all', '--format=%s'], { cwd: project, encoding: 'utf8' })).toContain('Build the core');
    await expect(e.rewind(runId, 'no-such')).rejects.toMatchObject({ kind: 'RUN_NOT_FOUND' });

    // Undo the rewind: back to the end, the commits there again.
    await e.rewind(runId, r.undo.id);
    expect((await e.status(runId)).status).toBe('COMPLETED');
    expect(execFileSync('git', ['log', '--format=%s'], { cwd: project, encoding: 'utf8' })).toContain('Build the core');
  });

  it("a rewind to before the plan's approval removes the run's branch: approving again makes it under the same name, and an undo brings it back", async () => {
    root = await mkdtemp(join(tmpdir(), 'erasmus-wfck-'));
    const project = join(root, 'p');
    await mkdir(project);
    const git = (...args: string[]) => execFileSync('git', args, { cwd: project, encoding: 'utf8' }).trim();
    git('init', '-q', '-b', 'main');
    await writeFile(join(project, 'README.md'), '# p\n');
    git('add', '-A');
    git('-c', 'user.email=t@t', '-c', 'user.name=t', 'commit', '-q', '-m', 'initial');
    const base = git('rev-parse', 'HEAD');
    const e = new WorkflowEngine({ paths: new Paths(join(root, 'home')), emit: () => undefined });
    engines.push(e);
    const { runId } = await e.load({ projectDir: project, goal: 'a core' });
    await drive(e, runId, project, 'final:testing');
    expect(git('branch', '--format=%(refname:short)')).toBe('erasmus/a-core\nmain');
    const tip = git('rev-parse', 'erasmus/a-core');
    const before = (await e.checkpoints(runId)).find((c) => c.state === 'prepare:task_list')!;

    const preview = await e.rewindPreview(runId, before.id);
    expect(preview.branchRemoved).toBe('erasmus/a-core');
    const r = await e.rewind(runId, before.id);
    expect(r).toMatchObject({ status: 'PAUSED', state: 'prepare:task_list', branchRemoved: 'erasmus/a-core' });
    // HEAD is back on main where the run started; the run's branch is gone and its commits are kept for the undo.
    expect(git('symbolic-ref', '--short', 'HEAD')).toBe('main');
    expect(git('rev-parse', 'HEAD')).toBe(base);
    expect(git('branch', '--format=%(refname:short)')).toBe('main');
    expect(git('rev-parse', `refs/erasmus/rewound/${r.undo.id}`)).toBe(tip);

    // The undo makes the branch again at its commits, the run back on it.
    await e.rewind(runId, r.undo.id);
    expect(git('symbolic-ref', '--short', 'HEAD')).toBe('erasmus/a-core');
    expect(git('rev-parse', 'HEAD')).toBe(tip);
    expect(await e.status(runId)).toMatchObject({ status: 'PAUSED', state: 'final:testing' });

    // Rewound again and approved again: the same branch name, no `-2` beside a branch left at the undone commits.
    await e.rewind(runId, before.id);
    await e.resume(runId);
    await drive(e, runId, project, 'core:development');
    expect(git('branch', '--format=%(refname:short)')).toBe('erasmus/a-core\nmain');
    expect((await e.status(runId)).git).toMatchObject({ branch: 'erasmus/a-core', base: 'main' });
    expect(git('rev-parse', 'HEAD')).toBe(base); // made again from where the run started
  });

  it('a run never stops for want of a checkpoint: the step says why it has none', async () => {
    root = await mkdtemp(join(tmpdir(), 'erasmus-wfck-'));
    const project = join(root, 'p');
    await mkdir(project);
    const paths = new Paths(join(root, 'home'));
    const broken = new CheckpointStore(paths);
    broken.take = () => Promise.reject(new Error('disk full'));
    const e = new WorkflowEngine({ paths, emit: () => undefined, checkpoints: broken });
    engines.push(e);
    const { runId } = await e.load({ projectDir: project, goal: 'a core' });
    await drive(e, runId, project, 'prepare:progress_schedule');
    const first = (await e.status(runId)).timeline[0]!;
    expect(first).toMatchObject({ state: 'prepare:architecture', checkpointError: 'disk full' });
    expect(first.checkpoint).toBeUndefined();
  });
});
