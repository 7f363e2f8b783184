import { readFile } from 'node:fs/promises';
import { writeFileAtomic } from '../common/fs';
import type { Paths } from '../paths/index';
import { parseTaskList } from './task-list';
import type { DocumentIssue } from './errors';

export const ORCHESTRATION_DOCS = ['architecture', 'progress_schedule', 'task_list'] as const;
export type OrchestrationDoc = (typeof ORCHESTRATION_DOCS)[number];

/** Which document: one of the three orchestration documents, or a component's context document. */
export type DocRef = { doc: OrchestrationDoc } | { doc: 'component'; component: string };

export interface DocView {
  path: string;
  exists: boolean;
  text: string;
  /** For the task list: what is wrong with it (empty when it parses). */
  issues?: DocumentIssue[];
}

async function readOptional(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/** The update under way per document file (ContextDocs.update), so read-change-write cycles do not interleave. */
const updates = new Map<string, Promise<void>>();

/** The context documents of one project (ERASMUS_HOME/context/<project-key>/ctx). */
export class ContextDocs {
  constructor(
    private readonly paths: Paths,
    readonly projectDir: string,
  ) {}

  path(ref: DocRef): string {
    return ref.doc === 'component' ? this.paths.componentDoc(this.projectDir, ref.component) : this.paths.orchestrationDoc(this.projectDir, ref.doc);
  }

  async read(ref: DocRef): Promise<DocView> {
    const path = this.path(ref);
    const text = await readOptional(path);
    const view: DocView = { path, exists: text !== undefined, text: text ?? '' };
    if (ref.doc === 'task_list' && text !== undefined) {
      const r = parseTaskList(text);
      view.issues = r.ok ? [] : r.issues;
    }
    return view;
  }

  async exists(ref: DocRef): Promise<boolean> {
    return (await readOptional(this.path(ref))) !== undefined && (await readOptional(this.path(ref)))!.trim() !== '';
  }

  async text(ref: DocRef): Promise<string | undefined> {
    return readOptional(this.path(ref));
  }

  /**
   * Reads, changes and writes one document with no other update of it in this process in between (a parallel
   * run's components mark their tasks in the one task list at once). `change` returns the text unchanged to write nothing.
   */
  update(ref: DocRef, change: (text: string | undefined) => string | undefined): Promise<void> {
    const path = this.path(ref);
    const next = (updates.get(path) ?? Promise.resolve()).then(async () => {
      const before = await this.text(ref);
      const after = change(before);
      if (after !== undefined && after !== before) await this.write(ref, after);
    });
    const kept = next.catch(() => undefined);
    updates.set(path, kept);
    void kept.then(() => updates.get(path) === kept && updates.delete(path));
    return next;
  }

  /** Writes atomically: a crash leaves the old text or the new one. */
  async write(ref: DocRef, text: string): Promise<DocView> {
    await writeFileAtomic(this.path(ref), text.endsWith('\n') ? text : text + '\n');
    return this.read(ref);
  }
}
