import { describe, expect, it } from 'vitest';
import { createToolCallParser } from './parser';
import { caseTools, mergeText, parserCases, type ExpectedEvent } from './parser.cases';
import type { ParserEvent } from './types';

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function parseChunks(chunks: readonly string[], shell?: boolean): ParserEvent[] {
  const p = createToolCallParser({ tools: caseTools, shell });
  const out: ParserEvent[] = [];
  for (const c of chunks) out.push(...p.push(c));
  out.push(...p.end());
  return mergeText(out);
}

function randomChunks(input: string, seed: number): string[] {
  const rand = mulberry32(seed);
  const chunks: string[] = [];
  for (let i = 0; i < input.length; ) {
    const n = 1 + Math.floor(rand() * 16);
    chunks.push(input.slice(i, i + n));
    i += n;
  }
  return chunks;
}

/** invalid_call messages are matched by pattern; everything else exactly. */
function check(actual: ParserEvent[], expected: ExpectedEvent[]): void {
  const normalized = actual.map((e, i) => {
    const want = expected[i];
    if (e.type === 'invalid_call' && want?.type === 'invalid_call') {
      expect(e.message).toMatch(want.message);
      return { ...e, message: want.message };
    }
    return e;
  });
  expect(normalized).toEqual(expected);
}

/** Text and raw call texts, put back together, are the input: nothing is lost or duplicated. */
function rebuild(events: readonly ParserEvent[]): string {
  let s = '';
  let lastRaw = '';
  for (const e of events) {
    if (e.type === 'text') {
      s += e.text;
      lastRaw = '';
    } else if (e.type === 'invalid_call' && e.shown) {
      // Its text was emitted as text already.
    } else if (!(e.raw === lastRaw && /^\s*(```|~~~)/.test(e.raw))) {
      s += e.raw;
      lastRaw = e.raw;
    }
  }
  return s;
}

describe('streaming tool-call parser: table of model outputs', () => {
  it('has at least 45 cases with distinct names', () => {
    expect(parserCases.length).toBeGreaterThanOrEqual(45);
    expect(new Set(parserCases.map((c) => c.name)).size).toBe(parserCases.length);
  });

  for (const c of parserCases) {
    it(c.name, () => {
      const whole = parseChunks([c.input], c.shell);
      check(whole, c.events);
      expect(rebuild(whole)).toBe(c.input);
      for (const seed of [1, 2, 3, 4, 5, 42, 1337]) {
        expect(parseChunks(randomChunks(c.input, seed), c.shell), `seed ${seed}`).toEqual(whole);
      }
      expect(parseChunks([...c.input], c.shell), 'one character at a time').toEqual(whole);
    });
  }
});

describe('streaming tool-call parser: behaviour while streaming', () => {
  it('emits prose as it arrives, holding back at most a possible tag', () => {
    const p = createToolCallParser({ tools: caseTools });
    const prose = 'Some prose with a <b>tag</b>, a < b comparison, <read_file mentions and the <read_file> tool.\n'.repeat(20);
    let emitted = 0;
    for (let i = 0; i < prose.length; i++) {
      for (const e of p.push(prose[i] as string)) if (e.type === 'text') emitted += e.text.length;
      expect(i + 1 - emitted).toBeLessThanOrEqual(512 + 64);
    }
    // A plain word is never held.
    expect(mergeText(p.push('word'))).toEqual([{ type: 'text', text: 'word' }]);
  });

  it('emits a call as soon as its closing tag is confirmed, before the message ends', () => {
    const p = createToolCallParser({ tools: caseTools });
    const events = p.push('Text\n<read_file>\n<path>a</path>\n</read_file>');
    expect(events.map((e) => e.type)).toEqual(['text', 'tool_call']);
    expect(p.end()).toEqual([]);
  });

  it('waits for the confirming tag after a parameter closing tag', () => {
    const p = createToolCallParser({ tools: caseTools });
    expect(p.push('<read_file>\n<path>a</path>')).toEqual([]);
    expect(p.push('\n</read_file>')).toMatchObject([{ type: 'tool_call', args: { path: 'a' } }]);
  });

  it('never throws on garbage and always ends', () => {
    const rand = mulberry32(7);
    const alphabet = ['<', '>', '/', '`', '\n', '!', '{', '}', 'read_file', 'path', '"', '&amp;', '<![CDATA[', ']]>', '```json\n', 'x', ' '];
    for (let round = 0; round < 200; round++) {
      let input = '';
      for (let i = 0; i < 60; i++) input += alphabet[Math.floor(rand() * alphabet.length)];
      const whole = parseChunks([input]);
      expect(parseChunks(randomChunks(input, round))).toEqual(whole);
      expect(rebuild(whole)).toBe(input);
    }
  });
});
