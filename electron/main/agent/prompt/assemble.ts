import type { AgentTool, ToolsetSummary } from '../tools';
import { OPEN_TOOLSET } from '../tools';
import { renderSections, type PromptSection } from './sections';

export interface AssembleOptions {
  staticSections: PromptSection[];
  dynamicSections: PromptSection[];
  /** The active protocol's prompt. */
  protocolPrompt?: string;
  /** Extra sections from the caller (e.g. the component's context document). */
  extraSections?: PromptSection[];
  toolsets: ToolsetSummary[];
  toolMode: 'native' | 'xml';
  /** xml mode: the "Tool use" section for the tools offered from the start. */
  xmlToolUse?: string;
  /** Toolsets opened from the start. */
  openedToolsets?: string[];
  /** `!command` lines are available. */
  shell?: boolean;
}

/** The system prompt: static sections, protocol, caller sections, dynamic sections, toolsets. */
export function assembleSystemPrompt(o: AssembleOptions): string {
  const sections: PromptSection[] = [...o.staticSections];
  if (o.protocolPrompt?.trim()) sections.push({ title: 'Protocol', body: o.protocolPrompt.trim() });
  sections.push(...(o.extraSections ?? []), ...o.dynamicSections);
  sections.push({ title: 'Toolsets', body: toolsetsBody(o) });
  if (o.toolMode === 'xml' && o.xmlToolUse) sections.push({ title: 'Tool use', body: o.xmlToolUse });
  return renderSections(sections);
}

function toolsetsBody(o: AssembleOptions): string {
  if (!o.toolsets.length) return 'No toolsets are available in this session.';
  const opened = new Set(o.openedToolsets ?? []);
  const lines = o.toolsets.map((t) => `- ${t.name}${opened.has(t.name) ? ' (open)' : ''}: ${t.description}`);
  const how =
    o.toolMode === 'xml'
      ? `To see and use a toolset's tools, call the \`${OPEN_TOOLSET}\` tool with its name; its result lists the tools, their parameters and an example call for each.`
      : `To use a toolset's tools, call the \`${OPEN_TOOLSET}\` tool with its name; its tools become available from your next turn.`;
  const shell = o.shell ? '\n\nA line that starts with `!` is run as a shell command in the working directory, e.g. `!npm test`.' : '';
  return `${lines.join('\n')}\n\n${how}${shell}`;
}

/** A compact description of tools for a tool result in native mode. */
export function describeTools(tools: AgentTool[]): string {
  return tools.map((t) => `- ${t.name}: ${t.description.split('\n')[0]}`).join('\n');
}
