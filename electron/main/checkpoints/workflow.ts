import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import type { CheckpointView, RewindPreview } from '../../contract/methods/checkpoints';
import type { Paths } from '../paths/index';
import { invalidState, WorkflowError } from '../workflow/errors';
import type { CheckpointTrees } from '../workflow/run-context';
import { uncommittedChanges } from '../workflow/git';
import { RunRecord } from '../workflow/run-record';
import { keptRef } from '../workflow/worktrees';
import { readHead, removeBranch, type HeadState } from './head';
import { checkpointView, type CheckpointRecord, type CheckpointStore, type Retention } from './store';

async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...(await filesUnder(p)));
    else if (e.isFile()) out.push(p);
  }
  return out;
}

/** A project's context documents (ctx/…), by path relative to the ctx folder: the run's state beside its record. */
async function readDocs(ctxDir: string): Promise<Record<string, string>> {
  const docs: Record<string, string> = {};
  for (const f of await filesUnder(ctxDir)) docs[relative(ctxDir, f).split(sep).join('/')] = await readFile(f, 'utf8');
  return docs;
}

async function writeDocs(ctxDir: string, docs: Record<string, string>): Promise<void> {
  for (const f of await filesUnder(ctxDir)) if (!(relative(ctxDir, f).split(sep).join('/') in docs)) await rm(f, { force: true });
  for (const [rel, text] of Object.entries(docs)) {
    const file = join(ctxDir, ...rel.split('/'));
    if (relative(ctxDir, file).startsWith('..')) continue;
    await mkdir(dirname(file), { recursive: true });
    if ((await readFile(file, 'utf8').catch(() => undefined)) !== text) await writeFile(file, text);
  }
}

const copy = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

/** A workflow run's checkpoints: one before every step, and the rewind that goes back to one. */
/**
 * A finished run (squashed into its base, or its branch kept for a pull request) is not rewound: its work is in the
 * base branch, or on a branch handed over, and a rewind would take back only the run's branch and record (and a
 * second finish would squash nothing). A later change is a new goal.
 */
function refuseFinished(record: RunRecord): void {
  const f = record.git?.finished;
  if (!f) return;
  const done = f.choice === 'squash' ? `squashed into ${record.git?.base ?? 'its base'}${f.commit ? ` as ${f.commit.slice(0, 10)}` : ''}, where its work stays` : `its branch ${record.git?.branch ?? ''} was kept for a pull request`;
  throw invalidState(
    `run ${record.runId} was finished already (${done}): it is not rewound, nothing was changed. To change or undo what it did, start a new goal: erasmus workflow start ${record.projectDir} --goal "<what to change>"${f.choice === 'squash' ? ` (or revert the squash commit yourself: git revert ${f.commit?.slice(0, 10) ?? '<commit>'})` : ''}.`,
  );
}

/**
 * The run's own branch a rewind to `back` takes away: one made when the plan was approved after that checkpoint (the
 * record it goes back to has none), so approving again makes it under the same name, not `…-2` beside a branch left at
 * the undone commits. Only while HEAD is on it: the rewind's own checkpoint (HEAD then) makes it again when undone.
 */
function branchUndone(record: RunRecord, back: CheckpointRecord & { run: RunRecord }, head: HeadState): string | undefined {
  const branch = record.git?.mode === 'branch' ? record.git.branch : undefined;
  return branch && !back.run.git?.branch && back.branch !== branch && head.branch === branch && head.commit ? branch : undefined;
}

/**
 * The side-by-side components' work a rewind to `back` takes out of the run, which no checkpoint of the project covers:
 * each worktree of the run now that the record gone back to does not have, with its uncommitted files and its commit
 * not merged yet (the resume removes those worktrees, their work kept under `keptRef`).
 */
async function lanesLeft(record: RunRecord, back: RunRecord): Promise<NonNullable<RewindPreview['lanes']>> {
  const out: NonNullable<RewindPreview['lanes']> = [];
  for (const l of record.lanes ?? []) {
    if (!l.worktree || back.lanes?.some((b) => b.component === l.component && b.worktree === l.worktree)) continue;
    const files = await uncommittedChanges(l.worktree);
    if (!files) continue; // the worktree is gone (merged, or removed)
    const commit = l.status === 'ready' ? l.commit : undefined;
    if (files.length || commit) out.push({ component: l.component, worktree: l.worktree, files, ...(commit ? { commit } : {}), keptRef: keptRef(record.runId, l.component) });
  }
  return out;
}

export class RunCheckpoints {
  constructor(
    private readonly store: CheckpointStore,
    private readonly paths: Paths,
  ) {}

  /** Before `state` runs: the project, HEAD, the run record (at that state) and its context documents. */
  async beforeStep(record: RunRecord, state: string): Promise<CheckpointRecord> {
    const run = { ...copy(record), state };
    return this.store.take(record.projectDir, { kind: 'step', state, runId: record.runId, turn: record.timeline.length, run, docs: await readDocs(this.paths.ctxDir(record.projectDir)) });
  }

  /** The checkpoints' side of a step's files (the workflow's CheckpointTrees): a step's start is its checkpoint's tree. */
  readonly trees: CheckpointTrees = {
    changedSince: (projectDir, tree) => this.store.repo(projectDir).changedSince(tree),
    diffSince: async (projectDir, tree, stat) => {
      const repo = this.store.repo(projectDir);
      const now = await repo.tree();
      return now === tree ? '' : repo.diffText(tree, now, stat);
    },
    tree: (projectDir) => this.store.repo(projectDir).tree(),
    diffBetween: async (projectDir, from, to, stat) => (from === to ? '' : this.store.repo(projectDir).diffText(from, to, stat)),
  };

  prune(projectDir: string, retention: Retention): Promise<unknown> {
    return this.store.prune(projectDir, retention);
  }

  async list(record: RunRecord): Promise<CheckpointView[]> {
    return (await this.store.list(record.projectDir, { runId: record.runId })).map(checkpointView);
  }

  private async target(record: RunRecord, id: string): Promise<CheckpointRecord & { run: RunRecord }> {
    const target = await this.store.get(record.projectDir, id);
    if (!target || target.runId !== record.runId) throw new WorkflowError('RUN_NOT_FOUND', `run ${record.runId} has no checkpoint ${id}: list them with erasmus workflow checkpoints ${record.projectDir} (or workflow_checkpoints)`);
    const run = RunRecord.safeParse(target.run);
    if (!run.success) throw new WorkflowError('PARSE_ERROR', `checkpoint ${id} holds no readable run state, so the run cannot go back to it`);
    return { ...target, run: run.data };
  }

  async preview(record: RunRecord, id: string): Promise<RewindPreview> {
    refuseFinished(record);
    const target = await this.target(record, id);
    const [preview, head, lanes] = await Promise.all([this.store.preview(target), readHead(record.projectDir), lanesLeft(record, target.run)]);
    const branchRemoved = branchUndone(record, target, head);
    return { checkpoint: checkpointView(target), ...preview, ...(branchRemoved ? { branchRemoved } : {}), ...(lanes.length ? { lanes } : {}) };
  }

  /**
   * Goes back to checkpoint `id`: first a checkpoint of what is left (so the rewind can be undone), then
   * the files, HEAD and context documents of that moment. Returns the run record to continue from:
   * PAUSED at the checkpoint's state (a completed run taken back to its end stays COMPLETED), with the
   * timeline entries after it kept and marked rewound, and the usage spent so far. A rewind to before the plan's
   * approval removes the run's branch made then (`branchRemoved`; its commits are kept under the undo's ref).
   */
  async rewind(record: RunRecord, id: string): Promise<{ record: RunRecord; undo: CheckpointRecord } & Omit<RewindPreview, 'checkpoint' | 'ignored'>> {
    if (record.status === 'RUNNING' || record.status === 'AWAITING_COGNITIVE_RESULT') throw invalidState(`run ${record.runId} is ${record.status}: pause or stop it before rewinding (erasmus workflow pause|stop)`);
    refuseFinished(record);
    const target = await this.target(record, id);
    const ctxDir = this.paths.ctxDir(record.projectDir);
    const undo = await this.store.take(record.projectDir, {
      kind: 'rewind',
      state: record.state ?? record.status,
      runId: record.runId,
      turn: record.timeline.length,
      run: copy(record),
      docs: await readDocs(ctxDir),
      note: `left by the rewind to ${target.id} (${target.state})`,
    });
    const { files, commitsUndone } = await this.store.restore(target, undo);
    const branch = branchUndone(record, target, undo);
    // HEAD has left it (the checkpoint's HEAD was on the base); its tip is kept under the undo's ref.
    const branchRemoved = branch && undo.commit && (await removeBranch(record.projectDir, branch, undo.commit)) ? branch : undefined;
    if (target.docs) await writeDocs(ctxDir, target.docs);
    const kept = target.run.timeline.length;
    const next: RunRecord = {
      ...target.run,
      status: target.run.status === 'COMPLETED' ? 'COMPLETED' : 'PAUSED',
      state: target.state,
      error: undefined,
      pending: undefined,
      timeline: [...target.run.timeline, ...record.timeline.slice(kept).map((e) => ({ ...e, rewound: true }))],
      totals: record.totals,
      createdAt: record.createdAt,
    };
    return { record: next, undo, files, commitsUndone, ...(branchRemoved ? { branchRemoved } : {}) };
  }
}
