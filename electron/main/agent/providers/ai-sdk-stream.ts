import type { AssistantModelMessage, LanguageModel, ModelMessage, RetryError as RetryErrorClass, ToolResultPart, ToolSet } from 'ai';
import type { ChatMessage, ImagePart, ProviderMetadata } from '../../../contract/index';
import { IMAGE_TOKENS } from '../context';
import type { ImageRoute, RequestShape, StreamPart, StreamTurn, TurnRequest } from './types';

type Options = Record<string, Record<string, unknown>>;
type SdkOptions = NonNullable<ModelMessage['providerOptions']>;
/** Provider metadata as the AI SDK takes it back (`providerOptions`); our logged form is plain JSON already. */
const asOptions = (meta: ProviderMetadata | undefined) => (meta && Object.keys(meta).length ? { providerOptions: meta as SdkOptions } : {});

/**
 * How images reach the model: as parts of the tool result itself (Anthropic, OpenAI Responses, Gemini,
 * OpenRouter), in a user message after the tool results (OpenAI-compatible chat and Ollama, whose tool
 * messages hold text only), or not at all (a model without vision: the text names them and says why).
 */
export type { ImageRoute };

const imageParts = (images: ImagePart[]) => images.map((i) => ({ type: 'image' as const, image: i.data, mediaType: i.mediaType }));
const unseen = (n: number) => `\n[${n === 1 ? 'The image above is' : `The ${n} images above are`} not shown: this model does not take images.]`;

/** Our OpenAI-style messages as AI SDK model messages, with every part's provider metadata sent back. */
export function toModelMessages(messages: ChatMessage[], images: ImageRoute = 'none'): ModelMessage[] {
  const out: ModelMessage[] = [];
  // Images of the tool results just written, for a user message after them (route 'user-message').
  let pending: { name: string; images: ImagePart[] }[] = [];
  const flush = () => {
    if (!pending.length) return;
    out.push({ role: 'user', content: [{ type: 'text', text: `Images from the tool results above (${pending.map((p) => `${p.name}: ${p.images.length}`).join(', ')}):` }, ...imageParts(pending.flatMap((p) => p.images))] });
    pending = [];
  };
  for (const m of messages) {
    if (m.role !== 'tool') flush();
    if (m.role === 'system') out.push({ role: m.role, content: m.content });
    else if (m.role === 'user') {
      if (!m.images?.length) out.push({ role: 'user', content: m.content });
      else if (images === 'none') out.push({ role: 'user', content: m.content + unseen(m.images.length) });
      else out.push({ role: 'user', content: [{ type: 'text', text: m.content }, ...imageParts(m.images)] });
    }
    else if (m.role === 'assistant') {
      if (!m.toolCalls?.length && !m.reasoning?.length && !m.textMeta) out.push({ role: 'assistant', content: m.content });
      else {
        const content: Exclude<AssistantModelMessage['content'], string> = [
            ...(m.reasoning ?? []).map((r) => ({ type: 'reasoning' as const, text: r.text, ...asOptions(r.meta) })),
            ...(m.content ? [{ type: 'text' as const, text: m.content, ...asOptions(m.textMeta) }] : []),
          ...(m.toolCalls ?? []).map((c) => ({ type: 'tool-call' as const, toolCallId: c.id, toolName: c.name, input: c.args, ...asOptions(c.meta) })),
        ];
        out.push({ role: 'assistant', content });
      }
    } else {
      const pics = m.images ?? [];
      const text = pics.length && images === 'none' ? m.content + unseen(pics.length) : m.content;
      const output: ToolResultPart['output'] =
        pics.length && images === 'tool-result'
          ? { type: 'content', value: [{ type: 'text', text }, ...pics.map((i) => ({ type: 'image-data' as const, data: i.data, mediaType: i.mediaType }))] }
          : m.isError
            ? { type: 'error-text', value: text }
            : { type: 'text', value: text };
      if (pics.length && images === 'user-message') pending.push({ name: m.name, images: pics });
      const part: ToolResultPart = { type: 'tool-result', toolCallId: m.toolCallId, toolName: m.name, output };
      const prev = out[out.length - 1];
      if (prev && prev.role === 'tool') prev.content.push(part);
      else out.push({ role: 'tool', content: [part] });
    }
  }
  flush();
  return out;
}

const EPHEMERAL = { anthropic: { cacheControl: { type: 'ephemeral' } } };

/**
 * Anthropic's cache breakpoints (at most four): the last tool (caches all tools), the system prompt,
 * and the last two messages — the end of the previous request (read from the cache) and the moving
 * end of this one (written for the next). OpenRouter reads the same `anthropic.cacheControl`.
 */
export function withCacheBreakpoints(messages: ModelMessage[]): ModelMessage[] {
  const out = messages.map((m) => ({ ...m }) as ModelMessage);
  const marks = out.filter((m) => m.role !== 'system').slice(-2);
  for (const m of [...out.filter((x) => x.role === 'system').slice(0, 1), ...marks]) m.providerOptions = { ...m.providerOptions, ...EPHEMERAL };
  return out;
}

/** A rough token count of a request (≈ 4 characters a token), for sizing local context windows. */
export function estimateTokens(req: TurnRequest): number {
  let chars = req.tools ? JSON.stringify(req.tools).length : 0;
  for (const m of req.messages) {
    chars += m.content.length + 16 + ('images' in m && m.images ? m.images.length * IMAGE_TOKENS * 4 : 0);
    if (m.role === 'assistant') for (const c of m.toolCalls ?? []) chars += c.name.length + JSON.stringify(c.args).length;
  }
  return Math.ceil(chars / 4);
}

/**
 * The provider's own words for a failed request: a retried request's last error (not the SDK's
 * "Failed after 2 attempts"), with the response body (e.g. a 429's "retry in 20 s").
 */
function errorText(err: unknown, RetryError: typeof RetryErrorClass): string {
  if (RetryError.isInstance(err)) {
    const last = errorText(err.lastError, RetryError);
    return err.errors.length > 1 ? `${last} (after ${err.errors.length} attempts)` : last;
  }
  if (err instanceof Error) {
    const body = (err as { responseBody?: unknown }).responseBody;
    return typeof body === 'string' && body ? `${err.message}: ${body.slice(0, 500)}` : err.message;
  }
  return typeof err === 'string' ? err : JSON.stringify(err);
}

function merge(a: ProviderMetadata | undefined, b: unknown): ProviderMetadata | undefined {
  if (!b || typeof b !== 'object') return a;
  const out: ProviderMetadata = { ...a };
  for (const [k, v] of Object.entries(b as Record<string, unknown>)) if (v && typeof v === 'object') out[k] = { ...out[k], ...(v as Record<string, unknown>) };
  return out;
}

function mergeOptions(...all: (Options | undefined)[]): Options | undefined {
  let out: Options | undefined;
  for (const o of all) if (o) for (const [k, v] of Object.entries(o)) (out ??= {})[k] = { ...out[k], ...v };
  return out;
}

/**
 * One turn through the Vercel AI SDK's streamText; tools have no execute, so calls come back to the loop. The SDK is
 * imported at the first turn, not at every CLI start (most starts stream nothing).
 */
export function aiSdkStream(model: LanguageModel, shape: RequestShape = {}): StreamTurn {
  return async function* (req: TurnRequest): AsyncIterable<StreamPart> {
    const { jsonSchema, RetryError, streamText, tool } = await import('ai');
    const names = req.tools?.map((t) => t.name) ?? [];
    const tools: ToolSet | undefined = req.tools?.length
      ? Object.fromEntries(
          req.tools.map((t, i) => [
            t.name,
            tool({ description: t.description, inputSchema: jsonSchema(t.inputSchema as Parameters<typeof jsonSchema>[0]), ...(shape.cacheBreakpoints && i === names.length - 1 ? { providerOptions: EPHEMERAL } : {}) }),
          ]),
        )
      : undefined;
    let failed = false;
    try {
      const per = shape.perRequest?.(req, estimateTokens(req));
      if (per?.warning) yield { type: 'warning', message: per.warning };
      let messages = toModelMessages(req.messages, shape.images ?? 'none');
      if (shape.cacheBreakpoints) messages = withCacheBreakpoints(messages);
      // The system prompt goes in `system` (as a message, so it keeps its cache breakpoint).
      const system = messages[0]?.role === 'system' ? messages[0] : undefined;
      const result = streamText({
        model,
        system,
        messages: system ? messages.slice(1) : messages,
        tools,
        abortSignal: req.signal,
        maxOutputTokens: req.maxOutputTokens,
        maxRetries: 1,
        providerOptions: mergeOptions(shape.providerOptions, per?.providerOptions) as never,
        onError: () => {},
      });
      const reasoning = new Map<string, { text: string; meta?: ProviderMetadata }>();
      let textMeta: ProviderMetadata | undefined;
      for await (const p of result.fullStream) {
        if (p.type === 'text-delta') {
          textMeta = merge(textMeta, p.providerMetadata);
          yield { type: 'text', text: p.text };
        } else if (p.type === 'text-start' || p.type === 'text-end') textMeta = merge(textMeta, p.providerMetadata);
        else if (p.type === 'reasoning-start' || p.type === 'reasoning-delta') {
          const r = reasoning.get(p.id) ?? { text: '' };
          if (p.type === 'reasoning-delta') r.text += p.text;
          r.meta = merge(r.meta, p.providerMetadata);
          reasoning.set(p.id, r);
        } else if (p.type === 'reasoning-end') {
          const r = reasoning.get(p.id) ?? { text: '' };
          reasoning.delete(p.id);
          const meta = merge(r.meta, p.providerMetadata);
          yield { type: 'reasoning', text: r.text, ...(meta ? { meta } : {}) };
        } else if (p.type === 'tool-call') {
          const meta = merge(undefined, p.providerMetadata);
          const isObject = !!p.input && typeof p.input === 'object' && !Array.isArray(p.input);
          yield { type: 'tool_call', id: p.toolCallId, name: p.toolName, args: (isObject ? p.input : {}) as Record<string, unknown>, ...(isObject || p.input === undefined ? {} : { sent: p.input }), ...(meta ? { meta } : {}) };
        } else if (p.type === 'finish-step') {
          const u = p.usage;
          yield {
            type: 'usage',
            inputTokens: u.inputTokens ?? 0,
            outputTokens: u.outputTokens ?? 0,
            cacheReadTokens: u.inputTokenDetails?.cacheReadTokens ?? 0,
            cacheWriteTokens: u.inputTokenDetails?.cacheWriteTokens ?? 0,
            reasoningTokens: u.outputTokenDetails?.reasoningTokens ?? 0,
          };
        } else if (p.type === 'finish') {
          if (textMeta) yield { type: 'text_meta', meta: textMeta };
          yield { type: 'finish', reason: p.finishReason };
        } else if (p.type === 'error') {
          failed = true;
          yield { type: 'error', message: errorText(p.error, RetryError) };
        } else if (p.type === 'abort') yield { type: 'finish', reason: 'aborted' };
      }
    } catch (err) {
      if (!failed) yield { type: 'error', message: errorText(err, RetryError) };
    }
  };
}
