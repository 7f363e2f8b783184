import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { tempHome } from '../../../tests/fixtures/mcp/servers';
import { EventBus } from '../api/events';
import type { EventPayload } from '../../contract/index';
import { Paths } from '../paths/index';
import { ElicitationBroker } from './elicitation';
import { McpHub } from './hub';

function askingServer(): McpServer {
  const server = new McpServer({ name: 'asker', version: '1.0.0' });
  server.registerTool('ask', { description: 'asks for a name' }, async () => {
    const r = await server.server.elicitInput({ message: 'Your name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } });
    return { content: [{ type: 'text', text: `${r.action}:${JSON.stringify(r.content ?? null)}` }] };
  });
  return server;
}

describe('elicitation routed to the UI as events', () => {
  const hubs: McpHub[] = [];
  afterEach(async () => Promise.all(hubs.splice(0).map((h) => h.dispose())));

  async function setup(timeoutMs?: number) {
    const bus = new EventBus();
    const hub = new McpHub({ paths: new Paths(tempHome()), bus });
    hubs.push(hub);
    const broker = new ElicitationBroker(bus, timeoutMs);
    hub.setElicitationHandler(broker.handler);
    await hub.addInProcessServer('asker', askingServer());
    return { bus, hub, broker };
  }

  it('emits the request and delivers the answer the UI sends back', async () => {
    const { bus, hub, broker } = await setup();
    const done: EventPayload<'mcp.elicitation.done'>[] = [];
    bus.onEvent('mcp.elicitation.done', (d) => done.push(d));
    bus.onEvent('mcp.elicitation.request', (req) => {
      expect(req).toMatchObject({ server: 'asker', message: 'Your name?', mode: 'form', requestedSchema: { properties: { name: { type: 'string' } } } });
      setTimeout(async () => expect(await broker.respond(req.id, { action: 'accept', content: { name: 'Erasmus' } })).toBe(true), 10);
    });
    const r = await hub.callTool('asker', 'ask');
    expect(r.content).toEqual([{ type: 'text', text: 'accept:{"name":"Erasmus"}' }]);
    expect(done).toEqual([{ id: expect.any(String), action: 'accept' }]);
    expect(await broker.respond(done[0]!.id, { action: 'decline' })).toBe(false);
  });

  it('cancels a request nobody answers in time, and tells the UI', async () => {
    const { bus, hub, broker } = await setup(150);
    const done = bus.waitFor('mcp.elicitation.done');
    const r = await hub.callTool('asker', 'ask');
    expect(r.content).toEqual([{ type: 'text', text: 'cancel:null' }]);
    expect((await done).action).toBe('cancel');
    expect(broker.waiting).toBe(0);
  });
  it('lists a request asked while no window listened, so a window opened later can answer it', async () => {
    const { bus, hub, broker } = await setup();
    const asked = bus.waitFor('mcp.elicitation.request');
    const call = hub.callTool('asker', 'ask');
    const { id } = await asked;
    // A UI that connects now never saw the event: it asks for what is waiting.
    expect(broker.list()).toEqual([{ id, server: 'asker', message: 'Your name?', mode: 'form', requestedSchema: expect.objectContaining({ properties: { name: { type: 'string' } } }), waitedMs: expect.any(Number) }]);
    // With how long it has waited: a window that connects later does not count the user's wait from then.
    await new Promise((r) => setTimeout(r, 60));
    expect(broker.list()[0]!.waitedMs).toBeGreaterThanOrEqual(50);
    expect(await broker.respond(id, { action: 'accept', content: { name: 'Late' } })).toBe(true);
    expect((await call).content).toEqual([{ type: 'text', text: 'accept:{"name":"Late"}' }]);
    expect(broker.list()).toEqual([]);
  });
});
