import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isAlive, serverEntry, tempHome, writeMcpConfig } from '../../../../tests/fixtures/mcp/servers';
import { EventBus } from '../../api/events';
import { Paths } from '../../paths/index';
import { McpHub } from '../hub';
import { InvalidServerError } from './edit';

describe('editing the server list (ERASMUS_HOME/mcp/config.json)', () => {
  const home = tempHome();
  const paths = new Paths(home);
  const fakeUser = tempHome('erasmus-user-');
  const hub = new McpHub({ paths, bus: new EventBus(), env: { HOME: fakeUser, XDG_CONFIG_HOME: join(fakeUser, '.config'), PATH: process.env.PATH }, pingIntervalMs: 60_000 });
  // An entry written by hand (never trusted) and one nobody may lose.
  writeMcpConfig(home, {
    keepme: { type: 'http', url: 'http://127.0.0.1:9/mcp', disabled: true, alwaysAllow: ['x'], custom: { kept: true } },
    handwritten: { command: process.execPath, args: [serverEntry.memory, '--handwritten'], disabled: true },
  });
  const file = () => readFileSync(paths.mcpConfig, 'utf8');
  afterAll(async () => {
    await hub.dispose();
    for (const dir of [home, fakeUser]) rmSync(dir, { recursive: true, force: true });
  });

  it('adds a stdio server by form: it really starts, with its tools, and its command is trusted', async () => {
    await hub.start({ watch: false });
    const view = await hub.config.add('memory', { transport: 'stdio', command: process.execPath, args: [serverEntry.memory], env: { MEMORY_FILE_PATH: join(home, 'memory.jsonl') } });
    expect(view).toMatchObject({ name: 'memory', transport: 'stdio', disabled: false, trusted: true, envKeys: ['MEMORY_FILE_PATH'] });
    const st = await hub.whenReady('memory');
    expect(st.pid).toBeGreaterThan(0);
    expect(hub.listTools('memory').map((t) => t.name)).toContain('create_entities');
    const doc = JSON.parse(file());
    expect(doc.mcpServers.memory).toEqual({ command: process.execPath, args: [serverEntry.memory], env: { MEMORY_FILE_PATH: join(home, 'memory.jsonl') } });
    expect(doc.mcpServers.keepme).toEqual({ type: 'http', url: 'http://127.0.0.1:9/mcp', disabled: true, alwaysAllow: ['x'], custom: { kept: true } });
  });

  it('refuses a bad entry with the fields named, and loses nothing', async () => {
    const before = file();
    const bad = await hub.config.add('bad name!', { transport: 'stdio', command: ' ', env: { OPENAI_API_KEY: 'sk-live-123' } }).catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(InvalidServerError);
    const fields = (bad as InvalidServerError).issues.map((i) => i.field);
    expect(fields).toEqual(['name', 'command', 'env.OPENAI_API_KEY']);
    expect((bad as Error).message).toContain('${secret:OPENAI_API_KEY}');
    await expect(hub.config.add('web', { transport: 'http', url: 'ftp://x' })).rejects.toThrow(/url: not an http/);
    await expect(hub.config.add('memory', { transport: 'stdio', command: 'node' })).rejects.toThrow(/name: a server named "memory" already exists/);
    expect(file()).toBe(before);
    // A secret as a reference is fine; adding a server leaves the running ones alone (same process).
    const memoryPid = hub.server('memory')!.pid;
    await hub.config.add('remote', { transport: 'http', url: 'http://127.0.0.1:9/mcp', headers: { Authorization: 'Bearer ${secret:REMOTE_TOKEN}' } }, { enable: false });
    expect(JSON.parse(file()).mcpServers.remote).toEqual({ type: 'http', url: 'http://127.0.0.1:9/mcp', headers: { Authorization: 'Bearer ${secret:REMOTE_TOKEN}' }, disabled: true });
    expect(hub.server('memory')).toMatchObject({ state: 'ready', pid: memoryPid });
  });

  it('refuses to edit a config file it cannot parse, leaving it as it was', async () => {
    const home2 = tempHome();
    const hub2 = new McpHub({ paths: new Paths(home2), bus: new EventBus(), env: {} });
    mkdirSync(join(home2, 'mcp'), { recursive: true });
    writeFileSync(join(home2, 'mcp', 'config.json'), '{ "mcpServers": { "a": ');
    await expect(hub2.config.add('x', { transport: 'stdio', command: 'node' })).rejects.toThrow(/not valid JSON, so it was left as it is/);
    expect(readFileSync(join(home2, 'mcp', 'config.json'), 'utf8')).toBe('{ "mcpServers": { "a": ');
    await hub2.dispose();
  });

  it('disables a server: it stops and no child remains; enabling again starts it', async () => {
    const pid = hub.server('memory')!.pid!;
    expect(isAlive(pid)).toBe(true);
    await hub.config.disable('memory');
    expect(hub.server('memory')).toMatchObject({ state: 'disabled' });
    expect(hub.server('memory')!.pid).toBeUndefined();
    await expect.poll(() => isAlive(pid), { timeout: 5000 }).toBe(false);
    expect(JSON.parse(file()).mcpServers.memory.disabled).toBe(true);
    expect(JSON.parse(file()).mcpServers.keepme.custom).toEqual({ kept: true });

    const again = await hub.config.enable('memory');
    expect(again.enabled).toBe(true);
    expect(hub.server('memory')).toMatchObject({ state: 'ready' });
    expect(JSON.parse(file()).mcpServers.memory.disabled).toBeUndefined();
  });

  it('asks for trust the first time an untrusted server is enabled, and remembers it by hash', async () => {
    const first = await hub.config.enable('handwritten');
    expect(first.enabled).toBe(false);
    expect(first.preview).toMatchObject({ command: process.execPath, args: [serverEntry.memory, '--handwritten'], trusted: false });
    expect(hub.server('handwritten')).toMatchObject({ state: 'disabled' });
    const listed = (await hub.config.entries()).find((e) => e.name === 'handwritten');
    expect(listed).toMatchObject({ trusted: false, disabled: true });

    const second = await hub.config.enable('handwritten', { trust: true });
    expect(second).toMatchObject({ enabled: true, preview: { trusted: true } });
    expect((await hub.whenReady('handwritten')).state).toBe('ready');
    expect(await hub.trust.isTrusted(process.execPath, [serverEntry.memory, '--handwritten'])).toBe(true);
    await expect(hub.config.enable('nope')).rejects.toThrow(/no server "nope"/);
  });

  it('removes a server: it stops and leaves the file, the others stay', async () => {
    const pid = hub.server('handwritten')!.pid!;
    await hub.config.remove('handwritten');
    expect(hub.server('handwritten')).toBeUndefined();
    await expect.poll(() => isAlive(pid), { timeout: 5000 }).toBe(false);
    expect(Object.keys(JSON.parse(file()).mcpServers).sort()).toEqual(['keepme', 'memory', 'remote']);
    await expect(hub.config.remove('handwritten')).rejects.toThrow(/no server "handwritten"/);
  });

  it("imports the picked servers of Claude Desktop's config, never overwriting one that exists", async () => {
    const claude = join(fakeUser, '.config', 'Claude', 'claude_desktop_config.json');
    mkdirSync(join(fakeUser, '.config', 'Claude'), { recursive: true });
    writeFileSync(
      claude,
      JSON.stringify({
        mcpServers: {
          memory: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'] },
          thinking: { command: process.execPath, args: [serverEntry.sequentialThinking] },
          github: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-github'], env: { GITHUB_TOKEN: 'ghp_x' } },
        },
      }),
    );
    const found = await hub.config.discover();
    const c = found.find((x) => x.source === 'claude');
    expect(c?.file).toBe(claude);
    expect(c?.servers.map((s) => [s.name, s.exists, s.package ?? null])).toEqual([
      ['memory', true, 'npm:@modelcontextprotocol/server-memory'],
      ['thinking', false, null],
      ['github', false, 'npm:@modelcontextprotocol/server-github'],
    ]);
    const before = JSON.parse(file()).mcpServers.memory;
    const r = await hub.config.importFrom(claude, ['memory', 'thinking']);
    expect(r).toEqual({ added: ['thinking'], skipped: ['memory'] });
    const doc = JSON.parse(file());
    expect(doc.mcpServers.memory).toEqual(before);
    // Another app's command is not trusted here yet: it arrives disabled, and its first enable asks.
    expect(doc.mcpServers.thinking).toEqual({ command: process.execPath, args: [serverEntry.sequentialThinking], disabled: true });
    expect(doc.mcpServers.github).toBeUndefined();
    expect(hub.server('thinking')).toMatchObject({ state: 'disabled' });
    await expect(hub.config.importFrom(claude, ['nope'])).rejects.toThrow(/no server named "nope"/);
    await expect(hub.config.importFrom('/etc/passwd', ['x'])).rejects.toThrow(/not a config file Erasmus imports from/);
  });
});
