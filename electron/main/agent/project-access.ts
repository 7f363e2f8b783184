import { PROJECT_ACCESS_META, WORKTREE_META, type ProjectAccess } from '../runners/runner';
import type { AgentTool, AgentTools } from './tools';

/** Erasmus's own files server, as the hub names it. */
const FILES_SERVER = 'files';
/** The files tools that write one file at a path: a documentation step may use them on Markdown files. */
const MARKDOWN_WRITERS = new Set(['edit_file', 'write_file', 'append_file']);
const MARKDOWN = /\.(md|markdown)$/i;

/** Whether a step with this access may have the tool at all (read: no files tool that writes; markdown: only the file writers). */
function offered(tool: AgentTool, access: ProjectAccess): boolean {
  if (tool.server !== FILES_SERVER || tool.annotations?.readOnlyHint === true) return true;
  return access === 'markdown' && MARKDOWN_WRITERS.has(tool.tool);
}

const STEP = { read: 'this step only reads the project', markdown: 'this step writes Markdown files only' } as const;

/**
 * The tools of a session that must not change the project (design, review: `read`) or only its
 * Markdown files (documentation: `markdown`): the files toolset offers no write tools (for
 * `markdown`, edit_file, write_file and append_file on `.md` paths only), and every call carries the access in
 * its `_meta`, so Erasmus's runners run the command with the project mounted read-only.
 */
export function scopedTools(tools: AgentTools, access: ProjectAccess | undefined): AgentTools {
  if (!access || access === 'write') return tools;
  return {
    toolsets: () => tools.toolsets(),
    openToolset: async (name) => (await tools.openToolset(name)).filter((t) => offered(t, access)),
    call: async (tool, args, opts) => {
      if (!offered(tool, access)) return { content: `Not done: ${STEP[access]}, so ${tool.tool} is not available here. Report what should change instead.`, isError: true };
      if (tool.server === FILES_SERVER && tool.annotations?.readOnlyHint !== true && !(typeof args.path === 'string' && MARKDOWN.test(args.path))) {
        return { content: `Not done: ${STEP.markdown}; ${JSON.stringify(args.path)} is not a .md file. Write the documentation in a .md file, or report what other file should change.`, isError: true };
      }
      return tools.call(tool, args, { ...opts, meta: { ...opts.meta, [PROJECT_ACCESS_META]: access } });
    },
  };
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
