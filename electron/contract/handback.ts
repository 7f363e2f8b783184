/**
 * The lines that frame a context document handed back at the end of a workflow step's final answer
 * (the agent executor asks for them; the renderer shows the framed part apart from the answer).
 * Marker lines, not tags: in xml tool mode a tag reads as a tool call.
 */
export const DOC_BEGIN = '=== CONTEXT DOCUMENT ===';
export const DOC_END = '=== END CONTEXT DOCUMENT ===';

const MARKED = new RegExp(`(?:^|\\n)${DOC_BEGIN}[ \\t]*\\n([\\s\\S]*?)\\n?${DOC_END}\\s*$`);
const TAGGED = /<context_document>\n?([\s\S]*?)\n?<\/context_document>\s*$/;
/** The opening marker line without its closing one: the document runs to the end of the answer (a model that forgot the last line). */
const OPENED = new RegExp(`(?:^|\\n)${DOC_BEGIN}[ \\t]*\\n([\\s\\S]*\\S[\\s\\S]*)$`);

/** Splits a final answer into the answer and the context document update at its end, if any (marker lines, or the older tags). */
export function splitContextDoc(answer: string): { output: string; contextDoc?: string } {
  const m = MARKED.exec(answer) ?? TAGGED.exec(answer) ?? (answer.includes(DOC_END) ? null : OPENED.exec(answer));
  if (!m) return { output: answer };
  return { output: answer.slice(0, m.index).trim(), contextDoc: m[1]!.replace(/\s+$/, '') + '\n' };
}

const WHOLE_FENCE = /^(`{3,}|~{3,})(?:markdown|md)?[ \t]*\n([\s\S]*?)\n?\1[ \t]*$/i;

/** A marker line the answer did not need (a whole-document answer framed as other steps frame theirs): never the document's. */
const STRAY_MARKERS = new RegExp(`^\\s*(?:${DOC_BEGIN}[ \\t]*\\n)?([\\s\\S]*?)(?:\\n${DOC_END})?\\s*$`);

/**
 * A document handed back inside one markdown fence (as the prompt showed it) without the fence, and without marker
 * lines around it (a model that framed a whole-document answer as the other steps frame theirs); any other text as it is.
 */
export function unfenceDocument(text: string): string {
  const framed = STRAY_MARKERS.exec(text);
  const bare = framed && framed[1] !== text.trim() && (text.includes(DOC_BEGIN) || text.includes(DOC_END)) ? `${framed[1]!.trimEnd()}\n` : text;
  const m = WHOLE_FENCE.exec(bare.trim());
  return m ? `${m[2]!.trimEnd()}\n` : bare;
}
