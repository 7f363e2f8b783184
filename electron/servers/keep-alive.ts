import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';

/**
 * How long a server waits for the user's answer to its question (an approval): as long as they take. The MCP
 * SDK gives up on a request after 60 s unless told otherwise, and a user who looked away for a minute found the
 * step's call failed with "Request timed out". This is the longest timer Node keeps (~24 days); the call's own
 * cancellation (the user stops the step) ends the wait sooner.
 */
export const ANSWER_WAIT_MS = 2 ** 31 - 1;

/** How often a running tool call of Erasmus's own servers tells a client that asked for progress that it is alive. */
export const KEEP_ALIVE_MS = 15_000;

/**
 * Runs a tool call and, while it runs, sends `notifications/progress` every `everyMs` when the client
 * gave a progress token. A client's request timeout restarts on progress (the hub asks for it), so a
 * call that waits for the user's approval or runs a long command is not cut off by the 60 s default;
 * a server that hangs sends nothing and still times out. `say` (given to `run`) names what the call is
 * doing now ("the script reviewer reads it"): sent at once (unless `now` is false), and as the message of the progress after it,
 * so a face shows what a long call waits for (the CLI's watcher, the app's tool card).
 */
export async function withKeepAlive<T>(extra: Pick<RequestHandlerExtra<ServerRequest, ServerNotification>, '_meta' | 'sendNotification'>, run: (say: (doing: string, now?: boolean) => void) => Promise<T>, everyMs = KEEP_ALIVE_MS): Promise<T> {
  const progressToken = extra._meta?.progressToken;
  if (progressToken === undefined) return run(() => undefined);
  let n = 0;
  let message = 'still running';
  const send = () => void extra.sendNotification({ method: 'notifications/progress', params: { progressToken, progress: ++n, message } }).catch(() => undefined);
  const timer = setInterval(send, everyMs);
  timer.unref();
  try {
    return await run((doing, now = true) => {
      if (doing === message) return;
      message = doing;
      if (now) send();
    });
  } finally {
    clearInterval(timer);
  }
}
