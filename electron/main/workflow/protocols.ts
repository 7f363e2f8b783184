import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse as parseYaml, YAMLParseError } from 'yaml';
import { z } from 'zod';
import { resourcesDir } from '../paths/index';
import { PROJECT_PROTOCOLS_DIR, ProjectTrust, UntrustedProjectFileError } from '../project/trust';
import { WorkflowError } from './errors';

export const PROTOCOL_NAMES = ['design', 'orchestration', 'development', 'testing', 'debugging', 'review', 'documentation'] as const;
export const ProtocolName = z.enum(PROTOCOL_NAMES);
export type ProtocolName = z.infer<typeof ProtocolName>;

/** The YAML front matter of a protocol file. */
export const ProtocolFrontMatter = z
  .object({
    name: ProtocolName,
    description: z.string().min(1),
    /** Toolsets (names in the MCP hub's catalog) a step of this protocol may open. */
    toolsets: z.array(z.string().min(1)).default([]),
    /**
     * What its steps may do to the project: write it, only read it (design, review), or write
     * Markdown files only (documentation). Enforced by the tools and the sandbox, not by the prompt.
     */
    access: z.enum(['write', 'read', 'markdown']).default('write'),
    /** What counts as done: told to the model, which must say so explicitly. */
    done: z.string().min(1),
    /** For protocols that repeat until a check passes (debugging): how many tries before blocking. */
    maxAttempts: z.number().int().min(1).max(50).default(3),
    /** Budget of one step: the agent loop stops there and the step ends "not done". */
    budget: z
      .object({ maxTurns: z.number().int().min(1).max(1000).default(40), maxTokens: z.number().int().min(1000).optional() })
      .strict()
      .default({ maxTurns: 40 }),
  })
  .strict();
export type ProtocolFrontMatter = z.infer<typeof ProtocolFrontMatter>;

export interface Protocol extends ProtocolFrontMatter {
  /** The prompt (markdown after the front matter). */
  prompt: string;
  /** The file it came from (a project override or resources/protocols). */
  file: string;
}

const FRONT = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/;

/** Parses one protocol file's text; errors name the file and the field. */
export function parseProtocol(text: string, file: string): Protocol {
  const m = FRONT.exec(text);
  if (!m) throw new WorkflowError('PARSE_ERROR', `${file}: no YAML front matter (the file must start with a "---" block)`, { file });
  let data: unknown;
  try {
    data = parseYaml(m[1]!);
  } catch (err) {
    const line = err instanceof YAMLParseError ? err.linePos?.[0]?.line : undefined;
    const at = line ? ` (line ${line + 1})` : '';
    throw new WorkflowError('PARSE_ERROR', `${file}: front matter is not valid YAML${at}: ${(err as Error).message.split('\n')[0]}`, {
      file,
      issues: [{ line: line ? line + 1 : undefined, message: (err as Error).message.split('\n')[0]! }],
    });
  }
  const r = ProtocolFrontMatter.safeParse(data ?? {});
  if (!r.success) {
    const issues = r.error.issues.map((i) => ({ message: `${i.path.join('.') || '(front matter)'}: ${i.message}` }));
    const field = r.error.issues[0]?.path.join('.') || undefined;
    throw new WorkflowError('PARSE_ERROR', `${file}: bad front matter: ${issues.map((i) => i.message).join('; ')}`, { file, field, issues });
  }
  const prompt = m[2]!.trim();
  if (!prompt) throw new WorkflowError('PARSE_ERROR', `${file}: the protocol has no prompt after its front matter`, { file, field: 'prompt' });
  return { ...r.data, prompt, file };
}

/** Where a project's overrides live: `<project>/.erasmus/protocols/<name>.md`. */
export function projectProtocolFile(projectDir: string, name: ProtocolName): string {
  return join(projectDir, '.erasmus', 'protocols', `${name}.md`);
}

export function builtinProtocolFile(name: ProtocolName, dir = join(resourcesDir(), 'protocols')): string {
  return join(dir, `${name}.md`);
}

/**
 * Loads a protocol: the project's override when there is one and the user trusted it (project/trust.ts),
 * else the built-in file. An untrusted override is not sent to the model.
 */
export async function loadProtocol(name: ProtocolName, projectDir: string, builtinDir?: string, trust: ProjectTrust = ProjectTrust.forHome()): Promise<Protocol> {
  const override = projectProtocolFile(projectDir, name);
  const text = await trust.read(projectDir, `${PROJECT_PROTOCOLS_DIR}/${name}.md`).catch((err: NodeJS.ErrnoException) => {
    if (err instanceof UntrustedProjectFileError) return undefined;
    throw err;
  });
  const file = text === undefined ? builtinProtocolFile(name, builtinDir) : override;
  const body = text ?? (await readFile(file, 'utf8'));
  const p = parseProtocol(body, file);
  if (p.name !== name) throw new WorkflowError('PARSE_ERROR', `${file}: front matter field name is ${JSON.stringify(p.name)}, expected ${JSON.stringify(name)}`, { file, field: 'name' });
  return p;
}

/** Loads all seven, so a bad file is found before a run starts rather than halfway. */
export async function loadProtocols(projectDir: string, builtinDir?: string, trust?: ProjectTrust): Promise<Record<ProtocolName, Protocol>> {
  const out = {} as Record<ProtocolName, Protocol>;
  for (const name of PROTOCOL_NAMES) out[name] = await loadProtocol(name, projectDir, builtinDir, trust);
  return out;
}
