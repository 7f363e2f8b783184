import { readFileSync } from 'node:fs';
import { SessionEntry } from './entries';
import type { ChatMessage } from '../../contract/index';

export interface ReadSessionResult {
  entries: SessionEntry[];
  warnings: string[];
}

/**
 * Reads a session log. A torn last line (a crash mid-write) is skipped with a warning; a bad line
 * elsewhere is an error naming its line number, since it means the file was damaged, not torn.
 */
export function readSessionLog(path: string): ReadSessionResult {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new Error(`cannot read session log ${path}: ${(err as Error).message}`);
  }
  const lines = text.split('\n');
  const endsClean = text.endsWith('\n');
  if (endsClean) lines.pop();
  const entries: SessionEntry[] = [];
  const warnings: string[] = [];
  lines.forEach((line, i) => {
    if (!line.trim()) return;
    const isLast = i === lines.length - 1;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch (err) {
      if (isLast && !endsClean) {
        warnings.push(`session log ${path}: skipped a torn last line (${line.length} bytes; the process stopped mid-write)`);
        return;
      }
      throw new Error(`session log ${path}, line ${i + 1}: not JSON (${(err as Error).message})`);
    }
    const r = SessionEntry.safeParse(parsed);
    if (!r.success) {
      if (isLast && !endsClean) {
        warnings.push(`session log ${path}: skipped a torn last line`);
        return;
      }
      throw new Error(`session log ${path}, line ${i + 1}: not a session entry (${r.error.issues.map((x) => `${x.path.join('.')}: ${x.message}`).join('; ')})`);
    }
    entries.push(r.data);
  });
  if (!entries.length || entries[0]!.type !== 'header') throw new Error(`session log ${path}: no header entry; is this an Erasmus session log?`);
  return { entries, warnings };
}

export interface RestoredContext {
  header: Extract<SessionEntry, { type: 'header' }>;
  /** The context as it stood at the last committed entry, with ids. */
  messages: { id: string; message: ChatMessage }[];
  openedToolsets: string[];
  warnings: string[];
  entryCount: number;
  /** The user's turns in the log (the task and each follow-up). */
  userTurns: number;
}

/**
 * Rebuilds the exact context of a session from its log: committed messages in order, archived
 * ranges replaced by their markers. Tool calls left without a result (killed mid-call) get a tool
 * message saying so, so every provider accepts the history.
 */
export function restoreContext(path: string): RestoredContext {
  const { entries, warnings } = readSessionLog(path);
  const header = entries[0] as Extract<SessionEntry, { type: 'header' }>;
  let messages: { id: string; message: ChatMessage }[] = [];
  const toolsets: string[] = [];
  for (const e of entries) {
    if (e.type === 'message') messages.push({ id: e.id, message: e.message });
    else if (e.type === 'toolset' && !toolsets.includes(e.name)) toolsets.push(e.name);
    else if (e.type === 'archived') {
      const gone = new Set(e.ids);
      const first = messages.findIndex((m) => gone.has(m.id));
      const kept = messages.filter((m) => !gone.has(m.id));
      if (first >= 0) kept.splice(first, 0, { id: e.id, message: e.marker });
      messages = kept;
    }
  }
  const userTurns = entries.filter((e) => e.type === 'message' && e.message.role === 'user' && e.message.instruction && !e.message.steered).length;
  return { header, messages: closeDanglingCalls(messages), openedToolsets: toolsets, warnings, entryCount: entries.length, userTurns };
}

function closeDanglingCalls(messages: { id: string; message: ChatMessage }[]): { id: string; message: ChatMessage }[] {
  const out: { id: string; message: ChatMessage }[] = [];
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!;
    out.push(m);
    if (m.message.role !== 'assistant' || !m.message.toolCalls?.length) continue;
    const answered = new Set<string>();
    for (let j = i + 1; j < messages.length && messages[j]!.message.role === 'tool'; j++) answered.add((messages[j]!.message as { toolCallId: string }).toolCallId);
    const missing = m.message.toolCalls.filter((c) => !answered.has(c.id));
    // Put the synthetic results after the real ones that follow this message.
    let k = i + 1;
    while (k < messages.length && messages[k]!.message.role === 'tool') out.push(messages[k++]!);
    for (const c of missing) out.push({ id: `${m.id}-${c.id}-interrupted`, message: { role: 'tool', toolCallId: c.id, name: c.name, content: 'The session stopped before this call finished; its result is unknown. Check its effects before repeating it.', isError: true } });
    i = k - 1;
  }
  return out;
}

/** The whole session as one JSON document (for export). */
export function exportSession(path: string): { format: string; version: number; header: RestoredContext['header']; entries: SessionEntry[]; messages: ChatMessage[]; warnings: string[] } {
  const { entries, warnings } = readSessionLog(path);
  const restored = restoreContext(path);
  return { format: 'erasmus-session', version: 1, header: restored.header, entries, messages: restored.messages.map((m) => m.message), warnings };
}
