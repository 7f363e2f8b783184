// A run whose driving process was killed reads as interrupted, naming the command that takes it up; a new
// `start` beside an unfinished run is refused without a terminal (naming both ways on), and `--new` starts
// anyway, marking the old run abandoned.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CLI, ensureBuilt, killGroup, MODEL, sandbox, type Sandbox } from './workflow-helpers';

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

    // --new starts anyway: the old run is abandoned (never driven again), the new goal runs. What the killed run
    // left uncommitted is a dirty tree like any other: the user says what becomes of it (here: work on top of it).
    await sb.setControl({});
    const fresh = await runCli(['workflow', 'start', sb.project, '--goal', 'subtract too', ...cmd, '--yes', '--new', '--dirty', 'include'], sb.env);
    expect(fresh.stderr).toContain('is marked abandoned; its documents and commits stay');
    expect(fresh.code, fresh.stderr).toBe(0);
    const list = await runCli(['workflow', 'list', '--project', sb.project], sb.env);
    const lines = list.stdout.trim().split('\n');
    expect(lines[1]).toMatch(/Completed\s+subtract too/);
    expect(lines[2]).toMatch(/Abandoned for a newer goal\s+add numbers/);
    const resume = spawnSync(process.execPath, [CLI, 'workflow', 'resume', sb.project, '--run', lines[2]!.split('run ').at(-1)!.trim()], { env: sb.env, encoding: 'utf8' });
    expect(resume.status).not.toBe(0);
    expect(resume.stderr).toContain('was abandoned for a newer goal');
  }, 180_000);
});
