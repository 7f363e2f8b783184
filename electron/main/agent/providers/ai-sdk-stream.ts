import { jsonSchema, streamText, tool, type LanguageModel, type ModelMessage, type ToolSet } from 'ai';
import type { ChatMessage } from '../../../contract/index';
import type { StreamPart, StreamTurn, TurnRequest } from './types';

/** Our OpenAI-style messages as AI SDK model messages. */
export function toModelMessages(messages: ChatMessage[]): ModelMessage[] {
  const out: ModelMessage[] = [];
  for (const m of messages) {
    if (m.role === 'system' || m.role === 'user') out.push({ role: m.role, content: m.content });
    else if (m.role === 'assistant') {
      if (!m.toolCalls?.length) out.push({ role: 'assistant', content: m.content });
      else
        out.push({
          role: 'assistant',
          content: [...(m.content ? [{ type: 'text' as const, text: m.content }] : []), ...m.toolCalls.map((c) => ({ type: 'tool-call' as const, toolCallId: c.id, toolName: c.name, input: c.args }))],
        });
    } else {
      const part = { type: 'tool-result' as const, toolCallId: m.toolCallId, toolName: m.name, output: m.isError ? { type: 'error-text' as const, value: m.content } : { type: 'text' as const, value: m.content } };
      const prev = out[out.length - 1];
      if (prev && prev.role === 'tool') prev.content.push(part);
      else out.push({ role: 'tool', content: [part] });
    }
  }
  return out;
}

function errorText(err: unknown): string {
  if (err instanceof Error) {
    const body = (err as { responseBody?: unknown }).responseBody;
    return typeof body === 'string' && body ? `${err.message}: ${body.slice(0, 500)}` : err.message;
  }
  return typeof err === 'string' ? err : JSON.stringify(err);
}

/** One turn through the Vercel AI SDK's streamText; tools have no execute, so calls come back to the loop. */
export function aiSdkStream(model: LanguageModel): StreamTurn {
  return async function* (req: TurnRequest): AsyncIterable<StreamPart> {
    const tools: ToolSet | undefined = req.tools?.length
      ? Object.fromEntries(req.tools.map((t) => [t.name, tool({ description: t.description, inputSchema: jsonSchema(t.inputSchema as Parameters<typeof jsonSchema>[0]) })]))
      : undefined;
    let failed = false;
    try {
      const first = req.messages[0];
      const system = first?.role === 'system' ? first.content : undefined;
      const result = streamText({ model, system, messages: toModelMessages(system !== undefined ? req.messages.slice(1) : req.messages), tools, abortSignal: req.signal, maxOutputTokens: req.maxOutputTokens, maxRetries: 1, onError: () => {} });
      for await (const p of result.fullStream) {
        if (p.type === 'text-delta') yield { type: 'text', text: p.text };
        else if (p.type === 'tool-call') yield { type: 'tool_call', id: p.toolCallId, name: p.toolName, args: (p.input && typeof p.input === 'object' ? p.input : {}) as Record<string, unknown> };
        else if (p.type === 'finish-step') yield { type: 'usage', inputTokens: p.usage.inputTokens ?? 0, outputTokens: p.usage.outputTokens ?? 0 };
        else if (p.type === 'finish') yield { type: 'finish', reason: p.finishReason };
        else if (p.type === 'error') {
          failed = true;
          yield { type: 'error', message: errorText(p.error) };
        } else if (p.type === 'abort') yield { type: 'finish', reason: 'aborted' };
      }
    } catch (err) {
      if (!failed) yield { type: 'error', message: errorText(err) };
    }
  };
}
