import { createHash } from 'node:crypto';
import type { LanguageModel } from 'ai';
import { providerFetch } from './fetch';
import { knownModel } from './known-models';
import { ollamaNumCtx } from './ollama';
import type { ProviderKind, ProviderPlugin, TurnRequest } from './types';

// Each plugin imports its provider's package in `create`, when a model of that kind is used (the build gives each its
// own chunk): imported up front, the six packages cost every CLI start about 30 ms of CPU (--version: about 300 -> 270
// ms), and a start uses one provider or none.

/**
 * A cache key that stays the same for a whole session: the hash of its system prompt and task
 * (the first two messages, which archiving never removes), so OpenAI routes its turns to one cache.
 */
export function sessionCacheKey(req: TurnRequest): string {
  const h = createHash('sha256');
  for (const m of req.messages.slice(0, 2)) h.update(m.role).update('\0').update(m.content).update('\0');
  return `erasmus-${h.digest('hex').slice(0, 32)}`;
}

const isOpenAIReasoning = (m: string) => /^(o\d|gpt-5|codex)/.test(m.slice(m.lastIndexOf('/') + 1));

/**
 * OpenAI through the Responses API. Nothing is stored server-side unless `store: true`: reasoning
 * items come back encrypted and travel in the session log; each session has one prompt-cache key.
 */
export const openaiPlugin: ProviderPlugin = {
  kind: 'openai',
  needsKey: true,
  create: async ({ model, baseUrl, apiKey, headers }) => (await import('@ai-sdk/openai')).createOpenAI({ apiKey, baseURL: baseUrl, headers, fetch: providerFetch() }).responses(model),
  info: (m) => ({ supportsNativeTools: true, ...knownModel(m) }),
  shape: ({ model, reasoning, store }) => ({
    providerOptions: {
      openai: {
        store: store ?? false,
        ...(isOpenAIReasoning(model) ? { reasoningSummary: 'auto', ...(store ? {} : { include: ['reasoning.encrypted_content'] }) } : {}),
        ...(reasoning?.effort ? { reasoningEffort: reasoning.effort } : {}),
      },
    },
    perRequest: (req) => ({ providerOptions: { openai: { promptCacheKey: sessionCacheKey(req) } } }),
  }),
};

/** Anthropic Messages: cache breakpoints on by default; extended thinking when a budget is set. */
export const anthropicPlugin: ProviderPlugin = {
  kind: 'anthropic',
  needsKey: true,
  create: async ({ model, baseUrl, apiKey, headers }) => (await import('@ai-sdk/anthropic')).createAnthropic({ apiKey, baseURL: baseUrl, headers, fetch: providerFetch() })(model),
  info: (m) => ({ supportsNativeTools: true, ...knownModel(m) }),
  shape: ({ reasoning }) => ({
    cacheBreakpoints: true,
    ...(reasoning?.budgetTokens ? { providerOptions: { anthropic: { thinking: { type: 'enabled', budgetTokens: reasoning.budgetTokens } } } } : {}),
  }),
};

/** Gemini: thinking models return their thoughts (and signatures, sent back on the next request). */
export const googlePlugin: ProviderPlugin = {
  kind: 'google',
  needsKey: true,
  create: async ({ model, baseUrl, apiKey, headers }) => (await import('@ai-sdk/google')).createGoogleGenerativeAI({ apiKey, baseURL: baseUrl, headers, fetch: providerFetch() })(model),
  info: (m) => ({ supportsNativeTools: true, ...knownModel(m) }),
  shape: ({ model, reasoning }) =>
    /gemini-(2\.5|[3-9])/.test(model) || reasoning?.budgetTokens !== undefined
      ? { providerOptions: { google: { thinkingConfig: { includeThoughts: reasoning?.budgetTokens !== 0, ...(reasoning?.budgetTokens !== undefined ? { thinkingBudget: reasoning.budgetTokens } : {}) } } } }
      : {},
};

export const OLLAMA_DEFAULT_BASE_URL = 'http://127.0.0.1:11434/api';

/**
 * A local Ollama server; many local models' tool calling is unreliable, so auto mode uses xml.
 * Each request asks for a context (`num_ctx`) large enough for it, up to the model's limit.
 */
export const ollamaPlugin: ProviderPlugin = {
  kind: 'ollama',
  needsKey: false,
  defaultBaseUrl: OLLAMA_DEFAULT_BASE_URL,
  create: async ({ model, baseUrl, headers }) => (await import('ollama-ai-provider-v2')).createOllama({ baseURL: baseUrl ?? OLLAMA_DEFAULT_BASE_URL, headers, fetch: providerFetch() })(model) as LanguageModel,
  info: () => ({ supportsNativeTools: false, contextWindow: 8192 }),
  toolResultImages: false,
  shape: ({ contextWindow, reasoning }) => ({
    perRequest: (req, tokens) => {
      const { numCtx, warning } = ollamaNumCtx(tokens, req.maxOutputTokens, contextWindow);
      return { providerOptions: { ollama: { options: { num_ctx: numCtx }, ...(reasoning?.budgetTokens === 0 ? { think: false } : {}) } }, ...(warning ? { warning } : {}) };
    },
  }),
};

/** Any OpenAI-compatible endpoint: LM Studio, vLLM, llama.cpp server, the scripted test server. */
export const openaiCompatiblePlugin: ProviderPlugin = {
  kind: 'openai-compatible',
  needsKey: false,
  defaultBaseUrl: 'http://127.0.0.1:1234/v1',
  create: async ({ model, baseUrl, apiKey, headers }) => (await import('@ai-sdk/openai-compatible')).createOpenAICompatible({ name: 'openai-compatible', baseURL: baseUrl ?? 'http://127.0.0.1:1234/v1', apiKey, headers, includeUsage: true, fetch: providerFetch() })(model),
  info: (m) => ({ supportsNativeTools: true, ...knownModel(m) }),
  toolResultImages: false,
};

/** OpenRouter: Anthropic models get the same cache breakpoints as on Anthropic's own API. */
export const openrouterPlugin: ProviderPlugin = {
  kind: 'openrouter',
  needsKey: true,
  create: async ({ model, baseUrl, apiKey, headers }) => (await import('@openrouter/ai-sdk-provider')).createOpenRouter({ apiKey, baseURL: baseUrl, headers, fetch: providerFetch() }).chat(model) as LanguageModel,
  info: (m) => ({ supportsNativeTools: true, ...knownModel(m) }),
  shape: ({ model, reasoning }) => ({
    cacheBreakpoints: model.startsWith('anthropic/'),
    providerOptions: { openrouter: { usage: { include: true }, ...(reasoning?.effort ? { reasoning: { effort: reasoning.effort } } : reasoning?.budgetTokens ? { reasoning: { max_tokens: reasoning.budgetTokens } } : {}) } },
  }),
};

/** The provider plugins, per call (no module-global registry): pass your own map to add one. */
export function defaultPlugins(): Map<ProviderKind, ProviderPlugin> {
  return new Map([openaiPlugin, anthropicPlugin, googlePlugin, ollamaPlugin, openaiCompatiblePlugin, openrouterPlugin].map((p) => [p.kind, p]));
}
