import { describe, expect, it } from 'vitest';
import { knownModel } from './providers/known-models';
import { addUsage, costOf, turnUsage } from './usage';

describe('cache-aware cost', () => {
  it('prices 100 fresh and 10,000 cache-read tokens as the bill does, not as 10,100 fresh', () => {
    const sonnet = knownModel('claude-sonnet-4-5').pricing!;
    const t = { inputTokens: 10_100, cacheReadTokens: 10_000, outputTokens: 0 };
    expect(costOf(t, sonnet)).toBeCloseTo((100 * 3 + 10_000 * 0.3) / 1e6, 12); // $0.0033
    expect(costOf({ inputTokens: 10_100, outputTokens: 0 }, sonnet)).toBeCloseTo(0.0303, 12);
    // Without a cache price in the catalog, cached tokens cost the input price.
    expect(costOf(t, { input: 2, output: 8 })).toBeCloseTo((10_100 * 2) / 1e6, 12);
  });

  it('keeps the parts through addition', () => {
    const a = turnUsage({ inputTokens: 10, cacheReadTokens: 4, cacheWriteTokens: 1, outputTokens: 5, reasoningTokens: 2 }, { input: 1, output: 1 });
    expect(addUsage(a, a)).toMatchObject({ inputTokens: 20, cacheReadTokens: 8, cacheWriteTokens: 2, outputTokens: 10, reasoningTokens: 4, totalTokens: 30 });
    expect(turnUsage({ inputTokens: 1, outputTokens: 1 }).costUsd).toBeNull();
  });
});

describe('model catalog (bundled models.dev data)', () => {
  it('finds models by id, dated variant, router prefix and the newer table; unknown models get nothing', () => {
    expect(knownModel('claude-sonnet-4')).toMatchObject({ contextWindow: 200_000, pricing: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 } });
    expect(knownModel('gpt-4.1-mini')).toMatchObject({ pricing: { input: 0.4, output: 1.6 } });
    expect(knownModel('gemini-2.5-pro')).toMatchObject({ contextWindow: 1_048_576, maxOutputTokens: 65_536 });
    expect(knownModel('anthropic/claude-sonnet-4')).toMatchObject({ pricing: { cacheRead: 0.3 } });
    expect(knownModel('gpt-5-codex')).toMatchObject({ contextWindow: 400_000, pricing: { input: 1.25, cacheRead: 0.125 } });
    expect(knownModel('qwen3-coder-local')).toEqual({});
  });
});
