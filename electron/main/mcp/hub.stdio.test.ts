import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processesMatching, serverEntry, tempHome, writeMcpConfig } from '../../../tests/fixtures/mcp/servers';
import { EventBus } from '../api/events';
import { Paths } from '../paths/index';
import { McpHub } from './hub';

const node = process.execPath;

describe('McpHub over stdio against the real npm servers', () => {
  const home = tempHome();
  const project = join(home, 'project');
  const bus = new EventBus();
  const hub = new McpHub({ paths: new Paths(home), bus, env: { ...process.env, MEMORY_PATH: join(home, 'memory.jsonl') } });
  let pids: number[] = [];

  beforeAll(async () => {
    mkdirSync(project, { recursive: true });
    writeFileSync(join(project, 'hello.txt'), 'hello from the project\n');
    writeMcpConfig(home, {
      everything: { command: node, args: [serverEntry.everything, 'stdio'], alwaysAllow: ['echo'] },
      filesystem: { command: node, args: [serverEntry.filesystem, '${workspaceFolder}'] },
      memory: { command: node, args: [serverEntry.memory], env: { MEMORY_FILE_PATH: '${env:MEMORY_PATH}' } },
      thinking: { command: node, args: [serverEntry.sequentialThinking], description: 'Step-by-step reasoning' },
      broken: { command: node, args: 42 },
      needsSecret: { command: node, args: [serverEntry.memory], env: { TOKEN: '${NO_SUCH_VARIABLE_XYZ}' } },
      missing: { command: 'nonexistent-mcp-erasmus-xyz' },
    });
    await hub.start({ projectDir: project, watch: false });
    pids = hub.servers().flatMap((s) => (s.pid ? [s.pid] : []));
  });
  afterAll(async () => {
    await hub.dispose();
    rmSync(home, { recursive: true, force: true });
  });

  it('starts every good server, and reports each bad entry naming file, entry and problem', () => {
    const byName = Object.fromEntries(hub.servers().map((s) => [s.name, s]));
    for (const n of ['everything', 'filesystem', 'memory', 'thinking']) expect(byName[n]?.state, `${n}: ${byName[n]?.error}`).toBe('ready');
    expect(pids).toHaveLength(4);
    const issue = hub.configErrors().find((i) => i.entry === 'broken');
    expect(issue?.file).toBe(join(home, 'mcp', 'config.json'));
    expect(issue?.message).toMatch(/args/);
    // A program that is not there: one clear error saying what to check, and no restarts (it would not be there either).
    expect(byName.missing?.state).toBe('errored');
    expect(byName.missing?.error).toBe(
      "could not start: cannot run nonexistent-mcp-erasmus-xyz (No such file or directory). Check the server's command, its entry in mcp/config.json (the Servers view cannot change it: remove the server there and add it again): give the program's full path, or install it; then restart the server.",
    );
    expect(byName.missing?.restarts).toBe(0);
    expect(byName.needsSecret?.state).toBe('errored');
    expect(byName.needsSecret?.error).toMatch(/config\.json: server "needsSecret": missing variable: environment variable NO_SUCH_VARIABLE_XYZ/);
  });

  it('calls tools on each server', async () => {
    const echo = await hub.callTool('everything', 'echo', { message: 'hi there' });
    expect(JSON.stringify(echo.content)).toContain('hi there');

    const list = await hub.callTool('filesystem', 'list_directory', { path: project });
    expect(JSON.stringify(list.content)).toContain('hello.txt');

    await hub.callTool('memory', 'create_entities', { entities: [{ name: 'Erasmus', entityType: 'app', observations: ['talks MCP'] }] });
    const graph = await hub.callTool('memory', 'read_graph', {});
    expect(JSON.stringify(graph)).toContain('talks MCP');

    const thought = await hub.callTool('thinking', 'sequentialthinking', { thought: 'first', thoughtNumber: 1, totalThoughts: 1, nextThoughtNeeded: false });
    expect(thought.isError).toBeFalsy();
  });

  it('presents toolsets as one line each and opens them with full schemas and policy data', () => {
    const sets = hub.toolsets();
    expect(sets.map((s) => s.name)).toEqual(expect.arrayContaining(['everything', 'filesystem', 'memory', 'thinking']));
    expect(sets.find((s) => s.name === 'thinking')?.description).toBe('Step-by-step reasoning');
    for (const s of sets) expect(s.description).not.toContain('\n');
    // Its instructions open with a Markdown heading ("# Everything Server – Server Instructions"): not a description.
    expect(sets.find((s) => s.name === 'everything')?.description).not.toMatch(/^#|Server Instructions/);
    expect(sets.find((s) => s.name === 'everything')?.description).toMatch(/echo/);
    const tools = hub.openToolset('everything');
    const echo = tools.find((t) => t.name === 'echo')!;
    expect(echo.qualifiedName).toBe('everything__echo');
    expect(echo.inputSchema).toMatchObject({ type: 'object', properties: { message: expect.anything() } });
    expect(echo.alwaysAllow).toBe(true);
    const write = hub.listTools('filesystem').find((t) => t.name === 'write_file')!;
    expect(write.annotations.destructiveHint).toBe(true);
    expect(write.alwaysAllow).toBe(false);
    expect(hub.findTool('filesystem__read_text_file')?.server).toBe('filesystem');
    expect(() => hub.openToolset('nope')).toThrow(/no toolset named "nope"/);
  });

  it('fails calls to unknown servers and unknown tools with a message naming the server', async () => {
    await expect(hub.callTool('ghost', 'x')).rejects.toThrow(/MCP server "ghost" is not configured/);
    const r = await hub.callTool('everything', 'no-such-tool').catch((e: Error) => e);
    if (r instanceof Error) expect(r.message).toMatch(/MCP server "everything"/);
    else expect(r.isError).toBe(true);
  });

  it('leaves no child process after dispose', async () => {
    await hub.dispose();
    for (const pid of pids) expect(processesMatching(String(pid)).filter((p) => p === pid)).toEqual([]);
    expect(processesMatching(home)).toEqual([]);
  });
});
