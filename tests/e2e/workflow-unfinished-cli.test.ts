// A run whose driving process was killed reads as interrupted, naming the command that takes it up; a new
// `start` beside an unfinished run is refused without a terminal (naming both ways on), and `--new` starts
// anyway, marking the old run abandoned.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawn as spawnPty, type IPty } from 'node-pty';
import stripAnsi from 'strip-ansi';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CLI, ensureBuilt, killGroup, MODEL, sandbox, type Sandbox } from './workflow-helpers';

let sb: Sandbox | undefined;
let child: ChildProcess | undefined;
let pty: IPty | undefined;
afterEach(async () => {
  killGroup(child);
  child = undefined;
  try {
    if (pty) process.kill(-pty.pid, 'SIGKILL');
  } catch {}
  pty = undefined;
  await sb?.cleanup();
  sb = undefined;
});

beforeAll(() => {
  ensureBuilt();
}, 120_000);

function runCli(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((res) => {
    const c = spawn(process.execPath, [CLI, ...args], { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    child = c;
    let stdout = '';
    let stderr = '';
    c.stdout!.on('data', (b: Buffer) => (stdout += b.toString()));
    c.stderr!.on('data', (b: Buffer) => (stderr += b.toString()));
    c.on('close', (code) => res({ code, stdout, stderr }));
  });
}

async function until(pred: () => boolean, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!pred()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('an unfinished run is not left behind in silence', () => {
  it('a killed driver reads as interrupted; start refuses beside it without a terminal; --new abandons it and starts', async () => {
    sb = await sandbox();
    await sb.setControl({ slowMs: 150 });
    const cmd = ['--executor', 'command', '--command', `node ${MODEL}`];
    const started = runCli(['workflow', 'start', sb.project, '--goal', 'add numbers', ...cmd, '--yes'], sb.env);
    const runsDir = sb.paths.runsDir(sb.project);
    const state = () => {
      const f = existsSync(runsDir) ? readdirSync(runsDir).find((n) => n.endsWith('.json')) : undefined;
      try {
        return f ? (JSON.parse(readFileSync(join(runsDir, f), 'utf8')) as { state?: string }).state : undefined;
      } catch {
        return undefined;
      }
    };
    await until(() => state() === 'adder:testing', 30_000);
    process.kill(-child!.pid!, 'SIGKILL');
    await started;

    // Recorded RUNNING, but nothing drives it: status says so, and how to take it up.
    const status = await runCli(['workflow', 'status', sb.project], sb.env);
    expect(status.stdout).toContain('Interrupted — nothing is driving it');
    expect(status.stdout).toContain(`nothing is driving it: erasmus workflow resume ${sb.project}`);
    const json = JSON.parse((await runCli(['workflow', 'status', sb.project, '--json'], sb.env)).stdout) as { status: string; interrupted?: boolean };
    expect(json).toMatchObject({ status: 'RUNNING', interrupted: true });

    // Without a terminal, a new start beside it is refused, naming both ways on.
    const refused = await runCli(['workflow', 'start', sb.project, '--goal', 'subtract too', ...cmd, '--yes'], sb.env);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('The last run ("add numbers") is interrupted — nothing is driving it at adder · testing');
    expect(refused.stderr).toContain(`erasmus workflow resume ${sb.project}`);
    expect(refused.stderr).toContain(`erasmus workflow start ${sb.project} --goal TEXT --new`);
    expect(readdirSync(runsDir).filter((n) => n.endsWith('.json'))).toHaveLength(1); // nothing started

    // --new without saying what becomes of the uncommitted files is refused before the old run is touched: it was marked
    // abandoned first, and then the new run refused for the dirty tree, so nothing ran and the old run was lost.
    const dirty = await runCli(['workflow', 'start', sb.project, '--goal', 'subtract too', ...cmd, '--yes', '--new'], sb.env);
    expect(dirty.code).not.toBe(0);
    expect(dirty.stderr).toMatch(/has uncommitted changes \(.*\); a run would mix them with its own work\. Nothing was started\./);
    expect(dirty.stderr).not.toContain('marked abandoned');
    // It names the commands to copy: this one again, its folder and its goal quoted for the shell, once per choice.
    expect(dirty.stderr).not.toContain('commit|stash|include');
    const offered = stripAnsi(dirty.stderr).split('\n').map((l) => l.trim()).filter((l) => l.startsWith('erasmus workflow start '));
    expect(offered.map((l) => spawnSync('bash', ['-c', `set -- ${l}; printf '%s\\n' "$@"`], { encoding: 'utf8' }).stdout.trimEnd().split('\n'))).toEqual(
      ['commit', 'stash', 'include'].map((choice) => ['erasmus', 'workflow', 'start', sb!.project, '--goal', 'subtract too', '--new', '--dirty', choice]),
    );
    expect(JSON.parse((await runCli(['workflow', 'status', sb.project, '--json'], sb.env)).stdout)).toMatchObject({ status: 'RUNNING', interrupted: true });

    // --new starts anyway: the old run is abandoned (never driven again), the new goal runs. What the killed run
    // left uncommitted is a dirty tree like any other: the user says what becomes of it (here: work on top of it).
    await sb.setControl({});
    const fresh = await runCli(['workflow', 'start', sb.project, '--goal', 'subtract too', ...cmd, '--yes', '--new', '--dirty', 'include'], sb.env);
    expect(fresh.stderr).toContain('is marked abandoned; its documents and commits stay');
    // It starts on the abandoned run's branch: the user hears where from, and that those commits come along.
    expect(fresh.stderr).toMatch(/It starts from branch erasmus\/\S+ at [0-9a-f]{8} \(the unfinished run \S+\): the commits there that \S+ lacks come along, and are finished with this run into \S+\.\n/);
    expect(fresh.code, fresh.stderr).toBe(0);
    const list = await runCli(['workflow', 'list', '--project', sb.project], sb.env);
    const lines = list.stdout.trim().split('\n');
    expect(lines[1]).toMatch(/Completed\s+subtract too/);
    expect(lines[2]).toMatch(/Abandoned for a newer goal\s+add numbers/);
    const resume = spawnSync(process.execPath, [CLI, 'workflow', 'resume', sb.project, '--run', lines[2]!.split('run ').at(-1)!.trim()], { env: sb.env, encoding: 'utf8' });
    expect(resume.status).not.toBe(0);
    expect(resume.stderr).toContain('was abandoned for a newer goal');
  }, 180_000);

  it('on a terminal, start beside a blocked run asks: an answer it does not know asks again, r takes the old run up (no second run)', async () => {
    sb = await sandbox();
    const cmd = ['--executor', 'command', '--command', `node ${MODEL}`];
    await sb.setControl({ neverDone: 'prepare:architecture' });
    const blocked = await runCli(['workflow', 'start', sb.project, '--goal', 'add numbers', ...cmd, '--yes'], sb.env);
    expect(blocked.stderr).toContain('■ Blocked');
    // The step stays not done when taken up again, so the resumed run blocks at once (a whole run would add nothing here).
    const log = join(sb.root, 'steps.jsonl');
    await sb.setControl({ neverDone: 'prepare:architecture', log });
    // A real terminal (node-pty): the same start with a new goal asks what becomes of the blocked run.
    let screen = '';
    pty = spawnPty(process.execPath, [CLI, 'workflow', 'start', sb.project, '--goal', 'subtract too', ...cmd, '--yes'], { cwd: sb.project, cols: 200, rows: 50, env: sb.env as Record<string, string> });
    pty.onData((d) => (screen += d));
    const exited = new Promise<number>((r) => pty!.onExit((e) => r(e.exitCode)));
    const question = 'The last run ("add numbers") is blocked — needs you at Preparation · architecture. Resume it (r), or start the new goal and mark it abandoned (n)? [r/n] ';
    const count = (text: string) => stripAnsi(screen).split(text).length - 1;
    await until(() => count(question) >= 1, 30_000).catch(() => expect.fail(`no question; screen:\n${stripAnsi(screen)}`));
    pty.write('x\r');
    await until(() => count(question) >= 2, 10_000).catch(() => expect.fail(`not asked again; screen:\n${stripAnsi(screen)}`));
    pty.write('r\r');
    expect(await exited, stripAnsi(screen)).toBe(2);
    // The old run was taken up where it blocked, with its own goal: its step ran again, and no second run exists.
    expect(stripAnsi(screen).split(question).at(-1)).toContain('■ Blocked');
    const asked = readFileSync(log, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { state: string; prompt: string });
    expect(asked.map((a) => a.state)).toEqual(['prepare:architecture']);
    expect(asked[0]!.prompt).toContain('add numbers');
    expect(asked[0]!.prompt).not.toContain('subtract too');
    const list = await runCli(['workflow', 'list', '--project', sb.project], sb.env);
    const lines = list.stdout.trim().split('\n');
    expect(lines, list.stdout).toHaveLength(2);
    expect(lines[1]).toMatch(/Blocked.*add numbers/);
  }, 120_000);
});
