import { z } from 'zod';
import { ProjectSummary } from './methods/project';

/**
 * Every event the core sends, as JSON-RPC notifications whose method is the event name.
 * Each part adds its own entries here.
 */
export const events = {
  /** A message for the user (status bar / toast / tray). */
  'app.notice': z.object({
    level: z.enum(['info', 'warning', 'error']),
    message: z.string(),
  }),
  /** Something finished that deserves a system notification (task, component or run completed). */
  'app.notify': z.object({ title: z.string(), body: z.string() }),
  /** A folder was opened (drop, dialog, CLI). */
  'project.opened': ProjectSummary,
};

export type Events = typeof events;
export type EventName = keyof Events;
export type EventPayload<E extends EventName> = z.output<Events[E]>;

export function isEventName(name: string): name is EventName {
  return Object.prototype.hasOwnProperty.call(events, name);
}
