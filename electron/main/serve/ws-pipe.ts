import type { WebSocket } from 'ws';
import type { Pipe } from '../../contract/index';

/** A contract pipe over one WebSocket connection (text frames, one message each; terminal output as binary frames of its UTF-8 text). */
export function webSocketPipe(socket: WebSocket): Pipe {
  return {
    send(message) {
      if (socket.readyState === socket.OPEN) socket.send(message);
    },
    sendBytes(message) {
      if (socket.readyState === socket.OPEN) socket.send(message, { binary: true });
    },
    onMessage(listener) {
      const h = (data: unknown, isBinary: boolean) => {
        if (isBinary) return listener('\u0000binary');
        listener(String(data));
      };
      socket.on('message', h);
      return () => socket.off('message', h);
    },
    onClose(listener) {
      socket.on('close', listener);
      return () => socket.off('close', listener);
    },
    close() {
      socket.close();
    },
  };
}
