import process from 'node:process';
import type { Readable, Writable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ClientRequestSchema, ErrorCode, JSONRPCMessageSchema, type JSONRPCMessage, type RequestId } from '@modelcontextprotocol/sdk/types.js';

const MAX_LINE = 10 * 1024 * 1024;

/** The schema of each request a client may send, by method, to check its params before a handler sees them. */
const REQUEST_SCHEMAS = new Map(ClientRequestSchema.options.map((s) => [s.shape.method.value as string, s] as const));

type ErrorResponse = { jsonrpc: '2.0'; id: RequestId | null; error: { code: number; message: string } };
export type Triage = { message: JSONRPCMessage } | { reply: ErrorResponse } | { ignore: string };

const idOf = (v: unknown): RequestId | null => {
  const id = (v as { id?: unknown } | null)?.id;
  return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : null;
};
const fail = (id: RequestId | null, code: number, message: string): Triage => ({ reply: { jsonrpc: '2.0', id, error: { code, message } } });

/**
 * Sorts one line a client sent: a well-formed message goes on; a line that is not JSON gets -32700, a
 * message that is neither a request, a notification nor a response gets -32600, and a known request
 * whose params do not fit gets -32602 naming what was wrong (not a handler's -32603 and a raw dump).
 */
export function triageLine(line: string, checkParams = true): Triage {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (err) {
    return fail(null, ErrorCode.ParseError, `Parse error: the line is not JSON (${(err as Error).message})`);
  }
  const id = idOf(value);
  const obj = value as Record<string, unknown> | null;
  if (typeof obj !== 'object' || obj === null || Array.isArray(obj)) return fail(null, ErrorCode.InvalidRequest, 'Invalid Request: a JSON-RPC message is one JSON object');
  if (obj.jsonrpc !== '2.0') return fail(id, ErrorCode.InvalidRequest, 'Invalid Request: "jsonrpc" must be "2.0"');
  const isResponse = 'result' in obj || 'error' in obj;
  if (!isResponse && typeof obj.method !== 'string') return fail(id, ErrorCode.InvalidRequest, 'Invalid Request: the message has no "method" (a request or notification needs one; a response needs "result" or "error")');
  const parsed = JSONRPCMessageSchema.safeParse(value);
  if (!parsed.success) {
    if (isResponse || !('id' in obj)) return { ignore: `malformed ${isResponse ? 'response' : 'notification'}: ${issues(parsed.error.issues)}` };
    return fail(id, ErrorCode.InvalidRequest, `Invalid Request: ${issues(parsed.error.issues)}`);
  }
  const schema = checkParams && typeof obj.method === 'string' && 'id' in obj ? REQUEST_SCHEMAS.get(obj.method) : undefined;
  if (schema) {
    const checked = schema.safeParse(value);
    if (!checked.success) return fail(id, ErrorCode.InvalidParams, `Invalid params for ${obj.method}: ${issues(checked.error.issues)}`);
  }
  return { message: parsed.data };
}

function issues(list: readonly { path: readonly PropertyKey[]; message: string }[]): string {
  return list
    .slice(0, 5)
    .map((i) => {
      const where = i.path.map(String).join('.');
      const missing = /expected (\w+), received undefined/.exec(i.message);
      if (where && missing) return `${where} is missing (expected a ${missing[1]})`;
      return where ? `${where}: ${i.message}` : i.message;
    })
    .join('; ');
}

/**
 * A stdio server transport that answers every malformed line with its JSON-RPC error (the SDK's
 * stdio transport only reports them to `onerror`, so the client waits for an answer that never comes).
 */
export class GuardedStdioServerTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private buffer = '';
  private started = false;
  private closed = false;

  /**
   * `checkParams: false` leaves params to a later layer (the erasmus server's TolerantTransport, which
   * first rewrites older dialects such as `tool_name`).
   */
  constructor(
    private readonly options: { checkParams?: boolean } = {},
    private readonly stdin: Readable = process.stdin,
    private readonly stdout: Writable = process.stdout,
  ) {}

  private readonly ondata = (chunk: Buffer | string) => {
    this.buffer += chunk.toString();
    let nl: number;
    while ((nl = this.buffer.indexOf('\n')) >= 0) {
      const line = this.buffer.slice(0, nl).replace(/\r$/, '');
      this.buffer = this.buffer.slice(nl + 1);
      if (line.trim()) this.handle(line);
    }
    if (this.buffer.length > MAX_LINE) {
      this.buffer = '';
      this.reply(fail(null, ErrorCode.InvalidRequest, `Invalid Request: a message longer than ${MAX_LINE} bytes was dropped`));
    }
  };
  private readonly onStreamError = (err: Error) => this.onerror?.(err);
  private readonly onEnd = () => void this.close();

  private handle(line: string): void {
    const t = triageLine(line, this.options.checkParams ?? true);
    if ('message' in t) this.onmessage?.(t.message);
    else if ('reply' in t) this.reply(t);
    else this.onerror?.(new Error(t.ignore));
  }

  private reply(t: Triage): void {
    if ('reply' in t) void this.send(t.reply as JSONRPCMessage).catch((err: Error) => this.onerror?.(err));
  }

  async start(): Promise<void> {
    if (this.started) throw new Error('GuardedStdioServerTransport already started');
    this.started = true;
    this.stdin.setEncoding('utf8');
    this.stdin.on('data', this.ondata);
    this.stdin.on('error', this.onStreamError);
    this.stdin.on('end', this.onEnd);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.stdin.off('data', this.ondata);
    this.stdin.off('error', this.onStreamError);
    this.stdin.off('end', this.onEnd);
    if (this.stdin.listenerCount('data') === 0) this.stdin.pause();
    this.buffer = '';
    this.onclose?.();
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      if (this.stdout.write(`${JSON.stringify(message)}\n`)) resolve();
      else this.stdout.once('drain', resolve);
    });
  }
}
