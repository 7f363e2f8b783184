import type { Resource, ResourceTemplate } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { LibraryEntry, PromptLibrary } from './prompt-library';
import { defineTool, textResult, type ToolSpec } from './registry';

const INDEX_URI = 'erasmus://prompt-library';
const ENTRY_URI = /^erasmus:\/\/prompt-library\/([A-Za-z0-9._-]{1,128})$/;

function summary(e: LibraryEntry): string {
  const args = Object.entries(e.arguments).map(([k, v]) => `${k}=${JSON.stringify(v.length > 60 ? v.slice(0, 57) + '...' : v)}`).join(' ');
  return `${e.id}  ${e.prompt_name}  ${e.model}  ${e.usage.total_tokens} tokens  ${args}`;
}

/** prompt_library_search: find earlier prompt/call runs (prompt, arguments, answer, usage) to reuse. */
export function libraryTool(library: PromptLibrary): ToolSpec {
  return defineTool({
    name: 'prompt_library_search',
    description: 'Search the prompt library: every prompt/call Erasmus ran (filled prompt, arguments, answer, model, token usage), newest first. Read one in full as the resource erasmus://prompt-library/<id>.',
    input: z
      .object({
        query: z.string().max(1000).optional().describe('words that must all appear (prompt name, arguments, prompt or answer)'),
        prompt_name: z.string().optional(),
        limit: z.number().int().min(1).max(200).default(20),
      })
      .strict(),
    annotations: { readOnlyHint: true },
    async run(a) {
      const hits = await library.search(a);
      const entries = hits.map((e) => ({ id: e.id, at: e.at, prompt_name: e.prompt_name, arguments: e.arguments, model: e.model, usage: e.usage, uri: `${INDEX_URI}/${e.id}`, content: e.content }));
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
