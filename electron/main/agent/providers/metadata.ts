import type { ChatMessage, ProviderMetadata, ReasoningPart } from '../../../contract/index';
import type { StreamPart } from './types';

type AssistantExtras = Pick<Extract<ChatMessage, { role: 'assistant' }>, 'reasoning' | 'textMeta'>;

/**
 * Gathers, over one streamed turn, what the provider attached to its answer — reasoning blocks with
 * their signatures, the text part's metadata, each tool call's metadata — so the assistant message
 * written to the session log carries it and the next request sends it back.
 */
export function collectMeta() {
  const reasoning: ReasoningPart[] = [];
  const calls = new Map<string, ProviderMetadata>();
  let textMeta: ProviderMetadata | undefined;
  return {
    add(p: Extract<StreamPart, { type: 'reasoning' | 'text_meta' | 'tool_call' }>): void {
      if (p.type === 'reasoning') reasoning.push(p.meta ? { text: p.text, meta: p.meta } : { text: p.text });
      else if (p.type === 'text_meta') textMeta = p.meta;
      else if (p.meta) calls.set(p.id, p.meta);
    },
    ofCall(id: string): { meta?: ProviderMetadata } {
      const m = calls.get(id);
      return m ? { meta: m } : {};
    },
    message(): AssistantExtras {
      return { ...(reasoning.length ? { reasoning } : {}), ...(textMeta ? { textMeta } : {}) };
    },
  };
}
