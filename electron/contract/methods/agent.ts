import { z } from 'zod';
import type { MethodTable } from '../table';

/** OpenAI-style roles for every provider: the context of an agent session. */
/**
 * What a provider attached to a part of its answer (Gemini's thoughtSignature, Anthropic's thinking
 * signature, OpenAI's reasoning item id and encrypted content), keyed by provider. Kept in the session
 * log and sent back unchanged on the next request.
 */
export const ProviderMetadata = z.record(z.string(), z.record(z.string(), z.unknown()));
export type ProviderMetadata = z.infer<typeof ProviderMetadata>;
export const ToolCallRecord = z.object({ id: z.string(), name: z.string(), args: z.record(z.string(), z.unknown()), meta: ProviderMetadata.optional() });
export type ToolCallRecord = z.infer<typeof ToolCallRecord>;

export const ReasoningPart = z.object({ text: z.string(), meta: ProviderMetadata.optional() });
export type ReasoningPart = z.infer<typeof ReasoningPart>;

/** An image for the model (base64), from a tool result, a resource or a sampling request. */
export const ImagePart = z.object({ mediaType: z.string(), data: z.string() });
export type ImagePart = z.infer<typeof ImagePart>;

export const ChatMessage = z.discriminatedUnion('role', [
  z.object({ role: z.literal('system'), content: z.string() }),
  /** `instruction`: written by the user (the task, or a new instruction on resume), not tool results or notes; archiving keeps the latest. */
  /** `steered`: written by the user while the agent worked, delivered at its next turn (not a turn of its own: no checkpoint, not counted). */
  z.object({ role: z.literal('user'), content: z.string(), instruction: z.boolean().optional(), steered: z.boolean().optional(), images: z.array(ImagePart).optional() }),
  z.object({
    role: z.literal('assistant'),
    content: z.string(),
    toolCalls: z.array(ToolCallRecord).optional(),
    /** The model's reasoning blocks, in order, each with its provider metadata (signatures). */
    reasoning: z.array(ReasoningPart).optional(),
    /** Provider metadata of the text part (Gemini may sign text too). */
    textMeta: ProviderMetadata.optional(),
  }),
  /** `images`: what the tool returned as images; sent as image parts to a model that takes them (the text names each one). */
  z.object({ role: z.literal('tool'), toolCallId: z.string(), name: z.string(), content: z.string(), isError: z.boolean().optional(), images: z.array(ImagePart).optional() }),
]);
export type ChatMessage = z.infer<typeof ChatMessage>;

export const ToolMode = z.enum(['auto', 'native', 'xml']);
export type ToolMode = z.infer<typeof ToolMode>;

export const Usage = z.object({
  /** All input tokens, cached or not. */
  inputTokens: z.number(),
  /** Of the input, read from the provider's prompt cache (billed at the cache-read price). */
  cacheReadTokens: z.number().optional(),
  /** Of the input, written to the prompt cache (billed at the cache-write price). */
  cacheWriteTokens: z.number().optional(),
  outputTokens: z.number(),
  /** Of the output, spent on reasoning. */
  reasoningTokens: z.number().optional(),
  totalTokens: z.number(),
  /** US dollars, when the model's prices are known; null otherwise. */
  costUsd: z.number().nullable(),
});
export type Usage = z.infer<typeof Usage>;

export const ApprovalDecision = z.enum(['allow_once', 'always_allow', 'deny']);
export type ApprovalDecision = z.infer<typeof ApprovalDecision>;

export const EndReason = z.enum(['complete', 'error', 'budget', 'stopped']);
export type EndReason = z.infer<typeof EndReason>;

const base = { sessionId: z.string(), at: z.number() };
/** One event union for the renderer, the session log and the CLI (`--json` prints one per line). */
export const AgentEvent = z.discriminatedUnion('type', [
  /** `providerName`/`modelName`: the same in words, for people (the ids stay in `provider`/`model`). */
  z.object({ ...base, type: z.literal('session_started'), logPath: z.string(), provider: z.string(), model: z.string(), providerName: z.string().optional(), modelName: z.string().optional(), toolMode: z.enum(['native', 'xml']), resumed: z.boolean(), project: z.string().optional() }),
  z.object({ ...base, type: z.literal('turn_started'), turn: z.number() }),
  /** Streamed assistant text (a delta, in order). */
  z.object({ ...base, type: z.literal('sentence'), text: z.string() }),
  /** One finished block of the model's reasoning (shown collapsed). */
  z.object({ ...base, type: z.literal('reasoning'), text: z.string() }),
  z.object({ ...base, type: z.literal('tool_running'), callId: z.string(), name: z.string(), args: z.record(z.string(), z.unknown()) }),
  z.object({ ...base, type: z.literal('tool_progress'), callId: z.string(), progress: z.number(), total: z.number().optional(), message: z.string().optional() }),
  z.object({
    ...base,
    type: z.literal('tool_complete'),
    callId: z.string(),
    name: z.string(),
    args: z.record(z.string(), z.unknown()),
    result: z.string(),
    isError: z.boolean(),
    refused: z.boolean().optional(),
    durationMs: z.number(),
  }),
  z.object({ ...base, type: z.literal('approval_required'), requestId: z.string(), kind: z.enum(['tool', 'command', 'sampling']), callId: z.string().optional(), name: z.string(), args: z.record(z.string(), z.unknown()), reasons: z.array(z.string()) }),
  z.object({ ...base, type: z.literal('approval_resolved'), requestId: z.string(), decision: ApprovalDecision }),
  z.object({ ...base, type: z.literal('toolset_opened'), name: z.string(), tools: z.array(z.string()) }),
  z.object({ ...base, type: z.literal('usage'), turn: Usage, session: Usage }),
  z.object({ ...base, type: z.literal('context_archived'), count: z.number(), archivePath: z.string(), summary: z.string().optional() }),
  z.object({ ...base, type: z.literal('warning'), message: z.string() }),
  z.object({ ...base, type: z.literal('complete'), answer: z.string() }),
  /**
   * A message the user sent while the agent worked (steering): `queued` when sent, `delivered` when it
   * went to the model (at its next turn, after the current tool results), `dropped` when the session
   * ended first (stopped, an error, a budget): the model never saw it.
   */
  z.object({ ...base, type: z.literal('steer'), id: z.string(), text: z.string(), state: z.enum(['queued', 'delivered', 'dropped']) }),
  z.object({ ...base, type: z.literal('error'), code: z.enum(['provider', 'budget', 'config', 'internal', 'stopped']), message: z.string() }),
  z.object({ ...base, type: z.literal('session_ended'), reason: EndReason, usage: Usage, turns: z.number() }),
]);
export type AgentEvent = z.infer<typeof AgentEvent>;
export type AgentEventType = AgentEvent['type'];

const SessionId = z.string().regex(/^[A-Za-z0-9._-]{1,128}$/);

export const agentMethods = {
  /** Start an agent session on a task; events follow as `agent.event` notifications. */
  'agent.start': {
    params: z
      .object({
        prompt: z.string().min(1),
        project: z.string().max(4096).optional(),
        provider: z.string().optional(),
        model: z.string().optional(),
        toolMode: ToolMode.optional(),
        maxTurns: z.number().int().positive().optional(),
        /** Resume from this session log instead of starting anew; `prompt` is the new user message. */
        resume: z.string().optional(),
        /** A protocol prompt the agent acts under (design, development, …). */
        protocolPrompt: z.string().max(200_000).optional(),
        /** Earlier conversation, sent whole by stateless callers; becomes real messages before `prompt`. */
        history: z.array(z.object({ role: z.enum(['user', 'assistant']), content: z.string() }).strict()).max(10_000).optional(),
      })
      .strict(),
    result: z.object({ sessionId: SessionId, logPath: z.string() }),
  },
  /**
   * Send a user message: to a session that ended its last task it is a follow-up (continues it); to one
   * still working (a chat or a workflow step) it is queued (`queued: true`, a `steer` event) and reaches
   * the model at its next turn.
   */
  'agent.send': {
    params: z.object({ sessionId: SessionId, message: z.string().min(1).max(200_000) }).strict(),
    result: z.object({ ok: z.literal(true), queued: z.boolean() }),
  },
  'agent.stop': {
    params: z.object({ sessionId: SessionId }).strict(),
    result: z.object({ ok: z.boolean() }),
  },
  /** Answer an `approval_required` event. */
  'agent.approve': {
    params: z.object({ sessionId: SessionId, requestId: z.string(), decision: ApprovalDecision }).strict(),
    result: z.object({ ok: z.boolean() }),
  },
  'agent.list': {
    params: z.object({}).strict(),
    result: z.object({ sessions: z.array(z.object({ sessionId: SessionId, logPath: z.string(), running: z.boolean() })) }),
  },
} satisfies MethodTable;
