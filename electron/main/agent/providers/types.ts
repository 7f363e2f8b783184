import type { LanguageModel } from 'ai';
import type { ChatMessage, ProviderMetadata } from '../../../contract/index';
import type { TokenCounts } from '../usage';

/** How images reach a model: in tool results, in a user message after them, or not at all (no vision). */
export type ImageRoute = 'tool-result' | 'user-message' | 'none';

export type ProviderKind = 'openai' | 'anthropic' | 'google' | 'ollama' | 'openai-compatible' | 'openrouter';

/** A tool offered through the provider's native tool calling. */
export interface NativeToolSpec {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

export interface TurnRequest {
  messages: ChatMessage[];
  /** Native tools; absent in xml mode. */
  tools?: NativeToolSpec[];
  signal: AbortSignal;
  maxOutputTokens?: number;
}

/** What a provider streams for one turn. A stream never throws: failures come as `error` parts. */
export type StreamPart =
  | { type: 'text'; text: string }
  /** The text part ended; its provider metadata (if any) goes back with the message. */
  | { type: 'text_meta'; meta: ProviderMetadata }
  /** One whole reasoning block with its provider metadata (signature, encrypted content). */
  | { type: 'reasoning'; text: string; meta?: ProviderMetadata }
  /** `sent`: what the model sent as the arguments when it was not an object (`args` is then empty), so it can be told. */
  | { type: 'tool_call'; id: string; name: string; args: Record<string, unknown>; sent?: unknown; meta?: ProviderMetadata }
  | ({ type: 'usage' } & TokenCounts)
  /** Something the user should know before it bites (a request a local server would cut). */
  | { type: 'warning'; message: string }
  | { type: 'finish'; reason: string }
  | { type: 'error'; message: string };

export type StreamTurn = (req: TurnRequest) => AsyncIterable<StreamPart>;

/** US dollars per million tokens. */
export interface Pricing {
  input: number;
  output: number;
  /** Input read from the prompt cache; the input price when absent. */
  cacheRead?: number;
  /** Input written to the prompt cache; the input price when absent. */
  cacheWrite?: number;
}

export interface ModelInfo {
  contextWindow: number;
  /** The model's own limit on output tokens, when known. */
  maxOutputTokens?: number;
  supportsNativeTools: boolean;
  /** The model takes images as input (models.dev `modalities.input`, or `images:` in config.yaml). */
  supportsImages?: boolean;
  pricing?: Pricing;
}

/** One configured model, ready to stream turns. */
export interface ProviderHandle extends ModelInfo {
  /** The provider's id in config.yaml. */
  id: string;
  kind: ProviderKind;
  model: string;
  /** In words, for people: the provider's display name (config `name`, else its kind) and the model's catalog name (else its id). */
  providerName?: string;
  modelName?: string;
  stream: StreamTurn;
  /** The AI SDK model itself, for one-shot calls with a fresh context (script review). Absent for test doubles. */
  languageModel?: LanguageModel;
}

export interface ProviderCreateOptions {
  model: string;
  baseUrl?: string;
  apiKey?: string;
  headers?: Record<string, string>;
}

/** How a provider's requests are shaped beyond the messages (see ai-sdk-stream.ts). */
export interface RequestShape {
  /** How images in tool results and user messages reach the model (see ai-sdk-stream.ts); 'none' when it has no vision. */
  images?: ImageRoute;
  /** Anthropic-style cache breakpoints on the tools, the system prompt and the moving end of the conversation. */
  cacheBreakpoints?: boolean;
  /** Provider options for every request (reasoning effort, thinking budget, store: false, ...). */
  providerOptions?: Record<string, Record<string, unknown>>;
  /** Builds per-request provider options from the request (a cache key, Ollama's num_ctx). */
  perRequest?: (req: TurnRequest, estimatedTokens: number) => { providerOptions?: Record<string, Record<string, unknown>>; warning?: string };
}

/** Reasoning settings of one provider entry in config.yaml. */
export interface ReasoningSettings {
  /** OpenAI-style effort (openai, openrouter). */
  effort?: 'minimal' | 'low' | 'medium' | 'high';
  /** Anthropic / Gemini thinking budget in tokens (0 turns Gemini thinking off). */
  budgetTokens?: number;
}

/** A provider plugin: one small module per provider behind this interface. */
export interface ProviderPlugin {
  kind: ProviderKind;
  /** Whether an API key is required. */
  needsKey: boolean;
  defaultBaseUrl?: string;
  /** The model; its provider's package is imported here, when a model of that kind is used (not at every start). */
  create(o: ProviderCreateOptions): Promise<LanguageModel>;
  /** How requests to this model are shaped (caching, reasoning, context size). */
  shape?(o: { model: string; reasoning?: ReasoningSettings; contextWindow: number; store?: boolean }): RequestShape;
  /** What is known of a model by name (context window, native tools, images, prices). */
  info(model: string): Partial<ModelInfo>;
  /** false: the API's tool messages hold text only, so images go in a user message after them. */
  toolResultImages?: boolean;
}
