// `erasmus workflow start` on a folder that is no git repository: a run there commits nothing, so the user hears it
// before anything runs. On a terminal (node-pty) they are asked to make one (git init); without one, it is said with the fix.
import { existsSync, rmSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { spawn as spawnPty } from 'node-pty';
import stripAnsi from 'strip-ansi';
import { describe, expect, it } from 'vitest';
import { usePtyWorld } from './pty-world';
import { CLI, MODEL, sandbox, type Sandbox } from './workflow-helpers';

const w = usePtyWorld();

/** The sample project without its repository. */
async function noGit(): Promise<Sandbox> {
  w.sb = await sandbox();
  rmSync(join(w.sb.project, '.git'), { recursive: true, force: true });
  return w.sb;
}

const START = (s: Sandbox) => [CLI, 'workflow', 'start', s.project, '--goal', 'add numbers', '--executor', 'command', '--command', `node ${MODEL}`];

describe('erasmus workflow start on a folder without git', () => {
  it('on a terminal: asks to make a repository, makes it on yes, and the run goes on in it', async () => {
    const s = await noGit();
    let screen = '';
    w.pty = spawnPty(process.execPath, START(s), { cwd: s.project, cols: 200, rows: 50, env: s.env as Record<string, string> });
    w.pty.onData((d) => (screen += d));
    const exited = new Promise<number>((r) => w.pty!.onExit((e) => r(e.exitCode)));
    const waitFor = async (text: string) => {
      for (const deadline = Date.now() + 30_000; !stripAnsi(screen).includes(text); await new Promise((r) => setTimeout(r, 25))) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${JSON.stringify(text)}; screen:\n${stripAnsi(screen)}`);
      }
    };
    await waitFor(`${s.project} is not a git repository, so a run here commits nothing (a commit after each component needs one). Make one here now (git init, and a first commit of the files here)? [Y/n]`);
    expect(existsSync(join(s.project, '.git'))).toBe(false);
    w.pty.write('\r');
    await waitFor(`Made a git repository in ${s.project}, its `);
    expect(existsSync(join(s.project, '.git'))).toBe(true);
    // The files that were there are its first commit: the run's commits hold only its own work.
    expect(spawnSync('git', ['log', '--format=%s'], { cwd: s.project, encoding: 'utf8' }).stdout.trim()).toBe('Initial commit: the files as they were before Erasmus');
    // The run was loaded in the repository: it has its place in git, so its components are committed.
    await waitFor('Start development with this plan? [y/N]');
    const status = JSON.parse(spawnSync(process.execPath, [CLI, 'workflow', 'status', s.project, '--json'], { env: s.env, encoding: 'utf8' }).stdout) as { git?: { mode: string } };
    expect(status.git).toMatchObject({ mode: 'branch' });
    w.pty.write('\u0003');
    expect(await exited).toBe(130);
  }, 90_000);

  it('without a terminal: says so with the fix, changes nothing, and the run goes on', async () => {
    const s = await noGit();
    const r = spawnSync(process.execPath, START(s), { cwd: s.project, env: s.env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    expect(r.stderr).toContain(`note: ${s.project} is not a git repository, so a run here commits nothing (a commit after each component needs one). To have them, run \`git init\` there before starting.`);
    expect(existsSync(join(s.project, '.git'))).toBe(false);
    expect(r.stderr).toContain('erasmus workflow approve');
  }, 90_000);
});
