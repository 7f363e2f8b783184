import type { EventId, EventStore, StreamId } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

interface Stored {
  id: EventId;
  streamId: StreamId;
  message: JSONRPCMessage;
  at: number;
}

/**
 * One HTTP session's SSE events, kept so a client that lost its stream and reconnects with
 * `Last-Event-ID` gets what it missed (the SDK's EventStore). Bounded in count and age: a cursor
 * older than what is kept is refused (400 from the transport) rather than replayed with a hole.
 */
export class MemoryEventStore implements EventStore {
  private readonly events: Stored[] = [];
  private readonly byId = new Map<EventId, Stored>();
  private seq = 0;

  constructor(
    private readonly maxEvents = 1000,
    private readonly maxAgeMs = 10 * 60_000,
    private readonly now: () => number = Date.now,
  ) {}

  async storeEvent(streamId: StreamId, message: JSONRPCMessage): Promise<EventId> {
    const stored: Stored = { id: `${++this.seq}-${streamId}`, streamId, message, at: this.now() };
    this.events.push(stored);
    this.byId.set(stored.id, stored);
    this.trim();
    return stored.id;
  }

  async getStreamIdForEventId(eventId: EventId): Promise<StreamId | undefined> {
    this.trim();
    return this.byId.get(eventId)?.streamId;
  }

  async replayEventsAfter(lastEventId: EventId, { send }: { send: (eventId: EventId, message: JSONRPCMessage) => Promise<void> }): Promise<StreamId> {
    this.trim();
    const last = this.byId.get(lastEventId);
    if (!last) throw new Error(`event ${lastEventId} is not kept (too old, or from another session)`);
    const from = this.events.indexOf(last);
    // Priming events (empty messages) only carry a cursor: nothing to replay.
    for (const e of this.events.slice(from + 1)) if (e.streamId === last.streamId && Object.keys(e.message).length > 0) await send(e.id, e.message);
    return last.streamId;
  }

  /** How many events are kept (for tests and diagnostics). */
  get size(): number {
    return this.events.length;
  }

  private trim(): void {
    const oldest = this.now() - this.maxAgeMs;
    let drop = 0;
    while (drop < this.events.length && (this.events.length - drop > this.maxEvents || this.events[drop]!.at < oldest)) drop++;
    for (const e of this.events.splice(0, drop)) this.byId.delete(e.id);
  }
}
