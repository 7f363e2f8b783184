import { isAbsolute, relative, resolve } from 'node:path';
import { ErrorCode, RpcError } from '../../../contract/index';
import type { Core } from '../core';

/** agent.rewind: a chat back to before one of its turns (the workflow's rewinds are in handlers/workflow.ts). */
export function registerCheckpointHandlers(core: Core): void {
  core.dispatcher.register('agent.rewind', async ({ logPath, turn, scope }) => {
    const rel = relative(core.paths.sessionsDir, resolve(logPath));
    if (!rel || rel.startsWith('..') || isAbsolute(rel)) throw new RpcError(ErrorCode.InvalidParams, `logPath must be a session log under ${core.paths.sessionsDir}`);
    const live = core.agent.list().find((s) => s.logPath === logPath && s.running);
    if (live) throw new RpcError(ErrorCode.ActionFailed, `session ${live.sessionId} is working on its task: stop it (or wait for it to end) before rewinding`);
    try {
      const r = await core.chatCheckpoints.rewind(logPath, turn, scope);
      return { logPath: r.logPath, sessionId: r.sessionId, turn: r.turn, files: r.files, commitsUndone: r.commitsUndone };
    } catch (err) {
      throw new RpcError(ErrorCode.ActionFailed, (err as Error).message);
    }
  });
}
