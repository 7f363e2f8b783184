import { rmSync } from 'node:fs';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SubscribeRequestSchema, UnsubscribeRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempHome } from '../../../tests/fixtures/mcp/servers';
import { EventBus } from '../api/events';
import { Paths } from '../paths/index';
import { McpHub } from './hub';

/** An SDK server with one subscribable resource; it records who subscribed and can announce a change. */
function notesServer() {
  const server = new McpServer({ name: 'notes', version: '1.0.0' }, { capabilities: { resources: { subscribe: true } } });
  const subscribed: string[] = [];
  const unsubscribed: string[] = [];
  server.registerResource('today', 'notes://today', { mimeType: 'text/plain' }, async (uri) => ({ contents: [{ uri: uri.href, text: 'buy milk' }] }));
  server.server.setRequestHandler(SubscribeRequestSchema, async (req) => (subscribed.push(req.params.uri), {}));
  server.server.setRequestHandler(UnsubscribeRequestSchema, async (req) => (unsubscribed.push(req.params.uri), {}));
  return { server, subscribed, unsubscribed, changed: (uri: string) => server.server.sendResourceUpdated({ uri }) };
}

describe('resource subscriptions through the hub', () => {
  const bus = new EventBus();
  const home = tempHome();
  const hub = new McpHub({ paths: new Paths(home), bus });
  const notes = notesServer();
  const plain = new McpServer({ name: 'plain', version: '1.0.0' });
  plain.registerResource('x', 'plain://x', {}, async (uri) => ({ contents: [{ uri: uri.href, text: 'x' }] }));

  beforeAll(async () => {
    await hub.start({ watch: false });
    await hub.addInProcessServer('notes', notes.server);
    await hub.addInProcessServer('plain', plain);
  });
  afterAll(async () => {
    await hub.dispose();
    rmSync(home, { recursive: true, force: true });
  });

  it('subscribes, delivers updates as events, and subscribes again after a restart', async () => {
    await hub.subscribe('notes', 'notes://today');
    expect(notes.subscribed).toEqual(['notes://today']);
    expect(hub.subscriptions('notes')).toEqual(['notes://today']);

    const updated = bus.waitFor('mcp.resource.updated', (e) => e.server === 'notes', 5000);
    await notes.changed('notes://today');
    expect(await updated).toEqual({ server: 'notes', uri: 'notes://today' });

    await hub.restartServer('notes');
    await expect.poll(() => notes.subscribed).toEqual(['notes://today', 'notes://today']);
    const again = bus.waitFor('mcp.resource.updated', (e) => e.server === 'notes', 5000);
    await notes.changed('notes://today');
    expect((await again).uri).toBe('notes://today');
  });

  it('unsubscribes, and is not subscribed again after a restart', async () => {
    await hub.unsubscribe('notes', 'notes://today');
    expect(notes.unsubscribed).toEqual(['notes://today']);
    expect(hub.subscriptions('notes')).toEqual([]);
    const before = notes.subscribed.length;
    await hub.restartServer('notes');
    await new Promise((r) => setTimeout(r, 100));
    expect(notes.subscribed).toHaveLength(before);
  });

  it('says so plainly when a server offers no subscriptions', async () => {
    await expect(hub.subscribe('plain', 'plain://x')).rejects.toThrow('MCP server "plain" does not offer resource subscriptions (its resources can still be read)');
    expect(hub.subscriptions('plain')).toEqual([]);
  });

  it('an unknown server is a rejected promise, not a synchronous throw', () => {
    let sub: Promise<void> | undefined;
    let unsub: Promise<void> | undefined;
    expect(() => (sub = hub.subscribe('nope', 'x://y'))).not.toThrow();
    expect(() => (unsub = hub.unsubscribe('nope', 'x://y'))).not.toThrow();
    return Promise.all([expect(sub).rejects.toThrow('MCP server "nope" is not configured'), expect(unsub).rejects.toThrow('MCP server "nope" is not configured')]);
  });
});
