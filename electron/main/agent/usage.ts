import type { Usage } from '../../contract/index';
import type { Pricing } from './providers/types';

export function emptyUsage(pricing?: Pricing): Usage {
  return { inputTokens: 0, outputTokens: 0, totalTokens: 0, costUsd: pricing ? 0 : null };
}

export function turnUsage(input: number, output: number, pricing?: Pricing): Usage {
  return {
    inputTokens: input,
    outputTokens: output,
    totalTokens: input + output,
    costUsd: pricing ? (input * pricing.input + output * pricing.output) / 1_000_000 : null,
  };
}

export function addUsage(a: Usage, b: Usage): Usage {
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    totalTokens: a.totalTokens + b.totalTokens,
    costUsd: a.costUsd === null || b.costUsd === null ? null : a.costUsd + b.costUsd,
  };
}
