/**
 * A pipe carries contract messages as text, one message per call. Electron IPC, the WebSocket and
 * the in-memory pair used by tests all implement it (the shape of the MCP SDK's Transport).
 */
export interface Pipe {
  send(message: string): void;
  /**
   * A message as its UTF-8 bytes, for a pipe that can carry bytes (the WebSocket's binary frames):
   * the receiving side decodes it and reads it as the same text. Terminal output goes this way when
   * its bytes are at hand, so it is not encoded again (see frames.ts).
   */
  sendBytes?(message: Uint8Array): void;
  /** Subscribe to incoming messages; returns an unsubscribe function. */
  onMessage(listener: (message: string) => void): () => void;
  onClose(listener: () => void): () => void;
  close(): void;
}

/** Two linked pipes: what one sends, the other receives (asynchronously, like a real pipe). */
export function createPipePair(): [Pipe, Pipe] {
  const make = () => {
    const messageListeners = new Set<(m: string) => void>();
    const closeListeners = new Set<() => void>();
    let closed = false;
    return { messageListeners, closeListeners, get closed() { return closed; }, set closed(v: boolean) { closed = v; } };
  };
  const a = make();
  const b = make();
  const side = (self: ReturnType<typeof make>, other: ReturnType<typeof make>): Pipe => ({
    send(message) {
      if (self.closed) throw new Error('pipe is closed');
      queueMicrotask(() => {
        if (!other.closed) for (const l of other.messageListeners) l(message);
      });
    },
    onMessage(listener) {
      self.messageListeners.add(listener);
      return () => self.messageListeners.delete(listener);
    },
    onClose(listener) {
      self.closeListeners.add(listener);
      return () => self.closeListeners.delete(listener);
    },
    close() {
      if (self.closed) return;
      self.closed = true;
      other.closed = true;
      for (const l of [...self.closeListeners, ...other.closeListeners]) l();
    },
  });
  return [side(a, b), side(b, a)];
}
