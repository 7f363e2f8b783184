import { ErrorCode, RpcError } from '../../../contract/index';
import type { Core } from '../core';

/** agent.start / send / stop / approve / list: sessions kept by core.agent; events go out as `agent.event`. */
export function registerAgentHandlers(core: Core): void {
  core.dispatcher.register('agent.start', async (p) => {
    let session;
    try {
      session = await core.agent.create({
        task: p.prompt,
        project: p.project,
        provider: { provider: p.provider, model: p.model },
        toolMode: p.toolMode,
        budgets: { maxTurns: p.maxTurns },
        resume: p.resume,
        protocolPrompt: p.protocolPrompt,
        history: p.history,
      });
    } catch (err) {
      throw new RpcError(ErrorCode.ActionFailed, (err as Error).message);
    }
    void session.run(p.prompt);
    return { sessionId: session.sessionId, logPath: session.logPath };
  });
  core.dispatcher.register('agent.send', async ({ sessionId, message }) => {
    const s = core.agent.get(sessionId);
    if (!s) throw new RpcError(ErrorCode.ActionFailed, `no agent session ${sessionId}`);
    // While it works (a chat or a workflow step), the message waits for the model's next turn.
    if (s.isRunning) {
      s.steer(message);
      return { ok: true as const, queued: true };
    }
    void s.run(message);
    return { ok: true as const, queued: false };
  });
  core.dispatcher.register('agent.stop', async ({ sessionId }) => ({ ok: core.agent.stop(sessionId) }));
  core.dispatcher.register('agent.approve', async ({ sessionId, requestId, decision }) => ({ ok: core.agent.approve(sessionId, requestId, decision) }));
  core.dispatcher.register('agent.list', async () => ({ sessions: core.agent.list() }));
}
