import { readdir, readFile } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join } from 'node:path';
import type { CompleteRequest, CompleteResult } from '@modelcontextprotocol/sdk/types.js';
import type { Paths } from '../../main/paths/index';
import { RecentProjects } from '../../main/project/inspect';
import { parseTaskList } from '../../main/workflow/task-list';
import { PROTOCOL_NAMES } from '../../main/workflow/protocols';
import { DOC_SECTIONS } from './documents';

const MAX = 100;
const SAFE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
const ORCHESTRATION_DOCS = ['architecture', 'progress_schedule', 'task_list'];

const names = async (dir: string, filter: (e: { name: string; isDirectory(): boolean }) => boolean): Promise<string[]> =>
  (await readdir(dir, { withFileTypes: true }).catch(() => [])).filter(filter).map((e) => e.name);

/** Candidates that start with what was typed first, then those that contain it; at most 100. */
export function rank(candidates: Iterable<string>, typed: string): CompleteResult['completion'] {
  const t = typed.toLowerCase();
  const unique = [...new Set(candidates)];
  const starts = unique.filter((c) => c.toLowerCase().startsWith(t)).sort();
  const contains = unique.filter((c) => !c.toLowerCase().startsWith(t) && c.toLowerCase().includes(t)).sort();
  const all = [...starts, ...contains];
  return { values: all.slice(0, MAX), total: all.length, hasMore: all.length > MAX };
}

/**
 * `completion/complete` for the erasmus server: the protocol prompts' `project` (recent projects, or
 * the folders under a typed path) and `component` (the project's component documents and task-list
 * components), and the document templates' `key`, `doc` and `component`. Arguments with no sensible
 * candidates (`task`, `goal`) and refs this server does not know get an empty list: completion is a
 * hint for a form, and an empty answer is a valid one.
 */
export class Completions {
  constructor(private readonly paths: Paths) {}

  async complete(params: CompleteRequest['params']): Promise<CompleteResult['completion']> {
    const { ref, argument } = params;
    const given = params.context?.arguments ?? {};
    if (ref.type === 'ref/prompt' && (PROTOCOL_NAMES as readonly string[]).includes(ref.name)) {
      if (argument.name === 'project') return rank(await this.projects(argument.value), argument.value);
      if (argument.name === 'component' && given.project) return rank(await this.components(given.project), argument.value);
    }
    if (ref.type === 'ref/resource' && ref.uri.startsWith('erasmus://projects/{key}/')) {
      const contextRoot = join(this.paths.home, 'context');
      if (argument.name === 'key') return rank(await names(contextRoot, (e) => e.isDirectory() && SAFE.test(e.name)), argument.value);
      if (argument.name === 'doc') return rank(ORCHESTRATION_DOCS, argument.value);
      if (argument.name === 'component' && given.key && SAFE.test(given.key)) return rank(await this.docNames(join(contextRoot, given.key, 'ctx', DOC_SECTIONS[1])), argument.value);
    }
    return { values: [], total: 0, hasMore: false };
  }

  /** Recent projects; once the value is a path, the folders beside what was typed. */
  private async projects(typed: string): Promise<string[]> {
    const recent = (await new RecentProjects(this.paths.recentProjects).list()).map((p) => p.path);
    if (!isAbsolute(typed)) return recent;
    const dir = typed.endsWith('/') ? typed : dirname(typed);
    const prefix = typed.endsWith('/') ? '' : basename(typed);
    const folders = await names(dir, (e) => e.isDirectory() && !e.name.startsWith('.') && e.name.startsWith(prefix));
    return [...recent.filter((p) => p.startsWith(typed)), ...folders.map((n) => join(dir, n))];
  }

  /** The project's component documents and the components of its task list. */
  private async components(project: string): Promise<string[]> {
    if (!isAbsolute(project)) return [];
    const docs = await this.docNames(dirname(this.paths.componentDoc(project, 'x')));
    const text = await readFile(this.paths.orchestrationDoc(project, 'task_list'), 'utf8').catch(() => '');
    const parsed = text ? parseTaskList(text) : undefined;
    return [...docs, ...(parsed?.ok ? parsed.list.components.map((c) => c.id) : [])];
  }

  private async docNames(dir: string): Promise<string[]> {
    return (await names(dir, (e) => !e.isDirectory() && e.name.endsWith('.md'))).map((n) => n.slice(0, -3)).filter((n) => SAFE.test(n));
  }
}
