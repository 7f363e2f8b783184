import { encodeTerminalData, MAX_JSON_DEPTH, nestsDeeperThan, terminalDataFrameBytes, type Pipe, type TerminalData } from '../../contract/index';
import type { CallContext, Dispatcher } from './dispatcher';
import type { EventBus } from './events';

/**
 * Binds one pipe (an IPC channel, a WebSocket) to the core: requests go to the dispatcher,
 * responses and every event go back (terminal output as a frame of its own, see contract/frames.ts).
 * Closing the pipe ends the binding.
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
    dispatcher.handleText(text, ctx).then(
      (reply) => {
        if (reply !== undefined) send(reply);
      },
      (err: unknown) => console.error('erasmus: a message could not be answered:', err),
    );
  });
  const sendBytes = pipe.sendBytes?.bind(pipe);
  const offEvents = bus.on((event, payload, options) => {
    // The bus has checked the payload against the contract: a terminal id and an offset, then text.
    if (event === 'terminal.data') {
      const d = payload as TerminalData;
      // The PTY's bytes (or the masked text's) as they are, after the header: not encoded again.
      if (sendBytes && options?.bytes) return sendFrameBytes(sendBytes, terminalDataFrameBytes(d, options.bytes, options.headroom));
      return send(encodeTerminalData(d));
    }
    let text: string;
    try {
      if (nestsDeeperThan(payload)) throw new Error(`nested deeper than ${MAX_JSON_DEPTH} levels`);
      text = JSON.stringify({ jsonrpc: '2.0', method: event, params: payload });
    } catch (err) {
      console.error(`erasmus: event ${event} dropped: ${(err as Error).message}`);
      return;
    }
    send(text);
  });
  const sendFrameBytes = (sendIt: (b: Uint8Array) => void, bytes: Uint8Array) => {
    if (!open) return;
    try {
      sendIt(bytes);
    } catch {
      open = false;
    }
  };
  const dispose = () => {
    open = false;
    offMessage();
    offEvents();
    offClose();
  };
  const offClose = pipe.onClose(dispose);
  return dispose;
}
