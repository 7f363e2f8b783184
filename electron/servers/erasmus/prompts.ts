import { readFile } from 'node:fs/promises';
import { ErrorCode, type GetPromptResult, type Prompt } from '@modelcontextprotocol/sdk/types.js';
import { ProtocolError } from './errors';
import { z } from 'zod';
import { builtinProtocolFile, loadProtocol, parseProtocol, PROTOCOL_NAMES, ProtocolName, type Protocol } from '../../main/workflow/protocols';
import { buildStepPrompt } from '../../main/workflow/prompt';
import type { Paths } from '../../main/paths/index';
import type { ProviderHandle } from '../../main/agent/providers/types';
import { describeZodIssues } from './registry';
import type { PromptLibrary, LibraryEntry, PromptUsage } from './prompt-library';

const ARGS: Prompt['arguments'] = [
  { name: 'task', description: 'what to do in this step', required: true },
  { name: 'project', description: "absolute path of the project folder (its protocol overrides and context documents are used)", required: false },
  { name: 'component', description: "a component of the project: its context document is included", required: false },
  { name: 'goal', description: 'the goal of the project', required: false },
];

const PromptArgs = z
  .object({ task: z.string().min(1, 'task is required'), project: z.string().min(1).optional(), component: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/).optional(), goal: z.string().optional() })
  .strict();

/** A protocol for a project (its override when it has one), or the built-in one without a project. */
export async function protocolFor(name: ProtocolName, project: string | undefined): Promise<Protocol> {
  if (project) return loadProtocol(name, project);
  const file = builtinProtocolFile(name);
  return parseProtocol(await readFile(file, 'utf8'), file);
}

/** The protocols (resources/protocols, or a project's overrides) as MCP prompts with arguments. */
export class ProtocolPrompts {
  constructor(private readonly paths: Paths) {}

  async list(): Promise<Prompt[]> {
    const out: Prompt[] = [];
    for (const name of PROTOCOL_NAMES) {
      const p = await protocolFor(name, undefined);
      out.push({ name, title: `${name[0]!.toUpperCase()}${name.slice(1)} protocol`, description: p.description, arguments: ARGS });
    }
    return out;
  }

  /** Fills a protocol prompt: its text, the task, the goal and the context document. */
  async get(name: string, args: Record<string, string> | undefined): Promise<GetPromptResult & { text: string }> {
    const n = ProtocolName.safeParse(name);
    if (!n.success) throw new ProtocolError(ErrorCode.InvalidParams, `unknown prompt "${name}" (prompts: ${PROTOCOL_NAMES.join(', ')})`);
    const a = PromptArgs.safeParse(args ?? {});
    if (!a.success) throw new ProtocolError(ErrorCode.InvalidParams, `invalid arguments for prompt ${name}: ${describeZodIssues(a.error)}`);
    const { task, project, component, goal } = a.data;
    const protocol = await protocolFor(n.data, project);
    let contextDocPath = '(none: no project given)';
    let contextDoc: string | undefined;
    if (project) {
      contextDocPath = component ? this.paths.componentDoc(project, component) : this.paths.orchestrationDoc(project, 'architecture');
      contextDoc = await readFile(contextDocPath, 'utf8').catch(() => undefined);
    }
    const text = buildStepPrompt({ protocol, instruction: task, goal, contextDocPath, contextDoc });
    return { description: protocol.description, messages: [{ role: 'user', content: { type: 'text', text } }], text };
  }
}

export const PromptCallParams = z
  .object({
    prompt_name: z.string().min(1).optional(),
    arguments: z.record(z.string(), z.string()).default({}),
    /** Rerun a prompt-library entry: its prompt and arguments (the given arguments override them). */
    library_id: z.string().regex(/^[A-Za-z0-9._-]{1,128}$/).optional(),
  })
  .passthrough()
  .refine((p) => p.prompt_name !== undefined || p.library_id !== undefined, { message: 'give prompt_name (or library_id to rerun a prompt-library entry)', path: ['prompt_name'] });

export interface PromptCallResult {
  [key: string]: unknown;
  content: string;
  model: string;
  usage: PromptUsage;
  library_id: string;
}

/**
 * `prompt/call`: fills the prompt, runs it once on the configured model (no tools), keeps the call
 * in the prompt library and returns `{content, model, usage}` in OpenAI's token naming.
 */
export async function callPrompt(
  deps: { prompts: ProtocolPrompts; library: PromptLibrary; provider: () => Promise<ProviderHandle>; signal: AbortSignal },
  params: z.output<typeof PromptCallParams>,
): Promise<PromptCallResult> {
  let name = params.prompt_name;
  let args = params.arguments;
  if (params.library_id) {
    const earlier = await deps.library.get(params.library_id);
    if (!earlier) throw new ProtocolError(ErrorCode.InvalidParams, `no prompt-library entry ${JSON.stringify(params.library_id)}`);
    name ??= earlier.prompt_name;
    args = { ...earlier.arguments, ...params.arguments };
  }
  const promptName = name!;
  const filled = await deps.prompts.get(promptName, args);
  const provider = await deps.provider();
  const started = Date.now();
  let content = '';
  let input = 0;
  let output = 0;
  for await (const part of provider.stream({ messages: [{ role: 'user', content: filled.text }], signal: deps.signal })) {
    if (part.type === 'text') content += part.text;
    else if (part.type === 'usage') {
      input += part.inputTokens;
      output += part.outputTokens;
    } else if (part.type === 'error') throw new ProtocolError(ErrorCode.InternalError, `the model (${provider.id}/${provider.model}) failed: ${part.message}`);
  }
  const usage = { prompt_tokens: input, completion_tokens: output, total_tokens: input + output };
  const entry: LibraryEntry = await deps.library.add({
    prompt_name: promptName,
    arguments: args,
    prompt: filled.text,
    content,
    model: provider.model,
    usage,
    durationMs: Date.now() - started,
    ...(params.library_id ? { from: params.library_id } : {}),
  });
  return { content, model: provider.model, usage, library_id: entry.id };
}
