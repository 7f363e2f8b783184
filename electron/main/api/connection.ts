import type { Pipe } from '../../contract/index';
import type { CallContext, Dispatcher } from './dispatcher';
import type { EventBus } from './events';

/**
 * Binds one pipe (an IPC channel, a WebSocket) to the core: requests go to the dispatcher,
 * responses and every event go back. Closing the pipe ends the binding.
 */
export function bindPipe(pipe: Pipe, dispatcher: Dispatcher, bus: EventBus, ctx: CallContext): () => void {
  let open = true;
  const send = (text: string) => {
    if (!open) return;
    try {
      pipe.send(text);
    } catch {
      open = false;
    }
  };
  const offMessage = pipe.onMessage((text) => {
    void dispatcher.handleText(text, ctx).then((reply) => {
      if (reply !== undefined) send(reply);
    });
  });
  const offEvents = bus.on((event, payload) => {
    send(JSON.stringify({ jsonrpc: '2.0', method: event, params: payload }));
  });
  const dispose = () => {
    open = false;
    offMessage();
    offEvents();
    offClose();
  };
  const offClose = pipe.onClose(dispose);
  return dispose;
}
