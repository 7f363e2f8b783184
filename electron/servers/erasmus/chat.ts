import type { AgentEvent, ApprovalDecision, Usage } from '../../contract/index';
import type { Core } from '../../main/api/core';
import type { ApprovalRequest } from '../../main/agent/approvals';
import type { CoreLink } from './link';

export interface ChatTurn {
  role: 'user' | 'assistant';
  content: string;
}

export interface ChatRequest {
  userInput: string;
  history: ChatTurn[];
  /** The protocol's prompt, when the agent is not "general". */
  protocol?: { name: string; prompt: string };
  project?: string;
  signal: AbortSignal;
  onEvent(e: AgentEvent): void;
  /** Who decides what the policy does not allow outright (the MCP client, by elicitation). */
  approve(req: ApprovalRequest, signal: AbortSignal): Promise<ApprovalDecision>;
}

export interface ChatOutcome {
  answer: string;
  endedReason: 'complete' | 'error' | 'budget' | 'stopped';
  error?: string;
  usage?: Usage;
  sessionId: string;
}

/** Runs one stateless chat turn: a full agent session whose context is the given history. */
export interface ChatBackend {
  chat(req: ChatRequest): Promise<ChatOutcome>;
}

/** The agent of this process's own core (its hub, its toolsets, its providers). */
export function localChat(core: (project?: string) => Promise<Core>): ChatBackend {
  return {
    async chat(req) {
      const c = await core(req.project);
      let answer = '';
      const outcome = await c.agent.run(
        {
          task: req.userInput,
          history: req.history,
          project: req.project,
          protocolPrompt: req.protocol?.prompt,
          signal: req.signal,
          onEvent: (e) => {
            if (e.type === 'sentence') answer += e.text;
            req.onEvent(e);
          },
        },
        { approvals: (r, signal) => req.approve(r, signal) },
      );
      return { answer: outcome.finalAnswer ?? answer, endedReason: outcome.endedReason, error: outcome.error, usage: outcome.usage, sessionId: outcome.sessionId };
    },
  };
}

/**
 * The agent of a running Erasmus (desktop app or `erasmus serve`) over its contract: agent.start,
 * then its agent.event stream until session_ended; approvals go back with agent.approve.
 */
export function remoteChat(link: () => Promise<CoreLink>): ChatBackend {
  return {
    async chat(req) {
      const l = await link();
      let sessionId: string | undefined;
      const early: AgentEvent[] = [];
      let answer = '';
      let lastError: string | undefined;
      let finish: (o: ChatOutcome) => void = () => undefined;
      const done = new Promise<ChatOutcome>((r) => (finish = r));
      const handle = (e: AgentEvent) => {
        if (e.type === 'sentence') answer += e.text;
        req.onEvent(e);
        if (e.type === 'complete') answer = e.answer || answer;
        if (e.type === 'approval_required') {
          void req
            .approve({ requestId: e.requestId, kind: e.kind, callId: e.callId, name: e.name, args: e.args, reasons: e.reasons }, req.signal)
            .then((decision) => l.request('agent.approve', { sessionId: e.sessionId, requestId: e.requestId, decision }))
            .catch(() => undefined);
        }
        if (e.type === 'session_ended') finish({ answer, endedReason: e.reason, usage: e.usage, sessionId: e.sessionId, error: lastError });
        if (e.type === 'error') lastError = e.message;
      };
      const off = l.on('agent.event', (e) => {
        if (sessionId === undefined) early.push(e);
        else if (e.sessionId === sessionId) handle(e);
      });
      const offClose = l.onClose(() => finish({ answer, endedReason: 'error', error: `connection to ${l.where} closed during the session`, sessionId: sessionId ?? '' }));
      const onAbort = () => {
        if (sessionId) void l.request('agent.stop', { sessionId }).catch(() => undefined);
      };
      req.signal.addEventListener('abort', onAbort, { once: true });
      try {
        const started = await l.request('agent.start', {
          prompt: req.userInput,
          history: req.history,
          ...(req.protocol ? { protocolPrompt: req.protocol.prompt } : {}),
          ...(req.project ? { project: req.project } : {}),
        });
        sessionId = started.sessionId;
        for (const e of early.splice(0)) if (e.sessionId === sessionId) handle(e);
        if (req.signal.aborted) onAbort();
        return await done;
      } finally {
        off();
        offClose();
        req.signal.removeEventListener('abort', onAbort);
      }
    },
  };
}
