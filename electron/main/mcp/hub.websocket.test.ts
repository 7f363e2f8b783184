import { rmSync } from 'node:fs';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { tempHome, writeMcpConfig } from '../../../tests/fixtures/mcp/servers';
import { startWsMcpServer } from '../../../tests/fixtures/mcp/ws-server';
import { EventBus } from '../api/events';
import { Paths } from '../paths/index';
import { McpHub } from './hub';

describe('MCP over WebSocket', () => {
  let ws: Awaited<ReturnType<typeof startWsMcpServer>>;
  const home = tempHome();
  const hub = new McpHub({ paths: new Paths(home), bus: new EventBus() });

  beforeAll(async () => {
    ws = await startWsMcpServer(() => {
      const s = new McpServer({ name: 'ws-test', version: '1.0.0' });
      s.registerTool('add', { description: 'adds', inputSchema: { a: z.number(), b: z.number() }, annotations: { readOnlyHint: true } }, async ({ a, b }) => ({
        content: [{ type: 'text', text: String(a + b) }],
      }));
      return s;
    });
    writeMcpConfig(home, { sockets: { type: 'websocket', url: ws.url } });
    await hub.start({ watch: false });
  });
  afterAll(async () => {
    await hub.dispose();
    await ws?.close();
    rmSync(home, { recursive: true, force: true });
  });

  it('connects, lists and calls tools', async () => {
    expect(hub.server('sockets')).toMatchObject({ state: 'ready', transport: 'websocket', serverInfo: { name: 'ws-test' } });
    expect(hub.listTools('sockets')[0]).toMatchObject({ qualifiedName: 'sockets__add', annotations: { readOnlyHint: true } });
    const r = await hub.callTool('sockets', 'add', { a: 2, b: 40 });
    expect(r.content).toEqual([{ type: 'text', text: '42' }]);
  });
});
