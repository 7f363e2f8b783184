import { ErrorCode, RpcError, type SessionReplayItem } from '../../../contract/index';
import { listSessions, readSessionLog } from '../../sessions/index';
import type { Core } from '../core';

/** sessions.replay: a logged session's user messages and agent events, read from its append-only log. */
export function registerSessionsHandlers(core: Core): void {
  core.dispatcher.register('sessions.list', async ({ project, limit }) => ({ sessions: await listSessions(core.paths.sessionsDir, { ...(project ? { project } : {}), limit }) }));
  core.dispatcher.register('sessions.replay', async ({ sessionId }) => {
    let log;
    try {
      log = readSessionLog(core.paths.session(sessionId));
    } catch (err) {
      throw new RpcError(ErrorCode.ActionFailed, (err as Error).message);
    }
    const items: SessionReplayItem[] = [];
    for (const e of log.entries) {
      if (e.type === 'event') items.push({ type: 'event', event: e.event });
      // A message sent while the agent worked is shown by its `steer` events (the model read it with a note around it).
      else if (e.type === 'message' && e.message.role === 'user' && !e.message.steered) items.push({ type: 'user', at: e.at, text: e.message.content });
    }
    return { items, warnings: log.warnings };
  });
}
