import type { EventName, EventPayload } from '../../contract/index';

/** The part of the event bus the workflow uses (the Core passes `bus.emit`). */
export type WorkflowEmit = <E extends Extract<EventName, `workflow.${string}` | 'app.notify'>>(event: E, payload: EventPayload<E>) => void;
