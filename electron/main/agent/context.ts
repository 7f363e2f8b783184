import type { ChatMessage } from '../../contract/index';

/** A message of the context with the id of its session-log entry. */
export interface ContextEntry {
  id: string;
  message: ChatMessage;
}

const cache = new WeakMap<ChatMessage, number>();

/** What one image costs in the context, about: Anthropic counts ≈ 1,600 tokens for a large one, OpenAI up to ≈ 1,100 at high detail. */
export const IMAGE_TOKENS = 1_600;

/** Token estimate of one message (≈ 4 characters a token, plus per-message overhead); cached per message object. */
export function messageTokens(m: ChatMessage): number {
  let n = cache.get(m);
  if (n !== undefined) return n;
  let chars = m.content.length;
  if (m.role === 'assistant' && m.toolCalls) for (const c of m.toolCalls) chars += c.name.length + JSON.stringify(c.args).length;
  n = Math.ceil(chars / 4) + 4 + ('images' in m && m.images ? m.images.length * IMAGE_TOKENS : 0);
  cache.set(m, n);
  return n;
}

/**
 * The longest tool result that enters the context, in characters: a fifth of the model's window
 * (≈ 4 characters a token), so an 8k local model gets ~6,500 characters and a 200k model 100,000 at most.
 */
export function resultCapChars(contextWindow: number): number {
  return Math.max(4_000, Math.min(100_000, Math.floor(contextWindow * 4 * 0.2)));
}

export function contextTokens(entries: ContextEntry[]): number {
  let n = 0;
  for (const e of entries) n += messageTokens(e.message);
  return n;
}

export interface ArchivePlan {
  /** Entries that leave the context (oldest first), including an earlier marker if any. */
  remove: ContextEntry[];
  /** Where the marker goes (index in the context). */
  at: number;
  /** Messages archived so far, counting earlier archiving. */
  totalArchived: number;
}

export const MARKER_PREFIX = '[Context note]';

/**
 * Picks the oldest messages to move out so the context fits `budget` tokens. Never the system
 * prompt, the task (the first user message) or the user's latest instruction (after a resume, the
 * new one); an assistant message leaves with its tool results (native) or the results message that
 * follows it (xml); the newest unit — results the model has not answered yet — always stays.
 * Returns undefined when the context already fits.
 */
export function planArchive(entries: ContextEntry[], budget: number, extraTokens = 0): ArchivePlan | undefined {
  let total = contextTokens(entries) + extraTokens;
  if (total <= budget) return undefined;
  let start = 0;
  while (start < entries.length && entries[start]!.message.role === 'system') start++;
  if (start < entries.length && entries[start]!.message.role === 'user') start++;
  const remove: ContextEntry[] = [];
  let earlier = 0;
  let i = start;
  // An earlier marker is folded into the new one.
  const first = entries[i]?.message;
  if (first && first.role === 'user' && first.content.startsWith(MARKER_PREFIX)) {
    earlier = Number(/(\d+) earlier messages/.exec(first.content)?.[1] ?? 0);
    total -= messageTokens(first);
    remove.push(entries[i]!);
    i++;
  }
  const markerCost = 60;
  const current = latestInstruction(entries);
  while (i < entries.length && total + markerCost > budget) {
    if (entries[i] === current) {
      i++;
      continue;
    }
    let j = i + 1;
    if (entries[i]!.message.role === 'assistant') {
      while (j < entries.length && entries[j]!.message.role === 'tool') j++;
      if (j === i + 1 && isResults(entries[j]) && entries[j] !== current) j++;
    }
    if (j >= entries.length) break; // keep the newest unit
    for (let k = i; k < j; k++) {
      total -= messageTokens(entries[k]!.message);
      remove.push(entries[k]!);
    }
    i = j;
  }
  const newlyArchived = remove.filter((e) => !(e.message.role === 'user' && e.message.content.startsWith(MARKER_PREFIX))).length;
  if (newlyArchived === 0) return undefined;
  return { remove, at: start, totalArchived: earlier + newlyArchived };
}

/** The latest message the user wrote, if it is not the task itself (that one is protected anyway). */
function latestInstruction(entries: ContextEntry[]): ContextEntry | undefined {
  for (let k = entries.length - 1; k >= 0; k--) {
    const m = entries[k]!.message;
    if (m.role === 'user' && m.instruction) return entries[k];
  }
  return undefined;
}

/** An xml-mode results message: a user message that neither the user wrote nor archiving left. */
const isResults = (e: ContextEntry | undefined) => !!e && e.message.role === 'user' && !e.message.instruction && !e.message.content.startsWith(MARKER_PREFIX);

export function markerText(totalArchived: number, archivePath: string, summary?: string): string {
  return `${MARKER_PREFIX} ${totalArchived} earlier messages of this session were moved out of the context window to ${archivePath} (nothing was deleted).${summary ? `\nSummary of them:\n${summary}` : ''}`;
}
