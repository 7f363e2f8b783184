import { z } from 'zod';
import { AgentEvent, ChatMessage } from '../../contract/index';

/** Format version of session logs; readers migrate older versions (none yet). */
export const SESSION_FORMAT_VERSION = 1;

const common = { v: z.literal(SESSION_FORMAT_VERSION), id: z.string(), at: z.number() };

/** One line of `ERASMUS_HOME/sessions/<id>.jsonl`: typed entries with ids and a format version. */
export const SessionEntry = z.discriminatedUnion('type', [
  z.object({
    ...common,
    type: z.literal('header'),
    sessionId: z.string(),
    provider: z.string(),
    model: z.string(),
    toolMode: z.enum(['native', 'xml']),
    project: z.string().optional(),
    /** Session this one was resumed from (its log path), if any. */
    resumedFrom: z.string().optional(),
  }),
  /** A message committed to the context (system, user, assistant with its tool calls, tool result). */
  z.object({ ...common, type: z.literal('message'), message: ChatMessage }),
  /** Messages moved out of the context window: their ids, and the marker left in their place. */
  z.object({ ...common, type: z.literal('archived'), ids: z.array(z.string()), marker: ChatMessage, archivePath: z.string() }),
  /** A toolset the model opened (so a resumed session offers the same tools). */
  z.object({ ...common, type: z.literal('toolset'), name: z.string() }),
  z.object({ ...common, type: z.literal('event'), event: AgentEvent }),
]);
export type SessionEntry = z.infer<typeof SessionEntry>;
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
export type NewSessionEntry = DistributiveOmit<SessionEntry, 'v' | 'id' | 'at'>;
