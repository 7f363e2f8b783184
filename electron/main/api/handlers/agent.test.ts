import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { createPipePair, type AgentEvent } from '../../../contract/index';
import { RpcClient } from '../../../../renderer/src/api/client';
import { startScriptedLlm, type ScriptedLlm } from '../../../../tests/fixtures/scripted-llm/index';
import { Core } from '../core';

const home = realpathSync(mkdtempSync(join(tmpdir(), 'erasmus-agent-rpc-')));
let core: Core;
let client: RpcClient;
let llm: ScriptedLlm;
const notes: string[] = [];
const events: AgentEvent[] = [];

beforeAll(async () => {
  llm = await startScriptedLlm([
    { match: { lastUser: 'write hi' }, toolCalls: [{ name: 'open_toolset', arguments: { name: 'notes' } }] },
    { match: { lastTool: 'is open' }, toolCalls: [{ name: 'notes__write', arguments: { text: 'hi' } }] },
    { match: { lastTool: 'saved' }, text: 'Saved your note.' },
    { match: { lastUser: 'and now?' }, text: 'Still here.' },
    { match: { lastUser: 'take your time' }, holdMs: 20_000, text: 'too late' },
    { match: { lastUser: 'as a workflow step, write ho' }, toolCalls: [{ name: 'notes__write', arguments: { text: 'ho' } }] },
    { match: { lastTool: 'saved' }, text: 'Step done.' },
  ]);
  writeFileSync(join(home, 'config.yaml'), `providers:\n  - id: scripted\n    kind: openai-compatible\n    model: scripted\n    baseUrl: ${llm.baseUrl}\n`);
  core = new Core({ face: 'browser', home });
  const server = new McpServer({ name: 'notes', version: '1.0.0' });
  server.registerTool('write', { description: 'write a note', inputSchema: { text: z.string() } }, async ({ text }) => {
    notes.push(text);
    return { content: [{ type: 'text', text: 'saved' }] };
  });
  await core.hub.addInProcessServer('notes', server, { description: 'notes' });
  const [a, b] = createPipePair();
  core.connect(a);
  client = new RpcClient(b);
  client.on('agent.event', (e) => {
    events.push(e);
    if (e.type === 'approval_required') void client.request('agent.approve', { sessionId: e.sessionId, requestId: e.requestId, decision: 'allow_once' });
  });
});

afterAll(async () => {
  client.close();
  await core.dispose();
  await llm.close();
  rmSync(home, { recursive: true, force: true });
});

async function ended(n: number): Promise<Extract<AgentEvent, { type: 'session_ended' }>> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const all = events.filter((e) => e.type === 'session_ended');
    if (all.length >= n) return all[n - 1] as Extract<AgentEvent, { type: 'session_ended' }>;
    if (Date.now() > deadline) throw new Error(`no session_ended #${n}; events: ${events.map((e) => e.type).join(',')}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('agent.* over the contract', () => {
  it('starts a session, asks for approval as an event, continues with agent.send, stops with agent.stop', async () => {
    const { sessionId, logPath } = await client.request('agent.start', { prompt: 'write hi', project: home, toolMode: 'native' });
    expect(logPath).toBe(join(home, 'sessions', `${sessionId}.jsonl`));
    expect((await ended(1)).reason).toBe('complete');
    expect(notes).toEqual(['hi']);
    expect(events.map((e) => e.type)).toContain('approval_resolved');
    expect(events.find((e) => e.type === 'complete')).toMatchObject({ answer: 'Saved your note.', sessionId });

    await client.request('agent.send', { sessionId, message: 'and now?' });
    expect((await ended(2)).reason).toBe('complete');
    expect(llm.requests.at(-1)!.body.messages!.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'assistant', 'tool', 'assistant', 'user']);

    expect(await client.request('agent.send', { sessionId, message: 'take your time' })).toEqual({ ok: true, queued: false });
    // While it works, a message is queued for its next turn; stopped first, the model never read it.
    expect(await client.request('agent.send', { sessionId, message: 'busy?' })).toEqual({ ok: true, queued: true });
    const t0 = Date.now();
    expect(await client.request('agent.stop', { sessionId })).toEqual({ ok: true });
    expect((await ended(3)).reason).toBe('stopped');
    expect(events.filter((e) => e.type === 'steer').map((e) => e.type === 'steer' && [e.text, e.state])).toEqual([['busy?', 'queued'], ['busy?', 'dropped']]);
    expect(Date.now() - t0).toBeLessThan(5000);
    expect((await client.request('agent.list', {})).sessions).toEqual([{ sessionId, logPath, running: false }]);
  });

  it('a bad start is a clear error', async () => {
    await expect(client.request('agent.start', { prompt: 'x', provider: 'missing' })).rejects.toThrow(/no provider "missing"/);
  });

  it('a session run to its end by core.agent.run (a workflow step) can be approved over the contract', async () => {
    const before = events.filter((e) => e.type === 'approval_resolved').length;
    const outcome = await core.agent.run({ task: 'as a workflow step, write ho', project: home, toolMode: 'native', openToolsets: ['notes'] });
    expect(outcome).toMatchObject({ endedReason: 'complete', finalAnswer: 'Step done.' });
    expect(notes).toContain('ho');
    expect(events.filter((e) => e.type === 'approval_resolved').length).toBe(before + 1);
    // Once ended, it is no longer kept.
    expect((await client.request('agent.list', {})).sessions.map((x) => x.sessionId)).not.toContain(outcome.sessionId);
  });
});
