import { z } from 'zod';
import {
  describeIssues,
  ErrorCode,
  errorResponse,
  isMethodName,
  MAX_JSON_DEPTH,
  MAX_MESSAGE_CHARS,
  methods,
  nestsDeeperThan,
  NotificationMessage,
  RequestMessage,
  RpcError,
  type MethodName,
  type Methods,
  type ResponseMessage,
} from '../../contract/index';

export interface CallContext {
  /** Which face the call came through. */
  face: 'desktop' | 'browser' | 'cli';
  signal?: AbortSignal;
}

export type Handler<M extends MethodName> = (
  params: z.output<Methods[M]['params']>,
  ctx: CallContext,
) => Promise<z.input<Methods[M]['result']>> | z.input<Methods[M]['result']>;

type AnyHandler = (params: unknown, ctx: CallContext) => unknown;

/**
 * The one dispatcher of the core: parses, validates and routes JSON-RPC messages to handlers.
 * It never throws: every failure becomes a JSON-RPC error response.
 */
export class Dispatcher {
  private readonly handlers = new Map<string, AnyHandler>();

  register<M extends MethodName>(method: M, handler: Handler<M>): () => void {
    if (this.handlers.has(method)) throw new Error(`handler for ${method} is already registered`);
    this.handlers.set(method, handler as AnyHandler);
    return () => this.handlers.delete(method);
  }

  registered(): string[] {
    return [...this.handlers.keys()].sort();
  }

  /**
   * Handles one raw message (text from a pipe). Returns the response text, or undefined for a
   * notification. Batches are answered as arrays per JSON-RPC 2.0.
   */
  async handleText(text: string, ctx: CallContext): Promise<string | undefined> {
    if (typeof text !== 'string') return JSON.stringify(errorResponse(null, ErrorCode.InvalidRequest, 'message must be text'));
    if (text.length > MAX_MESSAGE_CHARS) {
      return JSON.stringify(
        errorResponse(null, ErrorCode.InvalidRequest, `message too large: ${text.length} characters (limit ${MAX_MESSAGE_CHARS})`),
      );
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (err) {
      return JSON.stringify(errorResponse(null, ErrorCode.ParseError, `parse error: ${(err as Error).message}`));
    }
    if (Array.isArray(parsed)) {
      if (parsed.length === 0) return JSON.stringify(errorResponse(null, ErrorCode.InvalidRequest, 'empty batch'));
      if (parsed.length > 100) return JSON.stringify(errorResponse(null, ErrorCode.InvalidRequest, 'batch too large (limit 100)'));
      const out = (await Promise.all(parsed.map((m) => this.handle(m, ctx)))).filter((r): r is ResponseMessage => r !== undefined);
      return out.length ? `[${out.map(stringifyResponse).join(',')}]` : undefined;
    }
    const res = await this.handle(parsed, ctx);
    return res === undefined ? undefined : stringifyResponse(res);
  }

  /** Handles one parsed message. */
  async handle(message: unknown, ctx: CallContext): Promise<ResponseMessage | undefined> {
    // A message without an id is a notification (a view's `terminal.ack`, many a second while output
    // floods): read as one first, so it does not cost a failed request parse.
    if (message !== null && typeof message === 'object' && !('id' in message)) {
      const note = NotificationMessage.safeParse(message);
      if (note.success) {
        // Notifications from a face carry no reply; unknown ones are ignored per JSON-RPC.
        if (this.handlers.has(note.data.method) && isMethodName(note.data.method)) {
          await this.invoke(note.data.method, note.data.params ?? {}, ctx, false).catch(() => undefined);
        }
        return undefined;
      }
    }
    const req = RequestMessage.safeParse(message);
    if (!req.success) {
      const id = idOf(message);
      return errorResponse(id, ErrorCode.InvalidRequest, `invalid request: ${describeIssues(req.error)}`);
    }
    const { id, method, params } = req.data;
    if (!isMethodName(method) || !this.handlers.has(method)) {
      return errorResponse(id, ErrorCode.MethodNotFound, `method not found: ${method.slice(0, 200)}`);
    }
    try {
      const result = await this.invoke(method, params ?? {}, ctx);
      return { jsonrpc: '2.0', id, result: result === undefined ? null : result };
    } catch (err) {
      if (err instanceof RpcError) return errorResponse(id, err.code, err.message, err.data);
      return errorResponse(id, ErrorCode.InternalError, `${method} failed: ${(err as Error)?.message ?? String(err)}`);
    }
  }

  /** `answered`: false for a notification, whose result nobody receives (so it is not checked). */
  private async invoke(method: MethodName, rawParams: unknown, ctx: CallContext, answered = true): Promise<unknown> {
    const spec = methods[method];
    const params = spec.params.safeParse(rawParams);
    if (!params.success) {
      throw new RpcError(ErrorCode.InvalidParams, `invalid params for ${method}: ${describeIssues(params.error)}`);
    }
    const handler = this.handlers.get(method)!;
    const result = await handler(params.data, ctx);
    if (!answered) return undefined;
    if (nestsDeeperThan(result)) {
      throw new RpcError(ErrorCode.InternalError, `${method} produced a result nested deeper than ${MAX_JSON_DEPTH} levels; it was not sent`);
    }
    const checked = spec.result.safeParse(result);
    if (!checked.success) {
      throw new RpcError(ErrorCode.InternalError, `${method} produced an invalid result: ${describeIssues(checked.error)}`);
    }
    return checked.data;
  }
}

/** A response as text; one that cannot be serialized (a cycle, a BigInt) becomes an error for its id. */
function stringifyResponse(res: ResponseMessage): string {
  try {
    return JSON.stringify(res);
  } catch (err) {
    return JSON.stringify(errorResponse(res.id, ErrorCode.InternalError, `the result could not be sent: ${(err as Error).message}`));
  }
}

function idOf(message: unknown): string | number | null {
  if (message && typeof message === 'object' && 'id' in message) {
    const id = (message as { id: unknown }).id;
    if ((typeof id === 'string' && id.length <= 256) || (typeof id === 'number' && Number.isSafeInteger(id))) return id;
  }
  return null;
}
