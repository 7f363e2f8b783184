/**
 * A JSON-RPC error as Erasmus's servers answer it. The SDK sends a thrown error's `code` and
 * `message`; its McpError would put "MCP error -32602:" in the message, and the client's McpError
 * prefixes that again. This one carries the bare message, so the caller sees one prefix.
 */
export class ProtocolError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'ProtocolError';
  }
}
