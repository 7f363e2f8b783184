import { lstat, mkdir, readlink, rename as fsRename, rm, rmdir, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { z } from 'zod';
import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { ElicitationApproval } from '../../contract/index';
import { confirmAction, refusalText } from './confirm';
import { applyEdits } from './edit';
import { IgnoreRules } from './ignore-rules';
import { grepFile, leftOutNote, nameMatcher, walkFolder, type Entry } from './ops';
import { readInside, sensitivePlace, writeInside } from './safe-io';
import { protectedRemoval, ScopeError, type Scope } from './scope';
import type { FilesContext, ToolResult } from './types';

/** One tool of the files server: its schema, honest annotations and handler. */
export interface FileTool<S extends z.ZodRawShape = z.ZodRawShape> {
  description: string;
  input: S;
  annotations: ToolAnnotations;
  run: (args: z.infer<z.ZodObject<S>>, ctx: FilesContext) => Promise<ToolResult>;
}

const text = (t: string): ToolResult => ({ content: [{ type: 'text', text: t }] });
export const failure = (t: string): ToolResult => ({ content: [{ type: 'text', text: t }], isError: true });
const MAX_READ = 4 * 1024 * 1024;

/** Lines offset… of a file (1-based), with a note saying which lines they are and where to read on. */
function linesOf(path: string, whole: string, offset: number, limit: number | undefined): ToolResult {
  const lines = whole.split('\n');
  if (lines.length > 1 && lines.at(-1) === '') lines.pop();
  if (offset > lines.length) return failure(`${path} has ${lines.length} lines; offset ${offset} is past its end`);
  const end = limit === undefined ? lines.length : Math.min(lines.length, offset - 1 + limit);
  const more = end < lines.length ? `; read on with offset ${end + 1}` : '; end of file';
  return text(`${lines.slice(offset - 1, end).join('\n')}\n[lines ${offset}–${end} of ${lines.length} of ${path}${more}]`);
}

const exists = (abs: string) => lstat(abs).then(
  (s) => s,
  () => null,
);

/** What a question approves, beyond its words: the app shows it as the change (a diff, the new content). */
type Change = Omit<ElicitationApproval, 'action' | 'reasons'>;

/** Asks before writing where hooks and configuration live (they run programs later); null to go ahead. */
async function mayTouchSensitive(ctx: FilesContext, scope: Scope, abs: string, verb: string, change: Change, detail?: string): Promise<ToolResult | null> {
  const place = sensitivePlace(scope, abs);
  if (!place) return null;
  // Never "always allowed": each such write is asked.
  return mayDestroy(ctx, `${verb} ${scope.show(abs)}, inside ${place}/ where hooks and configuration live (what is written there can run programs later)`, change, detail, false);
}

/** Asks before a destructive action (`detail`, e.g. a diff, shown under it in the question's words); returns a refusal result, or null to go ahead. */
async function mayDestroy(ctx: FilesContext, action: string, change: Change, detail?: string, grantable = true): Promise<ToolResult | null> {
  // What the user may always allow from this question: writing files, or removing and moving them.
  const grant = !grantable || change.change === 'command' ? undefined : change.change === 'remove' || change.change === 'move' ? ('files.remove' as const) : ('files.write' as const);
  // In a parallel run's worktree the question says where it is, so the app can name the component that asks.
  const answer = await confirmAction(ctx.server, detail ? `${action}:\n${detail}\nAllow?` : `${action}. Allow?`, { ...change, ...(ctx.worktree ? { cwd: ctx.worktree } : {}), action, ...(grant ? { grant } : {}) }, ctx.signal);
  return answer === 'accept' ? null : failure(refusalText(action, answer));
}

/** A file's text as it is now, for the diff of an overwrite (nothing for a large or unreadable one). */
async function textNow(scope: Scope, abs: string, size: number): Promise<{ before?: string }> {
  if (size > 256 * 1024) return {};
  return readInside(scope, abs).then((before) => (before.includes('\u0000') ? {} : { before }), () => ({}));
}

/** A tool with its argument type erased for the registry; arguments are parsed with its schema. */
export interface AnyFileTool {
  description: string;
  input: z.ZodRawShape;
  annotations: ToolAnnotations;
  run: (args: unknown, ctx: FilesContext) => Promise<ToolResult>;
}

function tool<S extends z.ZodRawShape>(t: FileTool<S>): AnyFileTool {
  const schema = z.object(t.input);
  return { ...t, run: (args, ctx) => t.run(schema.parse(args), ctx) };
}

const readOnly: ToolAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

export const FILE_TOOLS = {
  read_file: tool({
    description: 'Read a text file (offset and limit: some of its lines).',
    input: {
      path: z.string(),
      offset: z.number().int().min(1).optional().describe('first line (1-based), for a long file'),
      limit: z.number().int().min(1).optional().describe('how many lines'),
    },
    annotations: { title: 'Read file', ...readOnly },
    run: async ({ path, offset, limit }, { scope }) => {
      const abs = await scope.resolve(path);
      const st = await stat(abs);
      if (!st.isFile()) return failure(`${path} is not a file`);
      if (st.size > MAX_READ) return failure(`${path} is ${st.size} bytes, more than the ${MAX_READ}-byte limit`);
      const whole = await readInside(scope, abs);
      return offset === undefined && limit === undefined ? text(whole) : linesOf(path, whole, offset ?? 1, limit);
    },
  }),
  edit_file: tool({
    description: 'Change part of a file: oldText (exact, whitespace too, found once) becomes newText; more replacements go in edits; all or nothing. Asks first, showing the diff.',
    input: {
      path: z.string().meta({ examples: ['src/greet.js'] }),
      oldText: z.string().meta({ examples: ["return 'Hello, ' + name;"] }),
      newText: z.string().describe('what replaces it').meta({ examples: ['return `Hello, ${name}!`;'] }),
      edits: z.array(z.object({ oldText: z.string(), newText: z.string() })).optional().describe('more, in order: [{"oldText":"…","newText":"…"}]'),
    },
    annotations: { title: 'Edit file', readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    run: async ({ path, oldText, newText, edits }, ctx) => {
      const abs = await ctx.scope.resolve(path);
      const st = await exists(abs);
      if (!st) return failure(`${path} does not exist; create it with write_file`);
      if (!st.isFile()) return failure(`${path} is not a file`);
      if (st.size > MAX_READ) return failure(`${path} is ${st.size} bytes, more than the ${MAX_READ}-byte limit`);
      const before = await readInside(ctx.scope, abs);
      const all = [{ oldText, newText }, ...(edits ?? [])];
      const done = applyEdits(ctx.scope.show(abs), before, all);
      if (!done.ok) return failure(done.message);
      const what = `Edit ${ctx.scope.show(abs)} (${all.length === 1 ? 'one replacement' : `${all.length} replacements`})`;
      // The card diffs the file as it is against the file as the edits leave it.
      const change: Change = { tool: 'edit_file', change: 'overwrite', path: ctx.scope.show(abs), ...(st.size <= 256 * 1024 && done.text.length <= 256 * 1024 ? { before, content: done.text } : {}) };
      const refused = sensitivePlace(ctx.scope, abs) ? await mayTouchSensitive(ctx, ctx.scope, abs, 'Edit', change, done.diff) : await mayDestroy(ctx, what, change, done.diff);
      if (refused) return refused;
      // The file changed while the user was asked: apply to what is there now, or say why not.
      const now = await readInside(ctx.scope, abs);
      const final = now === before ? done : applyEdits(ctx.scope.show(abs), now, all);
      if (!final.ok) return failure(`${path} changed while the edit waited for approval: ${final.message}`);
      await writeInside(ctx.scope, abs, final.text, 'replace');
      return text(`edited ${ctx.scope.show(abs)} (${final.lines.join(', ')}):\n${final.diff}`);
    },
  }),
  write_file: tool({
    description: 'Create a text file (and its folders) or replace one whole (to change part of one, use edit_file). Replacing asks first.',
    input: { path: z.string(), content: z.string() },
    annotations: { title: 'Write file', readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    run: async ({ path, content }, ctx) => {
      const abs = await ctx.scope.resolve(path);
      const st = await exists(abs);
      if (st?.isDirectory()) return failure(`${path} is a folder`);
      const change: Change = { tool: 'write_file', change: st ? 'overwrite' : 'create', path: ctx.scope.show(abs), content, ...(st ? await textNow(ctx.scope, abs, st.size) : {}) };
      const sensitive = await mayTouchSensitive(ctx, ctx.scope, abs, st ? 'Overwrite' : 'Create', change);
      if (sensitive) return sensitive;
      if (st && !sensitivePlace(ctx.scope, abs)) {
        const refused = await mayDestroy(ctx, `Overwrite the existing file ${ctx.scope.show(abs)} (${st.size} bytes)`, change);
        if (refused) return refused;
      }
      await mkdir(dirname(abs), { recursive: true });
      await writeInside(ctx.scope, abs, content, 'replace');
      return text(`${st ? 'replaced' : 'created'} ${ctx.scope.show(abs)} (${Buffer.byteLength(content)} bytes)`);
    },
  }),
  append_file: tool({
    description: 'Append text at the very end of a file (created if missing). Appending to an existing file asks first.',
    input: { path: z.string(), content: z.string() },
    annotations: { title: 'Append to file', readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    run: async ({ path, content }, ctx) => {
      const { scope } = ctx;
      const abs = await scope.resolve(path);
      const st = await exists(abs);
      if (st?.isDirectory()) return failure(`${path} is a folder`);
      const change: Change = { tool: 'append_file', change: st ? 'append' : 'create', path: scope.show(abs), content };
      const sensitive = await mayTouchSensitive(ctx, scope, abs, st ? 'Append to' : 'Create', change);
      if (sensitive) return sensitive;
      if (st && !sensitivePlace(scope, abs)) {
        const refused = await mayDestroy(ctx, `Append ${Buffer.byteLength(content)} bytes to the existing file ${scope.show(abs)} (${st.size} bytes)`, change);
        if (refused) return refused;
      }
      await mkdir(dirname(abs), { recursive: true });
      await writeInside(scope, abs, content, 'append');
      return text(`appended ${Buffer.byteLength(content)} bytes to ${scope.show(abs)}`);
    },
  }),
  move: tool({
    description: 'Move a file or folder to another path. Moving over an existing file asks first.',
    input: { from: z.string(), to: z.string() },
    annotations: { title: 'Move', readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    run: async ({ from, to }, ctx) => moveTo(ctx, from, to),
  }),
  rename: tool({
    description: 'Rename a file or folder in place (name: a plain name, not a path).',
    input: { path: z.string(), name: z.string() },
    annotations: { title: 'Rename', readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    run: async ({ path, name }, ctx) => {
      if (!name || name === '.' || name === '..' || /[/\\\0]/.test(name)) return failure(`the new name must be a plain file name: ${JSON.stringify(name)}`);
      const abs = await ctx.scope.resolve(path);
      return moveTo(ctx, path, join(dirname(abs), name));
    },
  }),
  remove: tool({
    description: 'Remove a file or a folder (folders with content need recursive: true). Always asks first.',
    input: { path: z.string(), recursive: z.boolean().optional() },
    annotations: { title: 'Remove', readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    run: async ({ path, recursive }, ctx) => {
      const abs = await ctx.scope.resolveEntry(path);
      const hit = protectedRemoval(abs, ctx.home);
      if (hit) return failure(`refused: removing ${abs} (${hit} or directly inside it) is never allowed`);
      if (abs === ctx.scope.root) return failure('refused: the root folder itself cannot be removed');
      const st = await exists(abs);
      if (!st) return failure(`${path} does not exist`);
      const what = st.isSymbolicLink()
        ? `the symbolic link ${ctx.scope.show(abs)} (only the link: what it points to, ${await readlink(abs).catch(() => 'unknown')}, is not touched)`
        : st.isDirectory()
          ? `the folder ${ctx.scope.show(abs)}${recursive ? ' and everything in it' : ''}`
          : `the file ${ctx.scope.show(abs)}`;
      const refused = await mayDestroy(ctx, `Remove ${what}`, { tool: 'remove', change: 'remove', path: ctx.scope.show(abs) });
      if (refused) return refused;
      if (st.isDirectory()) await (recursive ? rm(abs, { recursive: true }) : rmdir(abs));
      else await rm(abs);
      return text(`removed ${ctx.scope.show(abs)}`);
    },
  }),
  list: tool({
    description: 'List a folder (symlinked folders are shown, not entered).',
    input: { path: z.string().default('.'), recursive: z.boolean().optional(), limit: z.number().int().positive().max(10000).default(1000) },
    annotations: { title: 'List folder', ...readOnly },
    run: async ({ path, recursive, limit }, { scope }) => {
      const abs = await scope.resolve(path);
      if (!(await stat(abs)).isDirectory()) return failure(`${path} is not a folder`);
      const entries: Entry[] = [];
      const rules = await IgnoreRules.forWalk(scope.root, abs);
      for await (const e of walkFolder(scope, abs, recursive ?? false, undefined, rules)) {
        if (entries.length >= limit) break;
        entries.push({ path: e.path, type: e.type, size: e.size });
      }
      const lines = entries.map((e) => `${e.type === 'folder' ? 'd' : e.type === 'symlink' ? 'l' : '-'} ${e.path}${e.type === 'folder' ? '/' : ''}`);
      return { content: [{ type: 'text', text: (lines.join('\n') || '(empty)') + leftOutNote(rules) }], structuredContent: { entries, leftOut: rules.left } };
    },
  }),
  search: tool({
    description: 'Find files under a folder by name (substring, or a glob such as *.ts) and/or by the text they contain.',
    input: { path: z.string().default('.'), name: z.string().optional(), contains: z.string().min(1).optional(), limit: z.number().int().positive().max(5000).default(200) },
    annotations: { title: 'Search files', ...readOnly },
    run: async ({ path, name, contains, limit }, { scope, signal, log }) => {
      if (!name && !contains) return failure('give name, contains, or both');
      const abs = await scope.resolve(path);
      const matches = name ? nameMatcher(name) : () => true;
      const out: string[] = [];
      const links = { root: scope.root, cache: new Map<string, number>(), refused: [] as string[] };
      let visited = 0;
      const rules = await IgnoreRules.forWalk(scope.root, abs);
      for await (const e of walkFolder(scope, abs, true, signal, rules)) {
        visited++;
        if (out.length >= limit) break;
        if (e.type !== 'file' && !(e.type === 'folder' && !contains)) continue;
        if (!matches(basename(e.abs))) continue;
        if (!contains) out.push(e.path);
        else for (const line of await grepFile(e.abs, contains, limit - out.length, links)) out.push(`${e.path}:${line}`);
      }
      if (signal?.aborted) {
        log?.(`search cancelled by the client after ${visited} entries`);
        return failure(`search cancelled after ${visited} entries`);
      }
      const skipped = links.refused.length ? `\n(not searched: ${links.refused.map((a) => scope.show(a)).join(', ')}: hard links whose other names are not all inside the root)` : '';
      return text((out.join('\n') || 'no match') + skipped + leftOutNote(rules));
    },
  }),
} satisfies Record<string, AnyFileTool>;

async function moveTo(ctx: FilesContext, from: string, to: string): Promise<ToolResult> {
  const src = await ctx.scope.resolve(from);
  const dest = await ctx.scope.resolve(to);
  if (src === ctx.scope.root) return failure('refused: the root folder itself cannot be moved');
  const hit = protectedRemoval(src, ctx.home);
  if (hit) return failure(`refused: moving ${src} away (${hit} or directly inside it) is never allowed`);
  if (!(await exists(src))) return failure(`${from} does not exist`);
  const target = await exists(dest);
  if (target?.isDirectory()) return failure(`${to} is an existing folder; give the full destination path`);
  for (const p of [src, dest]) {
    const sensitive = await mayTouchSensitive(ctx, ctx.scope, p, p === src ? 'Move away' : 'Move a file into', { tool: 'move', change: 'move', path: ctx.scope.show(p) });
    if (sensitive) return sensitive;
  }
  if (target) {
    const refused = await mayDestroy(ctx, `Move ${ctx.scope.show(src)} over the existing file ${ctx.scope.show(dest)}`, { tool: 'move', change: 'move', path: ctx.scope.show(dest) });
    if (refused) return refused;
  }
  await mkdir(dirname(dest), { recursive: true });
  await fsRename(src, dest);
  return text(`moved ${ctx.scope.show(src)} to ${ctx.scope.show(dest)}`);
}

export { ScopeError };
