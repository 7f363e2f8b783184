// The open project is the hub's project: opening a folder in the app (project.open, the call every
// face's UI makes) gives the servers their roots and `${workspaceFolder}`, and re-reads the config.
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
});
