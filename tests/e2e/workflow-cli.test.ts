import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CLI, ensureBuilt, EXPECTED, finishedStates, gitLog, killGroup, MODEL, sandbox, type Sandbox } from './workflow-helpers';


let sb: Sandbox | undefined;
let child: ChildProcess | undefined;
afterEach(async () => {
  killGroup(child);
  child = undefined;
  await sb?.cleanup();
  sb = undefined;
});

beforeAll(() => {
  ensureBuilt();
}, 120_000);

function runCli(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; stderr: string }> {
  return new Promise((res) => {
    const c = spawn(process.execPath, [CLI, ...args], { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    child = c;
    let stderr = '';
    c.stderr!.on('data', (b: Buffer) => (stderr += b.toString()));
    c.stdout!.resume();
    c.on('close', (code) => res({ code, stderr }));
  });
}

async function until(pred: () => boolean, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!pred()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('workflow survives SIGKILL (CLI)', () => {
  it('erasmus workflow resume continues from the last state and finishes like an uninterrupted run', async () => {
    sb = await sandbox();
    await sb.setControl({ slowMs: 150 });
    const started = runCli(['workflow', 'start', sb.project, '--goal', 'add numbers', '--executor', 'command', '--command', `node ${MODEL}`, '--yes'], sb.env);
    const runsDir = sb.paths.runsDir(sb.project);
    let runFile = '';
    const readRun = () => {
      if (!runFile) {
        const f = existsSync(runsDir) ? readdirSync(runsDir).find((n) => n.endsWith('.json')) : undefined;
        if (!f) return undefined;
        runFile = join(runsDir, f);
      }
      try {
        return JSON.parse(readFileSync(runFile, 'utf8')) as { state?: string; status: string; timeline: Array<{ state: string; outcome?: string; leftAt?: string; startTree?: string }> };
      } catch {
        return undefined;
      }
    };
    // Kill it in the middle of the component: while the review step is running (its starting files recorded).
    await until(() => readRun()?.state === 'adder:review' && !!readRun()?.timeline.at(-1)?.startTree, 30_000);
    process.kill(-child!.pid!, 'SIGKILL');
    const killed = await started;
    expect(killed.code).toBeNull();
    const atKill = readRun()!;
    expect(atKill.status).toBe('RUNNING');
    expect(atKill.timeline.at(-1)).toMatchObject({ state: 'adder:review' });
    expect(atKill.timeline.at(-1)!.leftAt).toBeUndefined();
    expect(gitLog(sb.project)).toEqual(['initial']);
    await new Promise((r) => setTimeout(r, 400)); // the orphaned step command finishes on its own

    const resumed = await runCli(['workflow', 'resume', sb.project], sb.env);
    expect(resumed.stderr).toContain('■ Completed');
    expect(resumed.code).toBe(0);
    const done = readRun()!;
    expect(done.status).toBe('COMPLETED');
    expect(done.timeline.filter((e) => e.outcome === 'interrupted').map((e) => e.state)).toEqual(['adder:review']);
    // The review run again hears it is a retry, and that the attempt killed changed nothing: a review only reads the project.
    const again = await sb.engine.stepPrompt((await sb.engine.latest(sb.project))!, done.timeline.findLastIndex((e) => e.state === 'adder:review'));
    expect(again).toContain('This step ran before, and the run stopped there: Erasmus stopped while it ran');
    expect(again).toContain('This step only reads the project, so that attempt changed nothing in it: do the whole step again, from the project as it is now.');
    expect(finishedStates(done.timeline)).toEqual(EXPECTED);
    expect(gitLog(sb.project).filter((s) => s === 'add adder, which adds two numbers')).toHaveLength(1);
    expect(readFileSync(join(sb.project, 'docs/reviews/adder.md'), 'utf8')).toContain('# Review: adder');

    const status = spawnSync(process.execPath, [CLI, 'workflow', 'status', sb.project, '--json'], { env: sb.env, encoding: 'utf8' });
    expect(JSON.parse(status.stdout)).toMatchObject({ status: 'COMPLETED', state: 'completed' });
  });

  it('without --yes the plan waits; erasmus workflow approve develops it; a blocked run says why', async () => {
    sb = await sandbox();
    const first = await runCli(['workflow', 'start', sb.project, '--goal', 'add numbers', '--executor', 'command', '--command', `node ${MODEL}`], sb.env);
    expect(first.code).toBe(0);
    expect(first.stderr).toContain('Plan:');
    expect(first.stderr).toContain('erasmus workflow approve');
    expect(gitLog(sb.project)).toEqual(['initial']);
    // Not approved, the user is told where to change the plan first (played as a user: nothing said where the task list
    // was), and `workflow status` says the same when they come back; approve reads the list as they edited it.
    const taskList = sb.paths.orchestrationDoc(sb.project, 'task_list');
    expect(first.stderr).toContain(`  architecture: ${sb.paths.orchestrationDoc(sb.project, 'architecture')}\n`);
    const hint = `the plan waits for your review (the architecture it follows: ${sb.paths.orchestrationDoc(sb.project, 'architecture')}): approve it with erasmus workflow approve ${sb.project}; to change the plan first, edit its task list (${taskList}: components, tasks, Test: and Depends: lines), which approve reads again`;
    expect(first.stderr).toContain(hint);
    expect(spawnSync(process.execPath, [CLI, 'workflow', 'status', sb.project], { env: sb.env, encoding: 'utf8' }).stdout).toContain(hint);
    writeFileSync(taskList, readFileSync(taskList, 'utf8').replace('## Component: adder — adds two numbers', '## Component: adder — adds two numbers together'));
    await sb.setControl({ neverDone: 'adder:review' });
    const blocked = await runCli(['workflow', 'approve', sb.project], sb.env);
    expect(blocked.code).toBe(2);
    expect(blocked.stderr).toMatch(/■ Blocked — needs you, at adder · review/);
    expect(blocked.stderr).toMatch(/adder:review ended without finishing/);
    // Beside the gate's reason, the model's own last words in that step.
    expect(blocked.stderr).toContain("the model's last words in adder · review:\n  > I ran out of turns before finishing.");
    await sb.setControl({});
    const retried = await runCli(['workflow', 'retry', sb.project], sb.env);
    expect(retried.code).toBe(0);
    expect(retried.stderr).toContain('■ Completed');
    expect(gitLog(sb.project).slice(0, 2)).toEqual(['update the documentation', 'add adder, which adds two numbers together']);
  });

  it('erasmus workflow pause / stop reach the process that drives the run', async () => {
    sb = await sandbox();
    // The model holds its answer in adder:testing until the pause was asked: the pause lands in that step on any machine.
    const hold = join(sb.root, 'hold');
    writeFileSync(hold, '');
    await sb.setControl({ holdAt: 'adder:testing', holdFile: hold });
    const driving = runCli(['workflow', 'start', sb.project, '--goal', 'add numbers', '--executor', 'command', '--command', `node ${MODEL}`, '--yes'], sb.env);
    const runsDir = sb.paths.runsDir(sb.project);
    const readRun = () => {
      const f = existsSync(runsDir) ? readdirSync(runsDir).find((n) => n.endsWith('.json')) : undefined;
      try {
        return f ? (JSON.parse(readFileSync(join(runsDir, f), 'utf8')) as { state?: string; status: string; timeline: Array<{ state: string; leftAt?: string }> }) : undefined;
      } catch {
        return undefined;
      }
    };
    await until(() => readRun()?.state === 'adder:testing', 30_000);
    const pauser = spawnSync(process.execPath, [CLI, 'workflow', 'pause', sb.project], { env: sb.env, encoding: 'utf8' });
    expect(pauser.stderr).toMatch(/asked process \d+ to pause/);
    rmSync(hold);
    const paused = await driving;
    expect(paused.code).toBe(4);
    expect(paused.stderr).toContain('■ Paused');
    expect(paused.stderr).toContain(`go on with: erasmus workflow resume ${sb.project}`);
    const atPause = readRun()!;
    expect(atPause.status).toBe('PAUSED');
    expect(atPause.timeline.every((e) => e.leftAt)).toBe(true); // the step in flight finished first
    // The pause lands in the step in flight when it arrives: the run rests after it.
    expect(atPause.timeline.at(-1)!.state).toBe('adder:testing');
    const stop = spawnSync(process.execPath, [CLI, 'workflow', 'stop', sb.project], { env: sb.env, encoding: 'utf8' });
    // In words, with how to go on (it printed the internal name 'STOPPED').
    expect(stop.stderr).toMatch(/^run \S+: Stopped, at \S+ · \S+\n/);
    expect(stop.stderr).toContain(`go on with: erasmus workflow resume ${sb.project}`);
    expect(stop.stderr).not.toContain('STOPPED');
    expect(spawnSync(process.execPath, [CLI, 'workflow', 'status', sb.project], { env: sb.env, encoding: 'utf8' }).stdout).toContain(`go on with: erasmus workflow resume ${sb.project}`);
    await sb.setControl({});
    const resumed = await runCli(['workflow', 'resume', sb.project], sb.env);
    expect(resumed.code).toBe(0);
    expect(resumed.stderr).toMatch(/^resuming run \S+ \("add numbers"\), at \S+ · \S+/);
    expect(finishedStates(readRun()!.timeline)).toEqual(EXPECTED);
  });

  it('without --goal and without a terminal, says to pass --goal and quotes what the README says', async () => {
    sb = await sandbox();
    writeFileSync(join(sb.project, 'README.md'), '# adder\n\nAdds two numbers.\n');
    execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', 'commit', '-qam', 'readme'], { cwd: sb.project });
    const r = await runCli(['workflow', 'start', sb.project, '--executor', 'command', '--command', `node ${MODEL}`], sb.env);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('the project has no architecture document yet: pass --goal TEXT (README.md says: "adder: Adds two numbers.")');
  });
});
