import { afterEach, describe, expect, it, vi } from 'vitest';
import { createPipePair } from './pipe';
import { RpcClient } from './client';
import { decodeTerminalData, encodeTerminalData, FRAME_HEADROOM, isFrame, terminalDataFrameBytes } from './frames';

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

  it('as bytes: the header is written in the room kept before the output, else both are copied; the bytes read as the text frame', () => {
    const data = 'é€😀 ok\r\n\u0000';
    const out = new TextEncoder().encode(data);
    const whole = new Uint8Array(FRAME_HEADROOM + out.length);
    whole.set(out, FRAME_HEADROOM);
    const bytes = whole.subarray(FRAME_HEADROOM);
    const text = (b: Uint8Array) => new TextDecoder().decode(b);
    const inPlace = terminalDataFrameBytes({ id: 't12-a1b2c3', at: 987654 }, bytes, FRAME_HEADROOM);
    expect(inPlace.buffer).toBe(whole.buffer);
    expect(text(inPlace)).toBe(encodeTerminalData({ id: 't12-a1b2c3', at: 987654, data }));
    expect(text(bytes)).toBe(data); // the output itself is untouched
    // A second pipe writes the same header there: the first one's frame is unchanged.
    expect(text(terminalDataFrameBytes({ id: 't12-a1b2c3', at: 987654 }, bytes, FRAME_HEADROOM))).toBe(text(inPlace));
    // No room said (or too little for a long id): a copy, the output not written over.
    const copied = terminalDataFrameBytes({ id: 't12-a1b2c3', at: 5 }, bytes);
    expect(copied.buffer).not.toBe(whole.buffer);
    expect(text(copied)).toBe(encodeTerminalData({ id: 't12-a1b2c3', at: 5, data }));
    const longId = 'x'.repeat(64);
    const long = terminalDataFrameBytes({ id: longId, at: 5 }, bytes, FRAME_HEADROOM);
    expect(long.buffer).not.toBe(whole.buffer);
    expect(decodeTerminalData(text(long))).toEqual({ id: longId, at: 5, data });
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
