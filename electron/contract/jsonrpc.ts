import { z } from 'zod';

/** JSON-RPC 2.0 error codes used across the contract. */
export const ErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  /** Application errors (-32000 … -32099): the request was valid, the action failed. */
  ActionFailed: -32000,
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/** Largest message (in characters) either side accepts; bigger ones are refused without parsing. */
export const MAX_MESSAGE_CHARS = 8 * 1024 * 1024;

/** Deepest nesting of arrays and objects a result or event may have; deeper ones are refused, not sent. */
export const MAX_JSON_DEPTH = 512;

/** Whether `value` nests arrays/objects deeper than `limit` (iterative: a hostile depth cannot overflow the stack). */
export function nestsDeeperThan(value: unknown, limit: number = MAX_JSON_DEPTH): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  const seen = new Set<object>();
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object' || seen.has(v)) continue;
    if (depth >= limit) return true;
    seen.add(v);
    for (const child of Array.isArray(v) ? v : Object.values(v)) {
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
    }
  }
  return false;
}

export const RequestId = z.union([z.string().max(256), z.number().int().safe()]);
export type RequestId = z.infer<typeof RequestId>;

/** Named params only: the contract never uses positional arguments. */
const Params = z.record(z.string(), z.unknown());

export const RequestMessage = z
  .object({
    jsonrpc: z.literal('2.0'),
    id: RequestId,
    method: z.string().min(1).max(200),
    params: Params.optional(),
  })
  .strict();
export type RequestMessage = z.infer<typeof RequestMessage>;

export const NotificationMessage = z
  .object({
    jsonrpc: z.literal('2.0'),
    method: z.string().min(1).max(200),
    params: Params.optional(),
  })
  .strict();
export type NotificationMessage = z.infer<typeof NotificationMessage>;

export const ErrorObject = z.object({
  code: z.number().int(),
  message: z.string(),
  data: z.unknown().optional(),
});
export type ErrorObject = z.infer<typeof ErrorObject>;

export const SuccessResponse = z
  .object({ jsonrpc: z.literal('2.0'), id: RequestId, result: z.unknown() })
  .strict();
export const ErrorResponse = z
  .object({ jsonrpc: z.literal('2.0'), id: RequestId.nullable(), error: ErrorObject })
  .strict();
export const ResponseMessage = z.union([SuccessResponse, ErrorResponse]);
export type SuccessResponse = z.infer<typeof SuccessResponse>;
export type ErrorResponse = z.infer<typeof ErrorResponse>;
export type ResponseMessage = z.infer<typeof ResponseMessage>;

export type Message = RequestMessage | NotificationMessage | ResponseMessage;

export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'RpcError';
  }
}

export function errorResponse(id: RequestId | null, code: number, message: string, data?: unknown): ErrorResponse {
  return { jsonrpc: '2.0', id, error: data === undefined ? { code, message } : { code, message, data } };
}

/** Turns zod issues into one readable line naming each bad field. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 8)
    .map((i) => `${i.path.length ? i.path.join('.') : '(root)'}: ${i.message}`)
    .join('; ');
}
