import { z } from 'zod';
import type { MethodTable } from '../table';
import { AgentEvent } from './agent';

/** One step of a logged session as a view replays it: the user's messages and every agent event, in order. */
export const SessionReplayItem = z.discriminatedUnion('type', [
  z.object({ type: z.literal('user'), at: z.number(), text: z.string() }),
  z.object({ type: z.literal('event'), event: AgentEvent }),
]);
export type SessionReplayItem = z.infer<typeof SessionReplayItem>;

/** A logged session as the sessions list shows it before it is opened. */
export const SessionSummary = z.object({
  sessionId: z.string(),
  project: z.string().optional(),
  /** The first line of its first user message (a chat's task; a workflow step's prompt heading). */
  task: z.string().optional(),
  startedAt: z.number(),
  modified: z.number(),
});
export type SessionSummary = z.infer<typeof SessionSummary>;

export const sessionsMethods = {
  /** The logged sessions, newest first (of one project when given): every chat stays listed after a reload. */
  'sessions.list': {
    params: z.object({ project: z.string().min(1).max(4096).optional(), limit: z.number().int().min(1).max(500).default(100) }).strict(),
    result: z.object({ sessions: z.array(SessionSummary) }),
  },
  /** Replays a session from its log (ERASMUS_HOME/sessions/<id>.jsonl): for a view that was not open while it ran. */
  'sessions.replay': {
    params: z.object({ sessionId: z.string().regex(/^[A-Za-z0-9._-]{1,128}$/, 'a session id is 1-128 characters of A-Z a-z 0-9 . _ -') }).strict(),
    result: z.object({ items: z.array(SessionReplayItem), warnings: z.array(z.string()) }),
  },
} satisfies MethodTable;
