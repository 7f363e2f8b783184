// What the user changed in the project while a run was stopped for them (blocked, stopped): read when the run goes on,
// from the files as the run left them to the files as it goes on, and shown to the steps of the part it stopped at, the
// review among them, until that part is committed. Without it, a retried step would take the user's fix for its own
// attempt's work, and a review would read the fix without knowing whose it is. The trees are taken where a step's start
// trees are (among the checkpoints' when the run keeps checkpoints, else in the project's repository), so a retry's
// "what the attempt changed" can end where the user's changes begin (retry-note.ts unfinishedChanges).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { git, snapshotTree } from './git';
import { PARALLEL_STATE } from './plan';
import type { RetryChanges } from './retry-note';
import type { CheckpointTrees } from './run-context';
import type { LaneRecord, RunRecord } from './run-record';

/** How long a diff of the user's changes is shown whole; longer, git's list of the files and their changed lines. */
const USER_DIFF_MAX = 6000;

export type UserChange = NonNullable<RunRecord['userChanges']>[number];

/** The part of the run a state belongs to: its component, `final`, or `prepare`. */
const partOf = (state: string) => state.split(':')[0]!;

/** The project's files now as a tree: among the checkpoints' when the run keeps them, else in the project's repository. */
async function treeNow(dir: string, trees: CheckpointTrees | undefined): Promise<{ tree: string; in?: 'checkpoints' } | undefined> {
  if (trees) {
    const tree = await trees.tree(dir).catch(() => undefined);
    if (tree) return { tree, in: 'checkpoints' };
  }
  const tree = await snapshotTree(dir).catch(() => undefined);
  return tree ? { tree } : undefined;
}

/** The diff between two trees of the same store (`--stat` when `stat`); undefined when it cannot be read. */
export async function treeDiff(dir: string, from: string, to: string, trees: CheckpointTrees | undefined, inCheckpoints: boolean, stat = false): Promise<string | undefined> {
  if (inCheckpoints) return trees?.diffBetween(dir, from, to, stat).catch(() => undefined);
  const r = await git(dir, ['diff', '--no-color', '--no-ext-diff', ...(stat ? ['--stat=200'] : []), from, to]);
  return r.code === 0 ? r.stdout : undefined;
}

/** What stops for the user and goes on: a run (its project folder), or a side-by-side component (`projectDir`: its worktree). */
export type Stoppable = Pick<RunRecord, 'projectDir' | 'stoppedTree' | 'stoppedTreeIn' | 'userChanges'>;

/** Keeps the project's files as the run leaves them when it stops for the user. */
export async function rememberStoppedTree(record: Stoppable, trees?: CheckpointTrees): Promise<void> {
  const now = await treeNow(record.projectDir, trees);
  delete record.stoppedTree;
  delete record.stoppedTreeIn;
  if (now) Object.assign(record, { stoppedTree: now.tree, ...(now.in ? { stoppedTreeIn: now.in } : {}) });
}

/** Going on after a stop: what the user changed since, kept with the record for the steps of the part it stopped at. */
export async function readUserChanges(record: Stoppable, state: string | undefined, trees?: CheckpointTrees): Promise<void> {
  const from = record.stoppedTree;
  const inCheckpoints = record.stoppedTreeIn === 'checkpoints';
  delete record.stoppedTree;
  delete record.stoppedTreeIn;
  if (!from || !state) return;
  const now = await treeNow(record.projectDir, inCheckpoints ? trees : undefined);
  if (!now || now.tree === from || (now.in === 'checkpoints') !== inCheckpoints) return;
  const diff = await treeDiff(record.projectDir, from, now.tree, trees, inCheckpoints);
  if (!diff?.trim()) return;
  let change: RetryChanges = { kind: 'diff', text: diff.trimEnd() };
  if (change.text.length > USER_DIFF_MAX) {
    const stat = await treeDiff(record.projectDir, from, now.tree, trees, inCheckpoints, true);
    if (!stat) return;
    change = { kind: 'stat', text: stat.trimEnd() };
  }
  record.userChanges = [...(record.userChanges ?? []), { state, at: new Date().toISOString(), from, to: now.tree, ...(inCheckpoints ? { fromIn: 'checkpoints' as const } : {}), ...change }];
}

/**
 * The user's changes a step of `part` is shown: those made while the run was stopped at a step of that part, since the
 * part's last commit (a committed part holds them).
 */
export function userChangesFor(record: Pick<RunRecord, 'timeline' | 'userChanges'>, part: string): UserChange[] {
  const committed = record.timeline.findLast((e) => !e.rewound && partOf(e.state) === part && e.outcome === 'committed')?.leftAt;
  // A change made while the run was stopped at its components' phase is a component's when it was carried into its files (carryUserChanges).
  const mine = (c: UserChange) => partOf(c.state) === part || (c.state === PARALLEL_STATE && part !== 'final' && part !== 'prepare');
  return (record.userChanges ?? []).filter((c) => mine(c) && (!committed || c.at > committed));
}

/** A side-by-side component that blocked: its worktree's files as it stopped (its own snapshot: a lane's steps take theirs). */
export async function laneStopped(lane: LaneRecord): Promise<void> {
  if (!lane.worktree) return;
  const at: Stoppable = { projectDir: lane.worktree };
  await rememberStoppedTree(at);
  lane.stoppedTree = at.stoppedTree;
}

/** The component goes on: what the user changed in its worktree since it blocked, kept with it for its steps. */
export async function laneGoesOn(lane: LaneRecord): Promise<void> {
  if (!lane.worktree || !lane.stoppedTree) return;
  const at: Stoppable = { projectDir: lane.worktree, stoppedTree: lane.stoppedTree, ...(lane.userChanges ? { userChanges: lane.userChanges } : {}) };
  await readUserChanges(at, lane.state);
  lane.stoppedTree = undefined;
  lane.userChanges = at.userChanges;
}

/** A change of the user's handed to a durable run's component, with the patch that carries it into the component's files. */
export type CarriedChange = Pick<UserChange, 'at' | 'kind' | 'text'> & { patch: string };

/**
 * The user's changes a durable run's component going on is to carry into its files (its steps run in a worker's clone,
 * which holds none of the project folder's files): those made while the run was stopped at its components' phase
 * (`phase`: that state) that no workflow of the component was handed yet, each with its whole diff as a patch. A
 * change whose diff cannot be read again is left out.
 */
export async function changesToCarry(record: Pick<RunRecord, 'projectDir' | 'userChanges'>, lane: Pick<LaneRecord, 'carried'>, phase: string, trees?: CheckpointTrees): Promise<CarriedChange[]> {
  const out: CarriedChange[] = [];
  for (const c of record.userChanges ?? []) {
    if (c.state !== phase || lane.carried?.includes(c.at)) continue;
    const patch = c.kind === 'diff' ? c.text : c.to ? await treeDiff(record.projectDir, c.from, c.to, trees, c.fromIn === 'checkpoints') : undefined;
    if (patch?.trim()) out.push({ at: c.at, kind: c.kind, text: c.text, patch: patch.endsWith('\n') ? patch : `${patch}\n` });
  }
  return out;
}

/**
 * In a durable run's worker, before the first step of a component's workflow: the user's changes handed to it
 * (`changesToCarry`) applied to its clone `dir`, each told to its steps (the lane's `userChanges`, as the components'
 * phase's); one there already (the user committed it, and the component started from that commit) is told too. Throws,
 * naming the files and what to do, when one applies neither way: nothing of it is applied.
 */
export async function carryUserChanges(dir: string, changes: readonly CarriedChange[], lane: Pick<LaneRecord, 'component' | 'userChanges'>): Promise<void> {
  const folder = await mkdtemp(join(tmpdir(), 'erasmus-user-change-'));
  try {
    for (const c of changes) {
      // The clone's files before it: where the user's change begins, as a stop's tree is in a plain run.
      const from = (await snapshotTree(dir).catch(() => undefined)) ?? '';
      const file = join(folder, 'change.diff');
      await writeFile(file, c.patch);
      const apply = (...args: string[]) => git(dir, ['apply', '--whitespace=nowarn', ...args, file]);
      const there = (await apply('--check')).code !== 0 && (await apply('--check', '-R')).code === 0;
      if (!there) {
        const applied = await apply();
        if (applied.code !== 0) {
          const files = [...new Set([...c.patch.matchAll(/^diff --git a\/(\S+)/gm)].map((m) => `\`${m[1]}\``))].join(', ');
          throw new Error(
            `the changes you made while the run was stopped${files ? ` (${files})` : ''} do not apply to component ${lane.component}'s files as its steps left them (git apply: ${applied.stdout.trim().slice(0, 600)}), so they were not carried into them; they stay in the project folder. Retry to go on without them (erasmus workflow retry), or bring them into the component's files yourself once it is merged.`,
          );
        }
      }
      lane.userChanges = [...(lane.userChanges ?? []), { state: PARALLEL_STATE, at: c.at, from, kind: c.kind, text: c.text }];
    }
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
