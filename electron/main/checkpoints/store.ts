import { randomBytes } from 'node:crypto';
import { readdir, readFile, rm, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import type { CheckpointView, RewindPreview } from '../../contract/methods/checkpoints';
import { writeJsonAtomic } from '../common/fs';
import type { Paths } from '../paths/index';
import { commitsUndone, keptRef, readHead, restoreHead, type HeadState } from './head';
import { git, ShadowRepo, type Change } from './shadow';

/** One checkpoint as kept in `checkpoints/<project-key>/list/<id>.json`; the files are tree `tree` of the shadow repository. */
export const CheckpointRecord = z.object({
  version: z.literal(1),
  id: z.string(),
  at: z.string(),
  projectDir: z.string(),
  kind: z.enum(['step', 'turn', 'rewind']),
  state: z.string(),
  runId: z.string().optional(),
  sessionId: z.string().optional(),
  turn: z.number().int().nonnegative().optional(),
  commit: z.string().optional(),
  branch: z.string().optional(),
  tree: z.string(),
  note: z.string().optional(),
  /** Chat checkpoints: the session log and how many entries it held before the turn. */
  log: z.string().optional(),
  entries: z.number().int().nonnegative().optional(),
  /** The run record as it was (workflow checkpoints). */
  run: z.unknown().optional(),
  /** The run's context documents as they were, by path under the project's ctx folder. */
  docs: z.record(z.string(), z.string()).optional(),
});
export type CheckpointRecord = z.infer<typeof CheckpointRecord>;

export type CheckpointInput = Omit<CheckpointRecord, 'version' | 'id' | 'at' | 'projectDir' | 'commit' | 'branch' | 'tree'>;

export interface Retention {
  /** Checkpoints older than this many days are dropped (default 30). */
  maxAgeDays: number;
  /** A project's shadow repository is kept under this many bytes, oldest checkpoints dropped first (default 2 GB). */
  maxBytes: number;
}
export const DEFAULT_RETENTION: Retention = { maxAgeDays: 30, maxBytes: 2 * 1024 ** 3 };

/** Sortable by time: 20261125T221752123Z-a1b2c3. */
function newId(): string {
  return `${new Date().toISOString().replace(/[-:.]/g, '')}-${randomBytes(3).toString('hex')}`;
}

export function checkpointView(r: CheckpointRecord): CheckpointView {
  const { id, state, at, commit, branch, kind, runId, sessionId, turn, note } = r;
  return { id, state, at, kind, ...(commit ? { commit } : {}), ...(branch ? { branch } : {}), ...(runId ? { runId } : {}), ...(sessionId ? { sessionId } : {}), ...(turn !== undefined ? { turn } : {}), ...(note ? { note } : {}) };
}

async function du(path: string): Promise<number> {
  const s = await stat(path).catch(() => undefined);
  if (!s) return 0;
  if (!s.isDirectory()) return s.size;
  let total = 0;
  for (const name of await readdir(path)) total += await du(join(path, name));
  return total;
}

/** Every project's checkpoints: takes, lists, previews, restores and prunes them. */
export class CheckpointStore {
  private readonly repos = new Map<string, ShadowRepo>();

  constructor(private readonly paths: Paths) {}

  repo(projectDir: string): ShadowRepo {
    const dir = resolve(projectDir);
    let repo = this.repos.get(dir);
    if (!repo) {
      repo = new ShadowRepo(join(this.paths.checkpointsDir(dir), 'git'), dir, [this.paths.home]);
      this.repos.set(dir, repo);
    }
    return repo;
  }

  private listDir(projectDir: string): string {
    return join(this.paths.checkpointsDir(projectDir), 'list');
  }

  /** Takes a checkpoint of the project as it is now. */
  async take(projectDir: string, input: CheckpointInput): Promise<CheckpointRecord> {
    const dir = resolve(projectDir);
    const [tree, head] = await Promise.all([this.repo(dir).tree(), readHead(dir)]);
    const id = newId();
    await this.repo(dir).keep(id, tree);
    const record: CheckpointRecord = { version: 1, id, at: new Date().toISOString(), projectDir: dir, ...input, ...head, tree };
    await writeJsonAtomic(join(this.listDir(dir), `${id}.json`), record);
    return record;
  }

  /** A project's checkpoints (of one run or chat session when asked), oldest first. */
  async list(projectDir: string, filter: { runId?: string; sessionId?: string } = {}): Promise<CheckpointRecord[]> {
    const dir = this.listDir(resolve(projectDir));
    const names = (await readdir(dir).catch(() => [] as string[])).filter((n) => n.endsWith('.json')).sort();
    const out: CheckpointRecord[] = [];
    for (const n of names) {
      const parsed = CheckpointRecord.safeParse(await readFile(join(dir, n), 'utf8').then(JSON.parse, () => undefined));
      if (!parsed.success) continue;
      if (filter.runId && parsed.data.runId !== filter.runId) continue;
      if (filter.sessionId && parsed.data.sessionId !== filter.sessionId) continue;
      out.push(parsed.data);
    }
    return out;
  }

  async get(projectDir: string, id: string): Promise<CheckpointRecord | undefined> {
    if (!/^[A-Za-z0-9._-]{1,128}$/.test(id)) return undefined;
    const text = await readFile(join(this.listDir(resolve(projectDir)), `${id}.json`), 'utf8').catch(() => undefined);
    if (text === undefined) return undefined;
    const parsed = CheckpointRecord.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  }

  /** What restoring `target` would change in the project now: its files, and the commits HEAD would leave. */
  async preview(target: CheckpointRecord): Promise<Omit<RewindPreview, 'checkpoint'>> {
    const repo = this.repo(target.projectDir);
    const [{ tree, ignored }, head] = await Promise.all([repo.snapshot(), readHead(target.projectDir)]);
    return { files: await repo.diff(tree, target.tree), commitsUndone: await commitsUndone(target.projectDir, head, target), ignored };
  }

  /**
   * Puts the project's files and HEAD back as they were at `target`. `undo` is the checkpoint of what
   * is left (taken by the caller first): the commit HEAD leaves is kept under its name.
   */
  async restore(target: CheckpointRecord, undo: CheckpointRecord): Promise<{ files: Change[]; commitsUndone: Array<{ commit: string; subject: string }> }> {
    const repo = this.repo(target.projectDir);
    const files = await repo.diff(undo.tree, target.tree);
    const undone = await commitsUndone(target.projectDir, undo, target);
    const head: HeadState = { ...(target.commit ? { commit: target.commit } : {}), ...(target.branch ? { branch: target.branch } : {}) };
    await restoreHead(target.projectDir, head, keptRef(undo.id));
    await repo.restore(target.tree);
    return { files, commitsUndone: undone };
  }

  /**
   * Drops what retention says (older than maxAgeDays; then the oldest while the shadow repository
   * is over maxBytes), with the refs that kept rewound commits for them. The newest checkpoint stays.
   */
  async prune(projectDir: string, retention: Retention = DEFAULT_RETENTION): Promise<{ dropped: number; bytes: number }> {
    const dir = resolve(projectDir);
    const all = await this.list(dir);
    const cutoff = Date.now() - retention.maxAgeDays * 86_400_000;
    let drop = all.slice(0, -1).filter((c) => Date.parse(c.at) < cutoff);
    const repo = this.repo(dir);
    const gitDir = repo.gitDir;
    if (drop.length) await this.drop(dir, drop);
    let bytes = await du(gitDir);
    let dropped = drop.length;
    if (bytes > retention.maxBytes) await repo.gc();
    bytes = await du(gitDir);
    while (bytes > retention.maxBytes) {
      const left = await this.list(dir);
      if (left.length <= 1) break;
      drop = left.slice(0, Math.max(1, Math.floor((left.length - 1) / 4)));
      await this.drop(dir, drop);
      dropped += drop.length;
      await repo.gc();
      bytes = await du(gitDir);
    }
    return { dropped, bytes };
  }

  private async drop(projectDir: string, records: CheckpointRecord[]): Promise<void> {
    await this.repo(projectDir).drop(records.map((r) => r.id));
    for (const r of records) {
      await rm(join(this.listDir(projectDir), `${r.id}.json`), { force: true });
      if (r.kind === 'rewind') await git(projectDir, ['update-ref', '-d', keptRef(r.id)]).catch(() => undefined);
    }
  }
}
