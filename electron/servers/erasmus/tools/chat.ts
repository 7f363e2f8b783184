import { stat } from 'node:fs/promises';
import { isAbsolute } from 'node:path';
import { z } from 'zod';
import type { AgentEvent, ApprovalDecision } from '../../../contract/index';
import type { ApprovalRequest } from '../../../main/agent/approvals';
import { PROTOCOL_NAMES, type ProtocolName } from '../../../main/workflow/protocols';
import { protocolFor } from '../prompts';
import type { ChatBackend } from '../chat';
import { defineTool, errorResult, textResult, type ToolContext, type ToolSpec } from '../registry';

export const AGENTS = ['general', ...PROTOCOL_NAMES] as const;

const Input = z
  .object({
    user_input: z.string().min(1).max(200_000).describe('the message to the agent'),
    chat_messages: z
      .array(z.object({ role: z.enum(['user', 'assistant']), content: z.string() }).strict())
      .max(1000)
      .default([])
      .describe('the WHOLE conversation so far, oldest first ([] for the first message): the tool keeps no state between calls'),
    agent: z.enum(AGENTS).default('general').describe('which protocol the agent acts under'),
    project: z.string().min(1).optional().describe('absolute path of the project folder the agent works in'),
  })
  .strict();

export interface ChatToolOptions {
  backend: () => ChatBackend;
  /** Asks the MCP client to approve an action (elicitation); undefined: the client cannot be asked. */
  askClient?: (req: ApprovalRequest, signal: AbortSignal) => Promise<ApprovalDecision> | undefined;
  /** Approve what the policy does not refuse, without asking (ERASMUS_AUTO_APPROVE=1). */
  autoApprove: boolean;
}

/**
 * Streams the session to the MCP client: text as progress, each tool use as a logging message. Sent one
 * after another; `drained` settles once everything relayed so far is sent. The result must wait for it: a
 * client stops listening for a call's progress once its result has come, so a piece still queued then is lost.
 */
function relay(ctx: ToolContext): { onEvent: (e: AgentEvent) => void; drained: () => Promise<void> } {
  let chain = Promise.resolve();
  const send = (fn: () => Promise<void>) => {
    chain = chain.then(fn).catch(() => undefined);
  };
  const onEvent = (e: AgentEvent) => {
    if (e.type === 'sentence') send(() => ctx.progress(e.text));
    else if (e.type === 'tool_running') send(() => ctx.log('info', { type: 'tool_running', tool_name: e.name, args: e.args }));
    else if (e.type === 'tool_complete') send(() => ctx.log(e.isError ? 'warning' : 'info', { type: 'tool_complete', tool_name: e.name, isError: e.isError, durationMs: e.durationMs }));
    else if (e.type === 'warning') send(() => ctx.log('warning', { type: 'warning', message: e.message }));
    else if (e.type === 'error') send(() => ctx.log('error', { type: 'error', code: e.code, message: e.message }));
  };
  return { onEvent, drained: () => chain };
}

/** erasmus_chat: the Erasmus agent as one stateless tool. */
export function chatTool(o: ChatToolOptions): ToolSpec {
  return defineTool({
    name: 'erasmus_chat',
    title: 'Ask the Erasmus agent',
    description:
      "Send a message to the Erasmus agent, which works with its own toolsets (files, runners, memory, …) and returns its answer. Stateless: pass the COMPLETE conversation history in chat_messages on every call ([] on the first). `agent` picks the protocol it acts under (general, design, development, testing, debugging, review, documentation).",
    input: Input,
    annotations: { openWorldHint: true },
    async run(a, ctx) {
      if (a.project !== undefined) {
        const s = await stat(a.project).catch(() => undefined);
        if (!isAbsolute(a.project) || !s?.isDirectory()) return errorResult(`project must be an existing folder given by its absolute path, got ${JSON.stringify(a.project)}`);
      }
      let protocol: { name: string; prompt: string } | undefined;
      if (a.agent !== 'general') {
        const p = await protocolFor(a.agent as ProtocolName, a.project);
        protocol = { name: p.name, prompt: p.prompt };
      }
      const approve = async (req: ApprovalRequest, signal: AbortSignal): Promise<ApprovalDecision> => {
        if (o.autoApprove) return 'allow_once';
        const asked = o.askClient?.(req, signal);
        if (asked) return asked;
        await ctx.log('warning', { type: 'approval_denied', tool_name: req.name, reasons: req.reasons, hint: 'the client cannot be asked (no elicitation); set ERASMUS_AUTO_APPROVE=1 to allow' });
        return 'deny';
      };
      let outcome: Awaited<ReturnType<ReturnType<ChatToolOptions['backend']>['chat']>>;
      const relayed = relay(ctx);
      try {
        outcome = await o.backend().chat({ userInput: a.user_input, history: a.chat_messages, protocol, project: a.project, signal: ctx.signal, onEvent: relayed.onEvent, approve });
      } catch (err) {
        await relayed.drained();
        return errorResult(`Erasmus chat failed: ${(err as Error).message}`, { answer: '', endedReason: 'error', sessionId: '', error: (err as Error).message });
      }
      await relayed.drained();
      const usage = outcome.usage ? { inputTokens: outcome.usage.inputTokens, outputTokens: outcome.usage.outputTokens, totalTokens: outcome.usage.totalTokens } : undefined;
      const structured = { answer: outcome.answer, endedReason: outcome.endedReason, sessionId: outcome.sessionId, ...(usage ? { usage } : {}), ...(outcome.error ? { error: outcome.error } : {}) };
      if (outcome.endedReason === 'error') return errorResult(`Erasmus chat failed: ${outcome.error ?? 'unknown error'}`, structured);
      const note = outcome.endedReason === 'complete' ? '' : `\n\n(the session ended early: ${outcome.endedReason}${outcome.error ? `: ${outcome.error}` : ''})`;
      return textResult((outcome.answer || '(no answer)') + note, structured);
    },
  });
}
