// A component side by side that stops to ask while another still runs, answered from a second terminal: the command
// that retries (or skips) it hands the call to the process that drives the run, which applies it as its own; the
// second terminal says what happened there (or that process's refusal, in its words). A driver that is gone (its lock
// stale) is no driver: the command takes the run itself.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { askingLanes, CLI, ensureBuilt, killGroup } from './workflow-helpers';

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
function cli(args: string[], env: NodeJS.ProcessEnv): { stderr: () => string; done: Promise<number | null>; pid: number } {
  const c = spawn(process.execPath, [CLI, ...args], { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(c);
  let stderr = '';
  c.stderr!.on('data', (b: Buffer) => (stderr += b.toString()));
  c.stdout!.resume();
  return { stderr: () => stderr, done: new Promise((res) => c.on('close', res)), pid: c.pid! };
}

async function until(ok: () => boolean, what: () => string): Promise<void> {
  for (const end = Date.now() + 60_000; !ok(); ) {
    if (Date.now() > end) throw new Error(`timed out waiting; so far:\n${what()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A project (git, one empty commit), its home, and a hold file that keeps a's development step in flight. */
async function setup(): Promise<{ project: string; hold: string; env: NodeJS.ProcessEnv }> {
  root = await mkdtemp(join(tmpdir(), 'erasmus-lanes-cli-'));
  const { project, hold, env } = await askingLanes(root);
  return { project, hold, env: { ...process.env, ...env } };
}

/** The first terminal drives the run; a's development is held in flight while b stops to ask. */
async function driveUntilBAsks(project: string, env: NodeJS.ProcessEnv): Promise<{ stderr: () => string; done: Promise<number | null>; pid: number }> {
  const first = cli(['workflow', 'start', project, '--goal', 'two parts', '--executor', 'command', '--command', `node ${MODEL}`, '--yes'], env);
  await until(() => first.stderr().includes('★ Component b stopped to ask you at b · development'), first.stderr);
  return first;
}

describe('erasmus workflow retry/skip --component while another process drives the run', () => {
  it("is handed to that process: its refusal is said in its words; the answer reaches b's step there, a goes on, the run completes", async () => {
    const { project, hold, env } = await setup();
    const first = await driveUntilBAsks(project, env);
    // A skip of a, which is not blocked: the driving process refuses it, and the second terminal says so in its words.
    const skip = cli(['workflow', 'skip', project, '--component', 'a'], env);
    expect(await skip.done).not.toBe(0);
    expect(skip.stderr()).toMatch(new RegExp(`process ${first.pid}, which drives run \\S+, refused the skip: component a is not blocked: nothing to skip \\(the blocked one is b\\)`));
    // The answer, typed in the second terminal as the notice says: taken by the first process, b's step runs again there.
    const second = cli(['workflow', 'retry', project, '--component', 'b', '--answer', 'part b'], env);
    expect(await second.done, second.stderr()).toBe(0);
    expect(second.stderr()).toContain(`component b runs again with your answer, in process ${first.pid}, which drives the run`);
    await until(() => first.stderr().includes('→ b · development\n    with your answer: “part b”'), first.stderr);
    // a was held all along: let go now, it goes on, and the first terminal's run completes with b as answered.
    await rm(hold, { force: true });
    expect(await first.done, first.stderr()).toBe(0);
    expect(first.stderr()).toContain('■ Completed');
    expect(execFileSync('git', ['show', 'HEAD:b.txt'], { cwd: project, encoding: 'utf8' })).toBe('part b\n');
    expect(execFileSync('git', ['show', 'HEAD:a.txt'], { cwd: project, encoding: 'utf8' })).toBe('a\n');
  }, 120_000);

  it('a driver that is gone (killed: its lock stale) is none: the retry takes the run in this process', async () => {
    const { project, hold, env } = await setup();
    const first = await driveUntilBAsks(project, env);
    // The first terminal's process is killed outright: its lock file stays, naming a process that no longer lives.
    process.kill(-first.pid, 'SIGKILL');
    await first.done;
    await rm(hold, { force: true });
    const second = cli(['workflow', 'retry', project, '--component', 'b', '--answer', 'part b'], env);
    expect(await second.done, second.stderr()).toBe(0);
    expect(second.stderr()).not.toContain('drives');
    expect(second.stderr()).toContain('→ b · development\n    with your answer: “part b”');
    expect(second.stderr()).toContain('■ Completed');
    expect(execFileSync('git', ['show', 'HEAD:b.txt'], { cwd: project, encoding: 'utf8' })).toBe('part b\n');
  }, 120_000);
});
