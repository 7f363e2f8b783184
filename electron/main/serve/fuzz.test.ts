import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect as tcp, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { Core } from '../api/core';
import { serve, type RunningServer } from './server';

/**
 * The HTTP and WebSocket face under hostile input: the requests that used to end `erasmus serve`,
 * then 10,000 random and mutated messages and frames. The server must answer each and stay up.
 */
let core: Core;
let srv: RunningServer;
const base = mkdtempSync(join(tmpdir(), 'erasmus-fuzz-'));

/** Sends raw bytes and resolves with whatever comes back before the socket closes (or a pause). */
function raw(bytes: Buffer | string, waitMs = 400): Promise<string> {
  return new Promise((resolve) => {
    const s: Socket = tcp(srv.port, '127.0.0.1');
    let got = '';
    const done = () => {
      clearTimeout(t);
      s.destroy();
      resolve(got);
    };
    const t = setTimeout(done, waitMs);
    s.on('data', (d) => (got += d.toString('latin1')));
    s.on('close', done);
    s.on('error', done);
    s.write(bytes);
  });
}

/** An authenticated WebSocket handshake over a raw socket, then `frame` as the first frame. */
async function rawFrame(frame: Buffer): Promise<string> {
  const key = randomBytes(16).toString('base64');
  const hello = `GET /rpc?token=${srv.token} HTTP/1.1\r\nHost: 127.0.0.1:${srv.port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: ${key}\r\nSec-WebSocket-Version: 13\r\n\r\n`;
  return raw(Buffer.concat([Buffer.from(hello), frame]));
}

/** A client frame: FIN + opcode, masked unless told otherwise. */
function frame(opcode: number, payload: Buffer, opts: { mask?: boolean; rsv?: number; len?: number } = {}): Buffer {
  const mask = opts.mask !== false;
  const first = 0x80 | ((opts.rsv ?? 0) << 4) | opcode;
  const len = opts.len ?? payload.length;
  const head = len < 126 ? Buffer.from([first, (mask ? 0x80 : 0) | len]) : len < 65536 ? Buffer.from([first, (mask ? 0x80 : 0) | 126, len >> 8, len & 255]) : Buffer.concat([Buffer.from([first, (mask ? 0x80 : 0) | 127]), (() => { const b = Buffer.alloc(8); b.writeBigUInt64BE(BigInt(len)); return b; })()]);
  if (!mask) return Buffer.concat([head, payload]);
  const key = randomBytes(4);
  const body = Buffer.from(payload.map((b, i) => b ^ key[i % 4]!));
  return Buffer.concat([head, key, body]);
}

async function alive(): Promise<void> {
  const http = await raw(`GET /index.html HTTP/1.1\r\nHost: 127.0.0.1:${srv.port}\r\nConnection: close\r\n\r\n`);
  expect(http).toMatch(/^HTTP\/1\.1 200/);
  const ws = new WebSocket(srv.wsUrl);
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => ws.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'app.ping', params: {} })));
    ws.once('message', (m) => {
      expect(JSON.parse(String(m)).result.pong).toBe(true);
      ws.close();
      resolve();
    });
    ws.once('error', reject);
  });
}

beforeAll(async () => {
  const renderer = join(base, 'renderer');
  mkdirSync(renderer);
  writeFileSync(join(renderer, 'index.html'), '<!doctype html><title>x</title>');
  core = new Core({ face: 'browser', home: join(base, 'home') });
  srv = await serve(core, { rendererDir: renderer });
});

afterAll(async () => {
  await core.dispose();
  rmSync(base, { recursive: true, force: true });
});

describe('serve under hostile input', () => {
  it('answers the requests that used to end it, and stays up', async () => {
    const host = `Host: 127.0.0.1:${srv.port}\r\n`;
    expect(await raw(`GET /% HTTP/1.1\r\n${host}\r\n`)).toMatch(/^HTTP\/1\.1 400/);
    expect(await raw(`GET // HTTP/1.1\r\n${host}\r\n`)).toMatch(/^HTTP\/1\.1 (400|404)/);
    expect(await raw(`GET //rpc HTTP/1.1\r\n${host}Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: x\r\nSec-WebSocket-Version: 13\r\n\r\n`)).toMatch(/^HTTP\/1\.1 (400|404)/);
    expect(await raw(`GET // HTTP/1.1\r\n${host}Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: x\r\nSec-WebSocket-Version: 13\r\n\r\n`)).toMatch(/^HTTP\/1\.1 (400|404)/);
    expect(await raw('NONSENSE\r\n\r\n')).toMatch(/^HTTP\/1\.1 400/);
    // With the token: malformed frames close that connection (with a close frame), never the server.
    const bad: Buffer[] = [
      frame(1, Buffer.alloc(0), { len: 2 ** 40 }), // oversize
      frame(1, Buffer.from([0xff, 0xfe, 0xc3])), // bad UTF-8
      frame(1, Buffer.from('{"jsonrpc":"2.0"}'), { mask: false }), // unmasked
      frame(1, Buffer.from('{}'), { rsv: 0b100 }), // RSV1 without an extension
      frame(0x3, Buffer.from('x')), // reserved opcode
      frame(0x8, Buffer.from([0x03, 0xe7])), // close code 999
      frame(0x9, Buffer.alloc(200)), // ping too long for a control frame
    ];
    for (const f of bad) expect(await rawFrame(f)).toMatch(/^HTTP\/1\.1 101/);
    await alive();
  });

  it('10,000 random and mutated messages and frames: every request gets an answer, the server stays up', async () => {
    const ws = new WebSocket(srv.wsUrl);
    await new Promise<void>((r, j) => (ws.once('open', () => r()), ws.once('error', j)));
    let answers = 0;
    ws.on('message', () => answers++);
    const seeds = [
      { jsonrpc: '2.0', id: 1, method: 'app.ping', params: { message: 'hi' } },
      { jsonrpc: '2.0', id: 2, method: 'project.open', params: { path: '/nonexistent' } },
      { jsonrpc: '2.0', id: 3, method: 'mcp.servers', params: {} },
      { jsonrpc: '2.0', id: 4, method: 'settings.agent.set', params: {} },
    ];
    const mutate = (text: string): string => {
      const chars = [...text];
      for (let k = 0; k < 1 + Math.floor(Math.random() * 4); k++) {
        const i = Math.floor(Math.random() * chars.length);
        const r = Math.random();
        if (r < 0.33) chars.splice(i, 1);
        else if (r < 0.66) chars.splice(i, 0, String.fromCharCode(Math.floor(Math.random() * 0x2fff)));
        else chars[i] = '{[":,]}\\'[Math.floor(Math.random() * 9)] ?? 'x';
      }
      return chars.join('');
    };
    const deep = (n: number) => '['.repeat(n) + ']'.repeat(n);
    let expected = 0;
    const N = 10_000;
    for (let i = 0; i < N; i++) {
      const kind = i % 5;
      let msg: string;
      if (kind === 0) msg = randomBytes(1 + Math.floor(Math.random() * 64)).toString('latin1');
      else if (kind === 1) msg = JSON.stringify({ ...seeds[i % seeds.length], id: `m${i}` }).replace(/"params":\{[^}]*\}/, `"params":${JSON.stringify({ x: mutate('abc') })}`);
      else if (kind === 2) msg = mutate(JSON.stringify({ ...seeds[i % seeds.length], id: i + 100 }));
      else if (kind === 3) msg = i % 500 === 3 ? deep(100_000) : JSON.stringify({ jsonrpc: '2.0', id: i + 100, method: mutate('app.ping'), params: { message: 'x'.repeat(i % 97) } });
      else msg = JSON.stringify([{ jsonrpc: '2.0', id: i + 100, method: 'app.ping', params: {} }]);
      // A request (with an id, or unparseable as a whole) is answered; a notification is not.
      let parsed: unknown;
      let isRequest = true;
      try {
        parsed = JSON.parse(msg);
        if (parsed && typeof parsed === 'object' && !Array.isArray(parsed) && !('id' in parsed) && 'method' in parsed) isRequest = false;
      } catch {
        isRequest = true;
      }
      if (isRequest) expected++;
      ws.send(msg);
      if (i % 200 === 199) await new Promise((r) => setTimeout(r, 5));
    }
    const deadline = Date.now() + 60_000;
    while (answers < expected && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(ws.readyState).toBe(WebSocket.OPEN);
    expect(answers).toBeGreaterThanOrEqual(expected);
    ws.close();
    // Random HTTP requests too.
    for (let i = 0; i < 200; i++) {
      const path = encodeURI(randomBytes(8).toString('latin1')).replace(/%25/g, '%');
      const res = await raw(`GET /${path} HTTP/1.1\r\nHost: 127.0.0.1:${srv.port}\r\nConnection: close\r\n\r\n`, 200);
      expect(res).toMatch(/^HTTP\/1\.1 \d{3}/);
    }
    await alive();
  }, 180_000);
});
