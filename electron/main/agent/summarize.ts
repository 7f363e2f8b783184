import type { ChatMessage } from '../../contract/index';
import type { ProviderHandle } from './providers/types';

/** A summary of archived messages made by the model itself (no tools). */
export function summarizer(provider: ProviderHandle) {
  return async (messages: ChatMessage[], signal: AbortSignal): Promise<string | undefined> => {
    const transcript = messages.map((m) => `${m.role}: ${m.content}`.slice(0, 4000)).join('\n\n');
    let text = '';
    for await (const p of provider.stream({
      messages: [
        { role: 'system', content: 'Summarize this part of an agent session in at most 10 short bullet points: decisions, files changed, facts learned, open questions.' },
        { role: 'user', content: transcript },
      ],
      signal,
      maxOutputTokens: 600,
    })) {
      if (p.type === 'text') text += p.text;
      else if (p.type === 'error') throw new Error(p.message);
    }
    return text.trim() || undefined;
  };
}
