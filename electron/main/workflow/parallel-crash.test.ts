import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { CLI, ensureBuilt } from '../../../tests/e2e/workflow-helpers';
import { cleanUpAfterEach, engineAgain, git, MODEL, setup } from '../../../tests/fixtures/workflow/parallel-harness';

cleanUpAfterEach();
beforeAll(() => ensureBuilt(), 120_000);

/** Runs the CLI to its end (the signal that killed it, or its exit code); `started` gets its process id. */
function cli(args: string[], env: NodeJS.ProcessEnv, started?: (pid: number) => void): Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }> {
  return new Promise((res) => {
    const c = spawn(process.execPath, [CLI, ...args], { env, detached: true, stdio: ['ignore', 'ignore', 'pipe'] });
    started?.(c.pid!);
    let stderr = '';
    c.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    c.on('close', (code, signal) => res({ code, signal, stderr }));
  });
}

async function until(ok: () => boolean): Promise<void> {
  for (const end = Date.now() + 120_000; !ok(); await new Promise((r) => setTimeout(r, 25))) if (Date.now() > end) throw new Error('timed out');
}

// Each point is a moment between two writes that must both happen; the process is killed there (SIGKILL, crash-point.ts).
// (A kill just before or after a merge into the run's branch, `<component>:merge:before|after`, resumes right too; not run here, to keep the file short.)
const POINTS = [
  'b:commit:before', // the commit under way is recorded, git has not committed yet
  'merge:first-tree', // the first merge of a fresh repository: its files are written, its branch has no commit yet
  'final:commit:before', // the final phase's commit, as a component's
];

describe('a side-by-side run killed mid-step, and at each moment a commit or a merge is under way', () => {
  it('resumes each time, tells each step run again what its attempt changed, and ends with every component merged once, the final commit, a clean tree', async () => {
    const { root, dir } = await setup({});
    const crashes = join(root, 'crashes');
    await mkdir(crashes);
    // First, a kill while component a's development step is under way (it has written a file, and never answers) and b's is held.
    const [hung, hold] = [join(root, 'hung.json'), join(root, 'hold')];
    await writeFile(hold, '');
    const env = {
      ...process.env,
      ERASMUS_HOME: join(root, 'home'),
      PARALLEL_MODEL_COMPONENTS: 'a,b',
      ...{ PARALLEL_MODEL_HANG: 'a:development', PARALLEL_MODEL_HANG_MARK: hung, PARALLEL_MODEL_HOLD: hold, PARALLEL_MODEL_HOLD_ONLY: 'b' },
      ...{ ERASMUS_TEST_CRASH_AT: POINTS.join(','), ERASMUS_TEST_CRASH_DIR: crashes },
    };
    let pid = 0;
    const first = cli(['workflow', 'start', dir, '--goal', 'two parts', '--executor', 'command', '--command', `node ${MODEL}`, '--yes', '--parallel', '2'], env, (p) => (pid = p));
    await until(() => existsSync(hung) && existsSync(`${hold}.held`));
    process.kill(-pid, 'SIGKILL');
    // The steps in flight die with it: the one that never answers, the one held.
    for (const p of [JSON.parse(await readFile(hung, 'utf8')).pid, ...(await readFile(`${hold}.held`, 'utf8')).split('\n').filter(Boolean)]) process.kill(Number(p), 'SIGKILL');
    let r = await first;
    expect(r.signal).toBe('SIGKILL');
    await rm(hold);
    // Then a kill at each point, resuming each time.
    r = await cli(['workflow', 'resume', dir], env);
    const killed: string[] = [];
    for (let i = 0; r.signal === 'SIGKILL' && i < POINTS.length; i++) {
      killed.push(...POINTS.filter((p) => existsSync(join(crashes, p)) && !killed.includes(p)));
      r = await cli(['workflow', 'resume', dir], env);
    }
    expect(r.code, r.stderr.slice(-3000)).toBe(0);
    // Killed once at each point (the first process at the first point it met, each resume at the next).
    expect(POINTS.filter((p) => existsSync(join(crashes, p)))).toEqual(POINTS);
    expect(killed).toHaveLength(POINTS.length);
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
    // Each development step killed mid-way ran again, told what the attempt that did not finish changed: a's wrote a file
    // (its diff, not to be made again), b's nothing yet.
    const retried = async (id: string) => {
      const i = view.timeline.findLastIndex((e) => e.state === `${id}:development` && e.outcome === 'done');
      expect(view.timeline.filter((e) => e.state === `${id}:development`).map((e) => e.outcome)).toEqual(['interrupted', 'done']);
      return (await engine.stepPrompt(view.runId, i))!;
    };
    const a = await retried('a');
    expect(a).toContain('## This is a retry');
    expect(a).toMatch(/Here is what it changed, from the files as it found them to the files now\. Those changes are made: do not make them again[^\n]*\n\n`{3,}diff\n/);
    expect(a).toContain('+++ b/a-hung.txt\n@@ -0,0 +1 @@\n+written by a step that never answered');
    expect(await retried('b')).toContain('What it changed in the project then is kept: start from the project as it is now, and do what is still missing. It changed no file of the project.');
  }, 240_000);
});

