import { readFile } from 'node:fs/promises';
import { parse } from 'yaml';
import { z } from 'zod';
import { ApprovalsPolicy, providerDisplayName, ToolMode } from '../../../contract/index';
import { interpolateDeep, MissingVariableError, references, type InterpolationSources } from '../../secrets/index';
import { aiSdkStream } from './ai-sdk-stream';
import { catalogModelName, DEFAULT_CONTEXT_WINDOW } from './known-models';
import { ollamaContextLength } from './ollama';
import { defaultPlugins, OLLAMA_DEFAULT_BASE_URL } from './plugins';
import type { ProviderHandle, ProviderKind, ProviderPlugin, RequestShape } from './types';

/** One entry of `providers:` in config.yaml. Keys are references (`${secret:NAME}`), never values. */
/** config.yaml exists but cannot be read as settings (bad YAML, an unknown or wrong key): the fix is in the file, not a missing provider. */
export class ConfigFileError extends Error {
  override readonly name = 'ConfigFileError';
}

export const ProviderConfig = z
  .object({
    id: z.string().min(1),
    kind: z.enum(['openai', 'anthropic', 'google', 'ollama', 'openai-compatible', 'openrouter']),
    model: z.string().min(1),
    baseUrl: z.string().url().optional(),
    apiKey: z
      .string()
      .refine((s) => /^\$\{(secret|env):[^}]+\}$/.test(s.trim()), 'apiKey must be a reference such as ${secret:NAME} or ${env:NAME}, never the key itself')
      .optional(),
    headers: z.record(z.string(), z.string()).optional(),
    /** The provider's name in words, shown instead of its id ("Work laptop's LM Studio"); default: its kind in words. */
    name: z.string().trim().min(1).max(80).optional(),
    /** The model's context window in tokens (for ollama: the most Erasmus will ask for as num_ctx). */
    contextWindow: z.number().int().positive().optional(),
    maxOutputTokens: z.number().int().positive().optional(),
    nativeTools: z.boolean().optional(),
    /** The model takes images (tool results' images reach it as image parts); default: what the bundled catalog says, else no. */
    images: z.boolean().optional(),
    /** USD per million tokens; overrides the bundled models.dev catalog. */
    pricing: z
      .object({ input: z.number().nonnegative(), output: z.number().nonnegative(), cacheRead: z.number().nonnegative().optional(), cacheWrite: z.number().nonnegative().optional() })
      .strict()
      .optional(),
    /** Reasoning effort (openai, openrouter) or thinking budget in tokens (anthropic, google). */
    reasoning: z
      .object({ effort: z.enum(['minimal', 'low', 'medium', 'high']).optional(), budgetTokens: z.number().int().nonnegative().optional() })
      .strict()
      .optional(),
    /** openai: let OpenAI store responses server-side (off by default; reasoning travels encrypted instead). */
    store: z.boolean().optional(),
  })
  .strict();
export type ProviderConfig = z.infer<typeof ProviderConfig>;

export const AgentConfigFile = z
  .object({
    defaultProvider: z.string().optional(),
    providers: z.array(ProviderConfig).default([]),
    /** Default tool-call mode of new sessions (a session's own option wins). */
    toolMode: ToolMode.optional(),
    /** Default approvals policy of new sessions (see ApprovalsPolicy in the contract). */
    approvals: ApprovalsPolicy.optional(),
    /** Cost budget in USD of sessions that set none (applied where the model's prices are known). */
    sessionBudgetUsd: z.number().positive().optional(),
    /** Cost budget in USD of workflow runs started without one. */
    runBudgetUsd: z.number().positive().optional(),
    /** How many components of a workflow run may run at once, each in its own git worktree (default 2). */
    parallelComponents: z.number().int().min(1).max(16).optional(),
  })
  .passthrough();
export type AgentConfigFile = z.infer<typeof AgentConfigFile>;

/** Reads the agent's part of config.yaml (other parts keep their own keys). A missing file is an empty config. */
export async function loadAgentConfig(file: string): Promise<AgentConfigFile> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { providers: [] };
    throw new Error(`cannot read ${file}: ${(err as Error).message}`);
  }
  let raw: unknown;
  try {
    raw = parse(text) ?? {};
  } catch (err) {
    throw new ConfigFileError(`${file} is not valid YAML: ${(err as Error).message}`);
  }
  const r = AgentConfigFile.safeParse(raw);
  if (!r.success) throw new ConfigFileError(`${file}: ${r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  const ids = r.data.providers.map((p) => p.id);
  const dup = ids.find((id, i) => ids.indexOf(id) !== i);
  if (dup) throw new Error(`${file}: provider id "${dup}" appears twice`);
  return r.data;
}

export interface ProviderOverrides {
  provider?: string;
  model?: string;
  baseUrl?: string;
  /** Name of the keychain secret holding the API key. */
  apiKeySecret?: string;
  kind?: ProviderKind;
}

/**
 * Picks the provider (by id, the config's default, or the first), applies the overrides, fills the
 * key from the keychain, and returns a handle ready to stream. With no config at all, a base URL
 * on the command line means an OpenAI-compatible endpoint.
 */
/**
 * No provider in config.yaml and none given for this call. The message says what is missing in words true for every
 * face; each face adds how to add one there (the app: Settings → Providers; the CLI: config.yaml, --base-url and --model).
 */
export class NoProviderError extends Error {
  constructor() {
    super('no provider is configured (config.yaml lists none under `providers:`)');
    this.name = 'NoProviderError';
  }
}

export async function resolveProvider(
  config: AgentConfigFile,
  over: ProviderOverrides,
  sources: InterpolationSources,
  plugins: Map<ProviderKind, ProviderPlugin> = defaultPlugins(),
): Promise<ProviderHandle> {
  let entry: ProviderConfig | undefined;
  const wanted = over.provider ?? config.defaultProvider;
  if (wanted) {
    entry = config.providers.find((p) => p.id === wanted);
    if (!entry) {
      const kind = ProviderConfig.shape.kind.safeParse(wanted);
      if (!kind.success) throw new Error(`no provider "${wanted}" in config.yaml; configured: ${config.providers.map((p) => p.id).join(', ') || '(none)'}`);
      if (!over.model) throw new Error(`provider kind "${wanted}" is not configured; give --model too`);
      entry = { id: wanted, kind: kind.data, model: over.model };
    }
  } else entry = config.providers[0];
  if (!entry) {
    if (!over.baseUrl || !over.model) throw new NoProviderError();
    entry = { id: 'openai-compatible', kind: over.kind ?? 'openai-compatible', model: over.model };
  }
  entry = { ...entry, model: over.model ?? entry.model, baseUrl: over.baseUrl ?? entry.baseUrl, apiKey: over.apiKeySecret ? `\${secret:${over.apiKeySecret}}` : entry.apiKey };
  const plugin = plugins.get(entry.kind);
  if (!plugin) throw new Error(`no plugin for provider kind "${entry.kind}"`);
  let apiKey: string | undefined;
  let headers = entry.headers;
  try {
    const filled = await interpolateDeep({ apiKey: entry.apiKey, headers: entry.headers }, sources);
    apiKey = filled.apiKey;
    headers = filled.headers;
    // A key read from the environment is as secret as one from the keychain: masked, and no command gets the variable.
    for (const ref of references(`${entry.apiKey ?? ''}\n${Object.values(entry.headers ?? {}).join('\n')}`)) {
      if (ref === 'workspaceFolder' || ref.startsWith('secret:')) continue;
      const name = ref.startsWith('env:') ? ref.slice(4) : ref;
      const value = sources.env[name];
      if (value) sources.credentialFromEnv?.(name, value);
    }
  } catch (err) {
    if (err instanceof MissingVariableError) throw new Error(`provider "${entry.id}": ${err.message} (store it with \`erasmus secrets set NAME\`)`);
    throw err;
  }
  if (plugin.needsKey && !apiKey) throw new Error(`provider "${entry.id}" (${entry.kind}) needs an API key: set apiKey: \${secret:NAME} in config.yaml or pass --api-key-secret NAME`);
  const info = plugin.info(entry.model);
  // A local Ollama server knows its model's real limit; config.yaml still wins.
  const asked = entry.kind === 'ollama' && entry.contextWindow === undefined ? await ollamaContextLength(entry.baseUrl ?? OLLAMA_DEFAULT_BASE_URL, entry.model) : undefined;
  const contextWindow = entry.contextWindow ?? asked ?? info.contextWindow ?? DEFAULT_CONTEXT_WINDOW;
  const maxOutputTokens = entry.maxOutputTokens ?? info.maxOutputTokens;
  const languageModel = await plugin.create({ model: entry.model, baseUrl: entry.baseUrl, apiKey, headers });
  const supportsImages = entry.images ?? info.supportsImages ?? false;
  const shape = { ...plugin.shape?.({ model: entry.model, reasoning: entry.reasoning, contextWindow, store: entry.store }), images: supportsImages ? (plugin.toolResultImages === false ? 'user-message' : 'tool-result') : 'none' } satisfies RequestShape;
  return {
    id: entry.id,
    kind: entry.kind,
    model: entry.model,
    providerName: providerDisplayName(entry),
    modelName: catalogModelName(entry.model) ?? entry.model,
    contextWindow,
    ...(maxOutputTokens ? { maxOutputTokens } : {}),
    supportsNativeTools: entry.nativeTools ?? info.supportsNativeTools ?? false,
    supportsImages,
    pricing: entry.pricing ?? info.pricing,
    languageModel,
    stream: aiSdkStream(languageModel, shape),
  };
}
