import type { Pipe } from '../../../electron/contract/index';

/** What the preload exposes in the desktop app. */
export interface ErasmusBridge {
  send(message: string): void;
  subscribe(listener: (message: string) => void): () => void;
  /** Absolute path of a dropped file or folder (desktop only). */
  pathForFile?(file: File): string;
}

declare global {
  interface Window {
    erasmus?: ErasmusBridge;
  }
}

export function ipcPipe(bridge: ErasmusBridge): Pipe {
  const closeListeners = new Set<() => void>();
  return {
    send: (m) => bridge.send(m),
    onMessage: (l) => bridge.subscribe(l),
    onClose(l) {
      closeListeners.add(l);
      return () => closeListeners.delete(l);
    },
    close() {
      for (const l of closeListeners) l();
    },
  };
}

/** Opens the WebSocket pipe of browser mode; resolves once connected. */
export function webSocketPipe(url: string): Promise<Pipe> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    const queue: string[] = [];
    const messageListeners = new Set<(m: string) => void>();
    const closeListeners = new Set<() => void>();
    ws.onmessage = (e) => {
      if (typeof e.data === 'string') for (const l of messageListeners) l(e.data);
    };
    ws.onclose = () => {
      for (const l of closeListeners) l();
    };
    ws.onerror = () => reject(new Error(`cannot connect to ${url.replace(/token=[^&]+/, 'token=…')}`));
    ws.onopen = () => {
      for (const m of queue.splice(0)) ws.send(m);
      resolve({
        send: (m) => (ws.readyState === WebSocket.OPEN ? ws.send(m) : queue.push(m)),
        onMessage(l) {
          messageListeners.add(l);
          return () => messageListeners.delete(l);
        },
        onClose(l) {
          closeListeners.add(l);
          return () => closeListeners.delete(l);
        },
        close: () => ws.close(),
      });
    };
  });
}

/** The pipe this renderer can use: IPC in the desktop app, the WebSocket in browser mode. */
export async function findPipe(win: Window = window): Promise<Pipe> {
  if (win.erasmus) return ipcPipe(win.erasmus);
  const token = new URLSearchParams(win.location.search).get('token');
  if (!token) throw new Error('No Erasmus core found: open the URL printed by `erasmus serve` (it carries the token).');
  const proto = win.location.protocol === 'https:' ? 'wss:' : 'ws:';
  return webSocketPipe(`${proto}//${win.location.host}/rpc?token=${encodeURIComponent(token)}`);
}
