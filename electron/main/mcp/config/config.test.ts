import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempHome } from '../../../../tests/fixtures/mcp/servers';
import { discoverImports, importServers } from './import';
import { ProjectTrust } from '../../project/trust';
import { loadConfig, parseConfigText } from './load';
import { fingerprint } from './schema';

describe('MCP config', () => {
  it('reads Claude Desktop mcpServers, with remote entries and every field', () => {
    const r = parseConfigText(
      JSON.stringify({
        mcpServers: {
          fs: { command: 'npx', args: ['-y', 'x'], env: { A: '1' }, cwd: '/tmp', disabled: true, timeout: 30, alwaysAllow: ['read'] },
          remote: { type: 'streamable-http', url: 'https://example.test/mcp', headers: { Authorization: 'Bearer ${secret:TOKEN}' } },
          old: { type: 'sse', url: 'http://127.0.0.1:1/sse' },
          ws: { url: 'ws://127.0.0.1:1/' },
        },
      }),
      '/c/config.json',
    );
    expect(r.issues).toEqual([]);
    const by = Object.fromEntries(r.servers.map((s) => [s.name, s]));
    expect(by.fs).toMatchObject({ transport: 'stdio', command: 'npx', args: ['-y', 'x'], env: { A: '1' }, cwd: '/tmp', disabled: true, timeoutMs: 30_000, alwaysAllow: ['read'], source: '/c/config.json' });
    expect(by.remote).toMatchObject({ transport: 'http', url: 'https://example.test/mcp', headers: { Authorization: 'Bearer ${secret:TOKEN}' } });
    expect(by.old?.transport).toBe('sse');
    expect(by.ws?.transport).toBe('websocket');
  });

  it('reads goose extensions from YAML', () => {
    const r = parseConfigText(
      ['extensions:', '  gh:', '    type: stdio', '    cmd: gh-mcp', '    args: [serve]', '    envs: { X: "1" }', '    env_keys: [GITHUB_TOKEN]', '    timeout: 300', '  web:', '    type: streamable_http', '    uri: http://127.0.0.1:9/mcp', '    enabled: false', '  dev:', '    type: builtin', '    enabled: true'].join('\n'),
      '/c/config.yaml',
    );
    expect(r.servers.map((s) => s.name)).toEqual(['gh', 'web']);
    expect(r.servers[0]).toMatchObject({ transport: 'stdio', command: 'gh-mcp', args: ['serve'], env: { X: '1' }, envKeys: ['GITHUB_TOKEN'], timeoutMs: 300_000 });
    expect(r.servers[1]).toMatchObject({ transport: 'http', disabled: true });
    expect(r.issues).toEqual([{ file: '/c/config.yaml', entry: 'dev', message: expect.stringMatching(/builtin.*skipped/) }]);
  });

  it('names the file, the entry and what is wrong, and keeps the good entries', () => {
    const r = parseConfigText(
      JSON.stringify({ servers: { ok: { command: 'a' }, noCommand: { args: [] }, badArgs: { command: 'a', args: 'x' }, 'bad name!': { command: 'a' }, http: { type: 'http' } } }),
      '/p/.vscode/mcp.json',
    );
    expect(r.servers.map((s) => s.name)).toEqual(['ok']);
    const msg = Object.fromEntries(r.issues.map((i) => [i.entry, `${i.file}: ${i.message}`]));
    expect(msg.noCommand).toBe('/p/.vscode/mcp.json: needs a "command" (stdio) or a "url" (remote)');
    expect(msg.badArgs).toMatch(/^\/p\/\.vscode\/mcp\.json: args: .*array/);
    expect(msg['bad name!']).toMatch(/letters, digits/);
    expect(msg.http).toMatch(/type "http" needs a "url"/);
    expect(parseConfigText('{ nope', '/x.json').issues[0]!.message).toMatch(/^not valid JSON/);
    expect(parseConfigText('mcpServers: [1]', '/x.yaml').issues[0]!.message).toMatch(/must be an object/);
  });

  it('merges global YAML and global JSON, later overriding earlier; the project file adds servers once trusted, never replacing yours', async () => {
    const home = tempHome();
    const project = join(home, 'proj');
    mkdirSync(join(home, 'mcp'), { recursive: true });
    mkdirSync(join(project, '.erasmus'), { recursive: true });
    writeFileSync(join(home, 'config.yaml'), 'extensions:\n  a:\n    cmd: from-yaml\n  b:\n    cmd: from-yaml\n');
    writeFileSync(join(home, 'mcp', 'config.json'), JSON.stringify({ mcpServers: { b: { command: 'from-json' }, c: { command: 'from-json' } } }));
    writeFileSync(join(project, '.erasmus', 'mcp.json'), JSON.stringify({ mcpServers: { c: { command: 'from-project' }, d: { command: 'from-project' } } }));
    const projectTrust = ProjectTrust.forHome(home);
    const sources = { mcpConfig: join(home, 'mcp', 'config.json'), configYaml: join(home, 'config.yaml'), projectDir: project, projectTrust };
    const before = await loadConfig(sources);
    expect(Object.fromEntries(before.servers.map((s) => [s.name, s.command]))).toEqual({ a: 'from-yaml', b: 'from-json', c: 'from-json' });
    expect(before.issues.map((i) => i.message).join('\n')).toMatch(/not trusted yet.*erasmus trust/);
    await projectTrust.trust(project);
    const r = await loadConfig(sources);
    expect(Object.fromEntries(r.servers.map((s) => [s.name, s.command]))).toEqual({ a: 'from-yaml', b: 'from-json', c: 'from-json', d: 'from-project' });
    expect(r.issues.find((i) => i.entry === 'c')?.message).toMatch(/may not replace your server "c"/);
    const only = await loadConfig({ mcpConfig: 'x', configYaml: 'y', configFile: join(home, 'config.yaml') });
    expect(only.servers.map((s) => s.name)).toEqual(['a', 'b']);
  });

  it('fingerprints what affects the connection only', () => {
    const [a] = parseConfigText(JSON.stringify({ mcpServers: { a: { command: 'x', env: { K: '1' }, alwaysAllow: ['t'] } } }), '/1.json').servers;
    const [b] = parseConfigText(JSON.stringify({ mcpServers: { a: { command: 'x', env: { K: '1' } } } }), '/2.json').servers;
    const [c] = parseConfigText(JSON.stringify({ mcpServers: { a: { command: 'x', env: { K: '2' } } } }), '/1.json').servers;
    expect(fingerprint(a!)).toBe(fingerprint(b!));
    expect(fingerprint(a!)).not.toBe(fingerprint(c!));
  });

  it('imports from Claude Desktop, Cursor, VS Code, Roo and goose without overwriting what exists', async () => {
    const home = tempHome();
    const project = join(home, 'proj');
    const w = (file: string, text: string) => {
      mkdirSync(join(file, '..'), { recursive: true });
      writeFileSync(file, text);
    };
    w(join(home, '.config', 'Claude', 'claude_desktop_config.json'), JSON.stringify({ mcpServers: { claudeOne: { command: 'c1' }, keep: { command: 'other' } } }));
    w(join(home, '.cursor', 'mcp.json'), JSON.stringify({ mcpServers: { cursorOne: { url: 'http://127.0.0.1:1/mcp' } } }));
    w(join(project, '.vscode', 'mcp.json'), JSON.stringify({ servers: { vsOne: { type: 'stdio', command: 'v1' } } }));
    w(join(project, '.roo', 'mcp.json'), JSON.stringify({ mcpServers: { rooOne: { command: 'r1', alwaysAllow: ['x'] } } }));
    w(join(home, '.config', 'goose', 'config.yaml'), 'extensions:\n  gooseOne:\n    cmd: g1\n    env_keys: [TOKEN]\n');
    const found = await discoverImports({ home, projectDir: project, platform: 'linux', env: {} });
    expect(found.map((f) => f.source).sort()).toEqual(['claude', 'cursor', 'goose', 'roo', 'vscode']);
    const target = join(home, 'erasmus', 'mcp', 'config.json');
    w(target, JSON.stringify({ mcpServers: { keep: { command: 'mine' } }, other: 1 }));
    const r = await importServers(found.flatMap((f) => f.servers), target);
    expect(r.skipped).toEqual(['keep']);
    expect(r.added.sort()).toEqual(['claudeOne', 'cursorOne', 'gooseOne', 'rooOne', 'vsOne']);
    const saved = JSON.parse(readFileSync(target, 'utf8'));
    expect(saved.other).toBe(1);
    expect(saved.mcpServers.keep).toEqual({ command: 'mine' });
    expect(saved.mcpServers.gooseOne).toEqual({ command: 'g1', env: { TOKEN: '${secret:TOKEN}' } });
    expect(saved.mcpServers.cursorOne).toEqual({ type: 'http', url: 'http://127.0.0.1:1/mcp' });
    writeFileSync(target, '{ broken');
    await expect(importServers(found[0]!.servers, target)).rejects.toThrow(/cannot be read as JSON, so nothing was imported/);
    expect(readFileSync(target, 'utf8')).toBe('{ broken');
  });
});
