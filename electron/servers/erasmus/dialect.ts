import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CallToolRequestSchema,
  CompleteRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  InitializeRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  SetLevelRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
  type JSONRPCMessage,
  type MessageExtraInfo,
} from '@modelcontextprotocol/sdk/types.js';

/** The request schemas of the methods this server answers, to refuse bad params with -32602. */
const REQUEST_SCHEMAS: Record<string, { safeParse(v: unknown): { success: boolean; error?: { issues: Array<{ path: PropertyKey[]; message: string }> } } }> = {
  initialize: InitializeRequestSchema,
  'tools/list': ListToolsRequestSchema,
  'tools/call': CallToolRequestSchema,
  'prompts/list': ListPromptsRequestSchema,
  'prompts/get': GetPromptRequestSchema,
  'resources/list': ListResourcesRequestSchema,
  'resources/templates/list': ListResourceTemplatesRequestSchema,
  'resources/read': ReadResourceRequestSchema,
  'resources/subscribe': SubscribeRequestSchema,
  'resources/unsubscribe': UnsubscribeRequestSchema,
  'logging/setLevel': SetLevelRequestSchema,
  'completion/complete': CompleteRequestSchema,
};

/**
 * Why a request's params do not fit its method, or undefined when they do. (The SDK's own
 * parse failure would surface as -32603; a malformed request is the caller's error, -32602.)
 */
export function paramsProblem(message: JSONRPCMessage): string | undefined {
  if (!('method' in message) || !('id' in message)) return undefined;
  const schema = REQUEST_SCHEMAS[message.method];
  if (!schema) return undefined;
  const r = schema.safeParse(message);
  if (r.success) return undefined;
  return (r.error?.issues ?? []).map((i) => `${i.path.map(String).join('.') || '(params)'}: ${i.message}`).join('; ') || 'invalid params';
}

/** Older method names some clients still send, and the names they mean. */
export const METHOD_ALIASES: Record<string, string> = {
  'prompt/list': 'prompts/list',
  'prompt/get': 'prompts/get',
  'tool/call': 'tools/call',
  'tool/list': 'tools/list',
};

/**
 * Rewrites the older dialect into the current one before the protocol layer sees a message:
 * method aliases (`prompt/list` → `prompts/list`) and `tools/call` with `tool_name` (and
 * `args` / `parameters`) instead of `name` / `arguments`. Everything else passes untouched.
 */
export function normalizeMessage(message: JSONRPCMessage): JSONRPCMessage {
  if (!('method' in message) || typeof message.method !== 'string') return message;
  const method = METHOD_ALIASES[message.method] ?? message.method;
  let params = (message as { params?: unknown }).params;
  if (method === 'tools/call' && params && typeof params === 'object' && !Array.isArray(params)) {
    const p = { ...(params as Record<string, unknown>) };
    let changed = false;
    if (p.name === undefined && typeof p.tool_name === 'string') {
      p.name = p.tool_name;
      delete p.tool_name;
      changed = true;
    }
    for (const alt of ['args', 'parameters', 'input']) {
      if (p.arguments === undefined && p[alt] !== undefined && typeof p[alt] === 'object') {
        p.arguments = p[alt];
        delete p[alt];
        changed = true;
      }
    }
    if (changed) params = p;
  }
  if (method === message.method && params === (message as { params?: unknown }).params) return message;
  return { ...message, method, ...(params !== undefined ? { params } : {}) } as JSONRPCMessage;
}

/** A transport that speaks the current dialect to the server whatever dialect the client speaks. */
export class TolerantTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;

  constructor(private readonly inner: Transport) {
    inner.onmessage = (message, extra) => {
      const normalized = normalizeMessage(message);
      const problem = paramsProblem(normalized);
      if (problem && 'id' in normalized && 'method' in normalized) {
        void inner
          .send({ jsonrpc: '2.0', id: normalized.id, error: { code: ErrorCode.InvalidParams, message: `invalid params for ${normalized.method}: ${problem}` } }, { relatedRequestId: normalized.id })
          .catch((err: Error) => this.onerror?.(err));
        return;
      }
      this.onmessage?.(normalized, extra);
    };
    inner.onclose = () => this.onclose?.();
    inner.onerror = (error) => this.onerror?.(error);
  }

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  setProtocolVersion = (version: string): void => this.inner.setProtocolVersion?.(version);

  start(): Promise<void> {
    return this.inner.start();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    return this.inner.send(message, options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
