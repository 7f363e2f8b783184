// An abandoned durable run leaves nothing on origin. Its components' workflows are cancelled in DBOS (no worker
// starts another step of theirs), the work of each component not merged that only origin holds (its last
// recorded checkpoint: its commit, or its uncommitted worktree on top of it) is kept in the project under
// refs/erasmus/kept/<run>/<component>, as the one-machine path keeps a worktree's, and the run's refs on
// origin (bases, checkpoints, component branches) are deleted.
import { git } from '../git';
import type { RunRecord } from '../run-record';
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
    const last = await lastCheckpoint(client, l.workflow!);
    if (last) checkpoints.set(l.component, last);
  }
  const kept: KeptLane[] = [];
  for (const [component, checkpoint] of checkpoints) {
    const k = await keepCheckpoint(dir, record.runId, component, checkpoint, 'abandoned').catch((err: Error) => void notes.push(err.message));
    if (k) kept.push(k);
  }
  await removeRunRefs(dir, record.runId);
  return { kept, ...(notes.length ? { note: notes.join('; ') } : {}) };
}

/**
 * The run enters its components' phase again (a rewind took it back to before them): what the rewound attempt left
 * in DBOS and on origin goes, as abandon does. The record has no lanes any more, so DBOS says which workflows the
 * run had (`<run>:…`): those still under way are cancelled (a worker stops their step and drops what it pushes
 * after), the last one of each component that did not end with its commit has its last checkpoint kept in the
 * project (a component that did has its commit on the rewound history, or on its branch the project keeps), and
 * the run's refs on origin are deleted. The new workflows take attempts none of these had (remote-lane.ts).
 */
export async function leaveRewoundLanes(databaseUrl: string, record: RunRecord): Promise<{ kept: KeptLane[]; note?: string }> {
  const dir = record.projectDir;
  const client = await dbosClient(databaseUrl);
  const all = await client.listWorkflows({ workflow_id_prefix: `${record.runId}:`, loadInput: false, loadOutput: true });
  const latest = new Map<string, { id: string; attempt: number; status: string; done: boolean }>();
  for (const w of all) {
    const [, component, n] = w.workflowID.slice(record.runId.length).split(':');
    const attempt = Number(n);
    if (!component || !Number.isInteger(attempt)) continue;
    if (w.status === 'PENDING' || w.status === 'ENQUEUED') await client.cancelWorkflow(w.workflowID);
    const done = w.status === 'SUCCESS' && LaneProgress.safeParse(w.output).data?.done === true;
    if ((latest.get(component)?.attempt ?? 0) < attempt) latest.set(component, { id: w.workflowID, attempt, status: w.status, done });
  }
  const notes: string[] = [];
  const kept: KeptLane[] = [];
  for (const [component, w] of latest) {
    if (w.done) continue;
    const checkpoint = await lastCheckpoint(client, w.id);
    const k = checkpoint && (await keepCheckpoint(dir, record.runId, component, { ...checkpoint, attempt: checkpoint.attempt ?? w.attempt }, 'rewound').catch((err: Error) => void notes.push(err.message)));
    if (k) kept.push(k);
  }
  await removeRunRefs(dir, record.runId);
  return { kept, ...(notes.length ? { note: notes.join('; ') } : {}) };
}

/** The checkpoint DBOS last recorded for a component's workflow (the run may have stopped following it before). */
async function lastCheckpoint(client: Awaited<ReturnType<typeof dbosClient>>, workflow: string): Promise<LaneCheckpoint | undefined> {
  const steps = (await client.listWorkflowSteps(workflow)) ?? [];
  const last = steps.filter((s) => s.output && !s.error).at(-1);
  const progress = last ? LaneProgress.safeParse(last.output) : undefined;
  return progress?.success ? progress.data.checkpoint : undefined;
}

/** Fetches a checkpoint from origin and keeps what it holds that no branch does: its worktree's files when they differ from its parent, else the parent (the component's commit, or its base). */
async function keepCheckpoint(dir: string, runId: string, component: string, checkpoint: LaneCheckpoint, why: 'abandoned' | 'rewound'): Promise<KeptLane | undefined> {
  const temp = `refs/erasmus/leaving/${runId}/${component}`;
  const fetched = await git(dir, ['fetch', '-q', '-f', 'origin', `${laneRef({ runId, component, attempt: checkpoint.attempt ?? 1 }, checkpoint.step)}:${temp}`]);
  if (fetched.code !== 0) throw new Error(`component ${component}'s last checkpoint could not be fetched from origin, so its work there is not kept: ${fetched.stdout.trim().slice(-500)}`);
  try {
    const [sha, tree, parentTree, parent] = (await git(dir, ['rev-parse', temp, `${temp}^{tree}`, `${temp}^^{tree}`, `${temp}^`])).stdout.trim().split('\n');
    return await keepLaneWork(dir, runId, component, tree === parentTree && parent ? parent : sha!, why);
  } finally {
    await git(dir, ['update-ref', '-d', temp]);
  }
}
