import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverEntry, tempHome, writeMcpConfig } from '../../../tests/fixtures/mcp/servers';
import { EventBus } from '../api/events';
import type { EventPayload } from '../../contract/index';
import { Paths } from '../paths/index';
import { McpHub } from './hub';
import type { ElicitationRequest, SamplingRequest } from './types';

/** Sampling, elicitation, roots, progress, logging, subscriptions and completions of server-everything, through the hub. */
describe('server-everything features through the hub', () => {
  const home = tempHome();
  const project = join(home, 'my-project');
  const bus = new EventBus();
  const hub = new McpHub({ paths: new Paths(home), bus });
  const sampled: SamplingRequest[] = [];
  const elicited: ElicitationRequest[] = [];

  beforeAll(async () => {
    mkdirSync(project, { recursive: true });
    writeMcpConfig(home, { everything: { command: process.execPath, args: [serverEntry.everything, 'stdio'] } });
    hub.setSamplingHandler(async (req) => {
      sampled.push(req);
      return { role: 'assistant', model: 'scripted', content: { type: 'text', text: 'sampled answer 42' } };
    });
    hub.setElicitationHandler(async (req) => {
      elicited.push(req);
      return { action: 'accept', content: { name: 'Ada Lovelace', check: true } };
    });
    await hub.start({ projectDir: project, watch: false });
    await hub.whenReady('everything');
  });
  afterAll(async () => {
    await hub.dispose();
    rmSync(home, { recursive: true, force: true });
  });

  it('routes sampling/createMessage to the sampling handler', async () => {
    const r = await hub.callTool('everything', 'trigger-sampling-request', { prompt: 'what is six times seven', maxTokens: 10 });
    expect(JSON.stringify(r.content)).toContain('sampled answer 42');
    expect(sampled[0]?.server).toBe('everything');
    expect(JSON.stringify(sampled[0]?.params.messages)).toContain('six times seven');
  });

  it('routes elicitation/create to the elicitation handler', async () => {
    const r = await hub.callTool('everything', 'trigger-elicitation-request', {});
    expect(elicited[0]?.server).toBe('everything');
    expect(JSON.stringify(r.content)).toContain('Ada Lovelace');
  });

  it('answers roots/list with the open project', async () => {
    const r = await hub.callTool('everything', 'get-roots-list', {});
    expect(JSON.stringify(r.content)).toContain(pathToFileURL(project).href);
  });

  it('delivers progress to the caller and as events', async () => {
    const seen: number[] = [];
    const events: EventPayload<'mcp.progress'>[] = [];
    const off = bus.onEvent('mcp.progress', (p) => events.push(p));
    await hub.callTool('everything', 'trigger-long-running-operation', { duration: 0.3, steps: 3 }, { onProgress: (p) => seen.push(p.progress) });
    off();
    expect(seen, `progress seen: ${JSON.stringify(seen)}`).toEqual([1, 2, 3]);
    expect(events.map((e) => e.server)).toEqual(['everything', 'everything', 'everything']);
  });

  it('surfaces logging notifications as events', async () => {
    await hub.setLoggingLevel('everything', 'debug');
    const log = bus.waitFor('mcp.log', (l) => l.server === 'everything', 12_000);
    await hub.callTool('everything', 'toggle-simulated-logging', {});
    expect((await log).level).toBeTruthy();
    await hub.callTool('everything', 'toggle-simulated-logging', {});
  });

  it('subscribes to a resource and surfaces its updates', async () => {
    const resources = await hub.listResources('everything');
    expect(resources.length).toBeGreaterThan(0);
    const templates = await hub.listResourceTemplates('everything');
    expect(templates.some((t) => t.uriTemplate.includes('{'))).toBe(true);
    const uri = resources[0]!.uri;
    const read = await hub.readResource(uri);
    expect(read.contents[0]?.uri).toBe(uri);
    await hub.subscribe('everything', uri);
    const updated = bus.waitFor('mcp.resource.updated', (u) => u.uri === uri, 12_000);
    await hub.callTool('everything', 'toggle-subscriber-updates', {});
    expect((await updated).server).toBe('everything');
    await hub.callTool('everything', 'toggle-subscriber-updates', {});
    await hub.unsubscribe('everything', uri);
  });

  it('lists and gets prompts, and completes prompt arguments', async () => {
    const prompts = await hub.listPrompts();
    expect(prompts.map((p) => p.name)).toContain('simple-prompt');
    const simple = await hub.getPrompt('everything', 'simple-prompt');
    expect(simple.messages.length).toBeGreaterThan(0);
    const c = await hub.complete('everything', { ref: { type: 'ref/prompt', name: 'completable-prompt' }, argument: { name: 'department', value: 'Eng' } });
    expect(c.completion.values).toEqual(['Engineering']);
    const n = await hub.complete('everything', {
      ref: { type: 'ref/prompt', name: 'completable-prompt' },
      argument: { name: 'name', value: '' },
      context: { arguments: { department: 'Sales' } },
    });
    expect(n.completion.values).toEqual(['David', 'Eve', 'Frank']);
  });

  it('pings', async () => {
    expect(await hub.ping('everything')).toBeGreaterThanOrEqual(0);
  });

  it('cancels a call on timeout, naming the server, and keeps working', async () => {
    const t0 = Date.now();
    await expect(hub.callTool('everything', 'trigger-long-running-operation', { duration: 5, steps: 50 }, { timeoutMs: 300 })).rejects.toThrow(/MCP server "everything".*timed out/i);
    expect(Date.now() - t0).toBeLessThan(3_000); // the operation itself takes 5 s
    const ac = new AbortController();
    const p = hub.callTool('everything', 'trigger-long-running-operation', { duration: 5, steps: 5 }, { signal: ac.signal });
    setTimeout(() => ac.abort(new Error('user stopped it')), 100);
    await expect(p).rejects.toThrow(/MCP server "everything"/);
    const echo = await hub.callTool('everything', 'echo', { message: 'still here' });
    expect(JSON.stringify(echo.content)).toContain('still here');
  });
});
