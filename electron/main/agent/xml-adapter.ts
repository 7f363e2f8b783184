import { createToolCallParser, formatToolUseSection, formatTools, resolveDependencies } from './xml/index';
import type { JsonSchema, ToolMap } from './xml/types';
import type { XmlSupport, XmlToolSpec } from './xml-support';

function toMap(tools: XmlToolSpec[]): ToolMap {
  return new Map(tools.map((t) => [t.name, { description: t.description, inputSchema: t.inputSchema as JsonSchema }]));
}

/** The streaming XML tool-call parser (electron/main/agent/xml) as the loop's XmlSupport. */
export function xmlSupport(opts: { shell?: boolean } = {}): XmlSupport {
  return {
    createParser: ({ tools }) => {
      const p = createToolCallParser({ tools: toMap(tools), shell: opts.shell ?? false });
      return { push: (c) => p.push(c), end: () => p.end() };
    },
    formatToolUse: (tools, o) => formatToolUseSection(toMap(tools), { shell: (opts.shell ?? false) && o?.shell !== false, ...(o?.exampleToolset ? { exampleToolset: o.exampleToolset } : {}) }),
    formatTools: (tools) => formatTools(toMap(tools)),
    resolve: (call, results, schema) => resolveDependencies(call, results, schema as JsonSchema | undefined),
  };
}
