import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempHome } from '../../../tests/fixtures/mcp/servers';
import type { EventPayload } from '../../contract/index';
import { EventBus } from '../../main/api/events';
import { ElicitationBroker } from '../../main/mcp/elicitation';
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

  async function setup() {
    root = await mkdtemp(join(tmpdir(), 'erasmus-files-approval-'));
    const bus = new EventBus();
    const hub = new McpHub({ paths: new Paths(tempHome()), bus });
    hubs.push(hub);
    const broker = new ElicitationBroker(bus);
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
});
