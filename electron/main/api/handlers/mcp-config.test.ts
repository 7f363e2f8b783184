import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPipePair, RpcClient, RpcError } from '../../../contract/index';
import { isAlive, serverEntry } from '../../../../tests/fixtures/mcp/servers';
import { Core } from '../core';

// The Servers view's methods over an in-memory pipe, against a real hub and the real memory server.
const root = mkdtempSync(join(tmpdir(), 'erasmus-mcp-config-'));
const home = join(root, 'home');
const user = join(root, 'user');
const core = new Core({ face: 'browser', home, env: { ...process.env, HOME: user, XDG_CONFIG_HOME: join(user, '.config') } });
const [a, b] = createPipePair();
core.connect(a);
const client = new RpcClient(b);

beforeAll(() => core.hub.start({ watch: false }));
afterAll(async () => {
  client.close();
  await core.dispose();
  rmSync(root, { recursive: true, force: true });
});

describe('mcp.server.* and mcp.import over the contract', () => {
  it('adds a server by form, lists it, disables it (its process ends) and removes it', async () => {
    const entry = await client.request('mcp.server.add', { name: 'memory', server: { transport: 'stdio', command: process.execPath, args: [serverEntry.memory] } });
    expect(entry).toMatchObject({ name: 'memory', disabled: false, trusted: true });
    const { servers } = await client.request('mcp.servers', {});
    const st = servers.find((s) => s.name === 'memory');
    expect(st).toMatchObject({ state: 'ready' });
    expect(st!.tools).toBeGreaterThan(0);
    expect((await client.request('mcp.config.entries', {})).entries.map((e) => e.name)).toEqual(['memory']);

    await client.request('mcp.server.disable', { server: 'memory' });
    expect(core.hub.server('memory')).toMatchObject({ state: 'disabled' });
    await expect.poll(() => isAlive(st!.pid!), { timeout: 5000 }).toBe(false);
    await client.request('mcp.server.remove', { server: 'memory' });
    expect((await client.request('mcp.servers', {})).servers.find((s) => s.name === 'memory')).toBeUndefined();
  });

  it('refuses a bad entry with one issue per field in error.data, writing nothing', async () => {
    const err = await client.request('mcp.server.add', { name: 'x', server: { transport: 'sse', url: 'nope', headers: { 'X-Api-Key': 'abc123' } } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RpcError);
    expect((err as RpcError).data).toEqual({
      issues: [
        { field: 'url', message: 'not an http:// or https:// URL: nope' },
        { field: 'headers.X-Api-Key', message: expect.stringContaining('${secret:X_API_KEY}') },
      ],
    });
    expect(JSON.parse(readFileSync(join(home, 'mcp', 'config.json'), 'utf8'))).toEqual({ mcpServers: {} });
  });

  it('imports from a Claude Desktop config, then asks for trust before the first enable', async () => {
    const claude = join(user, '.config', 'Claude', 'claude_desktop_config.json');
    mkdirSync(join(user, '.config', 'Claude'), { recursive: true });
    writeFileSync(claude, JSON.stringify({ mcpServers: { mem2: { command: process.execPath, args: [serverEntry.memory, '--from-claude'] } } }));
    const { candidates } = await client.request('mcp.import.discover', {});
    expect(candidates).toEqual([{ source: 'claude', file: claude, issues: [], servers: [expect.objectContaining({ name: 'mem2', exists: false })] }]);
    expect(await client.request('mcp.import', { file: claude, names: ['mem2'] })).toEqual({ added: ['mem2'], skipped: [] });
    expect(await client.request('mcp.import', { file: claude, names: ['mem2'] })).toEqual({ added: [], skipped: ['mem2'] });

    const first = await client.request('mcp.server.enable', { server: 'mem2' });
    expect(first).toMatchObject({ enabled: false, preview: { command: process.execPath, args: [serverEntry.memory, '--from-claude'], trusted: false } });
    expect(await client.request('mcp.server.enable', { server: 'mem2', trust: true })).toMatchObject({ enabled: true });
    expect(core.hub.server('mem2')).toMatchObject({ state: 'ready' });
    expect(await client.request('mcp.server.preview', { server: 'mem2' })).toMatchObject({ trusted: true });
  });
});
