import type { AgentTool, ToolsetSummary } from '../tools';
import { OPEN_TOOLSET } from '../tools';
import { renderSections, type PromptSection } from './sections';

export interface AssembleOptions {
  staticSections: PromptSection[];
  dynamicSections: PromptSection[];
  /** The active protocol's prompt. */
  protocolPrompt?: string;
  /** Sections the caller's sessions share (a workflow run's architecture): after the toolsets, before the protocol. */
  sharedSections?: PromptSection[];
  /** Extra sections from the caller (e.g. the component's context document). */
  extraSections?: PromptSection[];
  toolsets: ToolsetSummary[];
  toolMode: 'native' | 'xml';
  /** xml mode: the "Tool use" section for the tools offered from the start. */
  xmlToolUse?: string;
  /** Toolsets opened from the start. */
  openedToolsets?: string[];
  /** `!command` lines are available (xml mode only: the native loop sends text to no parser, so a `!` line there would never run). */
  shell?: boolean;
}

/**
 * The system prompt: first what is the same for every step of a workflow run (static sections, toolsets, in xml
 * mode the "Tool use" documentation of their tools, the caller's shared sections), then what changes (protocol, caller sections, the
 * dynamic sections: time, working directory listing). A provider's prompt cache serves that start across steps.
 */
export function assembleSystemPrompt(o: AssembleOptions): string {
  let text = renderSections([...o.staticSections, { title: 'Toolsets', body: toolsetsBody(o) }]);
  // The "Tool use" section carries its own heading (it is also what a toolset's result would show).
  if (o.toolMode === 'xml' && o.xmlToolUse) text = `${text}\n\n${o.xmlToolUse.trimEnd()}`;
  if (o.sharedSections?.length) text = `${text}\n\n${renderSections(o.sharedSections)}`;
  const after: PromptSection[] = [];
  if (o.protocolPrompt?.trim()) after.push({ title: 'Protocol', body: o.protocolPrompt.trim() });
  after.push(...(o.extraSections ?? []), ...o.dynamicSections);
  return after.length ? `${text}\n\n${renderSections(after)}` : text;
}

function toolsetsBody(o: AssembleOptions): string {
  const shell = o.shell && o.toolMode === 'xml';
  if (!o.toolsets.length) return `No toolsets are available in this session: answer without tool calls.${shell ? SHELL : ''}`;
  const opened = new Set(o.openedToolsets ?? []);
  const lines = o.toolsets.map((t) => `- ${t.name}${opened.has(t.name) ? ' (open)' : ''}: ${t.description}`);
  // Every toolset open from the start: nothing to open (and in xml mode Tool use then shows no open_toolset example).
  // `open_toolset` stays offered: it shows a toolset's tools again with their parameters (and names the unlisted ones).
  if (o.toolsets.every((t) => opened.has(t.name))) return `${lines.join('\n')}\n\nEvery toolset is open: its tools are listed${o.toolMode === 'xml' ? ' under Tool use' : ''}, so there is nothing to open (\`${OPEN_TOOLSET}\` only shows a toolset's tools again, with their parameters).`;
  const how =
    o.toolMode === 'xml'
      ? `Open one with \`${OPEN_TOOLSET}\` (see Tool use).`
      : `The \`${OPEN_TOOLSET}\` tool (parameter \`name\`: a toolset's name) opens a toolset: its tools are available from your next turn.`;
  // In xml mode the "Tool use" section states the `!` rule. Native mode has no `!` lines: its text goes
  // to no parser, so a `!` line would be taken as the answer (in a workflow, saved as the document).
  return `${lines.join('\n')}\n\n${how}`;
}

const SHELL = '\n\nA line that starts with `!` runs the rest of the line as a shell command in the working directory, e.g. `!git status`.';

/** A compact description of tools for a tool result in native mode. */
export function describeTools(tools: AgentTool[]): string {
  return tools.map((t) => `- ${t.name}: ${t.description.split('\n')[0]}`).join('\n');
}
