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
import { EXPECTED, finishedStates, gitLog, MODEL, sandbox, type Sandbox } from './workflow-helpers';

let sb: Sandbox | undefined;
let server: Running | undefined;
afterEach(async () => {
  await server?.transport.close();
  server = undefined;
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
    const next = async () => (await client.callTool({ name: 'workflow_get_task', arguments: { runId } }, undefined, { timeout: 60_000 })).structuredContent as WorkflowTask;
    let task = await next();
    for (let i = 0; i < 40 && task.status !== 'COMPLETED'; i++) {
      if (task.status === 'AWAITING_COGNITIVE_RESULT') {
        states.push(task.step.state);
        expect(task.prompt).toContain(`# Protocol: ${task.step.protocol}`);
        const r = await client.callTool({ name: 'workflow_submit_task', arguments: { runId, result: act({ step: task.step, prompt: task.prompt }) } });
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
    expect(states).toEqual(EXPECTED.map((s) => s.split('=')[0]).filter((s) => !s?.endsWith(':commit')));
    expect(task.output.some((l) => /^adder:commit: committed [0-9a-f]{40}$/.test(l))).toBe(true);
    const view = (await client.callTool({ name: 'workflow_status', arguments: { runId } })).structuredContent as { status: string; timeline: Array<{ state: string; outcome?: string }> };
    expect(view.status).toBe('COMPLETED');
    expect(finishedStates(view.timeline)).toEqual(EXPECTED);
    // The git commit and the project's files.
    expect(gitLog(sb.project).slice(0, 2)).toEqual(['final: end-to-end tests, documentation and review', 'adder: complete component (adds two numbers)']);
    expect(readFileSync(join(sb.project, 'src/adder.mjs'), 'utf8')).toContain('a + b');
    expect(existsSync(join(sb.project, 'docs/reviews/adder.md'))).toBe(true);
    // The context documents, as MCP resources.
    const uris = (await client.listResources()).resources.map((r) => r.uri);
    for (const doc of ['orchestration/architecture.md', 'orchestration/progress_schedule.md', 'orchestration/task_list.md', 'components/adder.md']) expect(uris).toContain(`erasmus://projects/${key}/${doc}`);
    const arch = await client.readResource({ uri: `erasmus://projects/${key}/orchestration/architecture.md` });
    expect((arch.contents[0] as { text: string }).text).toContain('# Architecture');
    const comp = (await client.readResource({ uri: componentUri })).contents[0] as { text: string };
    expect(comp.text).toContain('debugging: add subtracted instead of adding; fixed');
    await expect.poll(() => updates.filter((u) => u === componentUri).length, { timeout: 5000 }).toBeGreaterThanOrEqual(2);
    expect(new Set(updates)).toEqual(new Set([componentUri]));
    const list = await client.callTool({ name: 'workflow_list', arguments: { project: sb.project } });
    expect((list.structuredContent as { runs: Array<{ runId: string; status: string }> }).runs).toEqual([expect.objectContaining({ runId, status: 'COMPLETED' })]);
    expect(server.invalidStdout).toEqual([]);
  }, 120_000);
});
