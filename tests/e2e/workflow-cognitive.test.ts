import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { WorkflowStep, WorkflowStepResult, WorkflowTask } from '../../electron/contract/index';
import { Core } from '../../electron/main/api/core';
import { ASKED, EXPECTED, finishedStates, gitLog, MODEL, sandbox, type Sandbox } from './workflow-helpers';

let sb: Sandbox | undefined;
let core: Core | undefined;
afterEach(async () => {
  await core?.dispose();
  await sb?.cleanup();
  core = undefined;
  sb = undefined;
});

let nextId = 0;
async function call<T>(c: Core, method: string, params: Record<string, unknown>): Promise<T> {
  const res = await c.dispatcher.handle({ jsonrpc: '2.0', id: ++nextId, method, params }, { face: 'cli' });
  if (!res) throw new Error('no response');
  if ('error' in res) throw Object.assign(new Error(res.error.message), { code: res.error.code, data: res.error.data });
  return res.result as T;
}

describe('external cognitive engine over the contract (load → getTask/submitTask until COMPLETED)', () => {
  it('a scripted client acts as the model for every step', async () => {
    sb = await sandbox();
    core = new Core({ face: 'cli', home: sb.home, env: sb.env });
    const { act } = (await import(MODEL)) as { act: (i: { step: WorkflowStep; prompt: string }) => WorkflowStepResult };

    const { runId } = await call<{ runId: string }>(core, 'workflow.load', { projectDir: sb.project, goal: 'a function that adds two numbers' });
    const prompts: string[] = [];
    let task = await call<WorkflowTask>(core, 'workflow.getTask', { runId });
    for (let i = 0; i < 40 && task.status !== 'COMPLETED'; i++) {
      if (task.status === 'AWAITING_COGNITIVE_RESULT') {
        prompts.push(task.step.state);
        expect(task.prompt).toContain(`# Protocol: ${task.step.protocol}`);
        const status = await call<{ success: boolean; status: string }>(core, 'workflow.submitTask', { runId, result: act({ step: task.step, prompt: task.prompt }) });
        expect(status.success).toBe(true);
      } else if (task.status === 'AWAITING_APPROVAL') {
        expect(task.plan.components[0]?.id).toBe('adder');
        await call(core, 'workflow.approve', { runId });
      } else throw new Error(`unexpected task ${JSON.stringify(task)}`);
      task = await call<WorkflowTask>(core, 'workflow.getTask', { runId });
    }
    expect(task.status).toBe('COMPLETED');
    if (task.status !== 'COMPLETED') return;
    expect(task.output.some((l) => /^adder:commit: committed [0-9a-f]{40}$/.test(l))).toBe(true);
    expect(prompts).toEqual(ASKED);
    const view = await call<{ timeline: Array<{ state: string; outcome?: string }> }>(core, 'workflow.status', { runId });
    expect(finishedStates(view.timeline)).toEqual(EXPECTED);
    expect(gitLog(sb.project).slice(0, 2)).toEqual(['update the documentation', 'add adder, which adds two numbers']);
    expect(existsSync(join(sb.project, 'docs/reviews/adder.md'))).toBe(true);
    expect(readFileSync(join(sb.project, 'src/adder.mjs'), 'utf8')).toContain('a + b');
  });

  it('answers with typed errors: run not found, invalid state, parse error', async () => {
    sb = await sandbox();
    core = new Core({ face: 'cli', home: sb.home, env: sb.env });
    await expect(call(core, 'workflow.getTask', { runId: 'nope' })).rejects.toMatchObject({ code: -32010, data: { kind: 'RUN_NOT_FOUND' } });
    writeFileSync(join(sb.project, 'README.md'), '# adder\n\n[![ci](https://x/b.svg)](https://x)\n\nAdds two numbers from the command line.\n');
    execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', 'commit', '-qam', 'readme'], { cwd: sb.project });
    const { runId } = await call<{ runId: string }>(core, 'workflow.load', { projectDir: sb.project });
    await expect(call(core, 'workflow.submitTask', { runId, result: { output: 'x' } })).rejects.toMatchObject({ code: -32012, data: { kind: 'INVALID_STATE' } });
    // No architecture and no goal: the run asks for one.
    const goalEvent = core.bus.waitFor('workflow.goalRequired', (p) => p.runId === runId, 10_000);
    expect(await call<WorkflowTask>(core, 'workflow.getTask', { runId })).toEqual({ status: 'AWAITING_GOAL', runId });
    await goalEvent;
    // The README's introduction is offered as a starting point while the run waits, and only then.
    expect((await call<{ suggestedGoal?: unknown }>(core, 'workflow.status', { runId })).suggestedGoal).toEqual({ file: 'README.md', goal: 'adder: Adds two numbers from the command line.' });
    await expect(call(core, 'workflow.approve', { runId })).rejects.toMatchObject({ code: -32012 });
    await call(core, 'workflow.answerGoal', { runId, goal: 'adds numbers' });
    expect((await call<{ suggestedGoal?: unknown }>(core, 'workflow.status', { runId })).suggestedGoal).toBeUndefined();
    const t = await call<WorkflowTask>(core, 'workflow.getTask', { runId });
    expect(t).toMatchObject({ status: 'AWAITING_COGNITIVE_RESULT', step: { state: 'prepare:architecture', protocol: 'design' } });
    // A bad task list written through the contract is kept and reported with its lines.
    const doc = await call<{ issues: Array<{ line: number }> }>(core, 'workflow.docs.write', { projectDir: sb.project, doc: 'task_list', text: '## Component: x\n- [ ] broken\n' });
    expect(doc.issues.map((i) => i.line)).toEqual([1, 2]);
    await call(core, 'workflow.stop', { runId });
    expect((await call<{ status: string }>(core, 'workflow.status', { runId })).status).toBe('STOPPED');
  });
});
