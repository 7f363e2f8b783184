// Types of the plain-text (XML) tool-call protocol: the tools the parser knows and the events it emits.

/** The part of a JSON Schema the parser reads. MCP tool input schemas are passed as they are. */
export interface JsonSchema {
  type?: string | readonly string[];
  description?: string;
  properties?: Readonly<Record<string, JsonSchema>>;
  required?: readonly string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  enum?: readonly unknown[];
  const?: unknown;
  default?: unknown;
  examples?: readonly unknown[];
  anyOf?: readonly JsonSchema[];
  oneOf?: readonly JsonSchema[];
}

/** One tool as the parser and the prompt see it: an MCP tool's description and input schema. */
export interface ToolSpec {
  description?: string;
  inputSchema: JsonSchema;
}

export type ToolMap = ReadonlyMap<string, ToolSpec>;

export interface ParserOptions {
  tools: ToolMap;
  /** Lines starting with `!` become shell commands (default true). */
  shell?: boolean;
}

/** Prose (and thinking, and code shown in fences): everything that is not a call. */
export interface TextEvent {
  type: 'text';
  text: string;
}

export interface ToolCallEvent {
  type: 'tool_call';
  /** The call's declared id (`<read_file id="a">`) or a generated `call_N`. */
  id: string;
  name: string;
  /** Parameters coerced by the tool's schema; those holding a `{{id.result}}` placeholder stay strings. */
  args: Record<string, unknown>;
  /** Ids of earlier calls in the same message whose results this call uses (see resolveDependencies). */
  dependsOn: string[];
  /** Which form the model used. */
  form: 'xml' | 'json';
  /** The call exactly as the model wrote it (JSON form: the whole fenced block, shared by its calls). */
  raw: string;
}

export interface ShellEvent {
  type: 'shell';
  /** The command without the `!`, trimmed; continued lines (ending in `\`) included. */
  command: string;
  /** The line(s) as written, without the final line break (that one is emitted as text). */
  raw: string;
}

export interface InvalidCallEvent {
  type: 'invalid_call';
  name?: string;
  raw: string;
  /** Corrective text for the model: what was wrong and what is available. */
  message: string;
  /** Set for a call to an unknown tool: its raw text was also emitted as text (it stays prose). */
  shown?: true;
}

export type ParserEvent = TextEvent | ToolCallEvent | ShellEvent | InvalidCallEvent;

export interface ToolCallParser {
  /** Feeds the next chunk of the model's message; returns the events it completes. */
  push(chunk: string): ParserEvent[];
  /** Ends the message: flushes held text and reports unclosed calls as invalid_call. */
  end(): ParserEvent[];
}
