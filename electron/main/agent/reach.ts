// What a model may call by name: the open tools, and every tool of a toolset the session offers —
// by its qualified name (`files__read_file`) or, when no other toolset has one of the same name, its
// bare name (`read_file`). A call to a tool of a toolset that is not open yet opens it on the way.
import type { AgentTool, AgentTools } from './tools';

export interface Reach {
  /** Model-facing names (qualified and unambiguous bare names) of tools that are not open yet or are aliases. */
  readonly names: ReadonlyMap<string, AgentTool>;
  /** Bare names that more than one toolset has → their qualified names. */
  readonly ambiguous: ReadonlyMap<string, string[]>;
}

/**
 * The tools reachable by name beyond the open ones. `toolsetNames` are the toolsets the session
 * offers; listing one must not fail the turn (a toolset that cannot be listed is left out).
 */
export async function reachableTools(tools: AgentTools, toolsetNames: string[], active: ReadonlyMap<string, AgentTool>): Promise<Reach> {
  const all: AgentTool[] = [...active.values()];
  const seen = new Set(all.map((t) => `${t.server}\u0000${t.tool}`));
  for (const set of toolsetNames) {
    let list: AgentTool[];
    try {
      list = await tools.openToolset(set);
    } catch {
      continue;
    }
    for (const t of list) {
      const key = `${t.server}\u0000${t.tool}`;
      if (seen.has(key)) continue;
      seen.add(key);
      all.push(t);
    }
  }
  const names = new Map<string, AgentTool>();
  for (const t of all) if (!active.has(t.name)) names.set(t.name, t);
  const bare = new Map<string, AgentTool[]>();
  for (const t of all) if (t.tool !== t.name) bare.set(t.tool, [...(bare.get(t.tool) ?? []), t]);
  const ambiguous = new Map<string, string[]>();
  for (const [name, list] of bare) {
    if (active.has(name) || names.has(name)) continue;
    if (list.length === 1) names.set(name, list[0]!);
    else ambiguous.set(name, list.map((t) => activeName(active, t) ?? t.name));
  }
  return { names, ambiguous };
}

/** The model-facing name of an open tool (same server and tool), if it is open. */
export function activeName(active: ReadonlyMap<string, AgentTool>, t: Pick<AgentTool, 'server' | 'tool'>): string | undefined {
  for (const [name, a] of active) if (a.server === t.server && a.tool === t.tool) return name;
  return undefined;
}

/** The correction for a bare name that several toolsets have. */
export function ambiguousText(name: string, candidates: string[]): string {
  return `"${name}" is the name of a tool in several toolsets, so nothing was run. Write the call again with the full name of the one you mean: ${candidates.join(' or ')}.`;
}
