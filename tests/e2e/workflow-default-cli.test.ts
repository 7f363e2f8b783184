// `erasmus workflow start` on the default path a new user has (one provider, a fresh `git init`
// folder, the built-in files and runners toolsets only): the scripted model, in xml tool mode, takes
// the folder to COMPLETED with a commit per component, a final commit and a clean tree.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedLlm, type ScriptedLlm } from '../fixtures/scripted-llm/index';
import { ARCH_AS_BUILT, defaultPathScript, defaultWorld, gitState, type DefaultWorld } from './workflow-default';
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

function runCli(args: string[], home: string, stdin?: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((res) => {
    const c = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, ERASMUS_HOME: home }, detached: true, stdio: [stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] });
    if (stdin !== undefined) c.stdin!.end(stdin);
    child = c;
    let stdout = '';
    let stderr = '';
    c.stdout!.on('data', (b: Buffer) => (stdout += b.toString()));
    c.stderr!.on('data', (b: Buffer) => (stderr += b.toString()));
    c.on('close', (code) => res({ code, stdout, stderr }));
  });
}

describe('erasmus workflow on the default path', () => {
  it('takes a fresh git folder to COMPLETED with the built-in toolsets: a commit per component, a final commit, a clean tree', async () => {
    llm = await startScriptedLlm(defaultPathScript('xml'));
    world = await defaultWorld(llm.baseUrl, { nativeTools: false });
    const r = await runCli(['workflow', 'start', world.project, '--goal', 'a function that adds two numbers, with tests', '--yes'], world.home);
    expect(r.stderr).toContain('■ Completed');
    expect(r.code, r.stderr).toBe(0);
    expect(llm.remaining()).toBe(0);
    // Every step could open its toolsets and call them: no warning, no unknown tool.
    expect(r.stderr).not.toMatch(/could not open toolset|Unknown tool|no tool named/i);
    // The user watches it in words: each tool call on a line, no internal state names, statuses or session ids.
    expect(r.stderr).toContain('→ adder · development\n    files: wrote src/adder.mjs\n');
    expect(r.stderr).toContain('→ Preparation · architecture');
    expect(r.stderr).not.toMatch(/\b(prepare|final|orchestration):[a-z_]+|\b[a-z]+:(development|testing|debugging|review|fixes|documentation|retesting|redebugging|commit)\b/);
    expect(r.stderr).not.toMatch(/\b(AWAITING_[A-Z_]+|RUNNING|COMPLETED|BLOCKED|PAUSED|STOPPED|RUNTIME_ERROR|PARSE_ERROR|INVALID_STATE)\b|\[[A-Z_]+\]/);
    expect(r.stderr).not.toMatch(/sessions\/|\.jsonl|session [0-9a-z-]{8,}/);
    expect(r.stderr.match(/\b[A-Za-z0-9-]+__[A-Za-z0-9_]+\b/)?.[0]).toBeUndefined(); // no `server__tool` id either
    expect(r.stderr).not.toContain('MaxListenersExceededWarning'); // a long run's signal is not leaked to, step after step
    const p = (rel: string) => join(world!.project, rel);
    expect(readFileSync(p('src/adder.mjs'), 'utf8')).toContain('/** Sum of a and b. */'); // the debugging overwrite was confirmed by --yes
    expect(readFileSync(p('docs/reviews/adder.md'), 'utf8')).toBe('# Review: adder\n\nVerdict: good. Add a doc comment.\n'); // the report only
    expect(readFileSync(p('docs/reviews/final.md'), 'utf8')).toBe('# Final review\n\nVerdict: no changes needed\n\nGood.\n');
    const git = gitState(world.project);
    expect(git.log).toEqual(['Add end-to-end tests and update the documentation', 'Add adder, which adds two numbers']);
    expect(git.dirty).toBe('');
    // The final commit holds the last phase's work: the end-to-end test, the README, the final review.
    const last = spawnSync('git', ['show', '--name-only', '--format=', 'HEAD'], { cwd: world.project, encoding: 'utf8' }).stdout;
    expect(last.split('\n').filter(Boolean).sort()).toEqual(['README.md', 'docs/reviews/final.md', 'test/e2e.test.mjs']);
    const status = await runCli(['workflow', 'status', world.project, '--json'], world.home);
    const view = JSON.parse(status.stdout) as { status: string; timeline: Array<{ state: string; outcome?: string; test?: { command: string } }> };
    expect(view.status).toBe('COMPLETED');
    expect(view.timeline.map((e) => `${e.state}=${e.outcome}`)).toEqual([
      'prepare:architecture=written', 'prepare:progress_schedule=written', 'prepare:task_list=written',
      'adder:development=done', 'adder:testing=tests-failed', 'adder:debugging=tests-passed', 'adder:review=done', 'adder:fixes=done',
      'adder:documentation=done', 'adder:retesting=tests-passed', 'adder:commit=committed', 'orchestration:adder=done',
      'final:testing=tests-passed', 'final:documentation=done', 'final:review=done', 'final:fixes=skipped', 'final:commit=committed',
    ]);
    // A fresh `git init` has nothing to branch from: the run worked on main, and finish says so rather than asking for a choice.
    const finish = await runCli(['workflow', 'finish', world.project], world.home);
    expect(finish.code).not.toBe(0);
    expect(finish.stderr).toContain('the run worked on the branch that was checked out (main): its commits are there already, with nothing to merge');
    // The schedule was brought up to date after the last component.
    const schedule = await runCli(['workflow', 'status', world.project], world.home);
    expect(schedule.code).toBe(0);
    const home = world.home;
    const scheduleFile = spawnSync('find', [home, '-name', 'progress_schedule.md'], { encoding: 'utf8' }).stdout.trim();
    expect(readFileSync(scheduleFile, 'utf8')).toContain('1. adder: finished');
    // The architecture was brought up to date at the end (the final documentation's context document).
    // As handed back, with the last line naming the final commit it describes.
    const arch = readFileSync(join(dirname(scheduleFile), 'architecture.md'), 'utf8');
    expect(arch).toMatch(/\n<!-- erasmus: describes commit [0-9a-f]{40} -->\n$/);
    expect(arch.replace(/<!-- erasmus: describes commit [0-9a-f]{40} -->\n$/, '').trim()).toBe(ARCH_AS_BUILT);
    // What the run verified, from the tests Erasmus ran (node --test's own report) and its commits.
    const report = await runCli(['workflow', 'report', world.project, '--json'], world.home);
    expect(report.code, report.stderr).toBe(0);
    const adderSha = spawnSync('git', ['rev-parse', 'HEAD~1'], { cwd: world.project, encoding: 'utf8' }).stdout.trim();
    expect(JSON.parse(report.stdout)).toMatchObject({
      goal: 'a function that adds two numbers, with tests',
      verified: true,
      tasks: [
        { id: 'A1', component: 'adder', tests: [{ name: 'A1: adds two numbers', passed: true }], commit: adderSha },
        { id: 'A2', component: 'adder', tests: [{ name: 'A2: adds a negative number', passed: true }], commit: adderSha },
      ],
    });
    const words = await runCli(['workflow', 'report', world.project], world.home);
    expect(words.stdout).toMatch(/^Verified: every task has passing tests that Erasmus ran\./);
  }, 240_000);

  it("a new user's first mistakes: no provider (what is missing, where config.yaml is, which flags name one), a folder that does not exist", async () => {
    llm = await startScriptedLlm([]);
    world = await defaultWorld(llm.baseUrl, { nativeTools: false });
    writeFileSync(join(world.home, 'config.yaml'), 'toolMode: xml\n'); // a home with settings but no provider
    const configYaml = join(world.home, 'config.yaml');
    const start = await runCli(['workflow', 'start', world.project, '--goal', 'a function that adds two numbers'], world.home);
    expect(start.code).not.toBe(0);
    expect(start.stderr).toContain(`No model to run the steps: no provider is configured (config.yaml lists none under \`providers:\`). Add one under providers: in ${configYaml} (or in the app's Settings → Providers), or pass --base-url URL --model NAME for an OpenAI-compatible endpoint.`);
    const chat = await runCli(['chat', '-p', 'hi'], world.home);
    expect(chat.code).not.toBe(0);
    expect(chat.stderr).toBe(`erasmus: no provider is configured (config.yaml lists none under \`providers:\`): add one under providers: in ${configYaml}, or pass --base-url URL --model NAME for an OpenAI-compatible endpoint\n`);
    // A folder not made yet: said as such, with how to make one (not "ENOENT: …, lstat").
    const missing = join(world.home, 'not-made');
    const nowhere = await runCli(['workflow', 'start', missing, '--goal', 'x', '--base-url', llm.baseUrl, '--model', 'm'], world.home);
    expect(nowhere.code).not.toBe(0);
    expect(nowhere.stderr).toBe(`erasmus: project folder not found: ${missing}. Give an existing folder; for a new project, make it first (mkdir -p ${missing} && git -C ${missing} init)\n`);
    expect(llm.requests).toHaveLength(0);
  }, 60_000);

  it('a step that stops to ask the user: the CLI says it needs their answer and how to give it (retry --answer), not that a step failed', async () => {
    // Played as a user: the design step asked which of two behaviours was meant; the CLI said "A step failed: …" and ended
    // with "to go on: fix the cause, then run the step again: erasmus workflow retry <dir>", which drops the answer.
    llm = await startScriptedLlm([
      { label: 'architecture asks', match: { lastUser: 'Write the architecture document' }, text: 'Cannot finish: should add() accept numeric strings ("2") or only numbers?' },
      { label: 'architecture asks again', match: { lastUser: 'Only numbers; reject strings.' }, text: 'Cannot finish: and NaN?' },
    ]);
    world = await defaultWorld(llm.baseUrl, { nativeTools: false });
    const r = await runCli(['workflow', 'start', world.project, '--goal', 'a function that adds two numbers, with tests'], world.home);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain('■ Blocked — needs you, at Preparation · architecture');
    expect(r.stderr).toContain('The step needs your answer: The step Preparation · architecture cannot finish: should add() accept numeric strings ("2") or only numbers?');
    expect(r.stderr).toContain(`to go on: answer it: erasmus workflow retry ${world.project} --answer TEXT ('-' reads the answer from stdin); or settle it yourself (the code, a test or the documents) and retry without --answer\n`);
    expect(r.stderr).not.toMatch(/A step failed|fix the cause/);
    // Its line on the timeline: it asked, it did not just "not finish".
    expect(r.stderr).toMatch(/\n {2}Preparation · architecture: stopped to ask you in [\d.]+ s/);
    // The same words later, from `workflow status`; the run's error says it asks (--json), for any face.
    const status = await runCli(['workflow', 'status', world.project], world.home);
    expect(status.stdout + status.stderr).toContain(`to go on: answer it: erasmus workflow retry ${world.project} --answer TEXT`);
    const view = JSON.parse((await runCli(['workflow', 'status', world.project, '--json'], world.home)).stdout) as { error?: { kind: string; asks?: boolean }; timeline: Array<{ state: string; outcome?: string; asked?: boolean }> };
    expect(view.error).toMatchObject({ kind: 'RUNTIME_ERROR', asks: true });
    expect(view.timeline).toMatchObject([{ state: 'prepare:architecture', outcome: 'not-done', asked: true }]);
    expect(llm.remaining()).toBe(1);
    // The answer piped in (--answer -): the step hears it, and the CLI says why it cannot ask for approvals (stdin gave
    // the answer) and how to keep them (the answer as text), not "run this from a terminal" to a user at one.
    const piped = await runCli(['workflow', 'retry', world.project, '--answer', '-'], world.home, 'Only numbers; reject strings.\n');
    expect(piped.code, piped.stderr).toBe(2);
    expect(piped.stderr).toContain('Standard input gave the answer (--answer -), so it cannot ask you for them');
    expect(piped.stderr).toContain('--answer "$(cat answer.txt)"');
    expect(piped.stderr).not.toContain('run this from a terminal');
    expect(llm.remaining()).toBe(0);
  }, 120_000);

  it('without a terminal and without --yes, a refused call is told to the model, which goes on; a step that cannot finish without its call blocks (not committed); retry --yes finishes', async () => {
    const full = defaultPathScript('xml');
    const dev = full.findIndex((t) => t.label === 'development');
    const at = full.findIndex((t) => t.label === 'debugging');
    llm = await startScriptedLlm([
      ...full.slice(0, dev),
      // Development first tries a command that needs the network (so an approval): refused, it goes on and writes the code.
      { label: 'development asks', match: { lastUser: 'Implement the open tasks' }, text: 'Checking the registry first.\n<runners__bash_run>\n<command>curl -s https://registry.npmjs.org/</command>\n</runners__bash_run>\n' },
      { ...full[dev]!, match: { last: 'nobody could be asked' } },
      ...full.slice(dev + 1, at + 1),
      // The overwrite is refused (nobody to ask): the fix cannot be made without it, and the model says so.
      { label: 'debugging cannot finish', match: { last: 'nobody could be asked' }, text: 'Cannot finish: the fix of add() in src/adder.mjs overwrites the file, which needs an approval.\n=== CONTEXT DOCUMENT ===\n# Component: adder\n\n## Notes\n- debugging: the fix of add() waits for an approval\n=== END CONTEXT DOCUMENT ===\n' },
      ...full.slice(at),
    ]);
    world = await defaultWorld(llm.baseUrl, { nativeTools: false });
    const first = await runCli(['workflow', 'start', world.project, '--goal', 'a function that adds two numbers, with tests'], world.home);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toContain('erasmus workflow approve');
    const blocked = await runCli(['workflow', 'approve', world.project], world.home);
    expect(blocked.code, blocked.stderr).toBe(2);
    expect(blocked.stderr).toMatch(/■ Blocked — needs you, at adder · debugging/);
    expect(blocked.stderr).toMatch(/The step adder · debugging cannot finish: the fix of add\(\) in src\/adder\.mjs overwrites the file, which needs an approval\. 1 call\(s\) needs approval; nobody could be asked \(the files tool “write file”\)/);
    expect(blocked.stderr).toContain(`erasmus workflow retry ${world.project} --yes`);
    // The CLI's timeline says, under the step that went on, what was not run.
    expect(blocked.stderr).toMatch(/ {2}adder · development: done in [^\n]*\n {4}note: 1 call\(s\) not run, as nobody could approve them \(the runners tool “bash run”\); the step went on without them\n/);
    // A blocked run's lines are in words too: no `server__tool` id, no `a:b` state name.
    expect(blocked.stderr).not.toMatch(/\b[A-Za-z0-9-]+__[A-Za-z0-9_]+\b|\b(prepare|final|orchestration|adder):[a-z_]+\b/);
    expect(readFileSync(join(world.project, 'src/adder.mjs'), 'utf8')).toContain('a - b'); // nothing was changed
    expect(spawnSync('git', ['rev-list', '--all', '--count'], { cwd: world.project, encoding: 'utf8' }).stdout.trim()).toBe('0'); // and nothing committed
    // The model was told in words for a model (no command line meant for the user), with how to say it cannot finish.
    const refusal = llm.requests.find((q) => JSON.stringify(q.body).includes('nobody could be asked'))!;
    const refused = JSON.stringify((refusal.body as { messages: unknown[] }).messages.at(-1));
    expect(refused).toContain('the user is not there to answer now; go on without it, and say in your final answer what you needed and why. Only if this step cannot be done without it, begin a line of your final answer with `Cannot finish:`');
    expect(refused).not.toContain('--yes');
    // The development step went on without its refused command: done, and its timeline entry says what was not run.
    const view = JSON.parse((await runCli(['workflow', 'status', world.project, '--json'], world.home)).stdout) as { timeline: Array<{ state: string; outcome?: string; note?: string }> };
    expect(view.timeline.find((e) => e.state === 'adder:development')).toMatchObject({ outcome: 'done', note: '1 call(s) not run, as nobody could approve them (the runners tool “bash run”); the step went on without them' });
    expect(view.timeline.find((e) => e.state === 'adder:testing')?.outcome).toBe('tests-failed');
    const componentDoc = spawnSync('find', [world.home, '-path', '*components/adder.md'], { encoding: 'utf8' }).stdout.trim();
    expect(readFileSync(componentDoc, 'utf8')).toContain('the fix of add() waits for an approval');
    expect(blocked.stderr).toContain('The rest of the step\'s work and its notes are kept');
    const before = llm.requests.length;
    // The user answers what it stopped for with the retry (--answer), and approves the calls (--yes).
    const retried = await runCli(['workflow', 'retry', world.project, '--yes', '--answer', 'Overwrite src/adder.mjs: the fix is approved.'], world.home);
    expect(retried.stderr).toContain('■ Completed');
    // The retried step's prompt says it is a retry, what happened before, and the user's answer.
    const again = JSON.stringify(llm.requests[before]!.body);
    expect(again).toContain('## This is a retry');
    expect(again).toContain('This step ran before, and the run stopped there: it said it cannot finish without the user, so the run stopped for them. The user answered (their answer is below) and ran this step again: do the step now, as their answer says');
    expect(again).toContain("The user's answer, given with a retry of this step (it settles what the step stopped for; where it differs from the documents, the answer holds):\\n\\n```\\nOverwrite src/adder.mjs: the fix is approved.\\n```");
    // In words for the model: what the attempt wrote last, and none of the user's command lines.
    expect(again).toMatch(/What it wrote last, before the run stopped \(the user read it, then ran this step again\):\\n\\n```\\nCannot finish: /);
    expect(again).not.toContain('erasmus workflow retry');
    expect(retried.code, retried.stderr).toBe(0);
    expect(llm.remaining()).toBe(0);
    expect(gitState(world.project).log).toEqual(['Add end-to-end tests and update the documentation', 'Add adder, which adds two numbers']);
  }, 240_000);
});
