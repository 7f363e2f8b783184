import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';

/**
 * Re-wraps a connected transport's `onmessage` so that messages arriving together are delivered one
 * microtask apart (see GroupStdioTransport.deliver: the SDK runs notification handlers a microtask
 * late and responses at once, so a progress notification right before its response would be lost).
 */
export function orderedDelivery(transport: Transport): void {
  const inner = transport.onmessage;
  if (!inner) return;
  const queue: Parameters<typeof inner>[] = [];
  let delivering = false;
  const deliver = async () => {
    delivering = true;
    while (queue.length) {
      inner(...queue.shift()!);
      if (queue.length) await Promise.resolve();
    }
    delivering = false;
  };
  transport.onmessage = (...args) => {
    queue.push(args);
    if (!delivering) void deliver();
  };
}
