import type { Resource, ResourceTemplate } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { PromptLibrary, RatedEntry } from './prompt-library';
import { defineTool, errorResult, textResult, type ToolSpec } from './registry';

const INDEX_URI = 'erasmus://prompt-library';
const ENTRY_URI = /^erasmus:\/\/prompt-library\/([A-Za-z0-9._-]{1,128})$/;

function summary(e: RatedEntry): string {
  const args = Object.entries(e.arguments).map(([k, v]) => `${k}=${JSON.stringify(v.length > 60 ? v.slice(0, 57) + '...' : v)}`).join(' ');
  return `${e.id}  ${e.prompt_name}  ${e.model}  ${e.usage.total_tokens} tokens${e.rating ? `  rated ${e.rating}/5` : ''}  ${args}`;
}

/** prompt_library_search and prompt_library_rate: find earlier prompt/call runs to reuse, mark the good ones. */
export function libraryTools(library: PromptLibrary): ToolSpec[] {
  return [search(library), rate(library)];
}

function rate(library: PromptLibrary): ToolSpec {
  return defineTool({
    name: 'prompt_library_rate',
    description: 'Rate a prompt-library entry from 1 (useless) to 5 (excellent), with an optional note, so good prompts are found first (prompt_library_search with best_first or min_rating) and rerun (prompt/call with library_id).',
    input: z.object({ id: z.string().regex(/^[A-Za-z0-9._-]{1,128}$/), rating: z.number().int().min(1).max(5), note: z.string().max(2000).optional() }).strict(),
    async run(a) {
      try {
        const e = await library.rate(a.id, a.rating, a.note);
        return textResult(`rated ${e.id} ${a.rating}/5`, { id: e.id, rating: a.rating, ...(a.note ? { note: a.note } : {}) });
      } catch (err) {
        return errorResult((err as Error).message);
      }
    },
  });
}

function search(library: PromptLibrary): ToolSpec {
  return defineTool({
    name: 'prompt_library_search',
    description: 'Search the prompt library: every prompt/call Erasmus ran (filled prompt, arguments, answer, model, token usage), newest first. Read one in full as the resource erasmus://prompt-library/<id>.',
    input: z
      .object({
        query: z.string().max(1000).optional().describe('words that must all appear (prompt name, arguments, prompt or answer)'),
        prompt_name: z.string().optional(),
        min_rating: z.number().int().min(1).max(5).optional(),
        best_first: z.boolean().default(false).describe('best rated first (else newest first)'),
        limit: z.number().int().min(1).max(200).default(20),
      })
      .strict(),
    annotations: { readOnlyHint: true },
    async run(a) {
      const hits = await library.search(a);
      const entries = hits.map((e) => ({ id: e.id, at: e.at, prompt_name: e.prompt_name, arguments: e.arguments, model: e.model, usage: e.usage, ...(e.rating ? { rating: e.rating } : {}), ...(e.note ? { note: e.note } : {}), uri: `${INDEX_URI}/${e.id}`, content: e.content }));
      return textResult(hits.length ? hits.map(summary).join('\n') : 'no prompt-library entries match', { entries });
    },
  });
}

/** The library as resources: an index, and each entry by id. */
export const libraryResources = {
  list(): Resource[] {
    return [{ uri: INDEX_URI, name: 'prompt-library', title: 'Prompt library', description: 'Every prompt/call run, newest first (id, prompt, model, tokens)', mimeType: 'text/plain' }];
  },
  templates(): ResourceTemplate[] {
    return [{ uriTemplate: `${INDEX_URI}/{id}`, name: 'prompt-library-entry', description: 'One prompt/call run in full (JSON)', mimeType: 'application/json' }];
  },
  async read(library: PromptLibrary, uri: string): Promise<{ uri: string; mimeType: string; text: string } | undefined> {
    if (uri === INDEX_URI) return { uri, mimeType: 'text/plain', text: (await library.all()).map(summary).join('\n') };
    const m = ENTRY_URI.exec(uri);
    if (!m) return undefined;
    const e = await library.get(m[1]!);
    if (!e) return undefined;
    return { uri, mimeType: 'application/json', text: JSON.stringify(e, null, 2) };
  },
};
