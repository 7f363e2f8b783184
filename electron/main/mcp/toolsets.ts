import { patternMatcher, type CatalogGroup } from './catalog';
import type { ServerConnection } from './connection';
import { safeIcons } from './icons';
import { qualifiedName, type ToolInfo, type ToolsetSummary } from './types';

/** A tool's `_meta` key that keeps it out of its toolset's listing (still callable by name). */
export const UNLISTED_META = 'erasmus/unlisted';

/** A server's tools as the agent sees them: full schemas plus policy data (annotations, alwaysAllow). */
export function toolInfos(c: ServerConnection): ToolInfo[] {
  return c.tools.map((t) => ({
    server: c.name,
    name: t.name,
    qualifiedName: qualifiedName(c.name, t.name),
    title: t.title ?? t.annotations?.title,
    description: t.description ?? '',
    inputSchema: t.inputSchema as Record<string, unknown>,
    outputSchema: t.outputSchema as Record<string, unknown> | undefined,
    annotations: { ...(t.annotations ?? {}) },
    alwaysAllow: c.alwaysAllow.includes(t.name) || c.alwaysAllow.includes('*'),
    ...(t._meta?.[UNLISTED_META] === true ? { unlisted: true } : {}),
    ...(safeIcons(t.icons) ? { icons: safeIcons(t.icons) } : {}),
  }));
}

/**
 * Progressive disclosure: a name and one line per toolset — each ready server with tools, and each
 * catalog group that matches tools of the connected servers. Opening one yields its full tools.
 */
export function summarizeToolsets(connections: ServerConnection[], groups: CatalogGroup[]): ToolsetSummary[] {
  const out: ToolsetSummary[] = [];
  for (const c of connections) {
    if (c.state !== 'ready' || c.tools.length === 0) continue;
    const s = c.status();
    const names = c.tools.map((t) => t.name);
    const fallback = `${s.serverInfo?.name ?? c.name}: ${names.slice(0, 6).join(', ')}${names.length > 6 ? ', …' : ''}`;
    const info = s.serverInfo as { title?: string; description?: string } | undefined;
    const line = (c.options.description ?? info?.description ?? proseLine(s.instructions) ?? fallback).slice(0, 160);
    out.push({ name: c.name, description: line, kind: 'server', servers: [c.name], tools: c.tools.length });
  }
  const all = connections.flatMap(toolInfos);
  const taken = new Set(connections.map((c) => c.name));
  for (const g of groups) {
    if (taken.has(g.name)) continue;
    const tools = groupTools(g, all);
    if (tools.length) out.push({ name: g.name, description: g.description, kind: 'group', servers: [...new Set(tools.map((t) => t.server))], tools: tools.length });
  }
  return out;
}

export function groupTools(group: CatalogGroup, all: ToolInfo[]): ToolInfo[] {
  const match = patternMatcher(group.tools);
  return all.filter((t) => match(t.qualifiedName));
}

/**
 * The first line of a server's instructions when it is prose: a Markdown heading ("# Everything Server – Server
 * Instructions") titles the instructions, it does not say what the tools are for.
 */
function proseLine(text: string | undefined): string | undefined {
  const line = text?.split('\n').find((l) => l.trim())?.trim();
  return line && !/^#{1,6}\s/.test(line) ? line : undefined;
}
