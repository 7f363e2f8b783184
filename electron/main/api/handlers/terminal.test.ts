import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { RpcError } from '../../../contract/index';
import { connectedCore } from '../testing';

const { home, client, dispose } = connectedCore('term');
const project = join(home, 'project');
mkdirSync(project);
afterAll(dispose);

describe('terminal.* over the contract', () => {
  it('opens a shell in the project, echoes keystrokes as events, acknowledges, stops', async () => {
    await client.request('project.open', { path: project });
    const outs = new Map<string, string>();
    const opened: string[] = [];
    client.on('terminal.opened', (t) => opened.push(t.id));
    const gaps: string[] = [];
    client.on('terminal.data', (d) => {
      // Each chunk starts where the last one ended (`at`), which is what lets a late view drop repeats.
      const before = outs.get(d.id) ?? '';
      if (d.at !== before.length) gaps.push(`${d.at} after ${before.length}`);
      outs.set(d.id, before + d.data);
      void client.request('terminal.ack', { id: d.id, chars: d.data.length });
    });
    const exited = new Promise<number | null>((resolve) => client.on('terminal.exited', (e) => resolve(e.exitCode)));
    const info = await client.request('terminal.openShell', { cols: 80, rows: 24 });
    const out = () => outs.get(info.id) ?? '';
    expect(info.kind).toBe('shell');
    expect(info.cwd).toBe(project);
    expect(opened).toContain(info.id);
    await client.request('terminal.resize', { id: info.id, cols: 100, rows: 30 });
    await client.request('terminal.input', { id: info.id, data: 'echo "[$PWD]"\r' });
    const deadline = Date.now() + 10_000;
    while (!out().includes(`[${project}]`) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(out()).toContain(`[${project}]`);
    expect((await client.request('terminal.list', {})).terminals.map((t) => t.id)).toContain(info.id);
    // While it runs, a late view gets what was sent so far and where live output goes on from.
    const live = await client.request('terminal.output', { id: info.id });
    expect(live.data).toContain(`[${project}]`);
    while (out().length < live.end && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(out().slice(0, live.end).endsWith(live.data)).toBe(true);
    expect(gaps).toEqual([]);
    await client.request('terminal.kill', { id: info.id });
    await exited;
    const listed = (await client.request('terminal.list', {})).terminals.find((t) => t.id === info.id);
    expect(listed?.running).toBe(false);
    // A view that connects late (a reload) gets back what the terminal printed, or its end.
    const replay = await client.request('terminal.output', { id: info.id });
    expect(replay).toMatchObject({ truncated: false });
    expect(replay.data).toContain(`[${project}]`);
    const end = await client.request('terminal.output', { id: info.id, maxChars: 5 });
    expect(end.truncated).toBe(true);
    expect(end.data.length).toBeLessThanOrEqual(5);
    expect(replay.data.endsWith(end.data)).toBe(true);
    await client.request('terminal.close', { id: info.id });
    expect((await client.request('terminal.list', {})).terminals.find((t) => t.id === info.id)).toBeUndefined();
  });

  it('answers bad ids with a clear error', async () => {
    await expect(client.request('terminal.input', { id: 'missing', data: 'x' })).rejects.toThrow(/no terminal with id "missing"/);
    await expect(client.request('terminal.output', { id: 'missing' })).rejects.toThrow(/no terminal with id "missing"/);
    await expect(client.request('terminal.input', { id: '../etc', data: 'x' })).rejects.toBeInstanceOf(RpcError);
  });
});
