import { execFileSync } from 'node:child_process';
import { appendFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Paths } from '../paths/index';
import { WorkflowEngine } from './engine';
import { goodAnswer } from './testing-repo';

// A step's details on the timeline: the prompt it was given, the files it touched, its test output.
const TASKS = `# Task list

## Component: core — the core
Test: echo "ok 1 - adds"; echo "# pass 1"
- [ ] C1: Build the core
`;

let root: string | undefined;
let e: WorkflowEngine | undefined;
afterEach(async () => {
  await e?.dispose();
  if (root) await rm(root, { recursive: true, force: true });
  root = e = undefined;
});

const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8' });

describe('workflow step details', () => {
  it('records each step’s prompt, the files it added, changed or deleted, and the tail of its test output, and leaves the index alone', async () => {
    root = await mkdtemp(join(tmpdir(), 'erasmus-details-'));
    const dir = join(root, 'p');
    await mkdir(dir);
    git(dir, 'init', '-q', '-b', 'main');
    await writeFile(join(dir, 'README.md'), '# p\n');
    await writeFile(join(dir, 'old.txt'), 'old\n');
    await writeFile(join(dir, '.gitignore'), 'build/\n');
    git(dir, 'add', '-A');
    git(dir, '-c', 'user.email=t@t', '-c', 'user.name=t', 'commit', '-qm', 'init');
    const paths = new Paths(join(root, 'home'));
    e = new WorkflowEngine({ paths, emit: () => undefined });
    const { runId } = await e.load({ projectDir: dir, goal: 'one part' });
    let staged = '';
    for (let task = await e.getTask(runId); task.status !== 'COMPLETED'; task = await e.getTask(runId)) {
      if (task.status === 'AWAITING_APPROVAL') {
        await e.approve(runId);
        continue;
      }
      if (task.status !== 'AWAITING_COGNITIVE_RESULT') throw new Error(`unexpected ${task.status}`);
      const { state } = task.step;
      if (state === 'core:development') {
        await mkdir(join(dir, 'src'), { recursive: true });
        await writeFile(join(dir, 'src', 'add.js'), 'export const add = (a, b) => a + b;\n');
        await appendFile(join(dir, 'README.md'), 'adds numbers\n');
        await rm(join(dir, 'old.txt'));
        await mkdir(join(dir, 'build'), { recursive: true });
        await writeFile(join(dir, 'build', 'out.js'), 'ignored');
      }
      const out = state === 'prepare:task_list' ? TASKS : `${state} notes`;
      if (state.startsWith('prepare:')) {
        const file = join(dir, 'notes', `${state.replace(':', '-')}.txt`);
        await mkdir(dirname(file), { recursive: true });
        await writeFile(file, out);
      }
      await e.submitTask(runId, goodAnswer(task.step, out));
      if (state === 'core:development') staged = git(dir, 'diff', '--cached', '--name-only');
    }
    // The snapshots go through a temporary index: nothing the step wrote was staged in the user's.
    expect(staged).toBe('');
    const view = await e.status(runId);
    const index = view.timeline.findIndex((x) => x.state === 'core:development');
    const dev = view.timeline[index]!;
    expect(dev.files?.sort((a, b) => (a.path < b.path ? -1 : 1))).toEqual([
      { path: 'README.md', change: 'modified' },
      { path: 'old.txt', change: 'deleted' },
      { path: 'src/add.js', change: 'added' },
    ]);
    // The files as the step found them are its checkpoint's tree (no snapshot of its own), kept with the entry for a retry.
    expect(dev.startTreeIn).toBe('checkpoints');
    const checkpoint = JSON.parse(await readFile(join(paths.checkpointsDir(dir), 'list', `${dev.checkpoint}.json`), 'utf8')) as { tree: string };
    expect(dev.startTree).toBe(checkpoint.tree);
    expect(dev.hasPrompt).toBe(true);
    const prompt = (await e.stepPrompt(runId, index))!;
    expect(prompt).toContain('Implement the open tasks of this component.');
    expect(prompt).toContain('C1');
    // A step that touched nothing says so; a step with tests keeps what they printed.
    const testing = view.timeline.find((x) => x.state === 'core:testing')!;
    expect(testing.files).toEqual([]);
    expect(testing.test).toMatchObject({ passed: true, exitCode: 0 });
    expect(testing.test!.output).toContain('# pass 1');
    // Steps with no prompt (the commit) have none to read.
    const commit = view.timeline.findIndex((x) => x.state === 'core:commit');
    expect(view.timeline[commit]!.hasPrompt).toBeUndefined();
    expect(await e.stepPrompt(runId, commit)).toBeNull();
  });

  it('names the files of a project in a folder of its repository from the top of the repository, as git does', async () => {
    root = await mkdtemp(join(tmpdir(), 'erasmus-details-'));
    const repo = join(root, 'repo');
    const dir = join(repo, 'p');
    await mkdir(dir, { recursive: true });
    git(repo, 'init', '-q', '-b', 'main');
    await writeFile(join(repo, 'outside.txt'), 'not the project\n');
    git(repo, 'add', '-A');
    git(repo, '-c', 'user.email=t@t', '-c', 'user.name=t', 'commit', '-qm', 'init');
    e = new WorkflowEngine({ paths: new Paths(join(root, 'home')), emit: () => undefined });
    const { runId } = await e.load({ projectDir: dir, goal: 'one part' });
    for (let task = await e.getTask(runId); task.status === 'AWAITING_COGNITIVE_RESULT'; task = await e.getTask(runId)) {
      const { state } = task.step;
      await writeFile(join(dir, `${state.replace(':', '-')}.md`), state);
      await e.submitTask(runId, { output: state === 'prepare:task_list' ? TASKS : `${state} notes`, done: true });
      if (state === 'prepare:task_list') break;
    }
    const steps = (await e.status(runId)).timeline;
    expect(steps.map((s) => [s.state, s.startTreeIn, s.files])).toEqual(
      ['architecture', 'progress_schedule', 'task_list'].map((d) => [`prepare:${d}`, 'checkpoints', [{ path: `p/prepare-${d}.md`, change: 'added' }]]),
    );
  });
});
