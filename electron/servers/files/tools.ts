import { lstat, mkdir, rename as fsRename, rm, rmdir, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { z } from 'zod';
import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { confirmAction, refusalText } from './confirm';
import { grepFile, nameMatcher, walkFolder, type Entry } from './ops';
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

/** Asks before writing where hooks and configuration live (they run programs later); null to go ahead. */
async function mayTouchSensitive(ctx: FilesContext, scope: Scope, abs: string, verb: string): Promise<ToolResult | null> {
  const place = sensitivePlace(scope, abs);
  if (!place) return null;
  return mayDestroy(ctx, `${verb} ${scope.show(abs)}, inside ${place}/ where hooks and configuration live (what is written there can run programs later)`);
}

/** Asks before a destructive action; returns a refusal result, or null to go ahead. */
async function mayDestroy(ctx: FilesContext, action: string): Promise<ToolResult | null> {
  const answer = await confirmAction(ctx.server, `${action}. Allow?`);
  return answer === 'accept' ? null : failure(refusalText(action, answer));
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
    description: 'Read a text file inside the root (offset and limit read some of its lines).',
    input: {
      path: z.string().describe('file path, relative to the root'),
      offset: z.number().int().min(1).optional().describe('first line to read (1-based); with limit, for files too long to read at once'),
      limit: z.number().int().min(1).optional().describe('how many lines to read'),
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
  write_file: tool({
    description: 'Create or replace a text file inside the root (parent folders are created). Replacing an existing file asks the user first.',
    input: { path: z.string(), content: z.string() },
    annotations: { title: 'Write file', readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    run: async ({ path, content }, ctx) => {
      const abs = await ctx.scope.resolve(path);
      const st = await exists(abs);
      if (st?.isDirectory()) return failure(`${path} is a folder`);
      const sensitive = await mayTouchSensitive(ctx, ctx.scope, abs, st ? 'Overwrite' : 'Create');
      if (sensitive) return sensitive;
      if (st && !sensitivePlace(ctx.scope, abs)) {
        const refused = await mayDestroy(ctx, `Overwrite the existing file ${ctx.scope.show(abs)} (${st.size} bytes)`);
        if (refused) return refused;
      }
      await mkdir(dirname(abs), { recursive: true });
      await writeInside(ctx.scope, abs, content, 'replace');
      return text(`${st ? 'replaced' : 'created'} ${ctx.scope.show(abs)} (${Buffer.byteLength(content)} bytes)`);
    },
  }),
  append_file: tool({
    description: 'Append text to a file inside the root (created if missing). Appending to an existing file asks the user first.',
    input: { path: z.string(), content: z.string() },
    annotations: { title: 'Append to file', readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    run: async ({ path, content }, ctx) => {
      const { scope } = ctx;
      const abs = await scope.resolve(path);
      const st = await exists(abs);
      if (st?.isDirectory()) return failure(`${path} is a folder`);
      const sensitive = await mayTouchSensitive(ctx, scope, abs, st ? 'Append to' : 'Create');
      if (sensitive) return sensitive;
      if (st && !sensitivePlace(scope, abs)) {
        const refused = await mayDestroy(ctx, `Append ${Buffer.byteLength(content)} bytes to the existing file ${scope.show(abs)} (${st.size} bytes)`);
        if (refused) return refused;
      }
      await mkdir(dirname(abs), { recursive: true });
      await writeInside(scope, abs, content, 'append');
      return text(`appended ${Buffer.byteLength(content)} bytes to ${scope.show(abs)}`);
    },
  }),
  move: tool({
    description: 'Move a file or folder to another path inside the root. Moving over an existing file asks the user first.',
    input: { from: z.string(), to: z.string() },
    annotations: { title: 'Move', readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    run: async ({ from, to }, ctx) => moveTo(ctx, from, to),
  }),
  rename: tool({
    description: 'Rename a file or folder in place (the new name is a plain name, not a path).',
    input: { path: z.string(), name: z.string() },
    annotations: { title: 'Rename', readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    run: async ({ path, name }, ctx) => {
      if (!name || name === '.' || name === '..' || /[/\\\0]/.test(name)) return failure(`the new name must be a plain file name: ${JSON.stringify(name)}`);
      const abs = await ctx.scope.resolve(path);
      return moveTo(ctx, path, join(dirname(abs), name));
    },
  }),
  remove: tool({
    description: 'Remove a file or a folder (folders with content need recursive: true). Always asks the user first.',
    input: { path: z.string(), recursive: z.boolean().optional() },
    annotations: { title: 'Remove', readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    run: async ({ path, recursive }, ctx) => {
      const abs = await ctx.scope.resolve(path);
      const hit = protectedRemoval(abs, ctx.home);
      if (hit) return failure(`refused: removing ${abs} (${hit} or directly inside it) is never allowed`);
      if (abs === ctx.scope.root) return failure('refused: the root folder itself cannot be removed');
      const st = await exists(abs);
      if (!st) return failure(`${path} does not exist`);
      const what = st.isDirectory() ? `the folder ${ctx.scope.show(abs)}${recursive ? ' and everything in it' : ''}` : `the file ${ctx.scope.show(abs)}`;
      const refused = await mayDestroy(ctx, `Remove ${what}`);
      if (refused) return refused;
      if (st.isDirectory()) await (recursive ? rm(abs, { recursive: true }) : rmdir(abs));
      else await rm(abs);
      return text(`removed ${ctx.scope.show(abs)}`);
    },
  }),
  list: tool({
    description: 'List a folder inside the root (symlinked folders are shown, not entered).',
    input: { path: z.string().default('.'), recursive: z.boolean().optional(), limit: z.number().int().positive().max(10000).default(1000) },
    annotations: { title: 'List folder', ...readOnly },
    run: async ({ path, recursive, limit }, { scope }) => {
      const abs = await scope.resolve(path);
      if (!(await stat(abs)).isDirectory()) return failure(`${path} is not a folder`);
      const entries: Entry[] = [];
      for await (const e of walkFolder(scope, abs, recursive ?? false)) {
        if (entries.length >= limit) break;
        entries.push({ path: e.path, type: e.type, size: e.size });
      }
      const lines = entries.map((e) => `${e.type === 'folder' ? 'd' : e.type === 'symlink' ? 'l' : '-'} ${e.path}${e.type === 'folder' ? '/' : ''}`);
      return { content: [{ type: 'text', text: lines.join('\n') || '(empty)' }], structuredContent: { entries } };
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
      for await (const e of walkFolder(scope, abs, true, signal)) {
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
      return text((out.join('\n') || 'no match') + skipped);
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
    const sensitive = await mayTouchSensitive(ctx, ctx.scope, p, p === src ? 'Move away' : 'Move a file into');
    if (sensitive) return sensitive;
  }
  if (target) {
    const refused = await mayDestroy(ctx, `Move ${ctx.scope.show(src)} over the existing file ${ctx.scope.show(dest)}`);
    if (refused) return refused;
  }
  await mkdir(dirname(dest), { recursive: true });
  await fsRename(src, dest);
  return text(`moved ${ctx.scope.show(src)} to ${ctx.scope.show(dest)}`);
}

export { ScopeError };
