import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { serverEntry, tempHome, writeMcpConfig } from '../../../tests/fixtures/mcp/servers';
import { EventBus } from '../api/events';
import { Paths } from '../paths/index';
import { McpHub } from './hub';
import { trustHash } from './trust';

describe('catalog, trust and catalog toolsets', () => {
  const home = tempHome();
  const paths = new Paths(home);
  const hub = new McpHub({ paths, bus: new EventBus(), env: {} });
  afterAll(async () => {
    await hub.dispose();
    rmSync(home, { recursive: true, force: true });
  });

  it('lists the suggested servers', () => {
    const ids = hub.catalogServers().map((s) => s.id);
    expect(ids).toEqual(expect.arrayContaining(['filesystem', 'sqlite', 'memory', 'sequential-thinking', 'puppeteer', 'brave-search', 'gdrive', 'git']));
  });

  it('needs explicit trust the first time, shows what would run, and remembers the trust by hash', async () => {
    await hub.start({ watch: false });
    const first = await hub.enableCatalogServer('brave-search');
    expect(first.enabled).toBe(false);
    expect(first.preview).toMatchObject({ command: 'npx', args: ['-y', '@modelcontextprotocol/server-brave-search'], package: 'npm:@modelcontextprotocol/server-brave-search', envKeys: ['BRAVE_API_KEY'], trusted: false });
    expect(existsSync(paths.mcpConfig)).toBe(false);

    const second = await hub.enableCatalogServer('brave-search', { trust: true });
    expect(second.enabled).toBe(true);
    const trust = JSON.parse(readFileSync(paths.trustFile, 'utf8'));
    expect(Object.keys(trust.trusted)).toEqual([trustHash('npx', ['-y', '@modelcontextprotocol/server-brave-search'])]);
    const config = JSON.parse(readFileSync(paths.mcpConfig, 'utf8'));
    expect(config.mcpServers['brave-search'].env).toEqual({ BRAVE_API_KEY: '${secret:BRAVE_API_KEY}' });
    // No keychain here: the server is errored, naming the missing secret; nothing is started.
    expect(hub.server('brave-search')).toMatchObject({ state: 'errored', error: expect.stringContaining('secret BRAVE_API_KEY') });

    writeFileSync(paths.mcpConfig, JSON.stringify({ mcpServers: {} }));
    const again = await hub.enableCatalogServer('brave-search');
    expect(again).toMatchObject({ enabled: true, preview: { trusted: true } });
    await expect(hub.enableCatalogServer('nope')).rejects.toThrow(/no catalog server "nope"/);
  });

  it('offers a catalog group as a toolset spanning servers', async () => {
    const home2 = tempHome();
    writeMcpConfig(home2, { thinking: { command: process.execPath, args: [serverEntry.sequentialThinking] } });
    const hub2 = new McpHub({ paths: new Paths(home2), bus: new EventBus() });
    try {
      await hub2.start({ watch: false });
      const reasoning = hub2.toolsets().find((t) => t.name === 'reasoning');
      expect(reasoning).toMatchObject({ kind: 'group', servers: ['thinking'], tools: 1 });
      expect(hub2.toolsets().find((t) => t.name === 'files')).toBeUndefined();
      expect(hub2.openToolset('reasoning').map((t) => t.qualifiedName)).toEqual(['thinking__sequentialthinking']);
    } finally {
      await hub2.dispose();
    }
  });
});
