import { describe, expect, it } from 'vitest';
import { KeptOutput } from './kept-output';

const add = (k: KeptOutput, text: string) => k.add(Buffer.from(text), text.length);

describe('KeptOutput', () => {
  it('keeps all of a short output, multi-byte characters and surrogate pairs included, and answers from any offset', () => {
    const k = new KeptOutput(100);
    for (const piece of ['héllo ', '€uro ', '😀\r\n']) add(k, piece);
    const all = 'héllo €uro 😀\r\n';
    expect(k.chars).toBe(all.length);
    expect(k.headText()).toBe(all);
    expect(k.since(0)).toBe(all);
    expect(k.since(6)).toBe('€uro 😀\r\n');
  });

  it('keeps the first and the last `keep` characters of a long output, in whole pieces', () => {
    const k = new KeptOutput(10);
    const pieces = ['0123456', '789abcd', 'efghijk', 'lmnopqr', 'stuvwxy'];
    for (const p of pieces) add(k, p);
    const all = pieces.join('');
    expect(k.headText()).toBe('0123456789');
    const { text, start } = k.tailText();
    // At least the last 10 characters, from the start of a piece.
    expect(all.slice(start)).toBe(text);
    expect(text.length).toBeGreaterThanOrEqual(10);
    expect(text.endsWith('stuvwxy')).toBe(true);
    expect(k.since(all.length - 4)).toBe('vwxy');
    // Asked from before what is kept: what is kept.
    expect(k.since(0)).toBe(text);
  });

  it('merges a long trickle of tiny pieces (echoes) into a few buffers without changing the text', () => {
    const k = new KeptOutput(1_000_000);
    let all = '';
    for (let i = 0; i < 10_000; i++) {
      const piece = i % 7 === 0 ? 'é' : String(i % 10);
      add(k, piece);
      all += piece;
    }
    expect(k.headText()).toBe(all);
    expect(k.since(1234)).toBe(all.slice(1234));
    const internals = k as unknown as { tail: { list: unknown[] }; head: { list: unknown[] } };
    expect(internals.tail.list.length).toBeLessThan(10_000 / 32 + 32);
    expect(internals.head.list.length).toBeLessThan(10_000 / 32 + 32);
  });

  it("does not hold Node's shared buffer pool: a small piece is kept in an allocation of its own", () => {
    const k = new KeptOutput(100);
    const pooled = Buffer.from('small'); // a view into the 8 kB pool
    expect(pooled.buffer.byteLength).toBeGreaterThan(pooled.length);
    k.add(pooled, 5);
    const kept = (k as unknown as { tail: { list: { bytes: Buffer }[] } }).tail.list[0]!.bytes;
    expect(kept.buffer.byteLength).toBe(5);
    expect(k.headText()).toBe('small');
  });
});
