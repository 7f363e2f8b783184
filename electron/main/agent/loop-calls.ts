// One turn's calls as the loop runs them: calls and corrections in the order written, names resolved
// against the reachable tools (a call to a tool of a toolset that is not open yet opens it on the way).
import type { PendingCall } from './execute';
import { activeName, ambiguousText, type Reach } from './reach';
import { OPEN_TOOLSET, type AgentTool } from './tools';
import { usageBlock, type JsonSchema } from './xml/index';
import type { XmlParserEvent } from './xml-support';

/** A call, or a correction for a call that could not run, in the place it was written. */
export type TurnItem = PendingCall | { kind: 'correction'; message: string };

/** The correction for an invalid call: an ambiguous bare name or an unknown tool gets the session's own words. */
export function correctionFor(e: Extract<XmlParserEvent, { type: 'invalid_call' }>, reach: Reach, active: ReadonlyMap<string, AgentTool>, toolsets: string[], opened: ReadonlySet<string>): string {
  const candidates = e.name === undefined ? undefined : reach.ambiguous.get(e.name);
  if (e.name !== undefined && candidates) return ambiguousText(e.name, candidates);
  if (e.name !== undefined && e.shown) return unknownToolText(e.name, active, toolsets, opened);
  return e.message;
}

/** What a model can call instead of an unknown name. */
export function unknownToolText(name: string, active: ReadonlyMap<string, AgentTool>, toolsets: string[], opened: ReadonlySet<string>): string {
  const open = [OPEN_TOOLSET, ...active.keys()];
  const sets = toolsets.map((t) => `${t}${opened.has(t) ? ' (open)' : ''}`);
  return [
    `There is no tool named "${name}", so nothing was run.`,
    `Tools you can call now: ${open.join(', ')}.`,
    sets.length ? `Toolsets: ${sets.join(', ')}. A tool of a toolset that is not open can be called by its full name (toolset__tool); ${OPEN_TOOLSET} lists a toolset's tools with their parameters.` : 'No toolsets are available in this session.',
  ].join('\n');
}

export type Resolved = { error: string } | { name?: string; note: string };

/**
 * A call's name that is not an open tool: an unambiguous bare name or a tool of a toolset not open
 * yet (which `open` opens). `name` undefined = not reachable (the call fails as an unknown tool).
 */
export async function reachFor(name: string, reach: Reach, active: ReadonlyMap<string, AgentTool>, open: (toolset: string, tool: AgentTool) => Promise<AgentTool[]>): Promise<Resolved> {
  const candidates = reach.ambiguous.get(name);
  if (candidates) return { error: ambiguousText(name, candidates) };
  const t = reach.names.get(name);
  if (!t) return { note: '' };
  const already = activeName(active, t);
  if (already) return { name: already, note: '' };
  let added: AgentTool[];
  try {
    added = await open(t.toolset, t);
  } catch (err) {
    return { error: `${name} is in the toolset "${t.toolset}", which could not be opened: ${(err as Error).message}` };
  }
  const now = activeName(active, t);
  if (!now) return { error: `${name} is not in the toolset "${t.toolset}" any more; call ${OPEN_TOOLSET} to see its tools.` };
  if (!added.length) return { name: now, note: '' };
  const others = added.map((x) => x.name).filter((n) => n !== now);
  return { name: now, note: `[Toolset "${t.toolset}" was opened for this call.${others.length ? ` Its other tools: ${others.join(', ')} (${OPEN_TOOLSET} lists their parameters).` : ''}]` };
}

/** A tool's usage block (for corrections), by any name the model may use. */
export function usageOf(name: string, active: ReadonlyMap<string, AgentTool>, reach: Reach): string | undefined {
  if (name === OPEN_TOOLSET) return `<${OPEN_TOOLSET}>\n<name>files</name>\n</${OPEN_TOOLSET}>`;
  const t = active.get(name) ?? reach.names.get(name);
  return t ? usageBlock(name, { description: t.description, inputSchema: t.inputSchema as JsonSchema }) : undefined;
}
