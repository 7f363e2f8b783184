import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { McpHub } from '../mcp/hub';
import type { AgentTool, AgentTools, ToolCallResult } from './tools';

/** The text of an MCP tool result for the model (text parts; other parts described briefly). */
export function resultText(r: CallToolResult): string {
  const parts = (r.content ?? []).map((c) => {
    if (c.type === 'text') return c.text;
    if (c.type === 'resource') return 'text' in c.resource ? c.resource.text : `[resource ${c.resource.uri}]`;
    if (c.type === 'resource_link') return `[resource link ${c.uri}]`;
    return `[${c.type} content]`;
  });
  if (!parts.length && r.structuredContent) return JSON.stringify(r.structuredContent);
  return parts.join('\n');
}

type HubPart = Pick<McpHub, 'toolsets' | 'openToolset' | 'callTool'>;

/** The MCP hub as the loop's AgentTools. */
export function hubTools(hub: HubPart): AgentTools {
  return {
    toolsets: () => hub.toolsets().map((t) => ({ name: t.name, description: t.description })),
    async openToolset(name) {
      return hub.openToolset(name).map(
        (t): AgentTool => ({
          name: t.qualifiedName,
          server: t.server,
          tool: t.name,
          toolset: name,
          description: t.description || t.title || t.name,
          inputSchema: t.inputSchema,
          annotations: t.annotations,
          alwaysAllow: t.alwaysAllow,
          ...(t.unlisted ? { unlisted: true } : {}),
        }),
      );
    },
    async call(tool, args, opts): Promise<ToolCallResult> {
      const r = await hub.callTool(tool.server, tool.tool, args, { signal: opts.signal, timeoutMs: opts.timeoutMs, onProgress: opts.onProgress });
      return { content: resultText(r), isError: r.isError === true };
    },
  };
}
