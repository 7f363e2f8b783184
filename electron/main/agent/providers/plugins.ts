import { createOpenAI } from '@ai-sdk/openai';
import { createAnthropic } from '@ai-sdk/anthropic';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { createOllama } from 'ollama-ai-provider-v2';
import { createOpenRouter } from '@openrouter/ai-sdk-provider';
import type { LanguageModel } from 'ai';
import { knownModel } from './known-models';
import type { ProviderKind, ProviderPlugin } from './types';

/** OpenAI (api.openai.com, or another base URL speaking the Responses API). */
export const openaiPlugin: ProviderPlugin = {
  kind: 'openai',
  needsKey: true,
  create: ({ model, baseUrl, apiKey, headers }) => createOpenAI({ apiKey, baseURL: baseUrl, headers }).chat(model),
  info: (m) => ({ supportsNativeTools: true, ...knownModel(m) }),
};

export const anthropicPlugin: ProviderPlugin = {
  kind: 'anthropic',
  needsKey: true,
  create: ({ model, baseUrl, apiKey, headers }) => createAnthropic({ apiKey, baseURL: baseUrl, headers })(model),
  info: (m) => ({ supportsNativeTools: true, ...knownModel(m) }),
};

export const googlePlugin: ProviderPlugin = {
  kind: 'google',
  needsKey: true,
  create: ({ model, baseUrl, apiKey, headers }) => createGoogleGenerativeAI({ apiKey, baseURL: baseUrl, headers })(model),
  info: (m) => ({ supportsNativeTools: true, ...knownModel(m) }),
};

/** A local Ollama server; many local models' tool calling is unreliable, so auto mode uses xml. */
export const ollamaPlugin: ProviderPlugin = {
  kind: 'ollama',
  needsKey: false,
  defaultBaseUrl: 'http://127.0.0.1:11434/api',
  create: ({ model, baseUrl, headers }) => createOllama({ baseURL: baseUrl ?? 'http://127.0.0.1:11434/api', headers })(model) as LanguageModel,
  info: () => ({ supportsNativeTools: false, contextWindow: 8192 }),
};

/** Any OpenAI-compatible endpoint: LM Studio, vLLM, llama.cpp server, the scripted test server. */
export const openaiCompatiblePlugin: ProviderPlugin = {
  kind: 'openai-compatible',
  needsKey: false,
  defaultBaseUrl: 'http://127.0.0.1:1234/v1',
  create: ({ model, baseUrl, apiKey, headers }) => createOpenAICompatible({ name: 'openai-compatible', baseURL: baseUrl ?? 'http://127.0.0.1:1234/v1', apiKey, headers, includeUsage: true })(model),
  info: (m) => ({ supportsNativeTools: true, ...knownModel(m) }),
};

export const openrouterPlugin: ProviderPlugin = {
  kind: 'openrouter',
  needsKey: true,
  create: ({ model, baseUrl, apiKey, headers }) => createOpenRouter({ apiKey, baseURL: baseUrl, headers }).chat(model) as LanguageModel,
  info: (m) => ({ supportsNativeTools: true, ...knownModel(m) }),
};

/** The provider plugins, per call (no module-global registry): pass your own map to add one. */
export function defaultPlugins(): Map<ProviderKind, ProviderPlugin> {
  return new Map([openaiPlugin, anthropicPlugin, googlePlugin, ollamaPlugin, openaiCompatiblePlugin, openrouterPlugin].map((p) => [p.kind, p]));
}
