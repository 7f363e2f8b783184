// Ctrl-C on `erasmus workflow start` in a real terminal (node-pty: the terminal's driver sends SIGINT to the
// foreground process group, as a user's key does), while a step runs: the run stops and is saved, the command
// says how to go on and ends with 130; more Ctrl-Cs while it saves neither kill it before the save nor break the run file.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { spawn as spawnPty } from 'node-pty';
import stripAnsi from 'strip-ansi';
import { describe, expect, it } from 'vitest';
import { RunRecord } from '../../electron/main/workflow/run-record';
import { usePtyWorld } from './pty-world';
import { CLI, MODEL, sandbox } from './workflow-helpers';

const w = usePtyWorld();

/**
 * `erasmus workflow start` in a terminal, its first step held by the scripted model until the test lets it go. The step's
 * command also leaves a process of its own session holding the step's output for 3 s (a daemon a step's agent left): a stop
 * reads that output for up to 5 s after the kill (OUTPUT_AFTER_EXIT_MS), so a Ctrl-C pressed again within 3 s lands while
 * the run is saving, on any machine.
 */
async function startHeld(): Promise<Started> {
  const t = await start(['--yes'], true);
  // The step is under way: its entry is open in the run file, and its command's process of its own has started.
  await t.waitFor('→ Preparation · architecture');
  const daemon = join(w.sb!.root, 'daemon-started');
  const deadline = Date.now() + 30_000;
  while (!t.run()?.timeline.some((e) => e.state === 'prepare:architecture' && !e.leftAt) || !existsSync(daemon)) {
    if (Date.now() > deadline) throw new Error('the step did not start');
    await new Promise((r) => setTimeout(r, 25));
  }
  return t;
}

interface Started {
  screen: () => string;
  exited: Promise<number | string>;
  run: () => RunRecord | undefined;
  waitFor: (text: string) => Promise<void>;
}

/** `held`: the first step is held, and its command leaves the process that holds its output (startHeld). */
async function start(extra: string[], held: boolean): Promise<Started> {
  w.sb = await sandbox();
  const hold = join(w.sb.root, 'hold');
  const daemon = join(w.sb.root, 'daemon-started');
  if (held) {
    writeFileSync(hold, '');
    await w.sb.setControl({ holdAt: 'prepare:architecture', holdFile: hold });
  }
  const command = held ? `setsid sh -c 'touch ${daemon}; exec sleep 3' & node ${MODEL}` : `node ${MODEL}`;
  let screen = '';
  w.pty = spawnPty(process.execPath, [CLI, 'workflow', 'start', w.sb.project, '--goal', 'add numbers', '--executor', 'command', '--command', command, ...extra], {
    cwd: w.sb.project,
    cols: 200,
    rows: 50,
    env: w.sb.env as Record<string, string>,
  });
  w.pty.onData((d) => (screen += d));
  // Its exit code, or the signal that killed it (the process must end by itself, not be killed by a Ctrl-C).
  const exited = new Promise<number | string>((r) => w.pty!.onExit((e) => r(e.signal ? `killed by signal ${e.signal}` : e.exitCode)));
  const runsDir = w.sb.paths.runsDir(w.sb.project);
  const run = () => {
    const f = existsSync(runsDir) ? readdirSync(runsDir).find((n) => n.endsWith('.json')) : undefined;
    return f ? RunRecord.parse(JSON.parse(readFileSync(join(runsDir, f), 'utf8'))) : undefined;
  };
  const waitFor = async (text: string) => {
    const deadline = Date.now() + 30_000;
    while (!stripAnsi(screen).includes(text)) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${JSON.stringify(text)}; screen:\n${stripAnsi(screen)}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  };
  return { screen: () => stripAnsi(screen), exited, run, waitFor };
}

function status(): string {
  return spawnSync(process.execPath, [CLI, 'workflow', 'status', w.sb!.project], { env: w.sb!.env, encoding: 'utf8' }).stdout;
}

describe('Ctrl-C on erasmus workflow start', () => {
  it('stops the run, records the step stopped, says how to go on and exits 130; a second Ctrl-C while it saves says so and does not kill it', async () => {
    const t = await startHeld();
    w.pty!.write('\u0003');
    await t.waitFor('Stopping the run');
    // The user presses it again (before, the first handler was gone and this one killed the process: the run read interrupted).
    w.pty!.write('\u0003');
    await t.waitFor('Still saving the run');
    expect(await t.exited, t.screen()).toBe(130);
    const screen = t.screen();
    expect(screen).toContain('■ Stopped, at Preparation · architecture');
    expect(screen).toContain(`go on with: erasmus workflow resume ${w.sb!.project}`);
    const record = t.run()!;
    expect(record.status).toBe('STOPPED');
    expect(record.timeline.at(-1)).toMatchObject({ state: 'prepare:architecture', outcome: 'aborted' });
    expect(status()).toMatch(/^run \S+: Stopped, at Preparation · architecture\n/);
  });

  it('a third Ctrl-C while it saves quits at once, with 130, leaving the run file whole: interrupted, to resume', async () => {
    const t = await startHeld();
    w.pty!.write('\u0003');
    const pressed = Date.now();
    await t.waitFor('Stopping the run');
    w.pty!.write('\u0003');
    await t.waitFor('Still saving the run');
    w.pty!.write('\u0003');
    expect(await t.exited, t.screen()).toBe(130);
    expect(Date.now() - pressed).toBeLessThan(2500); // it did not wait for the save (held 3 s)
    expect(t.screen()).toContain(`Quit without waiting: the run file is as last saved; the run reads interrupted and erasmus workflow resume ${w.sb!.project} takes it up`);
    // The file parses as a run (written whole or not at all), and the status says how to take it up.
    expect(t.run()!.status).toBe('RUNNING');
    expect(status()).toMatch(/^run \S+: Interrupted — nothing is driving it, at Preparation · architecture\n/);
    expect(status()).toContain(`erasmus workflow resume ${w.sb!.project}`);
  });

  it('Ctrl-C at the plan question quits with 130 and leaves the plan waiting, saying how to approve it', async () => {
    const t = await start([], false);
    await t.waitFor('Start development with this plan? [y/N]');
    w.pty!.write('\u0003');
    // Before: "erasmus: interrupted (Ctrl-C)" and 1, as for an error.
    expect(await t.exited, t.screen()).toBe(130);
    expect(t.screen()).toMatch(new RegExp(`the plan waits for your review \\(the architecture it follows: [^)]+architecture\\.md\\): approve it with erasmus workflow approve ${w.sb!.project.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    expect(t.screen()).not.toContain('erasmus: interrupted');
    expect(t.run()!.status).toBe('AWAITING_APPROVAL');
  });
});
