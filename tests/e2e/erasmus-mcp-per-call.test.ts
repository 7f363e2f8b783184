// An MCP client that starts `erasmus mcp-server erasmus` for each tool call, as some clients do (one process per
// call, gone as soon as it answered): approving the plan there must leave the next step issued and waiting, not cut
// off by the process's end (it read "interrupted", and its task then said "This is a retry").
import { afterEach, describe, expect, it } from 'vitest';
import type { WorkflowStep, WorkflowStepResult, WorkflowTask } from '../../electron/contract/index';
import { connectClient } from './erasmus-mcp-helpers';
import { MODEL, sandbox, type Sandbox } from './workflow-helpers';

let sb: Sandbox | undefined;
afterEach(async () => {
  await sb?.cleanup();
  sb = undefined;
});

/** One tool call in a server process of its own, which ends (its stdin closed) once it has answered. */
async function once(tool: string, args: Record<string, unknown>): Promise<{ text: string; structured: unknown; isError: boolean }> {
  const { client, server } = await connectClient({ ERASMUS_HOME: sb!.home, SCRIPTED_MODEL_CONTROL: sb!.control });
  try {
    const r = await client.callTool({ name: tool, arguments: args }, undefined, { timeout: 60_000 });
    return { text: (r.content as Array<{ text: string }>)[0]?.text ?? '', structured: r.structuredContent, isError: !!r.isError };
  } finally {
    await server.transport.close();
    await server.exit;
  }
}

describe('the workflow over MCP, one server process per call', () => {
  it('workflow_approve leaves the first step waiting: its task is not a retry, and nothing reads interrupted', async () => {
    sb = await sandbox();
    const { act } = (await import(MODEL)) as { act: (i: { step: WorkflowStep; prompt: string }) => WorkflowStepResult };
    const loaded = await once('workflow_load', { project: sb.project, goal: 'a function that adds two numbers' });
    const runId = (loaded.structured as { runId: string }).runId;
    let task = (await once('workflow_get_task', { runId })).structured as WorkflowTask;
    for (let i = 0; i < 5 && task.status === 'AWAITING_COGNITIVE_RESULT'; i++) {
      expect((await once('workflow_submit_task', { runId, state: task.step.state, result: act({ step: task.step, prompt: '' }) })).isError).toBe(false);
      task = (await once('workflow_get_task', { runId })).structured as WorkflowTask;
    }
    expect(task.status).toBe('AWAITING_APPROVAL');
    const approved = await once('workflow_approve', { runId });
    expect(approved.isError).toBe(false);
    const next = await once('workflow_get_task', { runId });
    expect(next.structured).toMatchObject({ status: 'AWAITING_COGNITIVE_RESULT', step: { state: 'adder:development' } });
    expect(next.text).not.toContain('This is a retry');
    const view = (await once('workflow_status', { runId })).structured as { status: string; interrupted?: boolean; timeline: Array<{ state: string; outcome?: string }> };
    expect(view.interrupted).toBeUndefined();
    expect(view.timeline.filter((e) => e.outcome === 'interrupted')).toEqual([]);
  });
});
