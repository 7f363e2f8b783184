// What an external engine is told to send is what workflow_submit_task accepts: the call each step's
// "How to answer" spells out parses against the tool's own schema, and the README's shape names the
// same fields (the issue: README `{output, done?, contextDoc?}` against a schema `{runId, result}`).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { externalHandBack, type StepAnswer } from '../../../main/workflow/executor';
import { workflowTools } from './workflow';

const submit = workflowTools(() => Promise.reject(new Error('no core in this test'))).find((t) => t.name === 'workflow_submit_task')!;
const shape = (submit.input as z.ZodObject<z.ZodRawShape>).shape;

describe('workflow_submit_task: prompt, schema and README agree', () => {
  it.each<StepAnswer>(['document', 'report', 'notes'])('the call "How to answer" spells out for a %s step is valid input', (answer) => {
    const text = externalHandBack({ runId: 'r-1', state: 'adder:testing', answer, projectDir: '/p' });
    const m = /[Cc]all workflow_submit_task with (\{.*?\}\})\./.exec(text);
    expect(m, text).not.toBeNull();
    const args = JSON.parse(m![1]!) as unknown;
    const parsed = submit.input.safeParse(args);
    expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
    expect(args).toMatchObject({ runId: 'r-1', state: 'adder:testing', result: { done: true } });
    expect(text.match(/workflow_submit_task/g)).toHaveLength(1); // said once
  });

  it("the README's submit shape names the schema's fields", () => {
    const readme = readFileSync(join(__dirname, '..', 'README.md'), 'utf8');
    const m = /submit_task `\{runId, ([^`]*)\}`/.exec(readme);
    expect(m).not.toBeNull();
    const top = ['runId', ...m![1]!.replace(/\{[^}]*\}/, '').split(',').map((k) => k.split(':')[0]!.replace('?', '').trim()).filter(Boolean)];
    expect(top.sort()).toEqual(Object.keys(shape).sort());
    const resultKeys = /result: \{([^}]*)\}/.exec(m![1]!)![1]!.split(',').map((k) => k.replace('?', '').trim());
    const resultShape = (shape.result as z.ZodObject<z.ZodRawShape>).shape;
    for (const k of resultKeys) expect(Object.keys(resultShape)).toContain(k);
    expect(resultKeys).toEqual(['output', 'done', 'contextDoc']);
  });
});

describe('workflow_load', () => {
  it('starts a documentation run for the drifted documents (documents: drifted), as workflow drift --fix does', async () => {
    const sent: Array<[string, unknown]> = [];
    const link = { request: (method: string, params: unknown) => (sent.push([method, params]), Promise.resolve({ runId: 'r-9' })) };
    const load = workflowTools(() => Promise.resolve(link as never)).find((t) => t.name === 'workflow_load')!;
    const args = load.input.parse({ project: '/p', documents: 'drifted' });
    const out = await load.run(args, {} as never);
    expect(sent).toEqual([['workflow.load', { projectDir: '/p', goal: undefined, executor: 'external', dirtyTree: undefined, branch: undefined, documents: 'drifted' }]]);
    expect(out.content).toEqual([{ type: 'text', text: 'run r-9 loaded for /p' }]);
    expect(load.input.safeParse({ project: '/p', documents: 'all' }).success).toBe(false);
  });
});

describe('workflow_status', () => {
  it("says a step stopped to ask the user (not a bare not-done) and names the answer a step ran with", async () => {
    const view = { runId: 'r-1', projectDir: '/p', status: 'RUNNING', state: 'cli:development', timeline: [
      { state: 'cli:development', enteredAt: 't0', leftAt: 't1', outcome: 'not-done', asked: true },
      { state: 'cli:development', enteredAt: 't2', answer: 'Only --lower.' },
    ] };
    const link = { request: () => Promise.resolve(view) };
    const status = workflowTools(() => Promise.resolve(link as never)).find((t) => t.name === 'workflow_status')!;
    const out = await status.run(status.input.parse({ runId: 'r-1' }), {} as never);
    const text = (out.content as Array<{ text: string }>)[0]!.text;
    expect(text).toContain('- cli:development → stopped to ask the user\n- cli:development (ran with the user\'s answer: "Only --lower.")');
  });
});

describe('workflow_retry and workflow_skip', () => {
  it("name the blocked component side by side their call is for, and retry carries the user's answer", async () => {
    const sent: Array<[string, unknown]> = [];
    const link = { request: (method: string, params: unknown) => (sent.push([method, params]), Promise.resolve({ status: 'RUNNING' })) };
    const tools = workflowTools(() => Promise.resolve(link as never));
    const retry = tools.find((t) => t.name === 'workflow_retry')!;
    const skip = tools.find((t) => t.name === 'workflow_skip')!;
    await retry.run(retry.input.parse({ runId: 'r-1', component: 'b', answer: 'part b' }), {} as never);
    await skip.run(skip.input.parse({ runId: 'r-1', component: 'a' }), {} as never);
    expect(sent).toEqual([['workflow.retry', { runId: 'r-1', answer: 'part b', component: 'b' }], ['workflow.skip', { runId: 'r-1', component: 'a' }]]);
    expect(tools.find((t) => t.name === 'workflow_resume')!.input.safeParse({ runId: 'r-1', component: 'a' }).success).toBe(false);
  });
});
