/** What the loop needs from the streaming XML tool-call parser (electron/main/agent/xml). */
export interface XmlToolSpec {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

export type XmlParserEvent =
  | { type: 'text'; text: string }
  | { type: 'tool_call'; id: string; name: string; args: Record<string, unknown>; raw: string; dependsOn?: string[] }
  | { type: 'shell'; command: string }
  | { type: 'invalid_call'; message: string; name?: string; shown?: true };

export interface XmlParser {
  push(chunk: string): XmlParserEvent[];
  end(): XmlParserEvent[];
}

export interface XmlSupport {
  createParser(o: { tools: XmlToolSpec[] }): XmlParser;
  /** The "Tool use" prompt section: the protocol (once per session), then these tools if any. */
  /** `shell: false` leaves out the `!command` lines where the session has no shell (a step without runners). */
  formatToolUse(tools: XmlToolSpec[], opts?: { exampleToolset?: string; shell?: boolean }): string;
  /** A list of tools without the protocol (an `open_toolset` result). */
  formatTools(tools: XmlToolSpec[]): string;
  /** Fills `{{id.result}}` placeholders of a call that depends on earlier calls' results. */
  resolve(call: { name: string; args: Record<string, unknown>; dependsOn: string[] }, results: ReadonlyMap<string, string>, inputSchema?: Record<string, unknown>): { ok: true; args: Record<string, unknown> } | { ok: false; message: string };
}
