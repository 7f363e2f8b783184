import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { isAlive, processesMatching, repoRoot, serverEntry, tempHome, writeMcpConfig } from '../../../tests/fixtures/mcp/servers';
import { EventBus } from '../api/events';
import { Paths } from '../paths/index';
import { McpHub } from './hub';

const node = process.execPath;
const fixtures = join(repoRoot, 'tests', 'fixtures', 'mcp');
const everything = { command: node, args: [serverEntry.everything, 'stdio'] };

describe('supervision', () => {
  const hubs: McpHub[] = [];
  const makeHub = (home: string) => {
    const bus = new EventBus();
    const hub = new McpHub({ paths: new Paths(home), bus });
    hubs.push(hub);
    return { hub, bus };
  };
  afterEach(async () => {
    await Promise.all(hubs.splice(0).map((h) => h.dispose()));
  });

  it('fails a call within 1 s naming the server when the server is SIGKILLed mid-call, restarts it, and the next call succeeds', async () => {
    const home = tempHome();
    writeMcpConfig(home, { victim: everything });
    const { hub } = makeHub(home);
    await hub.start({ watch: false });
    const pid = hub.server('victim')!.pid!;
    const call = hub.callTool('victim', 'trigger-long-running-operation', { duration: 10, steps: 10 });
    const failed = call.then(
      () => 'resolved',
      (e: Error) => e,
    );
    await new Promise((r) => setTimeout(r, 200));
    const t0 = Date.now();
    process.kill(pid, 'SIGKILL');
    const err = await failed;
    // Far sooner than the call's own 10 s (a loaded machine may take a moment to see the exit).
    expect(Date.now() - t0).toBeLessThan(3_000);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toMatch(/MCP server "victim"/);
    expect(hub.server('victim')!.state).not.toBe('ready');
    const status = await hub.whenReady('victim', 10_000);
    expect(status.restarts).toBe(1);
    expect(status.pid).not.toBe(pid);
    const echo = await hub.callTool('victim', 'echo', { message: 'back again' });
    expect(JSON.stringify(echo.content)).toContain('back again');
  });

  it('restarts a server that stops answering ping', async () => {
    const home = tempHome();
    writeMcpConfig(home, { frozen: everything });
    const hub = new McpHub({ paths: new Paths(home), bus: new EventBus(), pingIntervalMs: 200, pingTimeoutMs: 300 });
    hubs.push(hub);
    await hub.start({ watch: false });
    const pid = hub.server('frozen')!.pid!;
    process.kill(pid, 'SIGSTOP');
    try {
      await expect.poll(() => hub.server('frozen')!.error ?? '', { timeout: 5_000 }).toMatch(/did not answer ping/);
      const status = await hub.whenReady('frozen', 10_000);
      expect(status.pid).not.toBe(pid);
      expect(isAlive(pid)).toBe(false);
    } finally {
      if (isAlive(pid)) process.kill(pid, 'SIGKILL');
    }
  });

  it('marks a server that writes garbage on stdout as errored and keeps the others running', async () => {
    const home = tempHome();
    writeMcpConfig(home, { garbage: { command: node, args: [join(fixtures, 'garbage-server.mjs')], timeout: 5 }, good: everything });
    const { hub, bus } = makeHub(home);
    const errored = bus.waitFor('mcp.server.status', (s) => s.name === 'garbage' && s.state === 'errored', 10_000);
    await hub.start({ watch: false });
    const garbage = await errored;
    expect(garbage.error).toMatch(/not JSON-RPC on stdout: "Hello! I am not JSON-RPC"/);
    expect(garbage.stderrTail).toContain('garbage server starting');
    expect(hub.server('good')!.state).toBe('ready');
    await expect(hub.callTool('garbage', 'x', {}, { timeoutMs: 500 })).rejects.toThrow(/MCP server "garbage" is not ready/);
  });

  it('ends the whole process group (grandchildren too) on dispose', async () => {
    const home = tempHome();
    const marker = `grandchild-${process.pid}-${Date.now()}`;
    writeMcpConfig(home, { tree: { command: node, args: [join(fixtures, 'tree-server.mjs'), marker], cwd: repoRoot } });
    const { hub } = makeHub(home);
    await hub.start({ watch: false });
    expect(hub.server('tree')!.state).toBe('ready');
    const pid = hub.server('tree')!.pid!;
    expect(processesMatching(marker).length).toBe(2); // the server and its grandchild
    // Its own process group (the pid is the group id), in our session.
    const [pgid, sid] = execFileSync('ps', ['-o', 'pgid=,sid=', '-p', String(pid)], { encoding: 'utf8' }).trim().split(/\s+/).map(Number);
    const [, ourSid] = execFileSync('ps', ['-o', 'pgid=,sid=', '-p', String(process.pid)], { encoding: 'utf8' }).trim().split(/\s+/).map(Number);
    expect(pgid).toBe(pid);
    expect(sid).toBe(ourSid);
    await hub.dispose();
    expect(isAlive(pid)).toBe(false);
    expect(processesMatching(marker)).toEqual([]);
  });

  it('ends a server that never answers initialize when disposed mid-start, without waiting for the timeout', async () => {
    const home = tempHome();
    const marker = `silent-${process.pid}-${Date.now()}`;
    writeMcpConfig(home, { silent: { command: node, args: ['-e', 'setInterval(() => {}, 1000)', marker] } });
    const { hub } = makeHub(home);
    const started = hub.start({ watch: false });
    await expect.poll(() => processesMatching(marker).length, { timeout: 5_000 }).toBe(1);
    expect(hub.server('silent')!.state).toBe('starting');
    const t0 = Date.now();
    await hub.dispose();
    await started;
    expect(Date.now() - t0).toBeLessThan(5_000);
    expect(processesMatching(marker)).toEqual([]);
  });

  it('reconnects a changed server and leaves an unchanged one alone when the config file changes', async () => {
    const home = tempHome();
    const file = writeMcpConfig(home, { stay: everything, change: { ...everything, env: { X: '1' } } });
    const { hub, bus } = makeHub(home);
    await hub.start();
    const stayPid = hub.server('stay')!.pid;
    const changePid = hub.server('change')!.pid;
    const reconnected = bus.waitFor('mcp.server.status', (s) => s.name === 'change' && s.state === 'ready', 15_000);
    writeFileSync(file, JSON.stringify({ mcpServers: { stay: everything, change: { ...everything, env: { X: '2' } }, added: everything } }));
    await reconnected;
    await hub.whenReady('added', 15_000);
    expect(hub.server('stay')!.pid).toBe(stayPid);
    expect(hub.server('change')!.pid).not.toBe(changePid);
    expect(isAlive(changePid!)).toBe(false);
  });

  it('connects an in-process SDK server, routes its elicitation requests to the handler, and follows list_changed', async () => {
    const home = tempHome();
    const { hub, bus } = makeHub(home);
    await hub.start({ watch: false });
    const server = new McpServer({ name: 'erasmus-own', version: '1.0.0' });
    server.registerTool(
      'confirm',
      { description: 'asks the user', inputSchema: { question: z.string() }, annotations: { readOnlyHint: true } },
      async ({ question }) => {
        const r = await server.server.elicitInput({ message: question, requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } } });
        return { content: [{ type: 'text', text: `${r.action}:${JSON.stringify(r.content)}` }] };
      },
    );
    const asked: string[] = [];
    hub.setElicitationHandler(async (req) => {
      asked.push(`${req.server}:${req.params.message}`);
      return { action: 'accept', content: { ok: true } };
    });
    await hub.addInProcessServer('own', server, { description: 'Erasmus itself', alwaysAllow: ['confirm'] });
    expect(hub.server('own')).toMatchObject({ state: 'ready', transport: 'in-process' });
    const tool = hub.openToolset('own')[0]!;
    expect(tool).toMatchObject({ qualifiedName: 'own__confirm', alwaysAllow: true, annotations: { readOnlyHint: true } });
    const r = await hub.callTool('own', 'confirm', { question: 'Proceed?' });
    expect(r.content).toEqual([{ type: 'text', text: 'accept:{"ok":true}' }]);
    expect(asked).toEqual(['own:Proceed?']);

    // A tool added later: list_changed reaches the hub, which refreshes its tools and says so.
    const changed = bus.waitFor('mcp.tools.changed', (e) => e.server === 'own' && e.tools === 2);
    server.registerTool('later', { description: 'added after connect' }, async () => ({ content: [{ type: 'text', text: 'late' }] }));
    await changed;
    expect(hub.listTools('own').map((t) => t.name)).toEqual(['confirm', 'later']);
  });
});
