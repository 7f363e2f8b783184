import { ipcMain, type IpcMainEvent, type WebContents } from 'electron';
import type { Pipe } from '../../contract/index';
import { isAppUrl } from './security';

export const RPC_CHANNEL = 'erasmus:rpc';

/**
 * The contract pipe over Electron IPC for one window. Messages from any sender other than the
 * window's own main frame showing the app's origin are dropped (GitHub Desktop's trusted-ipc-sender).
 */
export function ipcPipe(contents: WebContents): Pipe {
  const messageListeners = new Set<(m: string) => void>();
  const closeListeners = new Set<() => void>();
  let closed = false;
  const onMessage = (event: IpcMainEvent, message: unknown) => {
    if (event.sender !== contents || event.senderFrame !== contents.mainFrame) return;
    // …and only while that frame shows the app itself (app://erasmus), not a page it was led to.
    if (!isAppUrl(event.senderFrame?.url ?? '')) return;
    if (typeof message !== 'string') return;
    for (const l of messageListeners) l(message);
  };
  ipcMain.on(RPC_CHANNEL, onMessage);
  const close = () => {
    if (closed) return;
    closed = true;
    ipcMain.removeListener(RPC_CHANNEL, onMessage);
    for (const l of closeListeners) l();
  };
  contents.once('destroyed', close);
  return {
    send(message) {
      if (!closed && !contents.isDestroyed()) contents.send(RPC_CHANNEL, message);
    },
    onMessage(listener) {
      messageListeners.add(listener);
      return () => messageListeners.delete(listener);
    },
    onClose(listener) {
      closeListeners.add(listener);
      return () => closeListeners.delete(listener);
    },
    close,
  };
}
