import { ErrorCode, McpError, type CallToolResult, type LoggingLevel, type Tool, type ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { ProtocolError } from './errors';
import { z } from 'zod';

/** What a tool handler gets besides its arguments: cancellation, progress and logging for this call. */
export interface ToolContext {
  signal: AbortSignal;
  /** Sends `notifications/progress` when the client gave a progressToken; a no-op otherwise. */
  progress(message: string): Promise<void>;
  /** Sends a `notifications/message` (filtered by the client's logging level). */
  log(level: LoggingLevel, data: unknown): Promise<void>;
}

export interface ToolSpec<S extends z.ZodType = z.ZodType> {
  name: string;
  title?: string;
  description: string;
  input: S;
  /** JSON Schema of structuredContent, when the tool returns one. */
  outputSchema?: z.ZodType;
  annotations?: ToolAnnotations;
  run(args: z.output<S>, ctx: ToolContext): Promise<CallToolResult>;
}

/** Type-checks a spec against its own schema, then erases the type for the registry. */
export function defineTool<S extends z.ZodType>(spec: ToolSpec<S>): ToolSpec {
  return spec as unknown as ToolSpec;
}

function objectSchema(schema: z.ZodType, io: 'input' | 'output'): Tool['inputSchema'] {
  const json = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<string, unknown>;
  delete json.$schema;
  return { ...json, type: 'object' } as Tool['inputSchema'];
}

/** Readable zod issues: `field: message; other.field: message`. */
export function describeZodIssues(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.length ? i.path.join('.') : '(arguments)'}: ${i.message}`).join('; ');
}

/**
 * The tool registry: each name maps to its zod schema and its handler. Listing derives the JSON
 * Schemas from the zod ones; calling validates first, so a handler only ever sees good arguments.
 * Unknown tools and bad arguments are JSON-RPC errors -32602; failures inside a handler are -32603.
 */
export class ToolRegistry {
  private readonly tools = new Map<string, ToolSpec>();

  add(...specs: ToolSpec[]): this {
    for (const spec of specs) {
      if (this.tools.has(spec.name)) throw new Error(`tool ${spec.name} is registered twice`);
      this.tools.set(spec.name, spec);
    }
    return this;
  }

  names(): string[] {
    return [...this.tools.keys()];
  }

  list(): Tool[] {
    return [...this.tools.values()].map((t) => ({
      name: t.name,
      ...(t.title ? { title: t.title } : {}),
      description: t.description,
      inputSchema: objectSchema(t.input, 'input'),
      ...(t.outputSchema ? { outputSchema: objectSchema(t.outputSchema, 'output') } : {}),
      ...(t.annotations ? { annotations: t.annotations } : {}),
    }));
  }

  async call(name: string, rawArgs: unknown, ctx: ToolContext): Promise<CallToolResult> {
    const spec = this.tools.get(name);
    if (!spec) throw new ProtocolError(ErrorCode.InvalidParams, `unknown tool "${name}" (tools: ${this.names().join(', ')})`);
    const parsed = spec.input.safeParse(rawArgs ?? {});
    // Per 2025-11-25, arguments that do not fit are a tool error the model can read and correct, not a protocol error.
    if (!parsed.success) return errorResult(`invalid arguments for ${name}: ${describeZodIssues(parsed.error)}. Call ${name} again with arguments that match its input schema.`);
    try {
      return await spec.run(parsed.data, ctx);
    } catch (err) {
      if (err instanceof McpError || err instanceof ProtocolError) throw err;
      return errorResult(`${name} failed: ${(err as Error).message ?? String(err)}`);
    }
  }
}

/** A text result, with structured content when given. */
export function textResult(text: string, structured?: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text }], ...(structured ? { structuredContent: structured } : {}) };
}

/** A tool-level failure the calling model should see (isError), with its kind in structured content. */
export function errorResult(text: string, structured?: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true, ...(structured ? { structuredContent: structured } : {}) };
}
