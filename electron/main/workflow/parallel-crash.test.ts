import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { CLI, ensureBuilt } from '../../../tests/e2e/workflow-helpers';
import { Paths } from '../paths/index';
import { cleanUpAfterEach, engineAgain, git, MODEL, setup } from '../../../tests/fixtures/workflow/parallel-harness';

cleanUpAfterEach();
beforeAll(() => ensureBuilt(), 120_000);

/** Runs the CLI to its end: the signal that killed it, or its exit code. */
function cli(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }> {
  return new Promise((res) => {
    const c = spawn(process.execPath, [CLI, ...args], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    c.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    c.on('close', (code, signal) => res({ code, signal, stderr }));
  });
}

// Each point is a moment between two writes that must both happen; the process is killed there (SIGKILL, crash-point.ts).
// (A kill just before or after a merge into the run's branch, `<component>:merge:before|after`, resumes right too; not run here, to keep the file short.)
const POINTS = [
  'b:commit:before', // the commit under way is recorded, git has not committed yet
  'merge:first-tree', // the first merge of a fresh repository: its files are written, its branch has no commit yet
  'merge:git-writes-files', // git killed while it writes a merge's files: those written, its index.lock left, the index and HEAD as they were
  'merge:git-moved-head', // git killed after it committed a merge (HEAD moved), before it removed CHERRY_PICK_HEAD
  'final:commit:before', // the final phase's commit, as a component's
];

describe('a side-by-side run killed mid-step, and at each moment a commit or a merge is under way', () => {
  it('resumes each time, tells the step run again what its attempt changed, and ends with every component merged once, the final commit, a clean tree', async () => {
    const { root, dir } = await setup({});
    const crashes = join(root, 'crashes');
    await mkdir(crashes);
    // Component a's development step writes a file and never answers; meanwhile b goes through its steps to its commit,
    // where the first kill comes: a's step dies with the process (it is killed here, as its process group would be).
    const hung = join(root, 'hung.json');
    const env = {
      ...process.env,
      ERASMUS_HOME: join(root, 'home'),
      PARALLEL_MODEL_COMPONENTS: 'a,b',
      ...{ PARALLEL_MODEL_HANG: 'a:development', PARALLEL_MODEL_HANG_MARK: hung },
      ...{ ERASMUS_TEST_CRASH_AT: POINTS.join(','), ERASMUS_TEST_CRASH_DIR: crashes },
    };
    let r = await cli(['workflow', 'start', dir, '--goal', 'two parts', '--executor', 'command', '--command', `node ${MODEL}`, '--yes', '--parallel', '2'], env);
    expect(r.signal).toBe('SIGKILL');
    expect(existsSync(join(crashes, POINTS[0]!))).toBe(true);
    process.kill(JSON.parse(await readFile(hung, 'utf8')).pid, 'SIGKILL');
    // Then a kill at each point after it, resuming each time.
    r = await cli(['workflow', 'resume', dir], env);
    for (let i = 0; r.signal === 'SIGKILL' && i < POINTS.length; i++) r = await cli(['workflow', 'resume', dir], env);
    expect(r.code, r.stderr.slice(-3000)).toBe(0);
    // Killed once at each point (each resume at the next).
    expect(POINTS.filter((p) => existsSync(join(crashes, p)))).toEqual(POINTS);
    const engine = engineAgain(join(root, 'home'), {});
    const view = await engine.status((await engine.latest(dir))!);
    expect(view.status, JSON.stringify(view.error)).toBe('COMPLETED');
    // Nothing lost, nothing twice: one commit per component (in schedule order) and the final one, every file there, a clean tree.
    expect(git(dir, 'log', '--format=%s').split('\n')).toEqual(['Update the documentation', 'Write b.txt', 'Write a.txt']);
    for (const id of ['a', 'b']) expect(await readFile(join(dir, `${id}.txt`), 'utf8')).toBe(`${id}\n`);
    expect(git(dir, 'status', '--porcelain')).toBe('');
    expect(git(dir, 'ls-files').split('\n')).toEqual(expect.arrayContaining(['a.txt', 'b.txt', 'docs/reviews/a.md', 'docs/reviews/b.md']));
    expect(view.lanes?.map((l) => [l.component, l.status, l.commit])).toEqual([
      ['a', 'merged', git(dir, 'log', '-1', '--format=%H', '--grep=^Write a.txt$')],
      ['b', 'merged', git(dir, 'log', '-1', '--format=%H', '--grep=^Write b.txt$')],
    ]);
    expect(git(dir, 'worktree', 'list').split('\n')).toHaveLength(1);
    // The pull request lists what each commit holds: a-hung.txt, which only the killed attempt wrote, included.
    const pr = await readFile(new Paths(join(root, 'home')).runPullRequest(dir, view.runId), 'utf8');
    const holds = (grep: string) => {
      const sha = git(dir, 'log', '-1', '--format=%H', `--grep=${grep}`);
      return `${git(dir, 'show', '--name-only', '--format=', sha).split('\n').map((f) => `\`${f}\``).join(', ')} — ${sha.slice(0, 10)}`;
    };
    expect(pr).toContain(`## What changed\n\n- **part a** (\`a\`): ${holds('^Write a.txt$')}\n- **part b** (\`b\`): ${holds('^Write b.txt$')}\n- **End-to-end phase**: ${holds('^Update the documentation$')}\n`);
    expect(holds('^Write a.txt$')).toContain('`a-hung.txt`');
    // The development step killed mid-way ran again, told what the attempt that did not finish changed (its diff, not to be made again).
    expect(view.timeline.filter((e) => e.state === 'a:development').map((e) => e.outcome)).toEqual(['interrupted', 'done']);
    const a = (await engine.stepPrompt(view.runId, view.timeline.findLastIndex((e) => e.state === 'a:development')))!;
    expect(a).toContain('## This is a retry');
    expect(a).toMatch(/Here is what it changed, from the files as it found them to the files now\. Those changes are made: do not make them again[^\n]*\n\n`{3,}diff\n/);
    expect(a).toContain('+++ b/a-hung.txt\n@@ -0,0 +1 @@\n+written by a step that never answered');
  }, 240_000);
});

