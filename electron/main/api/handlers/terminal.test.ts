import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createPipePair, isFrame, RpcError } from '../../../contract/index';
import { connectedCore } from '../testing';
import { DEFAULT_FLOW } from '../../runners/pty/flow';

const { home, core, client, dispose } = connectedCore('term');
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
    const offData = client.on('terminal.data', (d) => {
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
    offData();
  });

  it('sends output to a face as terminal.data frames: a flood arrives whole, in order and masked, paused until acknowledged', async () => {
    const secret = 'tok-5be0a4c9d1f27e83';
    core.redactor.add('FRAME_TOKEN', secret);
    // A second face whose wire is read as it is, beside the client.
    const [wire, spy] = createPipePair();
    core.connect(wire);
    const raw: string[] = [];
    spy.onMessage((m) => raw.push(m));
    const info = await client.request('terminal.openShell', { cols: 80, rows: 24 });
    let out = '';
    let acking = false;
    const gaps: string[] = [];
    client.on('terminal.data', (d) => {
      if (d.id !== info.id) return;
      if (d.at !== out.length) gaps.push(`${d.at} after ${out.length}`);
      out += d.data;
      // As the renderer acknowledges: a notification, no answer.
      if (acking) client.notify('terminal.ack', { id: d.id, chars: d.data.length });
    });
    await client.request('terminal.ack', { id: info.id, chars: 0 }); // a view that renders: flow control starts
    await client.request('terminal.input', { id: info.id, data: `seq 1 300000; printf 'key=%s\\n' ${secret}; echo "done $((6 * 7))"\r` });
    // ~2 M characters; without acknowledgements the PTY stops past the high watermark (DEFAULT_FLOW: 500 000 unacknowledged).
    const waitFor = async (ok: () => boolean, what: string) => {
      for (const deadline = Date.now() + 20_000; !ok(); await new Promise((r) => setTimeout(r, 20))) if (Date.now() > deadline) throw new Error(`no ${what} in ${out.length} characters`);
    };
    await waitFor(() => out.length > DEFAULT_FLOW.highWatermark, 'output past the window');
    // Paused: the output stops growing (what the host had read before the pause arrived still comes, under load up to
    // about as much again as the window), well short of the 2 M characters. A busy machine can stall the stream for a
    // moment without a pause, so "stopped" is a second without growth.
    let seen = -1;
    let still = 0;
    for (const deadline = Date.now() + 15_000; still < 4 && Date.now() < deadline; await new Promise((r) => setTimeout(r, 300))) {
      still = out.length === seen ? still + 1 : 0;
      seen = out.length;
    }
    expect(still).toBe(4);
    expect(out).not.toContain('done 42');
    expect(out.length).toBeLessThan(1_500_000);
    acking = true;
    await client.request('terminal.ack', { id: info.id, chars: out.length });
    await waitFor(() => out.includes('done 42'), 'end');
    const lines = out.split('\r\n');
    // The line of "1" may start with the shell's own escape sequences (bracketed paste off).
    const second = lines.indexOf('2');
    expect(second).toBeGreaterThan(0);
    expect(lines[second - 1]!.endsWith('1')).toBe(true);
    expect(lines.slice(second, second + 299_999).every((l, i) => l === String(i + 2))).toBe(true);
    expect(lines[second + 299_999]).toBe('key=[secret:FRAME_TOKEN]');
    expect(gaps).toEqual([]);
    // On the wire: frames, not JSON, and no secret anywhere.
    const frames = raw.filter(isFrame);
    expect(frames.length).toBeGreaterThan(10);
    expect(frames.join('').includes('\n150000\r\n')).toBe(true);
    expect(raw.some((m) => !isFrame(m) && m.includes('"terminal.data"'))).toBe(false);
    expect(raw.some((m) => m.includes(secret))).toBe(false);
    // A view that connects now (a reload) gets the end of those 2 M characters, exactly where live output goes on.
    const backlog = await client.request('terminal.output', { id: info.id, maxChars: 700_000 });
    expect(backlog.end).toBe(out.length);
    expect(backlog.data.length).toBe(700_000);
    expect(out.endsWith(backlog.data)).toBe(true);
    await client.request('terminal.close', { id: info.id });
    spy.close();
  });

  it('answers bad ids with a clear error', async () => {
    await expect(client.request('terminal.input', { id: 'missing', data: 'x' })).rejects.toThrow(/no terminal with id "missing"/);
    await expect(client.request('terminal.output', { id: 'missing' })).rejects.toThrow(/no terminal with id "missing"/);
    await expect(client.request('terminal.input', { id: '../etc', data: 'x' })).rejects.toBeInstanceOf(RpcError);
  });
});
