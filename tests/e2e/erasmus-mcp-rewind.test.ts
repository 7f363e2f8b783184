// workflow_checkpoints and workflow_rewind over MCP: an external cognitive engine drives the sample
// project to its end, lists the checkpoints, previews and rewinds to before the component's review
// while a step waits for it, and drives the run to its end again.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterEach, describe, expect, it } from 'vitest';
import type { WorkflowStep, WorkflowStepResult, WorkflowTask } from '../../electron/contract/index';
import { connectClient, type Running } from './erasmus-mcp-helpers';
import { gitLog, MODEL, sandbox, type Sandbox } from './workflow-helpers';

let sb: Sandbox | undefined;
let server: Running | undefined;
afterEach(async () => {
  await server?.transport.close();
  server = undefined;
  await sb?.cleanup();
  sb = undefined;
});

type Act = (i: { step: WorkflowStep; prompt: string }) => WorkflowStepResult;
const text = (r: unknown) => ((r as { content: Array<{ text?: string }> }).content ?? []).map((c) => c.text ?? '').join('\n');

/** Answers steps until the run completes, or until `stopAt` is the step waiting. */
async function drive(client: Client, runId: string, act: Act, stopAt?: string): Promise<WorkflowTask> {
  for (let i = 0; i < 60; i++) {
    const task = (await client.callTool({ name: 'workflow_get_task', arguments: { runId } }, undefined, { timeout: 60_000 })).structuredContent as WorkflowTask;
    if (task.status === 'COMPLETED') return task;
    if (task.status === 'AWAITING_APPROVAL') await client.callTool({ name: 'workflow_approve', arguments: { runId } });
    else if (task.status === 'AWAITING_COGNITIVE_RESULT') {
      if (task.step.state === stopAt) return task;
      const r = await client.callTool({ name: 'workflow_submit_task', arguments: { runId, result: act({ step: task.step, prompt: '' }) } });
      expect(r.isError).toBeFalsy();
    } else throw new Error(`unexpected task ${JSON.stringify(task)}`);
  }
  throw new Error('the run did not end');
}

describe('checkpoints over the Erasmus MCP server', () => {
  it('workflow_checkpoints lists them; workflow_rewind previews, rewinds a waiting run, and the run completes again', async () => {
    sb = await sandbox();
    const { act } = (await import(MODEL)) as { act: Act };
    const c = await connectClient({ ERASMUS_HOME: sb.home, SCRIPTED_MODEL_CONTROL: sb.control });
    server = c.server;
    const client = c.client;
    const runId = ((await client.callTool({ name: 'workflow_load', arguments: { project: sb.project, goal: 'adds two numbers' } })).structuredContent as { runId: string }).runId;
    expect((await drive(client, runId, act)).status).toBe('COMPLETED');
    const head = gitLog(sb.project);

    const listed = await client.callTool({ name: 'workflow_checkpoints', arguments: { runId } });
    const checkpoints = (listed.structuredContent as { checkpoints: Array<{ id: string; state: string; at: string; commit?: string }> }).checkpoints;
    expect(checkpoints.map((x) => x.state)).toContain('adder:review');
    const review = checkpoints.find((x) => x.state === 'adder:review')!;
    expect(text(listed)).toContain(`${review.id}: before adder:review`);

    const preview = await client.callTool({ name: 'workflow_rewind', arguments: { runId, checkpointId: review.id, preview: true } });
    expect(preview.isError).toBeFalsy();
    expect(text(preview)).toContain('deleted: docs/reviews/adder.md');
    expect(text(preview)).toContain('commits undone: 2');
    expect(gitLog(sb.project)).toEqual(head); // a preview changes nothing

    const unknown = await client.callTool({ name: 'workflow_rewind', arguments: { runId, checkpointId: 'no-such-checkpoint' } });
    expect(unknown.isError).toBe(true);
    expect(text(unknown)).toMatch(/^RUN_NOT_FOUND: .*no checkpoint no-such-checkpoint: list them/);

    const rewound = await client.callTool({ name: 'workflow_rewind', arguments: { runId, checkpointId: review.id } });
    expect(rewound.isError).toBeFalsy();
    expect(rewound.structuredContent).toMatchObject({ status: 'PAUSED', state: 'adder:review' });
    expect(text(rewound)).toContain('workflow_resume');
    expect(gitLog(sb.project)).toEqual(['initial']);
    expect(existsSync(join(sb.project, 'docs/reviews/adder.md'))).toBe(false);
    expect(readFileSync(join(sb.project, 'src/adder.mjs'), 'utf8')).toContain('a + b'); // debugged already, before the review

    // Resumed, it waits at the review again; a rewind while a step waits abandons that step first.
    await client.callTool({ name: 'workflow_resume', arguments: { runId } });
    const waiting = await drive(client, runId, act, 'adder:fixes');
    expect(waiting).toMatchObject({ status: 'AWAITING_COGNITIVE_RESULT', step: { state: 'adder:fixes' } });
    const again = await client.callTool({ name: 'workflow_rewind', arguments: { runId, checkpointId: review.id } });
    expect(again.structuredContent).toMatchObject({ status: 'PAUSED', state: 'adder:review' });

    await client.callTool({ name: 'workflow_resume', arguments: { runId } });
    expect((await drive(client, runId, act)).status).toBe('COMPLETED');
    expect(gitLog(sb.project).slice(0, 2)).toEqual(['update the documentation', 'add adder, which adds two numbers']);
    expect(server.invalidStdout).toEqual([]);
  }, 180_000);
});
