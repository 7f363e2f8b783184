import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createPipePair, encodeTerminalData, FRAME_HEADROOM, isFrame } from '../../contract/index';
import { connectLink } from '../../servers/erasmus/link';
import { Core } from '../api/core';
import { bindPipe } from '../api/connection';
import { Dispatcher } from '../api/dispatcher';
import { EventBus } from '../api/events';
import { Redactor } from '../secrets/redactor';
import { joinWithHeadroom } from '../runners/pty/terminal';
import { serve, type RunningServer } from './server';

let core: Core;
let srv: RunningServer;
const base = mkdtempSync(join(tmpdir(), 'erasmus-frames-'));

beforeAll(async () => {
  const renderer = join(base, 'renderer');
  mkdirSync(renderer);
  writeFileSync(join(renderer, 'index.html'), '<!doctype html><title>x</title>');
  mkdirSync(join(base, 'project'));
  core = new Core({ face: 'browser', home: join(base, 'home') });
  srv = await serve(core, { rendererDir: renderer });
});

afterAll(async () => {
  await core.dispose();
  rmSync(base, { recursive: true, force: true });
});

describe('terminal output over the WebSocket', () => {
  it('goes as binary frames of its UTF-8 text; a client reads the same output, whole, in order and masked', async () => {
    const secret = 'tok-90c1e4a7b3d25f68';
    core.redactor.add('WS_TOKEN', secret);
    const wire = new WebSocket(srv.wsUrl);
    const frames: { binary: boolean; text: string }[] = [];
    wire.on('message', (m, binary) => frames.push({ binary, text: String(m) }));
    await new Promise((r) => wire.once('open', r));
    const link = await connectLink(srv.wsUrl, { timeoutMs: 10_000, retries: 0 });
    try {
      const info = await link.request('terminal.openShell', { cwd: join(base, 'project'), cols: 80, rows: 24 });
      let out = '';
      const gaps: number[] = [];
      link.on('terminal.data', (d) => {
        if (d.id !== info.id) return;
        if (d.at !== out.length) gaps.push(d.at);
        out += d.data;
      });
      // Multi-byte characters, split anywhere by the PTY's reads, and a secret.
      await link.request('terminal.input', { id: info.id, data: `yes 'é€😀 ok' | head -n 20000; echo "key=${secret}"; echo "done $((6 * 7))"\r` });
      for (const deadline = Date.now() + 20_000; !out.includes('done 42'); await new Promise((r) => setTimeout(r, 20))) {
        if (Date.now() > deadline) throw new Error(`no end in ${out.length} characters`);
      }
      expect(out.includes(`${'é€😀 ok\r\n'.repeat(20000)}key=[secret:WS_TOKEN]\r\n`)).toBe(true);
      expect(gaps).toEqual([]);
      const data = frames.filter((f) => isFrame(f.text));
      expect(data.length).toBeGreaterThan(3);
      expect(data.every((f) => f.binary)).toBe(true);
      expect(frames.some((f) => f.text.includes(secret))).toBe(false);
      await link.request('terminal.close', { id: info.id });
    } finally {
      link.close();
      wire.close();
    }
  });
});

describe('bindPipe and the bytes beside terminal.data', () => {
  it('sends the bytes only when the emitter masked them; when the bus masks the text itself, the frame is that text', async () => {
    const redactor = new Redactor();
    const secret = 'tok-1f2e3d4c5b6a7988';
    redactor.add('BYTES_TOKEN', secret);
    const bus = new EventBus((v) => redactor.redactValue(v));
    const [a, b] = createPipePair();
    const sent: Uint8Array[] = [];
    bindPipe({ ...a, sendBytes: (m: Uint8Array) => void sent.push(m) }, new Dispatcher(), bus, { face: 'browser' });
    const texts: string[] = [];
    b.onMessage((m) => texts.push(m));
    // Masked by the terminal: its bytes go as they are, after the header.
    bus.emit('terminal.data', { id: 't1', at: 0, data: 'é ok\r\n' }, { masked: true, bytes: Buffer.from('é ok\r\n') });
    // Not masked by the emitter: the bus masks the text, and bytes that may still hold the secret are not sent.
    bus.emit('terminal.data', { id: 't1', at: 6, data: `key=${secret}` }, { bytes: Buffer.from(`key=${secret}`) });
    await new Promise((r) => setTimeout(r, 0));
    expect(sent.map((m) => Buffer.from(m).toString('utf8'))).toEqual([encodeTerminalData({ id: 't1', at: 0, data: 'é ok\r\n' })]);
    expect(texts).toEqual([encodeTerminalData({ id: 't1', at: 6, data: 'key=[secret:BYTES_TOKEN]' })]);
  });

  it("writes the header into the room a terminal's batch keeps before its bytes: every pipe sends the output without a copy", () => {
    const bus = new EventBus();
    const sent: Uint8Array[][] = [[], []];
    for (const out of sent) {
      const [a] = createPipePair();
      bindPipe({ ...a, sendBytes: (m: Uint8Array) => void out.push(m) }, new Dispatcher(), bus, { face: 'browser' });
    }
    const bytes = joinWithHeadroom([Buffer.from('é '), Buffer.from('ok\r\n')]);
    bus.emit('terminal.data', { id: 't7-abcdef', at: 42, data: 'é ok\r\n' }, { masked: true, bytes, headroom: FRAME_HEADROOM });
    for (const [frame] of sent) {
      expect(frame!.buffer).toBe(bytes.buffer);
      expect(Buffer.from(frame!).toString('utf8')).toBe(encodeTerminalData({ id: 't7-abcdef', at: 42, data: 'é ok\r\n' }));
    }
    expect(bytes.toString('utf8')).toBe('é ok\r\n');
  });
});
