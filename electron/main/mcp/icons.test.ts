import { rmSync } from 'node:fs';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, describe, expect, it } from 'vitest';
import { tempHome } from '../../../tests/fixtures/mcp/servers';
import { EventBus } from '../api/events';
import { Paths } from '../paths/index';
import { McpHub } from './hub';
import { iconDataUrl, MAX_ICON_BYTES, safeIcons } from './icons';

const PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

describe('server and tool icons', () => {
  const home = tempHome('erasmus-icons-');
  const hub = new McpHub({ paths: new Paths(home), bus: new EventBus() });
  afterAll(async () => {
    await hub.dispose();
    rmSync(home, { recursive: true, force: true });
  });

  it('reach the status and the tool list from a real SDK server, unsafe sources left out', async () => {
    const server = new McpServer(
      { name: 'iconic', version: '1.0.0', icons: [{ src: PNG, mimeType: 'image/png', sizes: ['1x1'] }, { src: 'http://plain.example/i.png' }, { src: 'javascript:alert(1)' }, { src: 'https://cdn.example/dark.svg', theme: 'dark' }] },
      { capabilities: { tools: {} } },
    );
    // McpServer's registerTool does not list a tool's icons (SDK 1.x): the protocol handler lists them as the spec allows.
    server.server.setRequestHandler(ListToolsRequestSchema, async () => ({
      tools: [{ name: 'paint', description: 'paints', inputSchema: { type: 'object' }, icons: [{ src: 'https://cdn.example/brush.png' }, { src: 'file:///etc/passwd' }] }],
    }));
    await hub.addInProcessServer('iconic', server);
    await hub.whenReady('iconic');
    expect(hub.server('iconic')?.icons).toEqual([
      { src: PNG, mimeType: 'image/png', sizes: ['1x1'] },
      { src: 'https://cdn.example/dark.svg', theme: 'dark' },
    ]);
    expect(hub.listTools('iconic')[0]!.icons).toEqual([{ src: 'https://cdn.example/brush.png' }]);
  });

  it('become data: URLs: data: ones as they are, https ones fetched once with their type and size checked', async () => {
    expect(await iconDataUrl(PNG)).toBe(PNG);
    let fetched = 0;
    const serve = (body: ConstructorParameters<typeof Response>[0], type: string) => (async () => (fetched++, new Response(body, { headers: { 'content-type': type } }))) as unknown as typeof fetch;
    const svg = '<svg xmlns="http://www.w3.org/2000/svg"/>';
    const url = await iconDataUrl('https://cdn.example/a.svg', serve(svg, 'image/svg+xml; charset=utf-8'));
    expect(url).toBe(`data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`);
    expect(await iconDataUrl('https://cdn.example/a.svg', serve(svg, 'image/svg+xml'))).toBe(url);
    expect(fetched).toBe(1);
    await expect(iconDataUrl('https://cdn.example/page', serve('<html>', 'text/html'))).rejects.toThrow('not an image (text/html)');
    await expect(iconDataUrl('https://cdn.example/big.png', serve(new Uint8Array(MAX_ICON_BYTES + 1), 'image/png'))).rejects.toThrow('larger than 256 kB');
    await expect(iconDataUrl('http://cdn.example/a.png')).rejects.toThrow('only https: and data: icons are shown');
    expect(safeIcons([{ src: 'data:text/html,<script>' }])).toBeUndefined();
  });
});
