import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { z } from 'zod';
import { GrantKind, type GrantScope } from '../../contract/index';
import { writeJsonAtomic } from '../common/fs';

const Store = z.object({ projects: z.record(z.string(), z.array(GrantKind)) });
type Store = z.infer<typeof Store>;
/** A run's grants, kept beside its run record (`runs/<id>.approvals/always-allow.json`). */
const RunStore = z.object({ kinds: z.array(GrantKind) });

/** Where a question is asked: the open project and the workflow run driving it now, if one is. */
export interface GrantPlace {
  project: string;
  runId?: string;
}

/**
 * The user's "always allow" answers on approval cards of Erasmus's own servers: per workflow run (kept
 * with the run, `runFile`, so they outlive a restart of the core; a new run starts without them) or per
 * project (ERASMUS_HOME/trust/approvals.json, until revoked). Only kinds a server marked as grantable are
 * ever kept (see `GrantKind`).
 */
export class ApprovalGrants {
  private readonly runs = new Map<string, Set<GrantKind>>();

  constructor(
    private readonly file: string,
    /** Where a run's grants are kept; without it they last as long as this process. */
    private readonly runFile?: (project: string, runId: string) => string,
  ) {}

  /** A run's grants: from memory, else from its file (a restarted core); unreadable is none. */
  private async ofRun(at: GrantPlace & { runId: string }): Promise<Set<GrantKind>> {
    const known = this.runs.get(at.runId);
    if (known) return known;
    let kinds: GrantKind[] = [];
    if (this.runFile) {
      try {
        kinds = RunStore.parse(JSON.parse(await readFile(this.runFile(resolve(at.project), at.runId), 'utf8'))).kinds;
      } catch {}
    }
    const set = this.runs.get(at.runId) ?? new Set(kinds);
    this.runs.set(at.runId, set);
    return set;
  }

  /** A file that cannot be read as grants holds none (and is not overwritten until a grant is given). */
  private async read(): Promise<Store> {
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch {
      return { projects: {} };
    }
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch {
      throw new Error(`${this.file} is not valid JSON; fix or remove it`);
    }
    const parsed = Store.safeParse(data);
    if (!parsed.success) throw new Error(`${this.file} is not a valid approvals file (${parsed.error.issues[0]?.message ?? 'bad shape'}); fix or remove it`);
    return parsed.data;
  }

  /** Where this kind is always allowed here: the run, the project, or nowhere (undefined). */
  async held(kind: GrantKind, at: GrantPlace): Promise<GrantScope | undefined> {
    if (at.runId && (await this.ofRun({ ...at, runId: at.runId })).has(kind)) return 'run';
    const store = await this.read().catch(() => ({ projects: {} }) as Store);
    return store.projects[resolve(at.project)]?.includes(kind) ? 'project' : undefined;
  }

  async add(kind: GrantKind, scope: GrantScope, at: GrantPlace): Promise<void> {
    if (scope === 'run') {
      if (!at.runId) throw new Error('no workflow run drives this project now: "for this run" cannot be kept');
      const set = await this.ofRun({ ...at, runId: at.runId });
      set.add(kind);
      if (this.runFile) await writeJsonAtomic(this.runFile(resolve(at.project), at.runId), { kinds: [...set] });
      return;
    }
    const store = await this.read();
    const key = resolve(at.project);
    store.projects[key] = [...new Set([...(store.projects[key] ?? []), kind])];
    await writeJsonAtomic(this.file, store);
  }

  /** The kinds always allowed in a project (not counting a run's). */
  async list(project: string): Promise<GrantKind[]> {
    return (await this.read()).projects[resolve(project)] ?? [];
  }

  async revoke(project: string, kind: GrantKind): Promise<void> {
    const store = await this.read();
    const key = resolve(project);
    const left = (store.projects[key] ?? []).filter((k) => k !== kind);
    if (left.length) store.projects[key] = left;
    else delete store.projects[key];
    await writeJsonAtomic(this.file, store);
  }
}
