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

type DbosClient = Awaited<ReturnType<typeof dbosClient>>;

/**
 * `keptHere`: what the project's own worktrees and branches kept already (a component fetched ready, not merged).
 * Without the database (`databaseUrl` undefined, or unreachable) the workflows are not cancelled, and each
 * component's checkpoint is the one the run last saw; what is not done is returned in `note`.
 */
export async function leaveRemoteLanes(databaseUrl: string | undefined, record: RunRecord, keptHere: KeptLane[]): Promise<{ kept: KeptLane[]; note?: string }> {
  const dir = record.projectDir;
  const open = (record.lanes ?? []).filter((l) => l.status !== 'merged' && !keptHere.some((k) => k.component === l.component));
  const notes: string[] = [];
  const client = databaseUrl && open.some((l) => l.workflow) ? await dbosClient(databaseUrl).catch((err: Error) => void notes.push(`its components' workflows were not cancelled: the database cannot be reached (${err.message})`)) : undefined;
  if (!databaseUrl && open.some((l) => l.workflow)) notes.push("its components' workflows were not cancelled: this process was not given the run's database URL");
  const kept: KeptLane[] = [];
  for (const l of open) {
    const fetched = client && l.workflow ? await cancelFetching(client, dir, record.runId, l.component, l.workflow, l.checkpoint) : await fetchCheckpoint(dir, record.runId, l.component, l.checkpoint);
    const k = await keepFetched(dir, record.runId, l.component, fetched, 'abandoned').catch((err: Error) => void notes.push(err.message));
    if (k) kept.push(k);
  }
  await removeRunRefs(dir, record.runId);
  return { kept, ...(notes.length ? { note: notes.join('; ') } : {}) };
}

/**
 * Cancels a component's workflow and fetches its last checkpoint, the one before the cancel first: the worker
 * deletes the workflow's refs on origin once it sees the cancel (durable/worker.ts), so the checkpoint fetched after
 * it is only the newer one of a step that ended meanwhile, when the worker has not deleted it yet.
 */
async function cancelFetching(client: DbosClient, dir: string, runId: string, component: string, workflow: string, known: LaneCheckpoint | undefined): Promise<Fetched> {
  const before = (await lastCheckpoint(client, workflow)) ?? known;
  const fetched = await fetchCheckpoint(dir, runId, component, before);
  await client.cancelWorkflow(workflow);
  const after = await lastCheckpoint(client, workflow);
  if (!after || (before && after.sha === before.sha)) return fetched;
  const newer = await fetchCheckpoint(dir, runId, component, after);
  return newer.ref || !fetched.ref ? newer : fetched;
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
  const latest = new Map<string, { id: string; attempt: number; done: boolean }>();
  const underWay: string[] = [];
  for (const w of all) {
    const [, component, n] = w.workflowID.slice(record.runId.length).split(':');
    const attempt = Number(n);
    if (!component || !Number.isInteger(attempt)) continue;
    if (w.status === 'PENDING' || w.status === 'ENQUEUED') underWay.push(w.workflowID);
    const done = w.status === 'SUCCESS' && LaneProgress.safeParse(w.output).data?.done === true;
    if ((latest.get(component)?.attempt ?? 0) < attempt) latest.set(component, { id: w.workflowID, attempt, done });
  }
  const notes: string[] = [];
  const kept: KeptLane[] = [];
  const latestIds = new Set([...latest.values()].map((w) => w.id));
  // Older attempts still under way (their work is not kept) are cancelled at once; each component's latest is fetched before it is cancelled.
  for (const id of underWay.filter((id) => !latestIds.has(id))) await client.cancelWorkflow(id);
  for (const [component, w] of latest) {
    const cancel = underWay.includes(w.id);
    if (w.done) {
      if (cancel) await client.cancelWorkflow(w.id);
      continue;
    }
    const fetched = cancel ? await cancelFetching(client, dir, record.runId, component, w.id, undefined) : await fetchCheckpoint(dir, record.runId, component, await lastCheckpoint(client, w.id));
    const k = await keepFetched(dir, record.runId, component, fetched, 'rewound').catch((err: Error) => void notes.push(err.message));
    if (k) kept.push(k);
  }
  await removeRunRefs(dir, record.runId);
  return { kept, ...(notes.length ? { note: notes.join('; ') } : {}) };
}

/** The checkpoint DBOS last recorded for a component's workflow (the run may have stopped following it before), under the refs of its attempt (`<run>:<component>:<attempt>`) unless it names another. */
async function lastCheckpoint(client: DbosClient, workflow: string): Promise<LaneCheckpoint | undefined> {
  const steps = (await client.listWorkflowSteps(workflow)) ?? [];
  const last = steps.filter((s) => s.output && !s.error).at(-1);
  const progress = last ? LaneProgress.safeParse(last.output) : undefined;
  const checkpoint = progress?.success ? progress.data.checkpoint : undefined;
  const attempt = Number(workflow.split(':').at(-1));
  return checkpoint && { ...checkpoint, attempt: checkpoint.attempt ?? (Number.isInteger(attempt) ? attempt : 1) };
}

/** A checkpoint fetched into the project under a temporary ref (none: there was none, or it could not be fetched: `error` says why). */
interface Fetched {
  ref?: string;
  error?: string;
}

/** Fetches a component's checkpoint from origin under a temporary ref of the project. */
async function fetchCheckpoint(dir: string, runId: string, component: string, checkpoint: LaneCheckpoint | undefined): Promise<Fetched> {
  if (!checkpoint) return {};
  const temp = `refs/erasmus/leaving/${runId}/${component}`;
  const fetched = await git(dir, ['fetch', '-q', '-f', 'origin', `${laneRef({ runId, component, attempt: checkpoint.attempt ?? 1 }, checkpoint.step)}:${temp}`]);
  if (fetched.code !== 0) return { error: `component ${component}'s last checkpoint could not be fetched from origin, so its work there is not kept: ${fetched.stdout.trim().slice(-500)}` };
  return { ref: temp };
}

/** Keeps what a fetched checkpoint holds that no branch does: its worktree's files when they differ from its parent, else the parent (the component's commit, or its base). */
async function keepFetched(dir: string, runId: string, component: string, fetched: Fetched, why: 'abandoned' | 'rewound'): Promise<KeptLane | undefined> {
  if (fetched.error) throw new Error(fetched.error);
  const temp = fetched.ref;
  if (!temp) return undefined;
  try {
    const [sha, tree, parentTree, parent] = (await git(dir, ['rev-parse', temp, `${temp}^{tree}`, `${temp}^^{tree}`, `${temp}^`])).stdout.trim().split('\n');
    return await keepLaneWork(dir, runId, component, tree === parentTree && parent ? parent : sha!, why);
  } finally {
    await git(dir, ['update-ref', '-d', temp]);
  }
}
