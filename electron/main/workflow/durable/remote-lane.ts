// The run's side of a durable run's component: instead of driving it in a worktree here (parallel.ts
// driveLane), the run puts the component's base on origin, enqueues a DBOS workflow for it (its id is
// the run's, the component's and the attempt's, so a run resumed after a crash finds the same workflow
// again instead of enqueuing another), follows its steps into the run's timeline (each step's entry as it
// starts and as it ends; its session's events and questions through bridge.ts), and once it is done
// fetches the component's branch: the component is ready, and parallel.ts merges it in schedule order as
// it merges any other.
import type { DBOSClient, WorkflowStatus } from '@dbos-inc/dbos-sdk';
import type { Pool } from 'pg';
import type { WorkflowTimelineEntry } from '../../../contract/methods/workflow';
import { sessionIdOfLog } from '../../../contract/run-steps';
import { databaseHint } from '../../../contract/words';
import { git, headCommit } from '../git';
import { PARALLEL_STATE, type Plan, type PlanComponent } from '../plan';
import type { RunContext } from '../run-context';
import { writeStepPrompt, type LaneRecord, type RunRecord } from '../run-record';
import { WorkflowError } from '../errors';
import { StepAbortedError } from '../executor';
import { setTaskStatus, parseTaskList } from '../task-list';
import { changesToCarry } from '../user-changes';
import { emptyCommit, laneBranch } from '../worktrees';
import { LaneProgress, readLaneDocs, readLaneReview, reviewNoteHere, writeLaneDocs, writeLaneReview, type LaneJob } from './component-step';
import { redactedUrl } from './database-url';
import { COMPONENT_WORKFLOW, componentQueue, dbosClient, executorAlive, FOLLOW_MS, liveWorkers, workerName, WORKFLOW_VERSION } from './dbos';
import { fetchRef, laneCommitRef, laneRef, originUrl, pushRef, removeRunRefs, type LaneKey } from './lane-git';
import { bridgePool, following, nextLook, RunBridge, unfollow, type RunGate, type StepPrompt } from './bridge';

export async function driveRemoteLane(databaseUrl: string, ctx: RunContext, plan: Plan, lane: LaneRecord, component: PlanComponent, gate?: RunGate): Promise<void> {
  const { record } = ctx;
  const dir = record.projectDir;
  const client = await dbosClient(databaseUrl).catch((err: Error) => {
    throw new WorkflowError('RUNTIME_ERROR', `the run's database ${redactedUrl(databaseUrl)} cannot be reached (${err.message}): start it, or resume with the right --database-url (erasmus workflow resume ${dir} --database-url postgres://…, or ERASMUS_DATABASE_URL); component ${component.id} goes on from where it stood`);
  });
  let id = lane.workflow;
  let status = id ? await client.getWorkflow(id) : undefined;
  // Resumed after this process stopped following the workflow (it died, or was stopped): what the workflow recorded
  // meanwhile comes in first (its steps' timeline, documents, checkpoint), so the run goes on from there, never from
  // where its own record last saw the component.
  if (id && status) await catchUp(ctx, lane, client, id, status.status === 'SUCCESS' ? status.output : undefined);
  /** A new attempt: from where the component stands (its last checkpoint; its base on origin the first time). */
  const enqueue = async (): Promise<string> => {
    // A number no workflow of the component had (DBOS keeps those of a rewound attempt, whose lanes the record no longer has).
    const attempt = Math.max(lane.attempts ?? 0, await lastAttempt(client, record.runId, component.id)) + 1;
    const key = { runId: record.runId, component: component.id, attempt };
    const origin = await originUrl(dir);
    if (!lane.checkpoint) await pushRef(dir, (await headCommit(dir)) ?? (await emptyCommit(dir)), laneRef(key, 'base'));
    const review = await readLaneReview(ctx.paths, dir, record, component.id);
    const docs = { ...(await readLaneDocs(ctx.docs, component.id)), ...(review ? { review } : {}) };
    const start: LaneProgress = {
      ...(lane.checkpoint ? { checkpoint: lane.checkpoint } : {}),
      steps: lane.checkpoint ? lane.checkpoint.step + 1 : 0,
      lane: { ...lane, status: 'running', entries: [], worktree: undefined, branch: undefined, workflow: undefined, checkpoint: undefined, error: undefined },
      timeline: lane.entries.map((i) => record.timeline[i]!).filter(Boolean),
      docs,
      done: false,
    };
    // What the user changed while the run was stopped (in the project folder, which the worker's clone does not hold):
    // carried into the component's files by the workflow's first step, and told to its steps, as a plain run's steps are.
    const carry = await changesToCarry(record, lane, PARALLEL_STATE, ctx.checkpointTrees);
    if (carry.length) lane.carried = [...(lane.carried ?? []), ...carry.map((c) => c.at)];
    const job: LaneJob = { runId: record.runId, component: component.id, attempt, origin, record: jobRecord(record), plan: { ...plan, parallel: false, components: [component] }, start, ...(carry.length ? { userChanges: carry } : {}) };
    const next = workflowId(key);
    Object.assign(lane, { workflow: next, attempts: attempt, status: 'running' as const });
    await ctx.persist();
    // Followed from the start: a question of its first step is asked here, not refused as nobody's.
    await following(await bridgePool(databaseUrl), next);
    await client.enqueue({ queueName: componentQueue(record.executor), workflowName: COMPONENT_WORKFLOW, workflowID: next, appVersion: WORKFLOW_VERSION }, job);
    return next;
  };
  const ended = !id || !status || status.status === 'ERROR' || status.status === 'CANCELLED' || (status.status === 'SUCCESS' && (status.output as LaneProgress | undefined)?.failed);
  if (ended) id = await enqueue();
  else lane.status = 'running';
  let seen = 0;
  let stepsDone = 0;
  // How many of the component's timeline entries DBOS recorded (a step's entries are recorded with its progress): those
  // after them ended in a worker that may die before its step is recorded (its checkpoint on its way to origin).
  let recorded = lane.entries.length;
  const notMoving = new NotMoving(ctx, lane, record.executor, await bridgePool(databaseUrl), client);
  const bridge = new RunBridge(await bridgePool(databaseUrl), id!, gate, component.id, dir, (session) => ctx.paths.session(session));
  // The worker running the workflow's step: when DBOS recovery takes the workflow from it (it died), what it asked and its sessions end here.
  let runningOn: string | undefined;
  // Listening from the first look on: what the worker writes meanwhile wakes the next one.
  await nextLook(databaseUrl, id!, 0);
  try {
    /** The steps recorded since the last look: the run's timeline shows each as it ends. */
    const importRecorded = async (): Promise<LaneProgress | undefined> => {
      const steps = (await client.listWorkflowSteps(id!, { offset: seen })) ?? [];
      seen += steps.length;
      const last = steps.filter((s) => s.output && !s.error).at(-1);
      const progress = last ? LaneProgress.parse(last.output) : undefined;
      if (progress) {
        stepsDone = progress.steps;
        recorded = progress.timeline.length;
        await importProgress(ctx, lane, progress);
      }
      return progress;
    };
    for (;;) {
      const progress = await importRecorded();
      // Committed and pushed, as DBOS recorded it: the workflow returns that very progress (a recovery replays it), so the run goes on now.
      if (progress?.done) {
        await bridge.finish('its workflow committed the component');
        break;
      }
      // The step under way: its questions asked here, its events shown, its entry as it stands (newer than the last step ended).
      const live = await bridge.look(stepsDone);
      if (live.timeline && live.timeline.step >= stepsDone) await importTimeline(ctx, lane, live.timeline.entries);
      await keepPrompts(ctx, lane, live.prompts);
      // Its status alone on each look (DBOS's getWorkflow loads and decodes the job and the output every time); the output once it ended.
      const [now] = await client.listWorkflows({ workflowIDs: [id!], loadInput: false, loadOutput: false });
      status = now && ENDED.has(now.status) ? await client.getWorkflow(id!) : now;
      if (runningOn && (status?.status === 'ENQUEUED' || (status?.status === 'PENDING' && status.executorId !== runningOn))) {
        await bridge.workerGone(`the worker running it (${runningOn}) stopped; the step runs again in another worker`);
        // What it recorded before it died counts as done; what it did after that runs again.
        await importRecorded();
        await closeInterrupted(ctx, lane, recorded);
      }
      runningOn = status?.status === 'PENDING' ? status.executorId : status?.status === 'ENQUEUED' ? undefined : runningOn;
      await notMoving.look(status ?? undefined);
      if (status?.status === 'SUCCESS') {
        const out = LaneProgress.parse(status.output);
        await importProgress(ctx, lane, out);
        await bridge.finish(out.failed ? 'its component is blocked' : 'its workflow committed the component');
        if (out.failed) throw new WorkflowError('RUNTIME_ERROR', out.failed);
        break;
      }
      if (status?.status === 'ERROR' || status?.status === 'CANCELLED' || status?.status === 'MAX_RECOVERY_ATTEMPTS_EXCEEDED') {
        await bridge.finish(`its workflow ended ${status.status}`);
        throw new WorkflowError('RUNTIME_ERROR', `component ${component.id}'s workflow ${id} ended ${status.status}${status.error ? `: ${(status.error as Error).message ?? String(status.error)}` : ''}; retry to run it again from its last finished step (erasmus workflow retry ${dir}${databaseHint(record.durable).option}${databaseHint(record.durable).note})`);
      }
      // Stop and pause stop following it here; its workflow goes on in the workers, and resume finds it again (its id is in the lane).
      if (ctx.signal.aborted) throw new StepAbortedError(lane.state ?? `${component.id}:development`);
      if (ctx.pausing?.()) return;
      // The next look as soon as the worker writes something (a step recorded, a question, the step's timeline or events), at most FOLLOW_MS from now.
      await nextLook(databaseUrl, id!, FOLLOW_MS, ctx.signal);
    }
  } finally {
    await bridge.close();
    unfollow(databaseUrl, id!);
  }
  // Ready: its commit, fetched from origin into the project as the component's branch (merged, then deleted, by parallel.ts).
  if (lane.commit) {
    const branch = laneBranch(record.runId, component.id);
    const sha = await fetchRef(dir, laneCommitRef({ runId: record.runId, component: component.id, attempt: lane.attempts ?? 1 }), `refs/heads/${branch}`);
    if (sha !== lane.commit) throw new WorkflowError('RUNTIME_ERROR', `origin's branch ${branch} is at ${sha.slice(0, 8)}, not at component ${component.id}'s commit ${lane.commit.slice(0, 8)}`);
    lane.branch = branch;
  }
  lane.status = 'ready';
  await ctx.persist();
}

/** A workflow's statuses once it ended (its output and error are read then). */
const ENDED = new Set(['SUCCESS', 'ERROR', 'CANCELLED', 'MAX_RECOVERY_ATTEMPTS_EXCEEDED']);

/** How long a component waits in its queue before the run says no worker takes it (workers poll every 100 ms). */
export const QUEUED_NOTICE_MS = 3000;
/** How often the run asks whether the worker running a component still lives (its liveness lock, dbos.ts). */
const ALIVE_CHECK_MS = 2000;

/**
 * Says when a durable run's component does not move, in the lane (status shows it) and as a notice (the CLI prints
 * it, the app shows it): queued with no worker taking it for QUEUED_NOTICE_MS, or the worker that ran its step gone
 * (the workflow given back to its queue or taken by another worker, as DBOS recovery does once that worker's liveness
 * lock is free; or that lock found free here first). Once a worker has it again, the lane's words go and a notice
 * says which worker took it up.
 */
class NotMoving {
  private checked = 0;
  /** The workflow's status and worker (DBOS executor) at the last look. */
  private last: { status?: string; executor?: string } | undefined;
  /** When the workflow went back on its queue with its worker gone (DBOS's own time for it may be its creation). */
  private requeuedAt = 0;
  private busy = { at: 0, n: 0 };
  /** The worker that ran its step died, and no other has taken it up yet. */
  private lost = false;

  constructor(
    private readonly ctx: RunContext,
    private readonly lane: LaneRecord,
    private readonly executor: RunRecord['executor'],
    private readonly pool: Pool,
    private readonly client: DBOSClient,
  ) {}

  /** How many component workflows run on the queue (in workers, so some live worker takes it), asked at most every ALIVE_CHECK_MS. */
  private async busyOn(queueName: string | undefined): Promise<number> {
    if (!queueName) return 0;
    if (Date.now() - this.busy.at >= ALIVE_CHECK_MS) {
      const running = await this.client.listWorkflows({ status: 'PENDING', queueName, workflowName: COMPONENT_WORKFLOW, loadInput: false, loadOutput: false }).catch(() => []);
      this.busy = { at: Date.now(), n: running.filter((w) => w.executorId && w.executorId !== 'local').length };
    }
    return this.busy.n;
  }

  /** The workers alive on the database, and how many take components from the queue (erasmus.workers), asked at most every ALIVE_CHECK_MS. */
  private async workersOn(queueName: string): Promise<{ running: number; listening: number } | undefined> {
    if (Date.now() - this.workers.at >= ALIVE_CHECK_MS) {
      const c = await this.pool.connect().catch(() => undefined);
      const now = c ? await liveWorkers(c, queueName).catch(() => undefined) : undefined;
      c?.release();
      this.workers = { at: Date.now(), now };
    }
    return this.workers.now;
  }
  private workers: { at: number; now?: { running: number; listening: number } } = { at: 0 };

  /** Why a component stays on its queue with no worker busy: none runs, none that runs takes the queue, or one does and has not yet. */
  private async queuedWords(queueName: string, since: number): Promise<string> {
    const provider = this.executor.kind === 'agent' && this.executor.provider ? this.executor.provider : undefined;
    const has = provider ? ` that has the run's provider "${provider}" in its config.yaml` : '';
    const workers = await this.workersOn(queueName);
    const db = databaseHint(this.ctx.record.durable);
    const start = `erasmus worker${db.option}${db.note}`;
    if (workers?.running === 0)
      return `queued: no \`erasmus worker\` runs on this run's database; start one where the project's origin can be cloned and pushed to${provider ? `, with the run's provider "${provider}" in its config.yaml (the same id) and its key` : ''}: ${start}`;
    if (workers && !workers.listening && provider) {
      const n = workers.running === 1 ? 'one `erasmus worker` runs' : `${workers.running} \`erasmus worker\` processes run`;
      return `queued: ${n} on this run's database, none with the run's provider "${provider}" in its config.yaml: add it there under that id (its key with erasmus secrets set NAME) and restart the worker, or start one that has it: ${start}`;
    }
    return `queued: waiting for an \`erasmus worker\`${has} (none has taken it since ${clock(since)})`;
  }

  async look(status: WorkflowStatus | undefined): Promise<void> {
    const before = this.last;
    this.last = { status: status?.status, executor: status?.executorId };
    const ranOn = before?.status === 'PENDING' ? before.executor : undefined;
    const gone = this.lane.waiting?.startsWith('the worker ') ? this.lane.waiting : undefined;
    const notices: string[] = [];
    let words: string | undefined;
    if (status?.status === 'ENQUEUED') {
      // Given back to its queue while a worker ran it: that worker is gone (DBOS recovery).
      if (ranOn) Object.assign(this, { requeuedAt: Date.now(), lost: true });
      words = goneWords(ranOn) ?? gone;
      const since = Math.max(status.updatedAt ?? status.createdAt, this.requeuedAt);
      if (Date.now() - since >= QUEUED_NOTICE_MS) {
        // Workers that take this queue may be there, each at its concurrency with other components: then it waits its turn.
        const busy = await this.busyOn(status.queueName);
        words = busy
          ? `queued: the workers that take this run's components are busy (${busy} component${busy === 1 ? '' : 's'} under way); it starts when one is free`
          : await this.queuedWords(status.queueName ?? componentQueue(this.executor), since);
      }
    } else if (status?.status === 'PENDING' && status.executorId) {
      // Another worker than the one at the last look: given back and taken up between two looks.
      const moved = ranOn && ranOn !== status.executorId ? ranOn : undefined;
      if (moved) notices.push(goneWords(moved)!);
      if (moved || (before?.status === 'ENQUEUED' && this.lane.waiting)) {
        const again = moved || this.lost ? '; the step it was in runs again there from its last checkpoint' : '';
        notices.push(`taken up by ${workerName(status.executorId)}${again}`);
        this.lost = false;
      } else {
        words = gone;
        if (Date.now() - this.checked >= ALIVE_CHECK_MS) {
          this.checked = Date.now();
          const c = await this.pool.connect();
          try {
            words = (await executorAlive(c, status.executorId)) ? undefined : goneWords(status.executorId);
            if (words) this.lost = true;
          } finally {
            c.release();
          }
        }
      }
    }
    const changed = words !== this.lane.waiting;
    if (changed && words) notices.push(words);
    // Said before it is saved: whoever reads the lane's words (status) has had the notice too.
    this.lane.waiting = words;
    for (const body of notices) this.ctx.emit('app.notify', { title: `Component ${this.lane.component}`, body });
    if (changed) await this.ctx.persist();
  }
}

function goneWords(executorId: string | undefined): string | undefined {
  return executorId && `${workerName(executorId)} that ran it is gone; the step runs again when a worker is free`;
}

/** HH:MM, local time. */
function clock(ms: number): string {
  const d = new Date(ms);
  return `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
}

/** A component's workflow: `<run>:<component>:<attempt>`. */
export function workflowId(key: LaneKey): string {
  return `${key.runId}:${key.component}:${key.attempt}`;
}

/** The highest attempt DBOS has of the component's workflows (0: none). */
export async function lastAttempt(client: DBOSClient, runId: string, component: string): Promise<number> {
  const prefix = `${runId}:${component}:`;
  const known = await client.listWorkflows({ workflow_id_prefix: prefix, loadInput: false, loadOutput: false });
  return Math.max(0, ...known.map((w) => Number(w.workflowID.slice(prefix.length))).filter((n) => Number.isInteger(n)));
}

/**
 * What the component's workflow recorded while this process did not follow it (the output it returned, else its
 * last recorded step's progress) comes into the run: the steps a worker finished meanwhile are on the run's
 * timeline, and a new attempt goes on from its checkpoint.
 */
async function catchUp(ctx: RunContext, lane: LaneRecord, client: DBOSClient, id: string, output: unknown): Promise<void> {
  const returned = output === undefined ? undefined : LaneProgress.safeParse(output);
  let progress = returned?.success ? returned.data : undefined;
  if (!progress) {
    const last = ((await client.listWorkflowSteps(id)) ?? []).filter((s) => s.output && !s.error).at(-1);
    const parsed = last ? LaneProgress.safeParse(last.output) : undefined;
    progress = parsed?.success ? parsed.data : undefined;
  }
  if (progress) await importProgress(ctx, lane, progress);
}

/** The run's record as a component's steps read it: no lanes, no timeline, nothing waiting. */
function jobRecord(record: RunRecord): RunRecord {
  const { lanes: _lanes, snapshot: _snapshot, pending: _pending, error: _error, ...rest } = record;
  return { ...rest, timeline: [], retryOf: undefined };
}

/** Brings the run's lane up to the component's progress: its entries (new ones appended), its fields, its documents. */
async function importProgress(ctx: RunContext, lane: LaneRecord, p: LaneProgress): Promise<void> {
  // The review report the worker kept in its home is kept in the run's (its steps' notes name that file: importTimeline).
  await writeLaneReview(ctx.paths, ctx.record.projectDir, ctx.record, lane.component, p.docs.review);
  await importTimeline(ctx, lane, p.timeline);
  await keepPrompts(ctx, lane, p.prompts ?? []);
  const { state, snapshot, lastTest, untraced, retryOf, pendingCommit, commit, userChanges } = p.lane;
  Object.assign(lane, { state, snapshot, lastTest, untraced, retryOf, pendingCommit, commit, userChanges, ...(p.checkpoint ? { checkpoint: p.checkpoint } : {}) });
  if (p.docs.component !== undefined) await writeLaneDocs(ctx.docs, lane.component, { component: p.docs.component });
  // The component's own tasks, as its steps marked them (the others' marks are theirs).
  const theirs = p.docs.task_list ? parseTaskList(p.docs.task_list) : undefined;
  const done = theirs?.ok ? (theirs.list.components.find((c) => c.id === lane.component)?.tasks.filter((t) => t.status === 'done').map((t) => t.id) ?? []) : [];
  if (done.length) await ctx.docs.update({ doc: 'task_list' }, (list) => list && setTaskStatus(list, done, 'done'));
  await ctx.persist();
}

/**
 * The component's timeline entries into the run's: new ones appended, changed ones replaced (usage added once, when an
 * entry ends); one that started at another time than the unfinished one at its place is another attempt, appended.
 */
async function importTimeline(ctx: RunContext, lane: LaneRecord, timeline: WorkflowTimelineEntry[]): Promise<void> {
  const { record } = ctx;
  let changed = false;
  timeline.forEach((e, i) => {
    const note = reviewNoteHere(e.note, ctx.paths, record.projectDir, record.runId);
    // Its session's log is the copy the bridge keeps in the run's home (bridge.ts, step-log.ts), not the worker's file.
    const session = sessionIdOfLog(e.sessionLog);
    const entry: WorkflowTimelineEntry = { ...e, component: lane.component, ...(note ? { note } : {}), ...(session ? { sessionLog: ctx.paths.session(session) } : {}) };
    const at = lane.entries[i];
    const was = at === undefined ? undefined : record.timeline[at];
    if (was && was.enteredAt !== entry.enteredAt && (!was.leftAt || was.outcome === 'interrupted')) {
      // Another attempt at the step: its worker died mid-step and DBOS recovery ran it again from the component's last
      // checkpoint. The attempt that did not finish stays, interrupted (its session listed as that step's, ended), as
      // a crash on one machine leaves it; the new one takes its place in the lane.
      if (!was.leftAt) interrupt(ctx, at!, entry.enteredAt);
      record.timeline.push(entry);
      lane.entries[i] = record.timeline.length - 1;
      addUsage(record, entry);
      changed = true;
      ctx.emit('workflow.step', { runId: record.runId, projectDir: record.projectDir, entry });
    } else if (at === undefined) {
      record.timeline.push(entry);
      lane.entries.push(record.timeline.length - 1);
      addUsage(record, entry);
      changed = true;
      ctx.emit('workflow.step', { runId: record.runId, projectDir: record.projectDir, entry });
    } else if (record.timeline[at]?.leftAt && !entry.leftAt) {
      // An older look at a step that has ended since: the entry stays ended.
    } else if (JSON.stringify(record.timeline[at]) !== JSON.stringify(entry)) {
      // Usage is added once, as the entry ends (an entry this process closed as interrupted had none).
      const was = record.timeline[at];
      if (!was?.leftAt || was.outcome === 'interrupted') addUsage(record, entry);
      record.timeline[at] = entry;
      changed = true;
      ctx.emit('workflow.step', { runId: record.runId, projectDir: record.projectDir, entry });
    }
  });
  if (changed) await ctx.persist();
}

/**
 * The prompts a worker's step was given, kept beside the run file for the entries they belong to (the component's
 * entry i is the run's `lane.entries[i]`): the step's view shows them as it shows a step run here.
 */
async function keepPrompts(ctx: RunContext, lane: LaneRecord, prompts: StepPrompt[]): Promise<void> {
  const { record } = ctx;
  for (const { entry, text } of prompts) {
    const at = lane.entries[entry];
    if (at !== undefined && record.timeline[at]) await writeStepPrompt(ctx.paths, record.projectDir, record.runId, at, text).catch(() => undefined);
  }
}

/** The note of a step whose worker died before DBOS recorded it, though it had ended (its checkpoint on its way to origin). */
const UNRECORDED = 'its worker stopped before the step was recorded (its checkpoint had not reached origin); the step runs again from the last checkpoint';

/** Closes the entry at `at` as a step its worker did not finish (the step runs again from the component's last checkpoint). */
function interrupt(ctx: RunContext, at: number, leftAt: string, note = 'its worker stopped mid-step; the step runs again from the last checkpoint'): void {
  const { record } = ctx;
  const was = record.timeline[at]!;
  const entry = { ...was, leftAt, durationMs: Math.max(0, Date.parse(leftAt) - Date.parse(was.enteredAt)), outcome: 'interrupted' as const, note };
  record.timeline[at] = entry;
  ctx.emit('workflow.step', { runId: record.runId, projectDir: record.projectDir, entry });
}

/**
 * The component's steps the worker that died did not have recorded: those left open, and those that ended after the
 * last step DBOS recorded (the component's entries from `recorded` on), interrupted now, not shown running (nor done)
 * until another worker takes the step up and runs them again.
 */
async function closeInterrupted(ctx: RunContext, lane: LaneRecord, recorded: number): Promise<void> {
  const now = new Date().toISOString();
  let changed = false;
  lane.entries.forEach((at, i) => {
    const e = ctx.record.timeline[at];
    if (!e || e.outcome === 'interrupted') return;
    if (!e.leftAt) interrupt(ctx, at, now);
    else if (i >= recorded) interrupt(ctx, at, e.leftAt, UNRECORDED);
    else return;
    changed = true;
  });
  if (changed) await ctx.persist();
}

function addUsage(record: RunRecord, entry: WorkflowTimelineEntry): void {
  const u = entry.leftAt ? entry.usage : undefined;
  if (!u) return;
  const t = record.totals;
  t.inputTokens += u.inputTokens;
  t.outputTokens += u.outputTokens;
  t.totalTokens += u.totalTokens;
  if (u.cacheReadTokens) t.cacheReadTokens = (t.cacheReadTokens ?? 0) + u.cacheReadTokens;
  if (u.cacheWriteTokens) t.cacheWriteTokens = (t.cacheWriteTokens ?? 0) + u.cacheWriteTokens;
  if (u.costUsd !== undefined) t.costUsd = (t.costUsd ?? 0) + u.costUsd;
}

/** At completion: the run's branch goes to origin (the project folder, where the run merged, is up to date already), the run's refs there go. */
export async function publishRun(record: RunRecord): Promise<void> {
  const dir = record.projectDir;
  const branch = (await git(dir, ['symbolic-ref', '-q', '--short', 'HEAD'])).stdout.trim();
  if (branch && (await headCommit(dir))) {
    const r = await git(dir, ['push', '-q', 'origin', `HEAD:refs/heads/${branch}`]);
    if (r.code !== 0)
      throw new WorkflowError('RUNTIME_ERROR', `pushing the run's branch ${branch} to origin failed: ${r.stdout.trim().slice(-1500)}. Fix what git says (e.g. fetch and merge what origin has that this branch lacks), then retry: the run pushes again and completes.`);
  }
  // The run is complete whatever happens here: refs origin keeps are the run's own, named by its id.
  await removeRunRefs(dir, record.runId).catch(() => undefined);
}
