import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DataBatcher, DEFAULT_FLOW, FlowController } from './flow';

describe('DataBatcher', () => {
  let flushed: string[];
  let batcher: DataBatcher;

  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setImmediate', 'clearImmediate', 'performance'] });
    flushed = [];
    batcher = new DataBatcher(5, (d) => flushed.push(d), 10);
  });
  afterEach(() => {
    batcher.dispose();
    vi.useRealTimers();
  });

  it('sends the first output after a quiet spell at the next turn of the event loop, not after the batching window', () => {
    batcher.push('a');
    batcher.push('b'); // read in the same turn: one event
    expect(flushed).toEqual([]);
    vi.advanceTimersByTime(0);
    expect(flushed).toEqual(['ab']);
  });

  it('gathers output that keeps coming for the batching window', () => {
    batcher.push('a');
    vi.advanceTimersByTime(0);
    batcher.push('b');
    vi.advanceTimersByTime(1);
    batcher.push('c');
    vi.advanceTimersByTime(3);
    expect(flushed).toEqual(['a']);
    vi.advanceTimersByTime(1);
    expect(flushed).toEqual(['a', 'bc']);
    // Quiet again for the window: the next output goes at once.
    vi.advanceTimersByTime(5);
    batcher.push('d');
    vi.advanceTimersByTime(0);
    expect(flushed).toEqual(['a', 'bc', 'd']);
  });

  it('sends the output that follows input without waiting, even while output keeps coming', () => {
    batcher.push('a');
    vi.advanceTimersByTime(0);
    batcher.push('b'); // within the window: would wait 5 ms
    batcher.inputSent();
    vi.advanceTimersByTime(0);
    expect(flushed).toEqual(['a', 'b']);
    batcher.inputSent(); // a key typed right after: its echo goes at once too
    batcher.push('x');
    vi.advanceTimersByTime(0);
    expect(flushed).toEqual(['a', 'b', 'x']);
    batcher.push('y'); // output with no input before it waits for the window again
    vi.advanceTimersByTime(4);
    expect(flushed).toEqual(['a', 'b', 'x']);
    vi.advanceTimersByTime(1);
    expect(flushed).toEqual(['a', 'b', 'x', 'y']);
  });

  it('sends a batch as soon as it reaches its size limit, in order and whole', () => {
    batcher.push('01234');
    batcher.push('56789'); // 10 characters: out now
    expect(flushed).toEqual(['0123456789']);
    batcher.push('abc');
    batcher.push('defghijk'); // over the limit: the whole batch goes, nothing is split or dropped
    batcher.push('l');
    expect(flushed).toEqual(['0123456789', 'abcdefghijk']);
    vi.advanceTimersByTime(5);
    expect(flushed.join('')).toBe('0123456789abcdefghijkl');
    expect(flushed).toHaveLength(3);
  });

  it('drain sends what is pending at once; dispose drops it and cancels the timers', () => {
    batcher.push('x');
    batcher.drain();
    expect(flushed).toEqual(['x']);
    batcher.push('y');
    batcher.dispose();
    vi.advanceTimersByTime(100);
    expect(flushed).toEqual(['x']);
  });
});

describe('DataBatcher of bytes (a terminal batches its PTY reads before decoding them)', () => {
  afterEach(() => vi.useRealTimers());
  it('counts bytes against the limit and joins the reads of a batch into one buffer, in order', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setImmediate', 'clearImmediate', 'performance'] });
    const flushed: [string, boolean][] = [];
    const b = new DataBatcher<Buffer>(5, (d, full) => flushed.push([d.toString('utf8'), full]), 8, (c) => Buffer.concat(c));
    const euro = Buffer.from('€'); // 3 bytes, 1 character
    b.push(Buffer.from('ab'));
    b.push(euro.subarray(0, 2)); // a read that ends inside a character: joined whole with the next
    expect(flushed).toEqual([]);
    b.push(Buffer.concat([euro.subarray(2), Buffer.from('cde')])); // 8 bytes: full
    expect(flushed).toEqual([['ab€cde', true]]);
    b.push(Buffer.from('f'));
    vi.advanceTimersByTime(5);
    expect(flushed).toEqual([['ab€cde', true], ['f', false]]);
    b.dispose();
  });
});

describe('FlowController', () => {
  it('pauses past the high watermark, resumes under the low one, and lets go of a client that stopped acknowledging', () => {
    vi.useFakeTimers();
    try {
      const calls: string[] = [];
      const fc = new FlowController({ highWatermark: 100, lowWatermark: 10, stallMs: 1_000 }, { pause: () => calls.push('pause'), resume: () => calls.push('resume') });
      fc.sent(60);
      fc.sent(60);
      expect(calls).toEqual(['pause']);
      fc.ack(100); // 20 left: still over the low watermark
      expect(fc.isPaused).toBe(true);
      fc.ack(15);
      expect(calls).toEqual(['pause', 'resume']);
      fc.sent(200);
      vi.advanceTimersByTime(1_000); // no acknowledgement: resume for good
      expect(calls).toEqual(['pause', 'resume', 'pause', 'resume']);
      fc.sent(1_000);
      expect(fc.isPaused).toBe(false);
      fc.dispose();
    } finally {
      vi.useRealTimers();
    }
  });

  it('by default keeps half the window in flight when it resumes, and counts its pauses and their time', () => {
    const calls: string[] = [];
    const fc = new FlowController(DEFAULT_FLOW, { pause: () => calls.push('pause'), resume: () => calls.push('resume') });
    // A flood in 32 kB batches, the client acknowledging each batch one batch late (its round trip).
    const batch = 32_768;
    let unacked = 0;
    for (let i = 0; i < 16; i++) {
      fc.sent(batch);
      unacked += batch;
      if (i > 0) {
        fc.ack(batch);
        unacked -= batch;
      }
    }
    // A client one batch behind never fills the window: the command is never held back.
    expect(calls).toEqual([]);
    // A client that stops rendering for a while: paused past the high watermark...
    while (!fc.isPaused) {
      fc.sent(batch);
      unacked += batch;
    }
    expect(unacked).toBeGreaterThan(DEFAULT_FLOW.highWatermark);
    // ...and resumed once it has caught up to half the window, not only once it has rendered nearly all of it.
    while (fc.isPaused) {
      fc.ack(batch);
      unacked -= batch;
    }
    expect(unacked).toBeGreaterThanOrEqual(DEFAULT_FLOW.highWatermark / 2 - batch);
    expect(calls).toEqual(['pause', 'resume']);
    expect(fc.stats.pauses).toBe(1);
    expect(fc.stats.pausedMs).toBeGreaterThanOrEqual(0);
    fc.dispose();
  });
});
