import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createPipePair, ErrorCode, MAX_MESSAGE_CHARS } from '../../contract/index';
import { RpcClient } from '../../../renderer/src/api/client';
import { Core } from './core';
import { bindPipe } from './connection';
import { Dispatcher } from './dispatcher';
import { EventBus } from './events';

const home = mkdtempSync(join(tmpdir(), 'erasmus-disp-'));
const core = new Core({ face: 'cli', home });
afterAll(async () => {
  await core.dispose();
  rmSync(home, { recursive: true, force: true });
});
const ctx = { face: 'cli' as const };
const call = async (text: string) => {
  const reply = await core.dispatcher.handleText(text, ctx);
  return reply === undefined ? undefined : JSON.parse(reply);
};

type Case = [label: string, message: string, code: number];
const cases: Case[] = [];
const add = (label: string, message: string, code: number) => cases.push([label, message, code]);

// -32700: not JSON at all.
for (const [i, text] of [
  '', ' ', '{', '}', '[', '{"jsonrpc":"2.0",', 'undefined', 'NaN', "{'a':1}", '{"a":1,}', '[1,2,', '\u0000', '\ufeff{}x',
  '{"jsonrpc":"2.0","id":1,"method":"app.ping"', 'nul', 'tru', '{"id":01}', '"unterminated', '{"a":"\\x"}', '<xml/>',
  '{"jsonrpc":"2.0","id":1,"method":"app.ping"}}', '--', '{{}}', '{"a" 1}', '[,]',
].entries()) add(`bad json #${i}`, text, ErrorCode.ParseError);

// -32600: JSON, but not a request.
for (const [i, value] of [
  null, 1, 'text', true, {}, { jsonrpc: '1.0', id: 1, method: 'app.ping' }, { id: 1, method: 'app.ping' },
  { jsonrpc: '2.0', id: 1 }, { jsonrpc: '2.0', id: {}, method: 'app.ping' }, { jsonrpc: '2.0', id: [1], method: 'app.ping' },
  { jsonrpc: '2.0', id: 1.5, method: 'app.ping' }, { jsonrpc: '2.0', id: 1, method: 42 }, { jsonrpc: '2.0', id: 1, method: '' },
  { jsonrpc: '2.0', id: 1, method: 'app.ping', params: [1, 2] }, { jsonrpc: '2.0', id: 1, method: 'app.ping', params: 'x' },
  { jsonrpc: '2.0', id: 1, method: 'app.ping', params: 3 }, { jsonrpc: '2.0', id: 1, method: 'app.ping', extra: true },
  { jsonrpc: '2.0', id: true, method: 'app.ping' }, { jsonrpc: 2, id: 1, method: 'app.ping' }, { jsonrpc: '2.0', id: 1, method: null },
  { jsonrpc: '2.0', id: 'x'.repeat(300), method: 'app.ping' }, { jsonrpc: '2.0', id: 1, method: 'm'.repeat(201) },
  { jsonrpc: '2.0', id: 2 ** 60, method: 'app.ping' }, { jsonrpc: '2.0', result: 1 }, { jsonrpc: '2.0', id: 1, result: 1, method: 'x' },
  [], ['not a request'],
].entries()) add(`invalid request #${i}`, JSON.stringify(value), ErrorCode.InvalidRequest);
add('huge payload', JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'app.ping', params: { message: 'x'.repeat(MAX_MESSAGE_CHARS) } }), ErrorCode.InvalidRequest);
add('huge batch', JSON.stringify(Array.from({ length: 101 }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'app.ping' }))), ErrorCode.InvalidRequest);

// -32601: valid request, unknown method.
for (const [i, method] of [
  'nope', 'app', 'app.', '.ping', 'app.ping ', 'APP.PING', 'constructor', '__proto__', 'toString', 'hasOwnProperty',
  'app.ping/../secrets.list', 'rpc.discover', 'secrets.get', 'secrets.value', 'eval', '$/cancelRequest', 'app.info\u0000',
  'project.delete', 'mcp.everything.shell', 'app.ping.x',
].entries()) add(`unknown method #${i} ${JSON.stringify(method)}`, JSON.stringify({ jsonrpc: '2.0', id: 100 + i, method, params: {} }), ErrorCode.MethodNotFound);

// -32602: known method, bad params.
for (const [i, [method, params]] of ([
  ['app.ping', { message: 1 }], ['app.ping', { message: null }], ['app.ping', { message: {} }], ['app.ping', { unexpected: 1 }],
  ['app.ping', { message: 'x'.repeat(100_001) }], ['app.info', { x: 1 }], ['app.methods', { all: true }],
  ['secrets.set', {}], ['secrets.set', { name: 'A' }], ['secrets.set', { name: 'A', value: '' }], ['secrets.set', { name: '', value: 'v' }],
  ['secrets.set', { name: '../etc', value: 'v' }], ['secrets.set', { name: 'a b', value: 'v' }], ['secrets.set', { name: 'A', value: 5 }],
  ['secrets.set', { name: 'n'.repeat(200), value: 'v' }], ['secrets.delete', { name: 1 }], ['secrets.delete', {}],
  ['secrets.list', { name: 'x' }], ['project.open', {}], ['project.open', { path: '' }], ['project.open', { path: 42 }],
  ['project.open', { path: 'p'.repeat(5000) }], ['project.open', { path: ['a'] }], ['project.recent', { limit: 1 }],
  ['project.chooseFolder', { title: 'x' }], ['app.ping', { message: ['a'] }], ['secrets.set', { name: 'A', value: 'v'.repeat(70_000) }],
] as Array<[string, unknown]>).entries()) add(`bad params #${i} ${method}`, JSON.stringify({ jsonrpc: '2.0', id: 200 + i, method, params }), ErrorCode.InvalidParams);

// -32000: valid, but the action failed (named clearly).
add('open a missing folder', JSON.stringify({ jsonrpc: '2.0', id: 300, method: 'project.open', params: { path: '/definitely/not/here' } }), ErrorCode.ActionFailed);
add('open a relative path', JSON.stringify({ jsonrpc: '2.0', id: 301, method: 'project.open', params: { path: 'relative/dir' } }), ErrorCode.ActionFailed);

describe('dispatcher against hostile messages', () => {
  it('has more than 100 cases', () => {
    expect(cases.length).toBeGreaterThan(100);
  });

  it.each(cases)('%s → JSON-RPC error', async (_label, message, code) => {
    const res = await call(message);
    const one = Array.isArray(res) ? res[0] : res;
    expect(one?.error?.code).toBe(code);
    expect(typeof one.error.message).toBe('string');
    expect(one.error.message.length).toBeGreaterThan(5);
    // The core keeps serving after each one.
    const ok = await call(JSON.stringify({ jsonrpc: '2.0', id: 'after', method: 'app.ping', params: { message: 'still here' } }));
    expect(ok.result).toMatchObject({ pong: true, message: 'still here' });
  });

  it('echoes the id of a request with bad params or unknown method', async () => {
    expect((await call(JSON.stringify({ jsonrpc: '2.0', id: 'abc', method: 'zzz' }))).id).toBe('abc');
    expect((await call(JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'app.ping', params: { message: 1 } }))).id).toBe(9);
  });

  it('names the bad field in invalid params', async () => {
    const res = await call(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'secrets.set', params: { name: 'A b', value: 'v' } }));
    expect(res.error.message).toMatch(/name/);
  });

  it('answers batches element by element and stays silent for notifications', async () => {
    const res = await call(JSON.stringify([
      { jsonrpc: '2.0', id: 1, method: 'app.ping', params: {} },
      { jsonrpc: '2.0', method: 'app.ping', params: {} },
      { jsonrpc: '2.0', id: 2, method: 'nope' },
    ]));
    expect(res).toHaveLength(2);
    expect(res[0].result.pong).toBe(true);
    expect(res[1].error.code).toBe(ErrorCode.MethodNotFound);
    expect(await call(JSON.stringify({ jsonrpc: '2.0', method: 'nope' }))).toBeUndefined();
  });

  it('runs a notification for a known method without an answer, and does not check the result nobody receives', async () => {
    const d = new Dispatcher();
    const seen: unknown[] = [];
    d.register('terminal.ack', (p) => (seen.push(p), { ok: 'yes' } as never));
    expect(await d.handleText(JSON.stringify({ jsonrpc: '2.0', method: 'terminal.ack', params: { id: 't1', chars: 5000 } }), ctx)).toBeUndefined();
    // Bad params: the handler is not called, and still nothing is answered.
    expect(await d.handleText(JSON.stringify({ jsonrpc: '2.0', method: 'terminal.ack', params: { id: 't1', chars: -1 } }), ctx)).toBeUndefined();
    expect(seen).toEqual([{ id: 't1', chars: 5000 }]);
    // Not a notification either (a wrong version and no id): an invalid request, as before.
    const bad = JSON.parse((await d.handleText(JSON.stringify({ jsonrpc: '1.0', method: 'terminal.ack' }), ctx))!);
    expect(bad).toMatchObject({ id: null, error: { code: ErrorCode.InvalidRequest } });
  });

  it('turns a handler that throws into -32603 and a result that breaks the contract into -32603', async () => {
    const d = new Dispatcher();
    d.register('app.ping', () => {
      throw new Error('disk on fire');
    });
    d.register('app.info', () => ({ version: 1 }) as never);
    const thrown = await d.handle({ jsonrpc: '2.0', id: 1, method: 'app.ping', params: {} }, ctx);
    expect(thrown).toMatchObject({ id: 1, error: { code: ErrorCode.InternalError } });
    expect(JSON.stringify(thrown)).toMatch(/disk on fire/);
    const broken = await d.handle({ jsonrpc: '2.0', id: 2, method: 'app.info', params: {} }, ctx);
    expect(broken).toMatchObject({ id: 2, error: { code: ErrorCode.InternalError } });
    expect(JSON.stringify(broken)).toMatch(/invalid result/);
  });
});

describe('one client over an in-memory pipe', () => {
  it('round-trips requests and receives events', async () => {
    const [a, b] = createPipePair();
    core.connect(a);
    const client = new RpcClient(b);
    const info = await client.request('app.info', {});
    expect(info.face).toBe('cli');
    const got = new Promise((resolve) => client.on('app.notice', resolve));
    core.bus.emit('app.notice', { level: 'info', message: 'hello' });
    expect(await got).toEqual({ level: 'info', message: 'hello' });
    await expect(client.request('project.open', { path: '/no/such/dir' })).rejects.toThrow(/not found/);
    b.close();
    await expect(client.request('app.ping', {})).rejects.toThrow(/closed/);
  });
});

describe('results too deep to send', () => {
  const deep = (n: number) => {
    let v: unknown = 'bottom';
    for (let i = 0; i < n; i++) v = { content: [v] };
    return v;
  };

  it('a 100k-deep result from a third-party server (mcp.call) is answered with an error, and the core keeps serving', async () => {
    const d = new Dispatcher();
    d.register('mcp.call', () => deep(100_000) as never);
    d.register('app.ping', () => ({ pong: true, time: 0 }) as never);
    const text = await d.handleText(JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'mcp.call', params: { server: 's', tool: 't' } }), ctx);
    const res = JSON.parse(text!);
    expect(res).toMatchObject({ id: 7, error: { code: ErrorCode.InternalError } });
    expect(res.error.message).toMatch(/deeper than/);
    // A deep-but-fine result still goes through.
    d.register('mcp.prompts', () => ({ prompts: [] }) as never);
    expect(JSON.parse((await d.handleText(JSON.stringify({ jsonrpc: '2.0', id: 8, method: 'mcp.prompts', params: {} }), ctx))!)).toMatchObject({ id: 8, result: { prompts: [] } });
  });

  it('over a pipe: the reply is an error, without an unhandled rejection, and the pipe keeps serving', async () => {
    const d = new Dispatcher();
    const bus = new EventBus();
    d.register('mcp.call', () => deep(100_000) as never);
    d.register('app.ping', () => ({ pong: true, time: 0 }) as never);
    const [a, b] = createPipePair();
    bindPipe(a, d, bus, ctx);
    const client = new RpcClient(b);
    const rejections: unknown[] = [];
    const onRejection = (err: unknown) => rejections.push(err);
    process.on('unhandledRejection', onRejection);
    try {
      await expect(client.request('mcp.call', { server: 's', tool: 't' })).rejects.toThrow(/deeper than/);
      expect((await client.request('app.ping', {})).pong).toBe(true);
      await new Promise((r) => setTimeout(r, 20));
      expect(rejections).toEqual([]);
    } finally {
      process.off('unhandledRejection', onRejection);
      b.close();
    }
  });
});
