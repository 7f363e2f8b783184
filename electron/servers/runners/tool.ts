import { z } from 'zod';
import type { ScriptKind } from '../../main/runners/review/index';

export type Toolset = 'bash' | 'git' | 'pnpm' | 'cargo' | 'uv' | 'docker';

/** MCP tool annotations, stated honestly for each tool. */
export interface Annotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/** What a tool call turns into: one command line for the PTY, and what the script reviewer should see. */
export interface Plan {
  command: string;
  review?: { kind: ScriptKind; script: string };
}

export interface PlanContext {
  /** The project root (real path); every command runs there. */
  root: string;
}

export interface RunnerTool {
  name: string;
  toolset: Toolset;
  title: string;
  description: string;
  input: z.ZodRawShape;
  annotations: Annotations;
  plan(args: Record<string, unknown>, ctx: PlanContext): Plan | Promise<Plan>;
}

/** Parameters every runner tool takes. */
export const common = {
  purpose: z.string().max(2_000).optional().describe('Why this runs (shown to the user and the script reviewer).'),
  timeout_seconds: z.number().int().min(1).max(3_600).optional().describe('Stop after this many seconds (default 600).'),
  on_timeout: z
    .enum(['kill', 'background'])
    .optional()
    .describe('At the timeout: stop the whole process tree (default) or leave it running in the background and return what it printed so far.'),
};

/**
 * A value the runner places as a positional argument (a remote, a branch, a package, an image): one
 * that begins with `-` would be read as an option (`--receive-pack=CMD`), so it is refused.
 */
export function operand(max: number) {
  return z
    .string()
    .min(1)
    .max(max)
    .refine((v) => !v.startsWith('-'), { message: 'must not begin with "-" (it would be read as an option, not as a name)' });
}

/** Declares a tool with typed arguments; the registry keeps it untyped. */
export function defineTool<S extends z.ZodRawShape>(tool: {
  name: string;
  toolset: Toolset;
  title: string;
  description: string;
  input: S;
  annotations: Annotations;
  plan(args: z.output<z.ZodObject<S & typeof common>>, ctx: PlanContext): Plan | Promise<Plan>;
}): RunnerTool {
  return { ...tool, input: { ...common, ...tool.input }, plan: tool.plan as RunnerTool['plan'] };
}

export const READ_ONLY: Annotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
export const ADDITIVE: Annotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false };
export const DESTRUCTIVE: Annotations = { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true };
