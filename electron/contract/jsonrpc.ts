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
