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

const TOKEN_KEY = 'erasmus.token';

/**
 * Browser mode's token: read once from the URL, then kept in this tab's sessionStorage and taken out
 * of the address bar and history (`history.replaceState`), so it is not shown, bookmarked or synced.
 * A reload finds it in sessionStorage.
 */
export function takeToken(win: Window = window): string | null {
  const url = new URL(win.location.href);
  const fromUrl = url.searchParams.get('token');
  if (fromUrl) {
    try {
      win.sessionStorage.setItem(TOKEN_KEY, fromUrl);
    } catch {
      // storage off: the token still works for this page, a reload needs the printed URL again
    }
    url.searchParams.delete('token');
    win.history.replaceState(win.history.state, '', url.pathname + url.search + url.hash);
    return fromUrl;
  }
  try {
    return win.sessionStorage.getItem(TOKEN_KEY);
  } catch {
    return null;
  }
}

/** The pipe this renderer can use: IPC in the desktop app, the WebSocket in browser mode. */
export async function findPipe(win: Window = window): Promise<Pipe> {
  if (win.erasmus) return ipcPipe(win.erasmus);
  const token = takeToken(win);
  if (!token) throw new Error('No Erasmus core found: open the URL printed by `erasmus serve` (it carries the token).');
  const proto = win.location.protocol === 'https:' ? 'wss:' : 'ws:';
  return webSocketPipe(`${proto}//${win.location.host}/rpc?token=${encodeURIComponent(token)}`);
}
