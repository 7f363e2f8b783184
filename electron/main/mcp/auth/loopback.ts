import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A free port on 127.0.0.1, found by binding port 0 and closing again. */
export function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

export interface LoopbackResult {
  code: string;
}

/**
 * Waits for the authorization server to send the browser back to http://127.0.0.1:PORT/callback
 * (RFC 8252's loopback redirect). Resolves with the code once `state` matches; rejects with the
 * server's error (error and error_description) when sign-in was refused, or when `signal` aborts.
 */
export function awaitLoopbackRedirect(port: number, state: string, server: string, signal: AbortSignal): { ready: Promise<void>; result: Promise<LoopbackResult> } {
  let settle!: { resolve: (r: LoopbackResult) => void; reject: (e: Error) => void };
  const result = new Promise<LoopbackResult>((resolve, reject) => (settle = { resolve, reject }));
  const close = () => {
    http.closeAllConnections();
    http.close();
  };
  const page = (title: string, text: string) =>
    `<!doctype html><meta charset="utf-8"><title>${title}</title><body style="font-family:sans-serif;margin:3em"><h1>${title}</h1><p>${text}</p></body>`;
  const http: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', `http://127.0.0.1:${port}`);
    if (url.pathname !== '/callback') {
      res.writeHead(404).end();
      return;
    }
    const error = url.searchParams.get('error');
    const code = url.searchParams.get('code');
    const why = error
      ? `the authorization server refused: ${error}${url.searchParams.get('error_description') ? ` (${url.searchParams.get('error_description')})` : ''}`
      : url.searchParams.get('state') !== state
        ? 'the answer did not carry the state Erasmus sent (an old or foreign sign-in link); sign in again from Erasmus'
        : !code
          ? 'the answer carried no authorization code'
          : undefined;
    res.writeHead(why ? 400 : 200, { 'content-type': 'text/html; charset=utf-8', connection: 'close' });
    res.end(why ? page('Sign-in failed', escapeHtml(`Sign-in to "${server}" failed: ${why}.`)) : page('Signed in', escapeHtml(`Erasmus is signed in to "${server}". You can close this tab.`)));
    if (why) settle.reject(new Error(`sign-in failed: ${why}`));
    else settle.resolve({ code: code! });
    setImmediate(close);
  });
  const ready = new Promise<void>((resolve, reject) => {
    http.once('error', (err) => {
      reject(new Error(`could not listen on 127.0.0.1:${port} for the sign-in redirect: ${err.message}`));
      settle.reject(new Error(`could not listen on 127.0.0.1:${port} for the sign-in redirect: ${err.message}`));
    });
    http.listen(port, '127.0.0.1', () => resolve());
  });
  const onAbort = () => {
    settle.reject(new Error(`sign-in was not completed: ${String((signal.reason as Error | undefined)?.message ?? signal.reason ?? 'cancelled')}`));
    close();
  };
  if (signal.aborted) onAbort();
  else signal.addEventListener('abort', onAbort, { once: true });
  void result.catch(() => {}).finally(() => signal.removeEventListener('abort', onAbort));
  return { ready, result };
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
}
