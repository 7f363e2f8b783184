import type { Usage } from '../../contract/index';
import type { Pricing } from './providers/types';

/** A turn's token counts as the provider reported them; cache and reasoning counts are parts of input and output. */
export interface TokenCounts {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens?: number;
  cacheWriteTokens?: number;
  reasoningTokens?: number;
}

export function emptyUsage(pricing?: Pricing): Usage {
  return { inputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, outputTokens: 0, reasoningTokens: 0, totalTokens: 0, costUsd: pricing ? 0 : null };
}

/**
 * Dollars for one turn, cache-aware: fresh input at the input price, cache reads and writes at their
 * own prices (the input price when the catalog has none), output (reasoning included) at the output price.
 */
export function costOf(t: TokenCounts, pricing: Pricing): number {
  const read = t.cacheReadTokens ?? 0;
  const write = t.cacheWriteTokens ?? 0;
  const fresh = Math.max(0, t.inputTokens - read - write);
  return (fresh * pricing.input + read * (pricing.cacheRead ?? pricing.input) + write * (pricing.cacheWrite ?? pricing.input) + t.outputTokens * pricing.output) / 1_000_000;
}

export function turnUsage(t: TokenCounts, pricing?: Pricing): Usage {
  return {
    inputTokens: t.inputTokens,
    cacheReadTokens: t.cacheReadTokens ?? 0,
    cacheWriteTokens: t.cacheWriteTokens ?? 0,
    outputTokens: t.outputTokens,
    reasoningTokens: t.reasoningTokens ?? 0,
    totalTokens: t.inputTokens + t.outputTokens,
    costUsd: pricing ? costOf(t, pricing) : null,
  };
}

export function addCounts(a: TokenCounts, b: TokenCounts): TokenCounts {
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    cacheReadTokens: (a.cacheReadTokens ?? 0) + (b.cacheReadTokens ?? 0),
    cacheWriteTokens: (a.cacheWriteTokens ?? 0) + (b.cacheWriteTokens ?? 0),
    reasoningTokens: (a.reasoningTokens ?? 0) + (b.reasoningTokens ?? 0),
  };
}

export function addUsage(a: Usage, b: Usage): Usage {
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    cacheReadTokens: (a.cacheReadTokens ?? 0) + (b.cacheReadTokens ?? 0),
    cacheWriteTokens: (a.cacheWriteTokens ?? 0) + (b.cacheWriteTokens ?? 0),
    outputTokens: a.outputTokens + b.outputTokens,
    reasoningTokens: (a.reasoningTokens ?? 0) + (b.reasoningTokens ?? 0),
    totalTokens: a.totalTokens + b.totalTokens,
    costUsd: a.costUsd === null || b.costUsd === null ? null : a.costUsd + b.costUsd,
  };
}
