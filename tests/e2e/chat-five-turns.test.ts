// A five-turn session on the default path, in xml and in native mode, through `erasmus chat --json`:
// writes files (one final newline each), runs the test with runners, commits with git (script review
// answered by the session's own provider, given only on the command line), and what the model reads
// stays within the size targets.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../electron/contract/index';
import { CALC, nativeTurns, pythonProject, TARGETS, TASK, TEST, xmlTurns } from '../fixtures/five-turns/index';
import { chatHarness, sandbox } from './agent-cli';

const t = chatHarness();

type Complete = Extract<AgentEvent, { type: 'tool_complete' }>;

describe.each(['xml', 'native'] as const)('a five-turn session in %s mode, built-in toolsets only', (mode) => {
  it('writes files, runs the test, commits, and stays within the size targets', async () => {
    const sb = t.sandbox(sandbox());
    pythonProject(sb.work);
    const llm = await t.startLlm(mode === 'xml' ? xmlTurns() : nativeTurns());
    const run = t.chat(sb, ['--base-url', llm.baseUrl, '--model', 'scripted', '--tool-mode', mode, '-p', TASK], { builtinOnly: true });
    expect(await run.exit, `${run.stderr()}\n${JSON.stringify(run.events.filter((e) => e.type === 'tool_complete'), null, 1)}`).toBe(0);
    const done = run.events.filter((e): e is Complete => e.type === 'tool_complete');
    for (const e of done) expect(e.isError, `${e.name}: ${e.result}`).toBe(false);
    expect(readFileSync(join(sb.work, 'calc.py'), 'utf8')).toBe(CALC);
    expect(readFileSync(join(sb.work, 'test_calc.py'), 'utf8')).toBe(TEST);
    expect(done.find((e) => e.name === 'runners__bash_run')!.result).toMatch(/OK/);
    const log = spawnSync('git', ['-C', sb.work, 'log', '--format=%s', '--name-only'], { encoding: 'utf8' }).stdout;
    expect(log).toContain('Add calc.add with a unit test');
    expect(log).toContain('test_calc.py');
    const agentRequests = llm.requests.filter((r) => !JSON.stringify(r.body.messages?.[0] ?? '').includes('You review one script'));
    expect(agentRequests).toHaveLength(5);
    // Script review ran with the session's provider (the scripted server), not "no provider configured".
    expect(llm.requests.length).toBeGreaterThan(5);
    const system = String(agentRequests[0]!.body.messages![0]!.content);
    const opened = (name: string) => done.find((e) => e.name === 'open_toolset' && (e.args as { name?: string }).name === name)!.result;
    const sizes = { system: system.length, files: opened('files').length, runners: opened('runners').length, fifth: JSON.stringify(agentRequests[4]!.body).length };
    console.log(`${mode}: ${JSON.stringify(sizes)}`);
    expect(sizes.system).toBeLessThanOrEqual(TARGETS.systemPrompt);
    expect(sizes.files).toBeLessThanOrEqual(TARGETS.filesOpen);
    expect(sizes.runners).toBeLessThanOrEqual(TARGETS.runnersOpenPython);
    expect(run.events.at(-1)).toMatchObject({ type: 'session_ended', reason: 'complete' });
  });
});
