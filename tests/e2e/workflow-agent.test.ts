// The workflow with the real agent loop: every step is an agent session against the scripted
// OpenAI-compatible model, which writes files through Erasmus's built-in files toolset.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { approvalPath } from '../../electron/main/agent/approval-path';
import { Core } from '../../electron/main/api/core';
import { attachBuiltinServers } from '../../electron/servers/builtin';
import { startScriptedLlm, type ScriptedLlm } from '../fixtures/scripted-llm/index';
import { adderClosingSteps, EXPECTED, finishedStates, gitLog, sandbox, step, type Sandbox } from './workflow-helpers';

const ROOT = resolve(__dirname, '../..');
let sb: Sandbox | undefined;
let core: Core | undefined;
let llm: ScriptedLlm | undefined;
afterEach(async () => {
  await core?.dispose();
  await llm?.close();
  await sb?.cleanup();
  core = undefined;
  llm = undefined;
  sb = undefined;
});

const TASKS = '# Task list\n\n## Component: adder — adds two numbers\nTest: node --test test/\n- [ ] A1: Implement add(a, b) in src/adder.mjs\n- [ ] A2: Test add\n';


/** A core as a face has it: the hub on the project and the built-in files and runners toolsets, unattended. */
async function builtinCore(s: Sandbox): Promise<Core> {
  const c = new Core({ face: 'cli', home: s.home, env: s.env });
  await c.hub.start({ projectDir: s.project, watch: false });
  c.hub.setElicitationHandler(approvalPath({ yes: true }).elicitation);
  await attachBuiltinServers(c, { root: s.project });
  return c;
}

describe('workflow with the agent loop and the scripted model', () => {
  it('runs every step as an agent session that edits the project through MCP', async () => {
    sb = await sandbox();
    const p = (rel: string) => join(sb!.project, rel);
    const doc = sb.paths.componentDoc(sb.project, 'adder');
    const seedNote = (line: string) => `# Component: adder\n\n## Notes\n- ${line}\n`;
    llm = await startScriptedLlm([
      ...step('Write the architecture document', 'architecture', [], '# Architecture\n\nOne component, adder: add(a, b).\n'),
      ...step('Break the architecture into a progress schedule', 'schedule', [], '# Schedule\n\n1. adder\n'),
      ...step('Turn the progress schedule into a task list', 'task list', [], TASKS),
      ...step('Implement the open tasks', 'development', [[p('src/adder.mjs'), 'export function add(a, b) {\n  return a - b;\n}\n']], `Implemented.\n=== CONTEXT DOCUMENT ===\n${seedNote('development: add() in src/adder.mjs')}=== END CONTEXT DOCUMENT ===\n`),
      ...step('Write the tests of this component', 'testing', [[p('test/adder.test.mjs'), "import { test } from 'node:test';\nimport assert from 'node:assert/strict';\nimport { add } from '../src/adder.mjs';\ntest('A1: adds two numbers', () => assert.equal(add(2, 3), 5));\ntest('A2: adds a negative number', () => assert.equal(add(-1, 1), 0));\n"]], 'Tests written. Done.'),
      ...step('The tests fail (output below)', 'debugging', [[p('src/adder.mjs'), 'export function add(a, b) {\n  return a + b;\n}\n']], 'Fixed the operator. Done.'),
      ...step('Review this component', 'review', [], '# Review: adder\n\nVerdict: good. Add a doc comment.\n'),
      ...step('Address every point of the review report', 'fixes', [[p('src/adder.mjs'), '/** Sum of a and b. */\nexport function add(a, b) {\n  return a + b;\n}\n']], 'Addressed. Done.'),
      ...adderClosingSteps(p('README.md')),
    ]);
    core = await builtinCore(sb);

    const terminals: string[] = [];
    core.bus.onEvent('terminal.opened', (t) => terminals.push(t.title));
    const wf = core.workflow;
    const { runId } = await wf.load({ projectDir: sb.project, goal: 'add numbers', executor: { kind: 'agent', baseUrl: llm.baseUrl, model: 'scripted', toolMode: 'native', autoApprove: true } });
    await wf.start(runId);
    let view = await wf.waitForRest(runId, 60_000);
    expect(view.error).toBeUndefined();
    expect(view.status).toBe('AWAITING_APPROVAL');
    await wf.approve(runId);
    view = await wf.waitForRest(runId, 120_000);
    expect(view.error).toBeUndefined();
    expect(view.status).toBe('COMPLETED');
    expect(finishedStates(view.timeline)).toEqual(EXPECTED);
    expect(llm.remaining()).toBe(0);
    // The tests ran through the runners' PTYs (live in the terminal view): failing, passing, passing, then the final
    // gate (the project's whole suite, once: package.json's test script is the components' command); the commits
    // too (the repository's hooks run where the tests run).
    expect(terminals).toEqual(['tests: node --test test/', 'tests: node --test test/', 'tests: node --test test/', 'commit: add adder, which adds two numbers', 'tests: npm test --silent', 'commit: update the documentation']);
    // Real files, really tested, reviewed and committed; each step has its session log and usage.
    expect(readFileSync(p('src/adder.mjs'), 'utf8')).toContain('/** Sum of a and b. */');
    expect(readFileSync(p('docs/reviews/adder.md'), 'utf8')).toContain('# Review: adder');
    expect(gitLog(sb.project).slice(0, 2)).toEqual(['update the documentation', 'add adder, which adds two numbers']);
    const dev = view.timeline.find((e) => e.state === 'adder:development')!;
    expect(dev.sessionLog).toMatch(/sessions\/.+\.jsonl$/);
    expect(dev.usage?.totalTokens).toBeGreaterThan(0);
    // The context swap: the testing session was given the note the development session wrote.
    const testingRequest = llm.requests.find((r) => JSON.stringify(r.body.messages).includes('Write the tests of this component'))!;
    expect(JSON.stringify(testingRequest.body.messages)).toContain('development: add() in src/adder.mjs');
    expect(readFileSync(doc, 'utf8')).toContain('development: add() in src/adder.mjs');
  });

  it('a model that never finishes spends the step budget: the run blocks, the work so far is kept', async () => {
    sb = await sandbox();
    const p = (rel: string) => join(sb!.project, rel);
    // A development protocol with a 3-turn budget (project override); the model lists the folder forever.
    const builtin = readFileSync(join(ROOT, 'resources/protocols/development.md'), 'utf8');
    mkdirSync(p('.erasmus/protocols'), { recursive: true });
    writeFileSync(p('.erasmus/protocols/development.md'), builtin.replace(/maxTurns: \d+/, 'maxTurns: 3'));
    await sb.trust();
    llm = await startScriptedLlm([
      { label: 'first write', match: { lastUser: 'Implement the open tasks' }, toolCalls: [{ name: 'files__write_file', arguments: { path: 'wip.txt', content: 'half done' } }] },
      { label: 'busy', repeat: true, toolCalls: [{ name: 'files__list', arguments: { path: '.' } }] },
    ]);
    core = await builtinCore(sb);
    const wf = core.workflow;
    await wf.writeDoc(sb.project, { doc: 'architecture' }, '# Architecture\n\nadder\n');
    await wf.writeDoc(sb.project, { doc: 'progress_schedule' }, '# Schedule\n\n1. adder\n');
    await wf.writeDoc(sb.project, { doc: 'task_list' }, TASKS);
    const { runId } = await wf.load({ projectDir: sb.project, executor: { kind: 'agent', baseUrl: llm.baseUrl, model: 'scripted', toolMode: 'native', autoApprove: true } });
    await wf.start(runId);
    expect((await wf.waitForRest(runId, 60_000)).status).toBe('AWAITING_APPROVAL');
    await wf.approve(runId);
    const view = await wf.waitForRest(runId, 60_000);
    expect(view.status).toBe('BLOCKED');
    expect(view.state).toBe('adder:development');
    expect(view.error?.message).toMatch(/adder:development ended without finishing/);
    expect(view.timeline.at(-1)).toMatchObject({ state: 'adder:development', outcome: 'not-done' });
    expect(view.timeline.at(-1)!.sessionLog).toBeTruthy();
    expect(llm.requests.length).toBe(3);
    expect(readFileSync(p('wip.txt'), 'utf8')).toBe('half done'); // nothing already written is lost
    expect(readFileSync(sb.paths.orchestrationDoc(sb.project, 'task_list'), 'utf8')).toBe(TASKS);
    // The user writes a note while the run is blocked: the retried step hears it as theirs, apart from its attempt's changes.
    writeFileSync(p('NOTES.md'), 'add(a, b) returns a number\n');

    // `erasmus serve` killed and started again (x3 defect 2): a core with its built-in toolsets attached, no project open yet.
    await core.dispose();
    core = new Core({ face: 'browser', home: sb.home, env: sb.env });
    await core.hub.start({ watch: false });
    core.hub.setElicitationHandler(approvalPath({ yes: true }).elicitation);
    await attachBuiltinServers(core);
    // Driven with the project not open (the engine alone): the step cannot start, and says why.
    await core.workflow.retry(runId);
    const setup = await core.workflow.waitForRest(runId, 30_000);
    expect(setup.error).toMatchObject({ setup: true, message: expect.stringMatching(/needs the toolset\(s\) files, runners/) });
    expect(llm.requests.length).toBe(3);
    // The tab's Retry (the RPC) opens the run's project with Erasmus's toolsets first; the model hears of the attempt
    // that ran (and what it changed), never of the setup error.
    const r = await core.dispatcher.handle({ jsonrpc: '2.0', id: 1, method: 'workflow.retry', params: { runId } }, { face: 'browser' });
    expect(r).not.toHaveProperty('error');
    expect(core.hub.project).toBe(sb.project);
    expect(core.hub.toolsets().map((t) => t.name)).toEqual(expect.arrayContaining(['files', 'runners']));
    const again = await core.workflow.waitForRest(runId, 60_000);
    expect(again.timeline.at(-1)).toMatchObject({ state: 'adder:development', outcome: 'not-done' });
    const retried = JSON.stringify(llm.requests[3]!.body.messages);
    expect(retried).toContain('This is a retry');
    expect(retried).toContain('it ended without saying it was done');
    expect(retried).not.toContain('needs the toolset');
    expect(retried).toContain('wip.txt');
    const prompt = llm.requests[3]!.body.messages!.map((m) => String(m.content)).join('\n');
    const attempt = prompt.slice(prompt.indexOf('## This is a retry'), prompt.indexOf('## What the user changed'));
    expect(attempt).toContain('+half done');
    expect(attempt).not.toContain('NOTES.md');
    expect(prompt).toContain('## What the user changed\n\nWhile the run was stopped at adder · development, the user changed the project; here is what they changed, from the files as the run left them to the files as it went on:');
    expect(prompt).toContain('+add(a, b) returns a number');
    expect(prompt).toContain("These changes are the user's, not an earlier step's: they are made and part of the work now. Keep them and build on them: do not undo them or make them again.");
  });
});
