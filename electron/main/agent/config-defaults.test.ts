import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startScriptedLlm, type ScriptedLlm } from '../../../tests/fixtures/scripted-llm/index';
import type { AgentEvent, ApprovalsPolicy } from '../../contract/index';
import { Paths } from '../paths/index';
import { addProvider, setAgentDefaults } from '../settings/index';
import { AgentService } from './service';
import { memoryTools } from './tools';

// The defaults written by the Settings view (config.yaml `toolMode:` / `approvals:`) are what new sessions use.
let home: string;
let llm: ScriptedLlm | undefined;
const touched: string[] = [];
const tools = memoryTools({
  notes: {
    description: 'notes',
    tools: [
      { name: 'touch_note', description: 'mark a note', inputSchema: { type: 'object', properties: { name: { type: 'string' } } }, annotations: { destructiveHint: false }, run: (a) => (touched.push(String(a.name)), 'touched') },
      { name: 'write_note', description: 'write a note', inputSchema: { type: 'object', properties: { name: { type: 'string' } } }, run: (a) => (touched.push(String(a.name)), 'written') },
    ],
  },
});

beforeEach(async () => {
  home = mkdtempSync(join(tmpdir(), 'erasmus-defaults-'));
  touched.length = 0;
});
afterEach(async () => {
  await llm?.close();
  llm = undefined;
  rmSync(home, { recursive: true, force: true });
});

async function service(tool: string, approvals: ApprovalsPolicy) {
  llm = await startScriptedLlm([
    { toolCalls: [{ name: tool, arguments: { name: 'a' } }] },
    { match: { lastTool: { regex: '.' } }, text: 'done' },
  ]);
  const paths = new Paths(home);
  await addProvider(paths.configYaml, { set: async () => {} }, { id: 'scripted', kind: 'openai-compatible', model: 'scripted', baseUrl: llm.baseUrl, nativeTools: true });
  await setAgentDefaults(paths.configYaml, { toolMode: 'native', approvals });
  return new AgentService({ paths, secrets: { get: async () => undefined }, env: {}, emit: () => {} });
}

/** Runs one session; answers any approval with allow_once; returns the event types. */
async function run(svc: AgentService): Promise<string[]> {
  const events: AgentEvent[] = [];
  const session = await svc.create({ task: 'go', openToolsets: ['notes'], onEvent: (e) => events.push(e) }, { tools });
  session.onEvent((e) => {
    if (e.type === 'approval_required') setTimeout(() => session.approve(e.requestId, 'allow_once'), 1);
  });
  const outcome = await session.run('go');
  await svc.dispose();
  expect(outcome.endedReason, JSON.stringify(events.filter((e) => e.type === 'error' || e.type === 'warning'))).toBe('complete');
  return events.map((e) => e.type);
}

describe('config.yaml defaults take effect in new sessions', () => {
  it('toolMode: xml from config.yaml is the session mode when the caller does not choose one', async () => {
    const svc = await service('touch_note', 'non-destructive');
    await setAgentDefaults(new Paths(home).configYaml, { toolMode: 'xml' });
    const session = await svc.create({ task: 'x' });
    expect(session.toolMode).toBe('xml');
    const own = await svc.create({ task: 'x', toolMode: 'native' });
    expect(own.toolMode).toBe('native');
    await svc.dispose();
  });

  it('approvals: non-destructive runs a non-destructive tool without asking', async () => {
    expect(await run(await service('touch_note', 'non-destructive'))).not.toContain('approval_required');
    expect(touched).toEqual(['a']);
  });

  it('approvals: ask asks even for a non-destructive tool', async () => {
    expect(await run(await service('touch_note', 'ask'))).toContain('approval_required');
    expect(touched).toEqual(['a']);
  });

  it('approvals: unattended runs a tool that may modify things without asking', async () => {
    const svc = await service('write_note', 'unattended');
    expect(await run(svc)).not.toContain('approval_required');
    expect(touched).toEqual(['a']);
  });

  it('the default (non-destructive) still asks before a tool that may modify things', async () => {
    expect(await run(await service('write_note', 'non-destructive'))).toContain('approval_required');
  });
});
