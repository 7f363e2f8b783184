/** What the loop needs from the tool side (the MCP hub satisfies it through hub-tools.ts). */
import type { ImagePart } from '../../contract/index';

export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/** A tool as the model sees it. `name` is unique in a session and safe for every provider. */
export interface AgentTool {
  name: string;
  /** Server and tool name as the hub knows them. */
  server: string;
  tool: string;
  toolset: string;
  description: string;
  inputSchema: Record<string, unknown>;
  /** The tool's declared output schema (its structured content is shown when no text holds it). */
  outputSchema?: Record<string, unknown>;
  annotations?: ToolAnnotations;
  /** The server's `alwaysAllow` lists this tool. */
  alwaysAllow?: boolean;
  /** Not listed when its toolset opens (e.g. a toolchain the project does not use); callable by name. */
  unlisted?: boolean;
}

export interface ToolsetSummary {
  name: string;
  /** One line for the prompt. */
  description: string;
  /** Offered even where a session limits its toolsets (a workflow step): it only follows up what a tool result pointed to. */
  followUp?: boolean;
}

export interface ToolCallResult {
  /** Text for the model (it names each image in `images`, so a model that cannot see them still knows they exist). */
  content: string;
  isError: boolean;
  /** Images the tool returned, for a model that takes them. */
  images?: ImagePart[];
}

export interface ToolCallOptions {
  signal: AbortSignal;
  timeoutMs?: number;
  onProgress?: (p: { progress: number; total?: number; message?: string }) => void;
  /** `_meta` for the server (the session's project access). */
  meta?: Record<string, unknown>;
}

export interface AgentTools {
  toolsets(): ToolsetSummary[] | Promise<ToolsetSummary[]>;
  /** The tools of one toolset; throws (with a message for the model) when it does not exist. */
  openToolset(name: string): Promise<AgentTool[]>;
  call(tool: AgentTool, args: Record<string, unknown>, opts: ToolCallOptions): Promise<ToolCallResult>;
  /** Why this session may not make this call (words for the model), checked before any approval is asked; undefined when it may. */
  refusal?(tool: AgentTool, args: Record<string, unknown>): string | undefined;
}

/**
 * Runs a `!command` line through the runner, when a session has the runners: `session` keys its
 * temporary folder (TMPDIR), kept across the session's commands; `access` other than `write` mounts
 * the project read-only.
 */
export type ShellRunner = (command: string, opts: { signal: AbortSignal; cwd?: string; session?: string; access?: 'write' | 'read' | 'markdown' }) => Promise<ToolCallResult>;

/** A provider-safe tool name: [A-Za-z0-9_-]{1,64}. */
export function safeToolName(name: string, taken: Set<string>): string {
  let base = name.replace(/[^A-Za-z0-9_-]+/g, '_').slice(0, 64) || 'tool';
  let n = 2;
  while (taken.has(base)) base = `${base.slice(0, 60)}_${n++}`;
  taken.add(base);
  return base;
}

/** The built-in tool that discloses a toolset's tools (progressive disclosure). */
export const OPEN_TOOLSET = 'open_toolset';
export const openToolsetSchema = {
  type: 'object',
  properties: { name: { type: 'string', description: 'the toolset to open, as listed under "Toolsets"' } },
  required: ['name'],
  additionalProperties: false,
} as const;

/** An in-memory AgentTools for tests and benchmarks: toolsets of plain functions. */
export function memoryTools(
  sets: Record<string, { description: string; tools: (Omit<AgentTool, 'server' | 'tool' | 'toolset'> & { run: (args: Record<string, unknown>) => Promise<string> | string })[] }>,
): AgentTools {
  return {
    toolsets: () => Object.entries(sets).map(([name, s]) => ({ name, description: s.description })),
    async openToolset(name) {
      const s = sets[name];
      if (!s) throw new Error(`no toolset named "${name}"; available: ${Object.keys(sets).join(', ')}`);
      return s.tools.map(({ run: _run, ...t }) => ({ ...t, server: name, tool: t.name, toolset: name }));
    },
    async call(tool, args) {
      const t = sets[tool.toolset]?.tools.find((x) => x.name === tool.tool);
      if (!t) return { content: `unknown tool ${tool.name}`, isError: true };
      try {
        return { content: await t.run(args), isError: false };
      } catch (err) {
        return { content: (err as Error).message, isError: true };
      }
    },
  };
}
