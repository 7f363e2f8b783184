// A component side by side that stops to ask while another still runs, answered from a second terminal: the command
// that retries it is refused while the first process drives the run, saying when it works and how to get there
// sooner (pause); after the pause it takes the answer, and the component goes on with it.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CLI, ensureBuilt, killGroup } from './workflow-helpers';

const MODEL = resolve(__dirname, '../fixtures/workflow/parallel-model.mjs');
let root: string | undefined;
const children: ChildProcess[] = [];

beforeAll(() => {
  ensureBuilt();
}, 120_000);

afterEach(async () => {
  for (const c of children.splice(0)) killGroup(c);
  if (root) await rm(root, { recursive: true, force: true });
  root = undefined;
});

/** A CLI process: its stderr as it comes, and its end. */
function cli(args: string[], env: NodeJS.ProcessEnv): { stderr: () => string; done: Promise<number | null> } {
  const c = spawn(process.execPath, [CLI, ...args], { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(c);
  let stderr = '';
  c.stderr!.on('data', (b: Buffer) => (stderr += b.toString()));
  c.stdout!.resume();
  return { stderr: () => stderr, done: new Promise((res) => c.on('close', res)) };
}

async function until(ok: () => boolean, what: () => string): Promise<void> {
  for (const end = Date.now() + 60_000; !ok(); ) {
    if (Date.now() > end) throw new Error(`timed out waiting; so far:\n${what()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('erasmus workflow retry --component while another process drives the run', () => {
  it('is refused saying when it works and how to get there sooner; after a pause it takes the answer', async () => {
    root = await mkdtemp(join(tmpdir(), 'erasmus-lanes-cli-'));
    const project = join(root, 'project');
    await mkdir(project);
    execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: project, stdio: 'pipe' });
    execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', 'commit', '-q', '--allow-empty', '-m', 'Start'], { cwd: project, stdio: 'pipe' });
    const hold = join(root, 'hold');
    await writeFile(hold, '');
    const env = { ...process.env, ERASMUS_HOME: join(root, 'home'), PARALLEL_MODEL_COMPONENTS: 'a,b', PARALLEL_MODEL_ASKS: 'b', PARALLEL_MODEL_HOLD: hold, PARALLEL_MODEL_HOLD_ONLY: 'a' };
    // The first terminal drives the run; a's development is held in flight while b stops to ask.
    const first = cli(['workflow', 'start', project, '--goal', 'two parts', '--executor', 'command', '--command', `node ${MODEL}`, '--yes'], env);
    await until(() => first.stderr().includes('★ Component b stopped to ask you at b · development'), first.stderr);
    // A second terminal answers as the notice says: refused while the first drives it, with when it works and the pause.
    const second = cli(['workflow', 'retry', project, '--component', 'b', '--answer', 'part b'], env);
    expect(await second.done).not.toBe(0);
    expect(second.stderr()).toMatch(
      new RegExp(`is being driven by another Erasmus process \\(pid \\d+\\), which takes no retry from here while it runs: its components under way finish first, then the run stops for you and this command works; to stop it sooner, pause it \\(erasmus workflow pause ${project.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: it stops after the steps under way\\), then run this command again`),
    );
    // Paused as it says: the first process stops after a's step (let go now), the run resting at b's question.
    const pause = cli(['workflow', 'pause', project], env);
    expect(await pause.done).toBe(0);
    await rm(hold, { force: true });
    await first.done;
    expect(first.stderr()).toContain(`component b stopped to ask you at b · development`);
    // Now the command takes the answer: b's step runs again with it, and the run completes.
    const third = cli(['workflow', 'retry', project, '--component', 'b', '--answer', 'part b'], env);
    expect(await third.done, third.stderr()).toBe(0);
    expect(third.stderr()).toMatch(/^retrying the step of run \S+ \("two parts"\), at b · development\n/);
    expect(third.stderr()).toContain('→ b · development\n    with your answer: “part b”');
    expect(third.stderr()).toContain('■ Completed');
    expect(execFileSync('git', ['show', 'HEAD:b.txt'], { cwd: project, encoding: 'utf8' })).toBe('part b\n');
  }, 120_000);
});
