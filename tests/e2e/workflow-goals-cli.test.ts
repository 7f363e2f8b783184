// A project lives through many goals: a second `erasmus workflow start --goal` on a finished project
// updates its documents for the new goal (the architecture in sight), develops only the new
// component, commits it by name, keeps the first goal's commits, and `workflow list` shows both runs.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedLlm, type ScriptedLlm } from '../fixtures/scripted-llm/index';
import { ARCH_AS_BUILT, defaultPathScript, defaultWorld, driftFixScript, gitState, secondGoalScript, TASKS_2, type DefaultWorld } from './workflow-default';
import { CLI, ensureBuilt, killGroup } from './workflow-helpers';

let llm: ScriptedLlm | undefined;
let world: DefaultWorld | undefined;
let child: ChildProcess | undefined;
afterEach(async () => {
  killGroup(child);
  child = undefined;
  await llm?.close();
  llm = undefined;
  if (world) rmSync(world.root, { recursive: true, force: true });
  world = undefined;
});

beforeAll(() => {
  ensureBuilt();
}, 180_000);

function runCli(args: string[], home: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((res) => {
    const c = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, ERASMUS_HOME: home }, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    child = c;
    let stdout = '';
    let stderr = '';
    c.stdout!.on('data', (b: Buffer) => (stdout += b.toString()));
    c.stderr!.on('data', (b: Buffer) => (stderr += b.toString()));
    c.on('close', (code) => res({ code, stdout, stderr }));
  });
}

/** Every message of a recorded request, as one text. */
const textOf = (body: unknown) => JSON.stringify((body as { messages: unknown[] }).messages);

describe('a second goal on a finished project', () => {
  it('is planned with the architecture in sight, develops only the new component, and both runs are listed', async () => {
    llm = await startScriptedLlm([...defaultPathScript('xml'), ...secondGoalScript('xml'), ...driftFixScript('xml')]);
    world = await defaultWorld(llm.baseUrl, { nativeTools: false });
    const first = await runCli(['workflow', 'start', world.project, '--goal', 'a function that adds two numbers, with tests', '--yes'], world.home);
    expect(first.code, first.stderr).toBe(0);
    const firstLog = gitState(world.project).log;
    const before = llm.requests.length;

    // The final gate's command is set at plan review (--final-test, as the plan card's field does): it runs as written.
    const finalTest = 'node --test test/e2e.test.mjs test/adder.test.mjs test/sub.test.mjs';
    const second = await runCli(['workflow', 'start', world.project, '--goal', 'Add sub(a, b) that subtracts', '--yes', '--final-test', finalTest], world.home);
    expect(second.code, second.stderr).toBe(0);
    // The plan shown for approval keeps the finished component and says it is not developed again.
    expect(second.stderr).toMatch(/1\. adder — adds two numbers .*\(done: not developed again\)/);
    expect(second.stderr).toMatch(/\[ \] S1: Implement sub/);

    // The design step saw the architecture as built for the first goal, and the new goal.
    const later = llm.requests.slice(before);
    const design = later.find((r) => textOf(r.body).includes('The project already has an architecture'));
    expect(design).toBeDefined();
    expect(textOf(design!.body)).toContain(JSON.stringify(ARCH_AS_BUILT).slice(1, -1));
    expect(textOf(design!.body)).toContain('Goal of this run');
    expect(textOf(design!.body)).toContain('Add sub(a, b) that subtracts');
    // The final review was shown what this goal changed.
    const review = later.find((r) => textOf(r.body).includes('Review the whole product'));
    const changed = /## What this goal changed\\n\\n`+markdown\\n(.*?)\\n`+/.exec(textOf(review!.body))?.[1];
    expect(changed).toBe('- added: docs/reviews/subtractor.md\\n- added: src/sub.mjs\\n- added: test/sub.test.mjs');

    // Only the new component ran; the first goal's commits stay in history.
    const git = gitState(world.project);
    expect(git.log).toEqual(['Update the documentation', 'Add subtractor, which subtracts two numbers', ...firstLog]); // subjects in the style the log shows
    expect(git.dirty).toBe('');
    const status = JSON.parse((await runCli(['workflow', 'status', world.project, '--json'], world.home)).stdout) as {
      goal: string; newGoal?: boolean; plan: { finalTestCommand?: string; finalTestCommandByUser?: boolean };
      timeline: Array<{ state: string; outcome?: string; test?: { command: string; traced?: boolean; tests?: Array<{ name: string; passed: boolean }> } }>;
    };
    expect(status.plan).toMatchObject({ finalTestCommand: finalTest, finalTestCommandByUser: true });
    const gate = status.timeline.find((e) => e.state === 'final:testing')!.test!;
    expect(gate).toMatchObject({ command: finalTest, traced: true });
    expect(gate.tests!.map((t) => t.name).sort()).toEqual(['A1: adds two numbers', 'A2: adds a negative number', 'S1: subtracts', 'S2: subtracts a larger number', 'a user adds from the command line']);
    expect(status.goal).toBe('Add sub(a, b) that subtracts');
    expect(status.newGoal).toBe(true);
    expect(status.timeline.filter((e) => e.state.startsWith('adder:'))).toEqual([]);
    expect(status.timeline.map((e) => `${e.state}=${e.outcome}`).slice(0, 4)).toEqual(['prepare:architecture=written', 'prepare:progress_schedule=written', 'prepare:task_list=written', 'subtractor:development=done']);

    // The task list keeps the first goal's tasks done and has the new ones done too.
    const taskListFile = execFileSync('find', [world.home, '-name', 'task_list.md'], { encoding: 'utf8' }).trim();
    const taskList = readFileSync(taskListFile, 'utf8');
    expect(taskList).toBe(TASKS_2.replace(/\[ \]/g, '[x]'));

    // `workflow list` shows the project's goals, newest first.
    const list = await runCli(['workflow', 'list', '--project', world.project], world.home);
    expect(list.code, list.stderr).toBe(0);
    const lines = list.stdout.trim().split('\n');
    expect(lines[0]).toBe(world.project);
    expect(lines[1]).toMatch(/Completed\s+Add sub\(a, b\) that subtracts/);
    expect(lines[2]).toMatch(/Completed\s+a function that adds two numbers, with tests/);

    // The code changes after the documents were written: drift lists the adder's document and the architecture,
    // and `--fix` brings exactly those up to date (a documentation step each), commits, and stamps them again.
    const docsAt = gitState(world.project).log;
    // Right after the run nothing drifted (the final documentation rewrote the README the adder's commit holds: not its subject).
    expect((await runCli(['workflow', 'drift', world.project], world.home)).stdout).toBe('No document drifted: each describes its subject as committed.\n');
    writeFileSync(join(world.project, 'src', 'adder.mjs'), '/** Sum of a and b, rounded. */\nexport function add(a, b) {\n  return Math.round(a + b);\n}\n');
    execFileSync('git', ['commit', '-qam', 'Round the sum'], { cwd: world.project });
    const drift = await runCli(['workflow', 'drift', world.project], world.home);
    expect(drift.stdout).toMatch(/^architecture \(.*\) describes commit [0-9a-f]{12}; changed since: src\/adder\.mjs\ncomponent adder \(.*\) describes commit [0-9a-f]{12}; changed since: src\/adder\.mjs\n/);
    expect(drift.stdout).toContain(`erasmus workflow drift ${world.project} --fix`);
    const beforeFix = llm.requests.length;
    const fix = await runCli(['workflow', 'drift', world.project, '--fix', '--yes'], world.home);
    expect(fix.code, fix.stderr).toBe(0);
    expect(llm.remaining()).toBe(0);
    const fixRequests = llm.requests.slice(beforeFix).map((r) => textOf(r.body));
    expect(fixRequests.find((t) => t.includes('The code of this component changed'))).toContain(JSON.stringify('+  return Math.round(a + b);').slice(1, -1)); // the diff since
    expect(gitState(world.project)).toEqual({ log: ['Update the documentation', 'Round the sum', ...docsAt], dirty: '' });
    expect(execFileSync('git', ['show', '--name-only', '--format=', 'HEAD'], { cwd: world.project, encoding: 'utf8' }).trim()).toBe('README.md');
    const head = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: world.project, encoding: 'utf8' }).trim();
    const adderDoc = readFileSync(execFileSync('find', [world.home, '-path', '*components/adder.md'], { encoding: 'utf8' }).trim(), 'utf8');
    expect(adderDoc).toMatch(new RegExp(`add\\(a, b\\) rounds the sum \\(src/adder\\.mjs\\)\n\n<!-- erasmus: describes commit ${head}, files of commit [0-9a-f]{40} -->\n$`));
    expect((await runCli(['workflow', 'drift', world.project], world.home)).stdout).toBe('No document drifted: each describes its subject as committed.\n');
  }, 360_000);
});
