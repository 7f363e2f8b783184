// A scripted MCP client plays the cognitive engine: it loads the sample project through the Erasmus
// MCP server, answers every step's prompt (really editing the project) and submits, until the run is
// COMPLETED — with the context documents written, the component committed, and the subscribed
// component document announced as the workflow changed it.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import type { WorkflowStep, WorkflowStepResult, WorkflowTask } from '../../electron/contract/index';
import { projectKey } from '../../electron/main/paths/index';
import { connectClient, type Running } from './erasmus-mcp-helpers';
import { ASKED, EXPECTED, finishedStates, gitLog, MODEL, sandbox, type Sandbox } from './workflow-helpers';

let sb: Sandbox | undefined;
let server: Running | undefined;
let second: Running | undefined;
afterEach(async () => {
  await server?.transport.close();
  await second?.transport.close();
  server = second = undefined;
  await sb?.cleanup();
  sb = undefined;
});

describe('the workflow driven over MCP by an external cognitive engine', () => {
  it('load → get_task / submit_task until COMPLETED, documents and commit in place', async () => {
    sb = await sandbox();
    const { act } = (await import(MODEL)) as { act: (i: { step: WorkflowStep; prompt: string }) => WorkflowStepResult };
    const c = await connectClient({ ERASMUS_HOME: sb.home, SCRIPTED_MODEL_CONTROL: sb.control });
    server = c.server;
    const client = c.client;
    const key = projectKey(sb.project);
    const componentUri = `erasmus://projects/${key}/components/adder.md`;
    const updates: string[] = [];
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void updates.push(n.params.uri));
    // Subscribed before the document exists: the workflow creates it, then each step updates it.
    await client.subscribeResource({ uri: componentUri });

    const loaded = await client.callTool({ name: 'workflow_load', arguments: { project: sb.project, goal: 'a function that adds two numbers' } });
    const runId = (loaded.structuredContent as { runId: string }).runId;
    const states: string[] = [];
    let approvals = 0;
    let prompt = '';
    const next = async () => {
      const r = await client.callTool({ name: 'workflow_get_task', arguments: { runId } }, undefined, { timeout: 60_000 });
      prompt = (r.content as Array<{ text: string }>)[0]!.text;
      return r.structuredContent as WorkflowTask;
    };
    let task = await next();
    for (let i = 0; i < 40 && task.status !== 'COMPLETED'; i++) {
      if (task.status === 'AWAITING_COGNITIVE_RESULT') {
        states.push(task.step.state);
        // The prompt is sent once (in the text), and ends saying exactly what to submit.
        expect(task).not.toHaveProperty('prompt');
        expect(prompt).toContain(`# Protocol: ${task.step.protocol}`);
        expect(prompt.split('## How to answer').length).toBe(2);
        expect(prompt).toMatch(/\b[Cc]all workflow_submit_task with \{"runId": "[^"]+", "state": "[^"]+", "result": \{"output"/);
        expect(prompt).toContain(`{"runId": "${runId}", "state": "${task.step.state}", "result": {"output"`);
        const r = await client.callTool({ name: 'workflow_submit_task', arguments: { runId, result: act({ step: task.step, prompt }) } });
        expect(r.isError).toBeFalsy();
        if (task.step.state === 'adder:development') {
          const status = await client.callTool({ name: 'workflow_status', arguments: { runId } });
          expect(status.content).toEqual([expect.objectContaining({ text: expect.stringContaining(`run ${runId}`) })]);
        }
      } else if (task.status === 'AWAITING_APPROVAL') {
        approvals++;
        const fsm = await client.callTool({ name: 'analyze_fsm', arguments: { runId } });
        expect(fsm.structuredContent).toMatchObject({ initial: 'adder:development', components: ['adder'] });
        await client.callTool({ name: 'workflow_approve', arguments: { runId } });
      } else throw new Error(`unexpected task ${JSON.stringify(task)}`);
      task = await next();
    }
    expect(task.status).toBe('COMPLETED');
    if (task.status !== 'COMPLETED') return;
    expect(approvals).toBe(1);
    expect(states).toEqual(ASKED);
    expect(task.output.some((l) => /^adder:commit: committed [0-9a-f]{40}$/.test(l))).toBe(true);
    const view = (await client.callTool({ name: 'workflow_status', arguments: { runId } })).structuredContent as { status: string; timeline: Array<{ state: string; outcome?: string }> };
    expect(view.status).toBe('COMPLETED');
    expect(finishedStates(view.timeline)).toEqual(EXPECTED);
    // The git commit and the project's files.
    expect(gitLog(sb.project).slice(0, 2)).toEqual(['update the documentation', 'add adder, which adds two numbers']);
    expect(readFileSync(join(sb.project, 'src/adder.mjs'), 'utf8')).toContain('a + b');
    expect(existsSync(join(sb.project, 'docs/reviews/adder.md'))).toBe(true);
    // The context documents, as MCP resources.
    const uris = (await client.listResources()).resources.map((r) => r.uri);
    for (const doc of ['orchestration/architecture.md', 'orchestration/progress_schedule.md', 'orchestration/task_list.md', 'components/adder.md']) expect(uris).toContain(`erasmus://projects/${key}/${doc}`);
    const arch = await client.readResource({ uri: `erasmus://projects/${key}/orchestration/architecture.md` });
    expect((arch.contents[0] as { text: string }).text).toContain('# Architecture');
    expect((arch.contents[0] as { text: string }).text).toContain('As built: src/adder.mjs'); // brought up to date at the end of the run
    const comp = (await client.readResource({ uri: componentUri })).contents[0] as { text: string };
    expect(comp.text).toContain('debugging: add subtracted instead of adding; fixed');
    await expect.poll(() => updates.filter((u) => u === componentUri).length, { timeout: 5000 }).toBeGreaterThanOrEqual(2);
    expect(new Set(updates)).toEqual(new Set([componentUri]));
    const list = await client.callTool({ name: 'workflow_list', arguments: { project: sb.project } });
    expect((list.structuredContent as { runs: Array<{ runId: string; status: string }> }).runs).toEqual([expect.objectContaining({ runId, status: 'COMPLETED' })]);
    // What the run verified: each task with the tests Erasmus ran that name it, and the component's commit.
    const report = await client.callTool({ name: 'workflow_report', arguments: { runId } });
    const adderSha = task.output.find((l) => l.startsWith('adder:commit: committed '))!.split(' ').at(-1);
    expect(report.structuredContent).toMatchObject({
      verified: true,
      tasks: [
        { id: 'A1', component: 'adder', tests: [{ name: 'A1: adds two numbers', passed: true }], commit: adderSha },
        { id: 'A2', component: 'adder', tests: [{ name: 'A2: adds a negative number', passed: true }], commit: adderSha },
      ],
    });
    expect((report.content as Array<{ text: string }>)[0]!.text).toMatch(/^Verified: every task has passing tests that Erasmus ran\./);
    expect(server.invalidStdout).toEqual([]);
  }, 120_000);
  it('refuses an empty answer (the step stays open); a BLOCKED run names the recovery tools and workflow_retry recovers it; an answer without its context document hears what it lacks', async () => {
    sb = await sandbox();
    const { act } = (await import(MODEL)) as { act: (i: { step: WorkflowStep; prompt: string }) => WorkflowStepResult };
    const c = await connectClient({ ERASMUS_HOME: sb.home, SCRIPTED_MODEL_CONTROL: sb.control });
    server = c.server;
    const client = c.client;
    const loaded = await client.callTool({ name: 'workflow_load', arguments: { project: sb.project, goal: 'a function that adds two numbers' } });
    const runId = (loaded.structuredContent as { runId: string }).runId;
    const getTask = async () => (await client.callTool({ name: 'workflow_get_task', arguments: { runId } }, undefined, { timeout: 60_000 })) as unknown as { content: Array<{ text: string }>; structuredContent: WorkflowTask };
    const submit = (result: unknown) => client.callTool({ name: 'workflow_submit_task', arguments: { runId, result } }, undefined, { timeout: 60_000 }) as unknown as Promise<{ isError?: boolean; content: Array<{ text: string }>; structuredContent?: { status: string } }>;

    let t = await getTask();
    expect(t.structuredContent).toMatchObject({ status: 'AWAITING_COGNITIVE_RESULT', step: { state: 'prepare:architecture' } });
    const empty = await submit({ output: '  ', done: true });
    expect(empty.isError).toBe(true);
    expect(empty.content[0]!.text).toMatch(/^PARSE_ERROR: the result for prepare:architecture is empty: `output` must hold the document/);
    expect(empty.content[0]!.text).not.toMatch(/MCP error -32602: MCP error/);
    // Still open: the same step is asked again, and a real answer moves on; the status returned is the one after the step.
    t = await getTask();
    expect(t.structuredContent).toMatchObject({ status: 'AWAITING_COGNITIVE_RESULT', step: { state: 'prepare:architecture' } });
    const ok = await submit(act({ step: (t.structuredContent as Extract<WorkflowTask, { step: unknown }>).step, prompt: '' }));
    expect(ok.isError).toBeFalsy();
    expect(ok.structuredContent).toMatchObject({ status: 'AWAITING_COGNITIVE_RESULT' });
    expect((await getTask()).structuredContent).toMatchObject({ step: { state: 'prepare:progress_schedule' } });

    // A step whose answer says "not done" blocks the run; the answer names the tools that recover it.
    let blocked: string | undefined;
    for (let i = 0; i < 20 && !blocked; i++) {
      t = await getTask();
      const task = t.structuredContent;
      if (task.status === 'AWAITING_APPROVAL') await client.callTool({ name: 'workflow_approve', arguments: { runId } });
      else if (task.status === 'AWAITING_COGNITIVE_RESULT') {
        const r = await submit(task.step.state === 'adder:development' && i < 8 ? { output: 'I ran out of time.', done: false } : act({ step: task.step, prompt: '' }));
        if (r.structuredContent?.status === 'BLOCKED') blocked = r.content[0]!.text;
      }
    }
    expect(blocked).toMatch(/submitted; run .* is BLOCKED/);
    expect(blocked).toContain('workflow_retry');
    t = await getTask();
    expect(t.structuredContent).toMatchObject({ status: 'BLOCKED' });
    for (const tool of ['workflow_retry', 'workflow_skip', 'workflow_resume']) expect(t.content[0]!.text).toContain(tool);

    const retried = await client.callTool({ name: 'workflow_retry', arguments: { runId } });
    expect(retried.isError).toBeFalsy();
    t = await getTask();
    expect(t.structuredContent).toMatchObject({ status: 'AWAITING_COGNITIVE_RESULT', step: { state: 'adder:development' } });
    // An answer without its context document is not taken: the text a model reads says what is missing, how to give it, and what to call.
    const dev = (t.structuredContent as Extract<WorkflowTask, { step: unknown }>).step;
    const { contextDoc: handed, ...lacking } = act({ step: dev, prompt: '' });
    expect(handed).toContain('development: add() written in src/adder.mjs');
    const sentBack = await submit(lacking);
    expect(sentBack.isError).toBeFalsy();
    expect(sentBack.structuredContent).toMatchObject({ status: 'AWAITING_COGNITIVE_RESULT' });
    expect(sentBack.content[0]!.text).toBe(
      `still AWAITING_COGNITIVE_RESULT (run ${runId})\n\nYour final answer lacks the context document, which Erasmus saves only from \`result.contextDoc\`: the complete new text of the context document, as one string. Your answer was not taken: step adder:development still waits for it. Call workflow_submit_task again with your whole answer: {"runId": "${runId}", "state": "adder:development", "result": {"output": "<your output as before>", "done": true, "contextDoc": "<the complete new text of the context document>"}}.`,
    );
    expect(readFileSync(dev.contextDocPath, 'utf8')).not.toContain('development: add() written');
    // Asked again, the step says so; the whole answer (the loop below) is taken and its document saved.
    t = await getTask();
    expect(t.structuredContent).toMatchObject({ status: 'AWAITING_COGNITIVE_RESULT', step: { state: 'adder:development' } });
    expect(t.content[0]!.text).toContain('## Your answer to this step was not taken\n\nYour final answer lacks the context document');
    for (let i = 0; i < 30 && t.structuredContent.status !== 'COMPLETED'; i++) {
      const task = t.structuredContent;
      if (task.status !== 'AWAITING_COGNITIVE_RESULT') throw new Error(`unexpected ${JSON.stringify(task)}`);
      await submit(act({ step: task.step, prompt: '' }));
      t = await getTask();
    }
    expect(t.structuredContent.status).toBe('COMPLETED');
    expect(readFileSync(dev.contextDocPath, 'utf8')).toContain('- development: add() written in src/adder.mjs');
    expect(gitLog(sb.project).slice(0, 2)).toEqual(['update the documentation', 'add adder, which adds two numbers']);
  }, 180_000);
  it('a second server process takes and answers the steps the first issued; a BLOCKED run is recovered there by workflow_retry', async () => {
    sb = await sandbox();
    const { act } = (await import(MODEL)) as { act: (i: { step: WorkflowStep; prompt: string }) => WorkflowStepResult };
    const env = { ERASMUS_HOME: sb.home, SCRIPTED_MODEL_CONTROL: sb.control };
    const [c1, c2] = await Promise.all([connectClient(env), connectClient(env)]);
    server = c1.server;
    second = c2.server;
    expect(c1.server.transport.pid).not.toBe(c2.server.transport.pid);
    type Reply = { isError?: boolean; content: Array<{ text: string }>; structuredContent: WorkflowTask & { status: string } };
    const tool = (c: typeof c1, name: string, args: Record<string, unknown>) => c.client.callTool({ name, arguments: args }, undefined, { timeout: 60_000 }) as unknown as Promise<Reply>;
    const loaded = await tool(c1, 'workflow_load', { project: sb.project, goal: 'a function that adds two numbers' });
    const runId = (loaded.structuredContent as unknown as { runId: string }).runId;

    // The first process issues the step; the second, which never saw it, gets the same step and prompt and answers it.
    const issued = await tool(c1, 'workflow_get_task', { runId });
    expect(issued.structuredContent).toMatchObject({ status: 'AWAITING_COGNITIVE_RESULT', step: { state: 'prepare:architecture' } });
    const taken = await tool(c2, 'workflow_get_task', { runId });
    expect(taken.structuredContent).toEqual(issued.structuredContent);
    expect(taken.content[0]!.text).toBe(issued.content[0]!.text);
    const step = (t: Reply) => (t.structuredContent as Extract<WorkflowTask, { step: unknown }>).step;
    const ok = await tool(c2, 'workflow_submit_task', { runId, state: 'prepare:architecture', result: act({ step: step(taken), prompt: '' }) });
    expect(ok.isError).toBeFalsy();
    expect(ok.content[0]!.text).toMatch(/is AWAITING_COGNITIVE_RESULT/);
    // The first process's late answer to the same step is refused, not applied to the next one.
    const late = await tool(c1, 'workflow_submit_task', { runId, state: 'prepare:architecture', result: { output: '# Late', done: true } });
    expect(late.isError).toBe(true);
    expect(late.content[0]!.text).toMatch(/^INVALID_STATE: run \S+ waits on prepare:progress_schedule, not prepare:architecture: your answer was not applied/);

    // From here the two processes take turns; the development step's first answer is "not done", so the run blocks in one and is retried from the other.
    const clients = [c1, c2];
    const states: string[] = ['prepare:architecture'];
    let blockedIn: number | undefined;
    let t = await tool(c1, 'workflow_get_task', { runId });
    for (let i = 0; i < 60 && t.structuredContent.status !== 'COMPLETED'; i++) {
      const c = clients[i % 2]!;
      const task = t.structuredContent;
      if (task.status === 'AWAITING_APPROVAL') await tool(c, 'workflow_approve', { runId });
      else if (task.status === 'BLOCKED') {
        expect(i % 2).not.toBe(blockedIn);
        const retried = await tool(c, 'workflow_retry', { runId });
        expect(retried.isError).toBeFalsy();
      } else if (task.status === 'AWAITING_COGNITIVE_RESULT') {
        states.push(task.step.state);
        const notDone = task.step.state === 'adder:development' && blockedIn === undefined;
        const r = await tool(c, 'workflow_submit_task', { runId, state: task.step.state, result: notDone ? { output: 'I ran out of time.', done: false } : act({ step: task.step, prompt: '' }) });
        expect(r.isError).toBeFalsy();
        if (notDone) {
          expect(r.content[0]!.text).toMatch(/is BLOCKED/);
          expect(r.content[0]!.text).toContain('workflow_retry');
          blockedIn = i % 2;
        }
      } else throw new Error(`unexpected ${JSON.stringify(task)}`);
      t = await tool(clients[(i + 1) % 2]!, 'workflow_get_task', { runId });
    }
    expect(t.structuredContent.status).toBe('COMPLETED');
    expect(blockedIn).toBeDefined();
    expect(states.filter((s) => s === 'adder:development')).toHaveLength(2); // asked again after the retry
    const view = (await tool(c1, 'workflow_status', { runId })).structuredContent as unknown as { status: string; timeline: Array<{ state: string; outcome?: string }> };
    expect(view.status).toBe('COMPLETED');
    // Each step was asked once per answer: no step was left open, interrupted or asked twice by the hand-over.
    expect(view.timeline.filter((e) => e.outcome === 'interrupted' || e.outcome === 'aborted' || !e.outcome)).toEqual([]);
    expect(gitLog(sb.project).slice(0, 2)).toEqual(['update the documentation', 'add adder, which adds two numbers']);
    expect(c1.server.invalidStdout).toEqual([]);
    expect(c2.server.invalidStdout).toEqual([]);
  }, 240_000);
});
