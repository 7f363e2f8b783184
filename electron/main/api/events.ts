import { events, type EventName, type EventPayload } from '../../contract/index';

export interface EmitOptions {
  /** The payload's strings have already been through the core's redactor. */
  masked?: boolean;
  /**
   * `terminal.data` only: the output's UTF-8 bytes, exactly `data` encoded (masked as `data` is), so a
   * pipe that carries bytes sends them without encoding the text again.
   */
  bytes?: Uint8Array;
  /**
   * How many bytes before `bytes`, in its buffer, are free for a frame's header (FRAME_HEADROOM when
   * the emitter kept them): a pipe then sends the frame without copying the output.
   */
  headroom?: number;
}

export type EventListener = <E extends EventName>(event: E, payload: EventPayload<E>) => void;

/**
 * The core's event bus, one per core instance. Payloads are validated against the contract when
 * emitted, so a face never receives an event the contract does not describe.
 */
export class EventBus {
  private readonly listeners = new Set<(event: EventName, payload: unknown, options?: EmitOptions) => void>();

  /** `redact` masks secrets in every payload before any listener (face, log, CLI) sees it. */
  constructor(private readonly redact?: <T>(value: T) => T) {}

  /**
   * `masked`: the emitter has already passed the payload's text through the core's redactor (a
   * terminal masks its output stream, catching secrets split across chunks), so it is not redacted
   * a second time: terminal output is the bulk of all events.
   */
  emit<E extends EventName>(event: E, payload: EventPayload<E>, options?: EmitOptions): void {
    const redacting = this.redact !== undefined && !options?.masked;
    const parsed = events[event].safeParse(redacting ? this.redact!(payload) : payload);
    if (!parsed.success) throw new Error(`event ${event} does not match the contract: ${parsed.error.message}`);
    // Bytes given beside a payload the bus masks here may no longer match it: they are dropped.
    const passed = redacting && options?.bytes ? { ...options, bytes: undefined, headroom: undefined } : options;
    for (const l of [...this.listeners]) {
      try {
        l(event, parsed.data, passed);
      } catch {
        // A failing listener must not break the others or the emitter.
      }
    }
  }

  on(listener: (event: EventName, payload: unknown, options?: EmitOptions) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Subscribe to one event by name. */
  onEvent<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void {
    return this.on((name, payload) => {
      if (name === event) listener(payload as EventPayload<E>);
    });
  }

  /** Resolves with the first payload of `event` that satisfies `predicate`. */
  waitFor<E extends EventName>(event: E, predicate: (p: EventPayload<E>) => boolean = () => true, timeoutMs = 30_000): Promise<EventPayload<E>> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        off();
        reject(new Error(`timed out after ${timeoutMs} ms waiting for ${event}`));
      }, timeoutMs);
      const off = this.onEvent(event, (p) => {
        if (!predicate(p)) return;
        clearTimeout(timer);
        off();
        resolve(p);
      });
    });
  }
}
