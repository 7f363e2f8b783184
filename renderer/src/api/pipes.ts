import { isFrame, type Pipe } from '../../../electron/contract/index';

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

export type ConnectionStatus = 'connected' | 'reconnecting' | 'lost';

/** A pipe that says how its connection is doing (the WebSocket reconnects; IPC is always connected until closed). */
export interface StatusPipe extends Pipe {
  readonly status: ConnectionStatus;
  onStatus(listener: (s: ConnectionStatus) => void): () => void;
}

export interface ReconnectOptions {
  /** How long to keep trying before the connection counts as lost (ms). */
  giveUpMs?: number;
  /** First delay between attempts, doubled up to `maxDelayMs`. */
  firstDelayMs?: number;
  maxDelayMs?: number;
}

const open = (url: string) =>
  new Promise<WebSocket>((resolve, reject) => {
    const ws = new WebSocket(url);
    ws.onopen = () => resolve(ws);
    ws.onerror = () => reject(new Error(`cannot connect to ${url.replace(/token=[^&]+/, 'token=…')}`));
  });

/**
 * Opens the WebSocket pipe of browser mode; resolves once connected. When the socket drops it
 * reconnects on its own (status `reconnecting`), queueing what is sent meanwhile; requests that were
 * in flight when it dropped are answered with an error at once (their answers cannot come). After
 * `giveUpMs` without a connection the pipe closes (status `lost`).
 */
export async function webSocketPipe(url: string, options: ReconnectOptions = {}): Promise<StatusPipe> {
  const giveUpMs = options.giveUpMs ?? 30_000;
  const firstDelay = options.firstDelayMs ?? 250;
  const maxDelay = options.maxDelayMs ?? 2_000;
  const queue: string[] = [];
  const messageListeners = new Set<(m: string) => void>();
  const closeListeners = new Set<() => void>();
  const statusListeners = new Set<(s: ConnectionStatus) => void>();
  const inFlight = new Set<number | string>();
  let status: ConnectionStatus = 'connected';
  let closing = false;
  const setStatus = (s: ConnectionStatus) => {
    if (status === s) return;
    status = s;
    for (const l of statusListeners) l(s);
  };
  const deliver = (m: string) => {
    for (const l of messageListeners) l(m);
  };
  const utf8 = new TextDecoder();
  const attach = (ws: WebSocket) => {
    // Terminal output comes as binary frames: the UTF-8 bytes of a text frame (contract/frames.ts).
    ws.binaryType = 'arraybuffer';
    ws.onmessage = (e) => {
      if (e.data instanceof ArrayBuffer) return deliver(utf8.decode(e.data));
      if (typeof e.data !== 'string') return;
      // A frame (terminal output) answers no request: it is not parsed here.
      if (inFlight.size > 0 && !isFrame(e.data)) {
        try {
          const msg = JSON.parse(e.data) as { id?: number | string; method?: string };
          if (msg.id !== undefined && msg.method === undefined) inFlight.delete(msg.id);
        } catch {}
      }
      deliver(e.data);
    };
    ws.onclose = () => void dropped();
    ws.onerror = () => {};
  };
  let ws = await open(url);
  attach(ws);
  const end = () => {
    if (status === 'lost') return;
    setStatus('lost');
    for (const l of closeListeners) l();
  };
  const dropped = async () => {
    if (closing) return end();
    setStatus('reconnecting');
    // What was asked over the dead socket will not be answered: say so now.
    for (const id of [...inFlight]) deliver(JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32000, message: 'the connection to the Erasmus core dropped before it answered; try again once it is back' } }));
    inFlight.clear();
    const until = Date.now() + giveUpMs;
    for (let delay = firstDelay; Date.now() < until && !closing; delay = Math.min(maxDelay, delay * 2)) {
      await new Promise((r) => setTimeout(r, delay));
      if (closing) break;
      try {
        ws = await open(url);
      } catch {
        continue;
      }
      attach(ws);
      setStatus('connected');
      for (const m of queue.splice(0)) send(m);
      return;
    }
    end();
  };
  const send = (m: string) => {
    if (status !== 'connected' || ws.readyState !== WebSocket.OPEN) {
      if (status !== 'lost') queue.push(m);
      return;
    }
    try {
      const msg = JSON.parse(m) as { id?: number | string; method?: string };
      if (msg.id !== undefined && msg.method !== undefined) inFlight.add(msg.id);
    } catch {}
    ws.send(m);
  };
  return {
    get status() {
      return status;
    },
    send,
    onMessage(l) {
      messageListeners.add(l);
      return () => messageListeners.delete(l);
    },
    onClose(l) {
      closeListeners.add(l);
      return () => closeListeners.delete(l);
    },
    onStatus(l) {
      statusListeners.add(l);
      return () => statusListeners.delete(l);
    },
    close: () => {
      closing = true;
      ws.close();
    },
  };
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
export async function findPipe(win: Window = window): Promise<Pipe | StatusPipe> {
  if (win.erasmus) return ipcPipe(win.erasmus);
  const token = takeToken(win);
  if (!token) throw new Error('No Erasmus core found: open the URL printed by `erasmus serve` (it carries the token).');
  const proto = win.location.protocol === 'https:' ? 'wss:' : 'ws:';
  return webSocketPipe(`${proto}//${win.location.host}/rpc?token=${encodeURIComponent(token)}`);
}
