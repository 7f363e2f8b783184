import { afterEach, describe, expect, it, vi } from 'vitest';
import { createPipePair } from './pipe';
import { RpcClient } from './client';
import { decodeTerminalData, encodeTerminalData, isFrame } from './frames';

afterEach(() => vi.restoreAllMocks());

describe('terminal.data frames', () => {
  it('carry any output unchanged: separators, control characters, JSON-looking text, surrogate pairs', () => {
    for (const data of ['', 'plain', 'a\u0000b\u0001c\u0000', '{"jsonrpc":"2.0","id":1}', '\\"\r\n\x1b[31mred\x1b[0m', 'é€😀', '\ud83d']) {
      const frame = encodeTerminalData({ id: 't1-a1b2c3', at: 1234, data });
      expect(isFrame(frame)).toBe(true);
      expect(decodeTerminalData(frame)).toEqual({ id: 't1-a1b2c3', at: 1234, data });
    }
    expect(isFrame(JSON.stringify({ jsonrpc: '2.0', method: 'terminal.data', params: {} }))).toBe(false);
  });

  it('refuse a frame they cannot read, saying what is wrong', () => {
    expect(() => decodeTerminalData('\u0001agent.event\u0000x')).toThrow('unknown frame "agent.event": only terminal.data travels as a frame');
    expect(() => decodeTerminalData('\u0001terminal.data\u0000t1\u00005')).toThrow('ends inside its header');
    expect(() => decodeTerminalData('\u0001terminal.data\u0000../x\u00000\u0000data')).toThrow(/does not match the contract: .*a terminal id is 1-64 characters/s);
    expect(() => decodeTerminalData('\u0001terminal.data\u0000t1\u0000-1\u0000data')).toThrow(/does not match the contract/);
  });

  it('reach the client as terminal.data events, in order, among JSON messages; a broken one is dropped and said', async () => {
    const [core, view] = createPipePair();
    const client = new RpcClient(view);
    const got: unknown[] = [];
    client.on('terminal.data', (d) => got.push(d));
    const any: string[] = [];
    client.onAny((event) => any.push(event));
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    core.send(encodeTerminalData({ id: 't1', at: 0, data: 'one\r\n' }));
    core.send(JSON.stringify({ jsonrpc: '2.0', method: 'terminal.exited', params: { id: 't1', exitCode: 0, signal: null, timedOut: false } }));
    core.send('\u0001terminal.data\u0000t1\u0000five\u0000x');
    core.send(encodeTerminalData({ id: 't1', at: 5, data: 'two\r\n' }));
    await new Promise((r) => setTimeout(r, 0));
    expect(got).toEqual([
      { id: 't1', at: 0, data: 'one\r\n' },
      { id: 't1', at: 5, data: 'two\r\n' },
    ]);
    expect(any).toEqual(['terminal.data', 'terminal.exited', 'terminal.data']);
    expect(errors).toHaveBeenCalledWith(expect.stringMatching(/a frame from the Erasmus core was dropped: a terminal.data frame does not match the contract/));
    client.close();
  });
});
