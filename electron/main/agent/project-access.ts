import { PROJECT_ACCESS_META, WORKTREE_META, type ProjectAccess } from '../runners/runner';
import type { PromptSection } from './prompt/sections';
import type { AgentTool, AgentTools } from './tools';

/** Erasmus's own files server, as the hub names it. */
const FILES_SERVER = 'files';
/** The files tools that write one file at a path: a documentation step may use them on Markdown files. */
const MARKDOWN_WRITERS = new Set(['edit_file', 'write_file', 'append_file']);
const MARKDOWN = /\.(md|markdown)$/i;
/** Erasmus's runners server, and its tools that change the repository: a step that must not write has no use for them (the workflow commits). */
const RUNNERS_SERVER = 'runners';
const GIT_WRITERS = new Set(['git_add', 'git_commit', 'git_push']);

/** Whether a step with this access may have the tool at all (read: no files tool that writes and no git add/commit/push; markdown: only the file writers). */
function offered(tool: AgentTool, access: ProjectAccess): boolean {
  if (tool.server === RUNNERS_SERVER) return !GIT_WRITERS.has(tool.tool);
  if (tool.server !== FILES_SERVER || tool.annotations?.readOnlyHint === true) return true;
  return access === 'markdown' && MARKDOWN_WRITERS.has(tool.tool);
}

const STEP = { read: 'this step only reads the project', markdown: 'this step writes Markdown files only' } as const;

/**
 * What one step of a workflow may call. `access`: what it may do to the project (`read`: design and review;
 * `markdown`: documentation). `runToolsets`: where the session describes every toolset the run uses (the same
 * tools and tool documentation in every step, so the prompt's start repeats from step to step), `toolsets` are
 * the step's own: the others' tools are listed but refused.
 */
export interface StepScope {
  access?: ProjectAccess;
  toolsets?: string[];
  runToolsets?: string[];
}

/** Why this step may not make this call (words for the model), or undefined when it may. */
export function scopeRefusal(scope: StepScope, tool: AgentTool, args: Record<string, unknown>): string | undefined {
  if (scope.runToolsets?.includes(tool.toolset) && scope.toolsets && !scope.toolsets.includes(tool.toolset))
    return `Not done: this step does not use the ${tool.toolset} toolset (its tools are listed for other steps of this run). Use the tools this step may call (under "This step's tools"), or say in your final answer what you need.`;
  const access = scope.access;
  if (!access || access === 'write') return undefined;
  if (!offered(tool, access)) return `Not done: ${STEP[access]}, so ${tool.tool} is not available here. Report what should change instead.`;
  if (tool.server === FILES_SERVER && tool.annotations?.readOnlyHint !== true && !(typeof args.path === 'string' && MARKDOWN.test(args.path)))
    return `Not done: ${STEP.markdown}; ${JSON.stringify(args.path)} is not a .md file. Write the documentation in a .md file, or report what other file should change.`;
  return undefined;
}

/**
 * The tools of a step that must not change the project (design, review: `read`) or only its Markdown files
 * (documentation: `markdown`), or that describes the run's toolsets (`runToolsets`). Without `runToolsets`
 * the files toolset offers no tools the step may not call; with it every tool is listed and a call the step
 * may not make is refused in words (`refusal`, checked before any approval is asked). Every call carries the
 * access in its `_meta`, so Erasmus's runners run the command with the project mounted read-only.
 */
export function stepTools(tools: AgentTools, scope: StepScope): AgentTools {
  const access = scope.access ?? 'write';
  if (access === 'write' && !scope.runToolsets) return tools;
  return {
    toolsets: () => tools.toolsets(),
    openToolset: async (name) => {
      const all = await tools.openToolset(name);
      return scope.runToolsets || access === 'write' ? all : all.filter((t) => offered(t, access));
    },
    refusal: (tool, args) => scopeRefusal(scope, tool, args),
    call: async (tool, args, opts) => {
      const no = scopeRefusal(scope, tool, args);
      if (no) return { content: no, isError: true };
      return tools.call(tool, args, access === 'write' ? opts : { ...opts, meta: { ...opts.meta, [PROJECT_ACCESS_META]: access } });
    },
  };
}

/** The tools of a session that must not change the project (`read`) or only its Markdown files (`markdown`). */
export function scopedTools(tools: AgentTools, access: ProjectAccess | undefined): AgentTools {
  return stepTools(tools, { access });
}

/**
 * "This step's tools", said after the part of the prompt every step of a run shares: which of the tools
 * described there this step may call (not the `withheld` ones, refused in every step, each said with its reason),
 * or undefined when it may call them all.
 */
export function stepToolsSection(
  scope: StepScope,
  tools: AgentTool[],
  o: { shellListed?: boolean; shellHere?: boolean; withheld?: Readonly<Record<string, string>> } = {},
): PromptSection | undefined {
  if (!scope.runToolsets) return undefined;
  const isWithheld = (t: AgentTool) => !!o.withheld && Object.hasOwn(o.withheld, t.tool);
  const probe = (t: AgentTool) => !isWithheld(t) && scopeRefusal(scope, t, { path: 'x.md' }) === undefined;
  const refused = tools.filter((t) => !probe(t));
  const lines: string[] = [];
  if (refused.length) {
    const sets = scope.runToolsets.filter((s) => !(scope.toolsets ?? scope.runToolsets!).includes(s));
    const single = refused.filter((t) => !sets.includes(t.toolset)).map((t) => t.name);
    const named = [...(sets.length ? [`those of the ${sets.join(' and ')} toolset${sets.length > 1 ? 's' : ''}`] : []), ...single];
    const list = named.length > 1 ? `${named.slice(0, -1).join(', ')} and ${named.at(-1)}` : named[0];
    lines.push(`The tools above serve every step of this run. This step may call every one of them except ${list}; a call to one of those is refused.`);
    // Why a tool no step may call is listed anyway (the same list serves every session), in the words its refusal uses.
    for (const t of tools.filter((x) => isWithheld(x) && !sets.includes(x.toolset))) lines.push(`${t.name}: ${o.withheld![t.tool]}.`);
  }
  // What the step may do to the project (read-only, Markdown only) its protocol says.
  if (o.shellListed && !o.shellHere) lines.push('`!` lines do not run in this step.');
  return lines.length ? { title: "This step's tools", body: lines.join('\n') } : undefined;
}

/**
 * The tools of a parallel run's component step, which works in a git worktree of the project: every call
 * names it in its `_meta`, so Erasmus's files and runners servers (rooted at the project) work there.
 */
export function worktreeTools(tools: AgentTools, worktree: string | undefined): AgentTools {
  if (!worktree) return tools;
  return {
    toolsets: () => tools.toolsets(),
    openToolset: (name) => tools.openToolset(name),
    call: (tool, args, opts) => tools.call(tool, args, { ...opts, meta: { ...opts.meta, [WORKTREE_META]: worktree } }),
  };
}
