import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { tempHome } from '../../../tests/fixtures/mcp/servers';
import type { EventPayload } from '../../contract/index';
import { EventBus } from '../../main/api/events';
import { ElicitationBroker, type GrantDeps } from '../../main/mcp/elicitation';
import { ApprovalGrants } from '../../main/project/approval-grants';
import { McpHub } from '../../main/mcp/hub';
import { Paths } from '../../main/paths/index';
import { createFilesServer } from './server';

describe('the files server asks a yes/no question that says what it approves', () => {
  const hubs: McpHub[] = [];
  let root: string | undefined;
  afterEach(async () => {
    await Promise.all(hubs.splice(0).map((h) => h.dispose()));
    if (root) await rm(root, { recursive: true, force: true });
  });

  async function setup(always?: (root: string) => GrantDeps) {
    root = await mkdtemp(join(tmpdir(), 'erasmus-files-approval-'));
    const bus = new EventBus();
    const hub = new McpHub({ paths: new Paths(tempHome()), bus });
    hubs.push(hub);
    const broker = new ElicitationBroker(bus, undefined, always?.(root));
    hub.setElicitationHandler(broker.handler);
    await hub.addInProcessServer('files', createFilesServer({ root }));
    return { bus, hub, broker, root };
  }

  it('an overwrite carries the file before and after, no fields; Deny leaves the file as it was, and the model hears it was declined', async () => {
    const { bus, hub, broker, root } = await setup();
    await writeFile(join(root, 'counter.mjs'), 'let n = 0;\n');
    const asked: EventPayload<'mcp.elicitation.request'>[] = [];
    bus.onEvent('mcp.elicitation.request', (req) => {
      asked.push(req);
      setTimeout(() => broker.respond(req.id, { action: 'decline' }), 5);
    });
    const r = await hub.callTool('files', 'write_file', { path: 'counter.mjs', content: 'let n = 1;\n' });
    expect(asked).toHaveLength(1);
    expect(asked[0]!.requestedSchema).toEqual({ type: 'object', properties: {} });
    expect(asked[0]!.approval).toEqual({ tool: 'write_file', action: 'Overwrite the existing file counter.mjs (11 bytes)', change: 'overwrite', path: 'counter.mjs', content: 'let n = 1;\n', before: 'let n = 0;\n' });
    expect(JSON.stringify(r.content)).toContain('was not confirmed (declined by the user); nothing was changed');
    expect(await readFile(join(root, 'counter.mjs'), 'utf8')).toBe('let n = 0;\n');
  });

  it('waits for the answer as long as the user takes: an Allow after two hours still writes the file', async () => {
    // The SDK's 60 s request timeout failed every approval answered after a minute ("MCP error -32001: Request timed out").
    const { bus, hub, broker, root } = await setup();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
    try {
      await writeFile(join(root, 'late.md'), 'old\n');
      let asked: string | undefined;
      bus.onEvent('mcp.elicitation.request', (req) => (asked = req.id));
      // As the agent calls: progress asked for, so the server's keep-alive restarts the call's own timeout.
      const call = hub.callTool('files', 'write_file', { path: 'late.md', content: 'new\n' }, { onProgress: () => undefined });
      await vi.waitFor(() => expect(asked).toBeDefined());
      await vi.advanceTimersByTimeAsync(2 * 3600_000);
      expect(await broker.respond(asked!, { action: 'accept' })).toBe(true); // still waiting
      const r = await call;
      expect(JSON.stringify(r.content)).not.toContain('timed out');
      expect(await readFile(join(root, 'late.md'), 'utf8')).toBe('new\n');
    } finally {
      vi.useRealTimers();
    }
  });

  it('an append carries only what is added; Allow appends it', async () => {
    const { bus, hub, broker, root } = await setup();
    await writeFile(join(root, 'notes.md'), '# Notes\n');
    bus.onEvent('mcp.elicitation.request', (req) => {
      expect(req.approval).toMatchObject({ change: 'append', path: 'notes.md', content: '- one\n' });
      expect(req.approval!.before).toBeUndefined();
      setTimeout(() => broker.respond(req.id, { action: 'accept' }), 5);
    });
    await hub.callTool('files', 'append_file', { path: 'notes.md', content: '- one\n' });
    expect(await readFile(join(root, 'notes.md'), 'utf8')).toBe('# Notes\n- one\n');
  });

  it('"always allow" answers the questions it covers that are waiting beside it (two components asking at once); others still wait', async () => {
    const file = join(tempHome(), 'trust', 'approvals.json');
    const { bus, hub, broker, root } = await setup((root) => ({ grants: new ApprovalGrants(file), place: () => ({ project: root, runId: 'run-1' }), builtin: (s) => s === 'files' }));
    const asked: EventPayload<'mcp.elicitation.request'>[] = [];
    const granted: EventPayload<'mcp.elicitation.granted'>[] = [];
    const done: string[] = [];
    bus.onEvent('mcp.elicitation.request', (req) => asked.push(req));
    bus.onEvent('mcp.elicitation.granted', (g) => granted.push(g));
    bus.onEvent('mcp.elicitation.done', (d) => done.push(d.id));
    for (const f of ['a.txt', 'b.txt', 'c.txt']) await writeFile(join(root, f), 'x\n');
    const a = hub.callTool('files', 'write_file', { path: 'a.txt', content: 'A\n' });
    const b = hub.callTool('files', 'write_file', { path: 'b.txt', content: 'B\n' });
    const c = hub.callTool('files', 'remove', { path: 'c.txt' });
    await vi.waitFor(() => expect(asked).toHaveLength(3), { timeout: 5000 });
    const [first, second] = asked.filter((r) => r.approval?.grant === 'files.write');
    const removal = asked.find((r) => r.approval?.grant === 'files.remove')!;
    await broker.respond(first!.id, { action: 'accept' }, 'run');
    await Promise.all([a, b]);
    expect(await readFile(join(root, 'a.txt'), 'utf8')).toBe('A\n');
    expect(await readFile(join(root, 'b.txt'), 'utf8')).toBe('B\n');
    expect(granted).toMatchObject([{ id: second!.id, words: 'Always allow writing files in this project for this run' }]);
    expect(done).toEqual([first!.id, second!.id]);
    // A removal is another kind of question: it still waits.
    expect(broker.list().map((r) => r.id)).toEqual([removal.id]);
    await broker.respond(removal.id, { action: 'decline' });
    await c;
  });

  it('"always allow" keeps writing files allowed for the run, then in the project; a hook folder, a removal and another run still ask', async () => {
    const home = tempHome();
    const file = join(home, 'trust', 'approvals.json');
    let runId: string | undefined = 'run-1';
    const { bus, hub, broker, root } = await setup((root) => ({ grants: new ApprovalGrants(file), place: () => ({ project: root, ...(runId ? { runId } : {}) }), builtin: (s) => s === 'files' }));
    const asked: EventPayload<'mcp.elicitation.request'>[] = [];
    const granted: EventPayload<'mcp.elicitation.granted'>[] = [];
    bus.onEvent('mcp.elicitation.granted', (g) => granted.push(g));
    let answer: { always?: 'run' | 'project' } = { always: 'run' };
    bus.onEvent('mcp.elicitation.request', (req) => {
      asked.push(req);
      setTimeout(() => void broker.respond(req.id, { action: 'accept' }, answer.always), 5);
    });
    await writeFile(join(root, 'a.txt'), 'a\n');
    await writeFile(join(root, 'b.txt'), 'b\n');
    await hub.callTool('files', 'write_file', { path: 'a.txt', content: 'A\n' });
    expect(asked.map((r) => [r.approval?.grant, r.alwaysScopes])).toEqual([['files.write', ['run', 'project']]]);
    // Allowed for this run: the next overwrite is not asked, and the transcript is told in words.
    await hub.callTool('files', 'write_file', { path: 'b.txt', content: 'B\n' });
    expect(asked).toHaveLength(1);
    expect(await readFile(join(root, 'b.txt'), 'utf8')).toBe('B\n');
    expect(granted).toMatchObject([{ server: 'files', action: 'Overwrite the existing file b.txt (2 bytes)', words: 'Always allow writing files in this project for this run' }]);
    // Never covered: a hook's folder, and removing files.
    answer = {};
    await hub.callTool('files', 'write_file', { path: '.vscode/tasks.json', content: '{}' });
    await hub.callTool('files', 'remove', { path: 'a.txt' });
    expect(asked.slice(1).map((r) => [r.approval?.change, r.approval?.grant, r.alwaysScopes])).toEqual([['create', undefined, undefined], ['remove', 'files.remove', ['run', 'project']]]);
    // Another run asks again; with no run driving the project, only "in this project" is offered, and it is kept on disk.
    runId = undefined;
    answer = { always: 'project' };
    await hub.callTool('files', 'write_file', { path: 'b.txt', content: 'B2\n' });
    expect(asked.at(-1)!.alwaysScopes).toEqual(['project']);
    expect(await new ApprovalGrants(file).list(root)).toEqual(['files.write']);
    await hub.callTool('files', 'write_file', { path: 'b.txt', content: 'B3\n' });
    expect(asked).toHaveLength(4);
    expect(await readFile(join(root, 'b.txt'), 'utf8')).toBe('B3\n');
    expect(granted.at(-1)!.words).toBe('Always allow writing files in this project');
    // A scope the card did not offer is refused, and the question still waits for its answer.
    answer = {};
    bus.onEvent('mcp.elicitation.request', (req) => {
      void broker.respond(req.id, { action: 'accept' }, 'run').then(
        () => expect.fail('"for this run" was not offered'),
        (err: Error) => {
          expect(err.message).toMatch(/cannot be always allowed for this run; answer it once/);
        },
      );
    });
    await hub.callTool('files', 'remove', { path: 'b.txt' });
    expect(asked).toHaveLength(5);
  });
});
