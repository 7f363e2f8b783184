// The open project is the hub's project: opening a folder in the app (project.open, the call every
// face's UI makes) gives the servers their roots and `${workspaceFolder}`, and re-reads the config.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { serverEntry, writeMcpConfig } from '../../../../tests/fixtures/mcp/servers';
import { connectedCore, type ConnectedCore } from '../testing';

let c: ConnectedCore | undefined;
afterEach(async () => {
  await c?.dispose();
  c = undefined;
});

describe('project.open and the MCP hub', () => {
  it('a server using ${workspaceFolder} waits for a project, then starts on the opened folder and works in it', async () => {
    c = connectedCore('project-hub');
    const project = join(c.home, 'work');
    mkdirSync(project, { recursive: true });
    writeFileSync(join(project, 'hello.txt'), 'hello from the project\n');
    writeMcpConfig(c.home, { fs: { command: process.execPath, args: [serverEntry.filesystem, '${workspaceFolder}'] } });
    await c.core.hub.start({ watch: false });
    const before = c.core.hub.servers().find((s) => s.name === 'fs');
    expect(before?.state).toBe('errored');
    expect(before?.error).toMatch(/no project is open/);

    await c.client.request('project.open', { path: project });
    await c.core.hub.whenReady('fs');
    const r = await c.core.hub.callTool('fs', 'read_text_file', { path: join(project, 'hello.txt') });
    expect(JSON.stringify(r.content)).toContain('hello from the project');
    const roots = await c.core.hub.callTool('fs', 'list_allowed_directories', {});
    expect(JSON.stringify(roots.content)).toContain(project);
  }, 30_000);

  it("a trusted project's .erasmus/mcp.json is the hub's after project.open, and stays after Reload config", async () => {
    c = connectedCore('project-reload');
    const project = join(c.home, 'work');
    mkdirSync(join(project, '.erasmus'), { recursive: true });
    writeFileSync(join(project, '.erasmus', 'mcp.json'), JSON.stringify({ mcpServers: { notes: { command: process.execPath, args: [serverEntry.memory] } } }));
    await c.core.hub.start({ watch: false });
    await c.client.request('project.open', { path: project });
    expect(c.core.hub.servers().map((s) => s.name)).not.toContain('notes'); // not before the user trusts it
    const listed = await c.client.request('project.trust.list', { path: project });
    await c.client.request('project.trust.grant', { path: project, files: listed.files.map((f) => ({ path: f.path, sha256: f.sha256 })) });
    await c.core.hub.whenReady('notes', 30_000);
    const reloaded = await c.client.request('mcp.reload', {});
    expect(reloaded.servers.map((s) => s.name)).toContain('notes');
    await c.core.hub.whenReady('notes', 30_000);
    expect(c.core.hub.toolsets().map((t) => t.name)).toContain('notes');
  }, 60_000);
});

describe('project.makeRepository', () => {
  it('makes the opened folder a repository with its files as the first commit, and opens it again (a repository now); a second call is refused', async () => {
    c = connectedCore('project-make-repo');
    const project = join(c.home, 'plain');
    mkdirSync(project, { recursive: true });
    writeFileSync(join(project, 'app.py'), 'print(1)\n');
    expect((await c.client.request('project.open', { path: project })).git).toBe(false);
    const opened: boolean[] = [];
    c.core.bus.onEvent('project.opened', (p) => opened.push(p.git));
    const made = await c.client.request('project.makeRepository', { path: project });
    expect(made).toMatchObject({ committed: 1, held: [], project: { path: project, git: true, runners: expect.arrayContaining(['git']) } });
    expect(opened).toEqual([true]);
    expect(execFileSync('git', ['log', '--format=%s'], { cwd: project, encoding: 'utf8' }).trim()).toBe('Initial commit: the files as they were before Erasmus');
    await expect(c.client.request('project.makeRepository', { path: project })).rejects.toThrow(`${project} is a git repository already`);
  }, 30_000);
});
