// An abandoned durable run leaves nothing on origin. Its components' workflows are cancelled in DBOS (no worker
// starts another step of theirs), the work of each component not merged that only origin holds (its last
// recorded checkpoint: its commit, or its uncommitted worktree on top of it) is kept in the project under
// refs/erasmus/kept/<run>/<component>, as the one-machine path keeps a worktree's, and the run's refs on
// origin (bases, checkpoints, component branches) are deleted.
import { git } from '../git';
import type { LaneRecord, RunRecord } from '../run-record';
import { keepLaneWork, type KeptLane } from '../worktrees';
import { LaneProgress } from './component-step';
import { dbosClient } from './dbos';
import { laneRef, removeRunRefs, type LaneCheckpoint } from './lane-git';

/**
 * `keptHere`: what the project's own worktrees and branches kept already (a component fetched ready, not merged).
 * Without the database (`databaseUrl` undefined, or unreachable) the workflows are not cancelled, and each
 * component's checkpoint is the one the run last saw; what is not done is returned in `note`.
 */
export async function leaveRemoteLanes(databaseUrl: string | undefined, record: RunRecord, keptHere: KeptLane[]): Promise<{ kept: KeptLane[]; note?: string }> {
  const dir = record.projectDir;
  const open = (record.lanes ?? []).filter((l) => l.status !== 'merged' && !keptHere.some((k) => k.component === l.component));
  const notes: string[] = [];
  const checkpoints = new Map<string, LaneCheckpoint>();
  for (const l of open) if (l.checkpoint) checkpoints.set(l.component, l.checkpoint);
  const client = databaseUrl && open.some((l) => l.workflow) ? await dbosClient(databaseUrl).catch((err: Error) => void notes.push(`its components' workflows were not cancelled: the database cannot be reached (${err.message})`)) : undefined;
  if (!databaseUrl && open.some((l) => l.workflow)) notes.push("its components' workflows were not cancelled: this process was not given the run's database URL");
  for (const l of open.filter((l) => l.workflow)) {
    if (!client) break;
    // Cancelled first: a step under way ends, and the worker drops what it pushes after (durable/worker.ts).
    await client.cancelWorkflow(l.workflow!);
    const last = await lastCheckpoint(client, l);
    if (last) checkpoints.set(l.component, last);
  }
  const kept: KeptLane[] = [];
  for (const [component, checkpoint] of checkpoints) {
    const k = await keepCheckpoint(dir, record.runId, component, checkpoint).catch((err: Error) => void notes.push(err.message));
    if (k) kept.push(k);
  }
  await removeRunRefs(dir, record.runId);
  return { kept, ...(notes.length ? { note: notes.join('; ') } : {}) };
}

/** The checkpoint DBOS last recorded for the component (the run may have stopped following it before). */
async function lastCheckpoint(client: Awaited<ReturnType<typeof dbosClient>>, lane: LaneRecord): Promise<LaneCheckpoint | undefined> {
  const steps = (await client.listWorkflowSteps(lane.workflow!)) ?? [];
  const last = steps.filter((s) => s.output && !s.error).at(-1);
  const progress = last ? LaneProgress.safeParse(last.output) : undefined;
  return progress?.success ? progress.data.checkpoint : undefined;
}

/** Fetches a checkpoint from origin and keeps what it holds that no branch does: its worktree's files when they differ from its parent, else the parent (the component's commit, or its base). */
async function keepCheckpoint(dir: string, runId: string, component: string, checkpoint: LaneCheckpoint): Promise<KeptLane | undefined> {
  const temp = `refs/erasmus/leaving/${runId}/${component}`;
  const fetched = await git(dir, ['fetch', '-q', '-f', 'origin', `${laneRef(runId, component, checkpoint.step)}:${temp}`]);
  if (fetched.code !== 0) throw new Error(`component ${component}'s last checkpoint could not be fetched from origin, so its work there is not kept: ${fetched.stdout.trim().slice(-500)}`);
  try {
    const [sha, tree, parentTree, parent] = (await git(dir, ['rev-parse', temp, `${temp}^{tree}`, `${temp}^^{tree}`, `${temp}^`])).stdout.trim().split('\n');
    return await keepLaneWork(dir, runId, component, tree === parentTree && parent ? parent : sha!, 'abandoned');
  } finally {
    await git(dir, ['update-ref', '-d', temp]);
  }
}
