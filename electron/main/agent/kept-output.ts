import type { AgentTool, ToolCallResult } from './tools';

/**
 * Tool results too long for the context window: the model sees the first lines that fit, the whole
 * output is kept (ERASMUS_HOME/outputs/<session>-<call>.txt), and the built-in `read_output` tool pages
 * through it by lines. The tool joins the offered tools when the first result of a session is cut.
 */
export const READ_OUTPUT = 'read_output';
export const DEFAULT_PAGE_LINES = 200;

export const readOutputSchema = {
  type: 'object',
  properties: {
    name: { type: 'string', description: 'the kept output, as named in the note under a cut tool result' },
    offset: { type: 'integer', minimum: 1, description: 'the first line to read (1-based; default 1)' },
    limit: { type: 'integer', minimum: 1, description: `how many lines to read (default ${DEFAULT_PAGE_LINES})` },
  },
  required: ['name'],
  additionalProperties: false,
} as const;

export const readOutputTool: AgentTool = {
  name: READ_OUTPUT,
  server: 'erasmus',
  tool: READ_OUTPUT,
  toolset: 'erasmus',
  description: 'Read lines of a tool result that was cut to fit the context window (the whole output is kept under the name its note gives).',
  inputSchema: readOutputSchema as unknown as Record<string, unknown>,
  annotations: { readOnlyHint: true },
};

/** Words of every note under a cut-and-kept result (a resumed session finds its kept outputs by them). */
export const KEPT_NOTE = `with the ${READ_OUTPUT} tool: name "`;

/** A kept output's name: what `keep` returned, never a path. */
export const KEPT_NAME = /^[A-Za-z0-9_-]+\.txt$/;

function splitLines(text: string): string[] {
  const lines = text.split('\n');
  if (lines.length > 1 && lines.at(-1) === '') lines.pop();
  return lines;
}

/** Whole lines from `first` (0-based) while they fit in `max` characters; a single longer line is cut. */
function fit(lines: string[], first: number, count: number, max: number): { text: string; next: number; lineCut: boolean } {
  let text = '';
  let i = first;
  const end = Math.min(lines.length, first + count);
  for (; i < end; i++) {
    const add = lines[i]! + '\n';
    if (text.length + add.length > max) break;
    text += add;
  }
  if (i === first && i < end) return { text: lines[i]!.slice(0, max) + '\n', next: i + 1, lineCut: true };
  return { text, next: i, lineCut: false };
}

/** What the model sees of a result longer than `max` characters, with how to read the rest. */
export function cutResult(text: string, max: number, keptName?: string): string {
  if (text.length <= max) return text;
  // Room for the note; whole lines, so a later page starts where this one ends.
  const lines = splitLines(text);
  const shown = fit(lines, 0, lines.length, Math.max(1, max - 400));
  const rest = text.length - shown.text.length;
  if (!keptName) return `${shown.text}… [${rest} more characters cut to fit the context window. Call again with narrower arguments to see a specific part.]`;
  const where = shown.lineCut
    ? `line 1 alone is longer than fits (its first ${shown.text.length - 1} characters are shown)`
    : `lines 1–${shown.next} of ${lines.length} are shown`;
  return (
    `${shown.text}… [Cut to fit the context window: ${where}. The whole output (${text.length} characters, ${lines.length} lines) is kept as ${keptName}. ` +
    `Read the rest ${KEPT_NOTE}${keptName}", offset ${shown.next + 1} (the first line to read), limit (how many lines, default ${DEFAULT_PAGE_LINES}).]`
  );
}

/** One page of a kept output for the `read_output` tool. */
export function readPage(read: (name: string) => string | undefined, args: Record<string, unknown>, max: number): ToolCallResult {
  const name = typeof args.name === 'string' ? args.name.trim() : '';
  if (!KEPT_NAME.test(name)) return { content: `${READ_OUTPUT} needs "name": the kept output's name exactly as the note under the cut result gives it (e.g. "abc-call_1.txt"), not a path.`, isError: true };
  const bad = (k: 'offset' | 'limit') => args[k] !== undefined && !(Number.isInteger(args[k]) && (args[k] as number) >= 1);
  if (bad('offset') || bad('limit')) return { content: `${READ_OUTPUT}: offset and limit are whole numbers from 1 (offset is the first line to read, limit how many lines).`, isError: true };
  const text = read(name);
  if (text === undefined) return { content: `No kept output named ${name}. Use the name from the note under a cut tool result of this session.`, isError: true };
  const lines = splitLines(text);
  const offset = (args.offset as number | undefined) ?? 1;
  const limit = (args.limit as number | undefined) ?? DEFAULT_PAGE_LINES;
  if (offset > lines.length) return { content: `${name} has ${lines.length} lines; offset ${offset} is past its end.`, isError: true };
  const page = fit(lines, offset - 1, limit, Math.max(1, max - 300));
  const last = page.next; // 1-based number of the last line shown
  const head = page.lineCut ? `[${name}: line ${offset} of ${lines.length}, cut to its first ${page.text.length - 1} characters.` : `[${name}: lines ${offset}–${last} of ${lines.length}.`;
  const more = last < lines.length ? ` Next: offset ${last + 1}.]` : ' End of output.]';
  return { content: `${head}${more}\n${page.text}`, isError: false };
}
