import type { CreateMessageRequest, CreateMessageResult } from '@modelcontextprotocol/sdk/types.js';
import type { ChatMessage, ImagePart } from '../../contract/index';
import type { ApprovalRequester } from './approvals';
import type { ProviderHandle } from './providers/types';

/**
 * Answers an MCP server's sampling/createMessage with the configured model, after the user's
 * approval (kind 'sampling'). Text and the user's images (for a model that takes them); other content
 * is named in brackets.
 */
export function samplingHandler(provider: ProviderHandle, approvals: ApprovalRequester, nextId: () => string) {
  return async (req: { server: string; params: CreateMessageRequest['params'] }, signal: AbortSignal): Promise<CreateMessageResult> => {
    const p = req.params;
    const decision = await approvals({ requestId: nextId(), kind: 'sampling', name: `sampling from ${req.server}`, args: { messages: p.messages.length, maxTokens: p.maxTokens, systemPrompt: p.systemPrompt ?? '' }, reasons: [`the MCP server "${req.server}" asks the model for a completion`] }, signal);
    if (decision === 'deny') throw new Error(`the user declined the sampling request from "${req.server}"`);
    const messages: ChatMessage[] = [];
    if (p.systemPrompt) messages.push({ role: 'system', content: p.systemPrompt });
    for (const m of p.messages) {
      const parts = (Array.isArray(m.content) ? m.content : [m.content]) as { type: string; text?: string; data?: string; mimeType?: string }[];
      const images: ImagePart[] = [];
      const text = parts
        .map((c) => {
          if (c.type === 'text') return c.text ?? '';
          // Images from the server reach a model that takes them (a user turn's image parts); the text names each one.
          if (c.type === 'image' && m.role === 'user' && c.data && c.mimeType) {
            images.push({ mediaType: c.mimeType, data: c.data });
            return `[image ${images.length}: ${c.mimeType}]`;
          }
          return `[${c.type}${c.mimeType ? ` ${c.mimeType}` : ''} content, not passed on]`;
        })
        .join('\n');
      messages.push(m.role === 'user' ? { role: 'user', content: text, ...(images.length ? { images } : {}) } : { role: 'assistant', content: text });
    }
    let text = '';
    for await (const part of provider.stream({ messages, signal, maxOutputTokens: p.maxTokens })) {
      if (part.type === 'text') text += part.text;
      else if (part.type === 'error') throw new Error(`sampling failed: ${part.message}`);
    }
    return { role: 'assistant', content: { type: 'text', text }, model: provider.model, stopReason: 'endTurn' };
  };
}
