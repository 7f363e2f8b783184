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

const TerminalDataHead = events['terminal.data'].pick({ id: true, at: true });

/**
 * `terminal.data` checked as the contract says, without reading its `data` when that is decoded on
 * demand (a getter: a terminal's output, which the WebSocket sends as bytes, never needs its text):
 * id and offset go through the contract's schema, `data` must be a string or such a getter. The
 * payload is handed on as it is (not copied), so the text stays undecoded.
 */
function checkTerminalData(payload: unknown): { success: true; data: unknown } | { success: false; error: { message: string } } {
  const head = TerminalDataHead.safeParse(payload);
  if (!head.success) return head;
  const data = Object.getOwnPropertyDescriptor(payload, 'data');
  if (!data?.get && typeof data?.value !== 'string') return { success: false, error: { message: 'data: expected a string' } };
  return { success: true, data: payload };
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
    // Terminal output, the bulk of all events, gets a check of its own (see checkTerminalData).
    const parsed = event === 'terminal.data' && !redacting ? checkTerminalData(payload) : events[event].safeParse(redacting ? this.redact!(payload) : payload);
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
