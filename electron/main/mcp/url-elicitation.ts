import type { ElicitRequestURLParams } from '@modelcontextprotocol/sdk/types.js';
import type { ServerConnection } from './connection';
import type { ElicitationHandler } from './types';

/**
 * A tool call's -32042 (UrlElicitationRequiredError): shows each page the server asked for (through
 * the elicitation handler) and waits until the server reports it completed.
 */
export async function awaitUrlElicitations(
  c: ServerConnection,
  list: ElicitRequestURLParams[],
  handler: () => ElicitationHandler | undefined,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<void> {
  for (const e of list) {
    const ask = handler();
    const where = `${e.message} (${e.url})`;
    if (!ask) throw new Error(`needs you to open a page first: ${where}; nobody could be asked here, so open it yourself and call again`);
    const ac = new AbortController();
    const stop = () => ac.abort(signal?.reason);
    signal?.addEventListener('abort', stop, { once: true });
    try {
      const answer = await ask({ server: c.name, params: { mode: 'url', message: e.message, url: e.url, elicitationId: e.elicitationId } }, ac.signal);
      if (answer.action !== 'accept') {
        // A decline that only says nobody could be asked (agent/approval-path's `unanswered`) keeps its reason.
        const why = answer._meta?.['erasmus/unanswered'];
        if (typeof why === 'string') throw new Error(`needs you to open a page first: ${where}; nobody could be asked (${why}), so open it yourself and call again`);
        throw new Error(`needs you to open a page first, and the request was ${answer.action === 'decline' ? 'declined' : 'cancelled'}: ${where}`);
      }
      await c.waitForElicitation(e.elicitationId, timeoutMs, signal);
    } finally {
      signal?.removeEventListener('abort', stop);
    }
  }
}
