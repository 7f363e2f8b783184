import type { LanguageModel } from 'ai';
import type { ChatMessage } from '../../../contract/index';

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
  | { type: 'tool_call'; id: string; name: string; args: Record<string, unknown> }
  | { type: 'usage'; inputTokens: number; outputTokens: number }
  | { type: 'finish'; reason: string }
  | { type: 'error'; message: string };

export type StreamTurn = (req: TurnRequest) => AsyncIterable<StreamPart>;

/** US dollars per million tokens. */
export interface Pricing {
  input: number;
  output: number;
}

export interface ModelInfo {
  contextWindow: number;
  supportsNativeTools: boolean;
  pricing?: Pricing;
}

/** One configured model, ready to stream turns. */
export interface ProviderHandle extends ModelInfo {
  /** The provider's id in config.yaml. */
  id: string;
  kind: ProviderKind;
  model: string;
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

/** A provider plugin: one small module per provider behind this interface. */
export interface ProviderPlugin {
  kind: ProviderKind;
  /** Whether an API key is required. */
  needsKey: boolean;
  defaultBaseUrl?: string;
  create(o: ProviderCreateOptions): LanguageModel;
  /** What is known of a model by name (context window, native tools, prices). */
  info(model: string): Partial<ModelInfo>;
}
