import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CLI, ensureBuilt, gitLog, killGroup, sandbox, type Sandbox } from './workflow-helpers';

const TWO = resolve(__dirname, '../fixtures/workflow/two-components-model.mjs');

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

type Entry = { state: string; outcome?: string; rewound?: boolean; checkpoint?: string; commit?: string };
type Checkpoint = { id: string; state: string; at: string; commit?: string; kind: string };

describe('erasmus workflow rewind', () => {
  it('takes a finished two-component run back to before the second development step, shell effects included, and resume completes it again', async () => {
    sb = await sandbox();
    const project = sb.project;
    const git = (...args: string[]) => execFileSync('git', args, { cwd: project, encoding: 'utf8' }).trim();
    const first = await runCli(['workflow', 'start', project, '--goal', 'add and multiply', '--executor', 'command', '--command', `node ${TWO}`, '--yes'], sb.env);
    expect(first.stderr).toContain('■ Completed');
    expect(first.code).toBe(0);
    expect(gitLog(project)).toEqual(['update the documentation', 'implement multiply(a, b) in src/multiply.mjs', 'add adder, which adds two numbers', 'initial']);
    expect(existsSync(join(project, 'notes.txt'))).toBe(true);
    expect(readFileSync(join(project, 'src/adder.mjs'), 'utf8')).toContain('Adds of a and b');
    const finalHead = git('rev-parse', 'HEAD');
    const adderCommit = git('rev-parse', 'HEAD~2');

    // One checkpoint before every step, oldest first, each naming the state it precedes and HEAD then.
    const listed = await runCli(['workflow', 'checkpoints', project, '--json'], sb.env);
    expect(listed.code).toBe(0);
    const checkpoints = JSON.parse(listed.stdout) as Checkpoint[];
    const runFile = join(sb.paths.runsDir(project), readdirSync(sb.paths.runsDir(project)).find((f) => f.endsWith('.json'))!);
    const done = JSON.parse(readFileSync(runFile, 'utf8')) as { timeline: Entry[] };
    expect(checkpoints.map((c) => c.state)).toEqual(done.timeline.map((e) => e.state));
    expect(checkpoints.map((c) => c.id)).toEqual(done.timeline.map((e) => e.checkpoint));
    expect([...checkpoints].sort((a, b) => a.at.localeCompare(b.at))).toEqual(checkpoints);
    const target = checkpoints.find((c) => c.state === 'multiplier:development')!;
    expect(target).toMatchObject({ kind: 'step', commit: adderCommit });
    expect(Object.keys(target).sort()).toEqual(expect.arrayContaining(['id', 'state', 'at', 'commit']));

    // Without --yes and without a terminal: the preview, and a refusal that says how to confirm.
    const asked = await runCli(['workflow', 'rewind', project, '--to', target.id], sb.env);
    expect(asked.code).not.toBe(0);
    expect(asked.stderr).toContain('~ README.md');
    expect(asked.stderr).toContain('- notes.txt');
    expect(asked.stderr).toContain('~ src/adder.mjs');
    expect(asked.stderr).toMatch(/commits undone .*: 2/);
    expect(asked.stderr).toContain('pass --yes');
    expect(git('rev-parse', 'HEAD')).toBe(finalHead);

    const rewound = await runCli(['workflow', 'rewind', project, '--to', target.id, '--yes', '--json'], sb.env);
    expect(rewound.code).toBe(0);
    const result = JSON.parse(rewound.stdout) as { status: string; state: string; undo: Checkpoint; commitsUndone: unknown[] };
    expect(result).toMatchObject({ status: 'PAUSED', state: 'multiplier:development' });
    expect(result.commitsUndone).toHaveLength(2);

    // The tree and HEAD of that moment: the adder's commit, clean; the shell's effects undone.
    expect(git('rev-parse', 'HEAD')).toBe(adderCommit);
    expect(git('status', '--porcelain', '--untracked-files=all')).toBe('');
    expect(existsSync(join(project, 'README.md'))).toBe(true);
    expect(existsSync(join(project, 'notes.txt'))).toBe(false);
    expect(existsSync(join(project, 'src/multiply.mjs'))).toBe(false);
    expect(readFileSync(join(project, 'src/adder.mjs'), 'utf8')).toContain('Returns the sum');
    // The undone commits stay reachable.
    expect(git('rev-parse', `refs/erasmus/rewound/${result.undo.id}`)).toBe(finalHead);

    // The run waits at that step; the steps after it are marked rewound; what was left is a checkpoint.
    const status = JSON.parse((await runCli(['workflow', 'status', project, '--json'], sb.env)).stdout) as { status: string; state: string; timeline: Entry[] };
    expect(status).toMatchObject({ status: 'PAUSED', state: 'multiplier:development' });
    const from = status.timeline.findIndex((e) => e.state === 'multiplier:development');
    expect(status.timeline.slice(0, from).every((e) => !e.rewound)).toBe(true);
    expect(status.timeline.slice(from).every((e) => e.rewound)).toBe(true);
    const after = JSON.parse((await runCli(['workflow', 'checkpoints', project, '--json'], sb.env)).stdout) as Checkpoint[];
    expect(after.at(-1)).toMatchObject({ id: result.undo.id, kind: 'rewind', state: 'completed', commit: finalHead });

    const resumed = await runCli(['workflow', 'resume', project], sb.env);
    expect(resumed.stderr).toContain('■ Completed');
    expect(resumed.code).toBe(0);
    expect(gitLog(project)).toEqual(['update the documentation', 'implement multiply(a, b) in src/multiply.mjs', 'add adder, which adds two numbers', 'initial']);
    expect(git('rev-parse', 'HEAD~2')).toBe(adderCommit);
    expect(existsSync(join(project, 'notes.txt'))).toBe(true);
    const end = JSON.parse(readFileSync(runFile, 'utf8')) as { status: string; timeline: Entry[] };
    expect(end.status).toBe('COMPLETED');
    const again = end.timeline.filter((e) => !e.rewound).map((e) => e.state);
    expect(again).toEqual(done.timeline.map((e) => e.state));
  }, 240_000);
});
