import type { ModelInfo } from './types';

/**
 * Context windows and prices (USD per million tokens) of well-known models, matched by prefix;
 * config.yaml overrides them. Unknown models get a conservative default and no cost.
 */
const TABLE: [prefix: string, info: Partial<ModelInfo>][] = [
  ['gpt-4.1-mini', { contextWindow: 1_047_576, pricing: { input: 0.4, output: 1.6 } }],
  ['gpt-4.1', { contextWindow: 1_047_576, pricing: { input: 2, output: 8 } }],
  ['gpt-4o-mini', { contextWindow: 128_000, pricing: { input: 0.15, output: 0.6 } }],
  ['gpt-4o', { contextWindow: 128_000, pricing: { input: 2.5, output: 10 } }],
  ['gpt-5-mini', { contextWindow: 400_000, pricing: { input: 0.25, output: 2 } }],
  ['gpt-5', { contextWindow: 400_000, pricing: { input: 1.25, output: 10 } }],
  ['o4-mini', { contextWindow: 200_000, pricing: { input: 1.1, output: 4.4 } }],
  ['claude-opus-4', { contextWindow: 200_000, pricing: { input: 15, output: 75 } }],
  ['claude-sonnet-4', { contextWindow: 200_000, pricing: { input: 3, output: 15 } }],
  ['claude-3-5-haiku', { contextWindow: 200_000, pricing: { input: 0.8, output: 4 } }],
  ['claude-haiku-4', { contextWindow: 200_000, pricing: { input: 1, output: 5 } }],
  ['gemini-2.5-pro', { contextWindow: 1_048_576, pricing: { input: 1.25, output: 10 } }],
  ['gemini-2.5-flash', { contextWindow: 1_048_576, pricing: { input: 0.3, output: 2.5 } }],
];

export function knownModel(model: string): Partial<ModelInfo> {
  const bare = model.includes('/') ? model.slice(model.lastIndexOf('/') + 1) : model;
  for (const [prefix, info] of TABLE) if (bare.startsWith(prefix)) return info;
  return {};
}

export const DEFAULT_CONTEXT_WINDOW = 32_768;
