import { resolve } from 'node:path';
import type { WorkflowPlan, WorkflowRunView, WorkflowStepResult, WorkflowTask, WorkflowTimelineEntry } from '../../contract/methods/workflow';
import { reviewsLeftOpenLines } from '../../contract/review-points';
import { humanState } from '../../contract/words';
import type { Paths } from '../paths/index';
import { ContextDocs } from './documents';
import { invalidState, WorkflowError } from './errors';
import type { WorkflowEmit } from './events';
import { DOCS_BESIDE } from './beside';
import { executeNext } from './execute';
import { filesChangedSince, git, snapshotTree } from './git';
import { ExternalExecutor, StepAbortedError, StepSetupError, stepView, type StepExecutor, type StepRequest, type StepResult } from './executor';
import { externalFollowUp, missingParts, stillLacksNote } from './agent-executor';
import { currentState, startWorkflowActor, type WorkflowActor } from './machine';
import { PARALLEL_STATE, planFromTaskList, planStates, type StateSpec } from './plan';
import { withUnplanned } from './architecture-components';
import { laneViews, leaveLanes, planWithDepends, runsInParallel, skipBlockedLane } from './parallel';
import { blockedLane, holdOthers, LaneBell, mergingLane, notBlocked, reopenLane, skippedEntry } from './lane-control';
import type { KeptLane } from './worktrees';
import { prepareNext } from './prepare';
import { loadProtocols, PROTOCOL_NAMES } from './protocols';
import { ProjectTrust } from '../project/trust';
import { SHUTDOWN, type CheckpointTrees, type Next, type RunContext } from './run-context';
import type { ExecutorConfig, RunRecord, RunStore } from './run-record';
import { beginRunBranch } from './run-git';
import { interruptedRetry, retryOfBlock, withAnswer, type RetryOf } from './retry-note';
import { readUserChanges, rememberStoppedTree } from './user-changes';
import { parseTaskListOrThrow } from './task-list';
import type { TestRunner } from './verify';
import { cutOffAt, sessionLogUsage } from './step-usage';

/** What a step run again after it was cut off (stopped, or its process ended) hears about the attempt before. */
/** Outcomes of an attempt cut off before it listed its files (a killed process, a stop). */
const CUT_OFF: ReadonlySet<string> = new Set(['interrupted', 'aborted']);
const INTERRUPTED_WHILE_RUNNING = 'Erasmus stopped while it ran (stopped by the user, or its process ended).';

/** A durable run's hooks (durable/durable-runs.ts). */
export type DurableHooks = Pick<RunContext, 'driveLane' | 'completing' | 'lanesRewound'> & {
  /** Abandoned: its components' workflows cancelled, their work on origin kept in the project, the run's refs on origin gone. `kept`: what the project's worktrees kept already. */
  leaving?(kept: KeptLane[]): Promise<{ kept: KeptLane[]; note?: string }>;
};

export interface RunDeps {
  paths: Paths;
  store: RunStore;
  emit: WorkflowEmit;
  /** Builds the executor of a run; `onAwait` is for the external engine. */
  makeExecutor(config: ExecutorConfig, onAwait: (step: StepRequest) => void): StepExecutor;
  /** Built-in protocols folder (default resources/protocols). */
  protocolsDir?: string;
  runTests: TestRunner;
  /** A durable run's hooks (durable/): its components go to workers, its branch to origin at completion. */
  durable?(record: RunRecord): DurableHooks;
  /** Takes a checkpoint before a step (the project, HEAD, this record): its id and the tree of the project's files. */
  beforeStep?(record: RunRecord, state: string): Promise<{ id: string; tree?: string }>;
  /** The checkpoints' trees (with `beforeStep`): a step's files are read against its checkpoint's tree, not a snapshot of their own. */
  checkpointTrees?: CheckpointTrees;
  /**
   * The run's toolsets (from its protocols) as a process driving the run read them first, by run id: a worker makes a
   * context per component step, and reads them once per run as a one-machine run's process does (runToolsets).
   */
  runToolsets?: Map<string, Promise<string[]>>;
  /**
   * The tree of a folder as this run's context starts, when the caller knows it (a worker's clone left at the checkpoint
   * its step starts from): the first step there takes it as its snapshot before, instead of writing it again. A test
   * run before that step (which may write files) drops it.
   */
  startTree?: { dir: string; tree: string };
  /**
   * A step's files are not read as it ends (its entry keeps its start tree): the caller reads them against the tree it
   * records after the step (a worker's checkpoint, durable/component-step.ts), two git processes fewer per step.
   */
  deferStepFiles?: boolean;
  /**
   * While this process drives the run: takes the retries and skips another process hands over (relay.ts), as its own
   * calls. Returns what ends it (when the run stops being driven here).
   */
  relay?(run: WorkflowRun): () => void;
}

const RESTING = new Set(['AWAITING_GOAL', 'AWAITING_APPROVAL', 'AWAITING_COGNITIVE_RESULT', 'PAUSED', 'BLOCKED', 'STOPPED', 'COMPLETED', 'ABANDONED']);

/** Drives one run: the preparation, then the FSM, persisting after every transition. */
export class WorkflowRun {
  readonly docs: ContextDocs;
  private readonly executor: StepExecutor;
  /** Its steps are answered by the external cognitive engine (workflow_get_task / workflow_submit_task). */
  get external(): boolean {
    return this.executor instanceof ExternalExecutor;
  }
  private actor?: WorkflowActor;
  private specs?: Map<string, StateSpec>;
  private loop?: Promise<void>;
  private abort = new AbortController();
  private pauseRequested = false;
  /** Wakes the components' loop when a blocked component is retried or skipped while others run. */
  private readonly lanesBell = new LaneBell();
  private shuttingDown = false;
  /** The user's answer given with a retry of a blocked step, until the run going on has made that step's retry note (runLoop). */
  private answer: string | undefined;
  private readonly waiters = new Set<() => void>();
  /** Steps running beside the current one (beside.ts), across the loop's steps and its restarts in this process. */
  private readonly besideSteps = new Map<string, Promise<void>>();
  private saving: Promise<void> = Promise.resolve();
  /** The folder's tree as known when this context started (RunDeps.startTree), until a step or a test run uses it. */
  private knownTree: RunDeps['startTree'];
  /** A result submitted for the step the record says is waiting, in a process that did not issue it. */
  private taken?: { state: string; result: StepResult };
  /** The tree of the checkpoint each open entry took as it entered, until its step starts or a test run may have changed the files. */
  private entered = new WeakMap<WorkflowTimelineEntry, string>();
  /** The project folder's path inside its repository (`git rev-parse --show-prefix`); undefined outside one. */
  private prefix?: Promise<string | undefined>;

  /** The run file's last save as loaded: a step a dead process left open was cut off by then at the latest (cutOffAt). */
  private readonly savedAt: string;

  constructor(
    readonly record: RunRecord,
    private readonly deps: RunDeps,
  ) {
    this.savedAt = record.updatedAt;
    this.docs = new ContextDocs(deps.paths, record.projectDir);
    this.knownTree = deps.startTree;
    this.executor = deps.makeExecutor(record.executor, (step) => this.onAwait(step));
  }

  get runId(): string {
    return this.record.runId;
  }
  get running(): boolean {
    return this.loop !== undefined;
  }

  /** Refuses (INVALID_STATE) when another live process drives this run. */
  private claim(): void {
    this.deps.store.lock(this.record.projectDir, this.runId);
  }

  /** Starts (or continues) driving in the background. */
  drive(): void {
    if (this.loop) return;
    this.claim();
    this.abort = new AbortController();
    const relayed = this.deps.relay?.(this);
    this.loop = this.runLoop().finally(() => {
      relayed?.();
      this.deps.store.unlock(this.record.projectDir, this.runId);
      this.loop = undefined;
      this.notify();
    });
  }

  /** Resolves when the run rests (waits for someone, or is finished) or a step waits for the engine. */
  async settle(timeoutMs = 600_000): Promise<void> {
    if (!this.loop || this.record.status === 'AWAITING_COGNITIVE_RESULT') return;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.delete(done);
        reject(new WorkflowError('RUNTIME_ERROR', `run ${this.runId} is still running after ${timeoutMs} ms`));
      }, timeoutMs);
      const done = () => {
        if (this.loop && this.record.status !== 'AWAITING_COGNITIVE_RESULT') return;
        clearTimeout(timer);
        this.waiters.delete(done);
        resolve();
      };
      this.waiters.add(done);
    });
  }

  private notify(): void {
    for (const w of [...this.waiters]) w();
  }

  private async runLoop(): Promise<void> {
    // A step answered here that another process issued continues its open entry; otherwise an open entry was interrupted.
    if (!this.taken) this.markInterrupted();
    // Going on at once, saved before anything is awaited: whoever asks next (the retry's answer, another process
    // reading the record) sees the run running, not still blocked.
    const stopped = this.record.error;
    this.record.error = undefined;
    this.setStatus('RUNNING');
    const running = this.persist();
    // Going on after it stopped for the user: what they changed meanwhile is told to the steps of the part it stopped at.
    await readUserChanges(this.record, this.record.state, this.deps.checkpointTrees);
    // The step that runs again hears that it is a retry, and what happened before.
    // A step that could not start (setup) is not an attempt: the model is not told of it (an earlier retryOf stays).
    if (stopped && this.record.state && !stopped.setup) this.record.retryOf = retryOfBlock(this.record.timeline, this.record.state, stopped.message);
    // The user's answer given with the retry (retry()): the step run again hears it with what happened before.
    if (this.answer !== undefined && this.record.retryOf && this.record.retryOf.state === this.record.state) this.record.retryOf = withAnswer(this.record.retryOf, this.answer);
    this.answer = undefined;
    await running;
    await this.persist();
    try {
      for (;;) {
        if (this.pauseRequested) {
          this.pauseRequested = false;
          // Paused between two steps: the run rests at the step it goes on with (what the view names and Skip skips), not the one that finished.
          if (this.actor) this.record.state = currentState(this.actor);
          this.setStatus('PAUSED');
          await this.persist();
          break;
        }
        const next: Next = this.record.phase === 'prepare' ? await prepareNext(this.context()) : await executeNext(this.context(), this.ensureActor(), this.specs!);
        if (this.actor) this.record.snapshot = this.actor.getPersistedSnapshot();
        await this.persist();
        if (next === 'rest') break;
        const from = this.record.timeline.at(-1);
        this.deps.emit('workflow.transition', { runId: this.runId, projectDir: this.record.projectDir, from: from?.state, to: this.stateNow(), outcome: from?.outcome });
      }
    } catch (err) {
      this.taken = undefined;
      if (this.shuttingDown) return;
      // The files as the run left them (taken before anyone sees it stopped): going on, it reads what the user changed meanwhile.
      await rememberStoppedTree(this.record, this.deps.checkpointTrees);
      if (err instanceof StepAbortedError || this.abort.signal.aborted) {
        const open = this.ownOpenEntry();
        if (open) {
          this.close(open, 'aborted');
          // Resumed, the step runs again: as after a crash, it hears that it is a retry and what the stopped attempt changed
          // (without this, a step stopped after an edit was asked afresh, and an edit whose old text still matched went in twice).
          this.record.retryOf = interruptedRetry(this.record.retryOf, open.state, INTERRUPTED_WHILE_RUNNING);
        }
        this.setStatus(this.pauseRequested ? 'PAUSED' : 'STOPPED');
        this.pauseRequested = false;
      } else {
        const open = this.ownOpenEntry();
        if (open) this.close(open, 'error', { note: (err as Error).message });
        const inner = err instanceof StepSetupError && err.cause instanceof WorkflowError ? err.cause : err;
        const e = inner instanceof WorkflowError ? inner : new WorkflowError('RUNTIME_ERROR', (err as Error).message);
        this.record.error = { kind: e.kind, message: e.message, file: e.details?.file, field: e.details?.field, issues: e.details?.issues, ...(err instanceof StepSetupError ? { setup: true } : {}), ...(e.details?.asks ? { asks: true } : {}) };
        this.setStatus('BLOCKED');
      }
      this.record.pending = undefined;
      await this.persist();
    }
  }

  private stateNow(): string {
    return this.actor ? currentState(this.actor) : (this.record.state ?? 'prepare');
  }

  private ensureActor(): WorkflowActor {
    if (!this.actor) {
      const plan = this.record.plan!;
      this.specs = new Map(planStates(plan).map((s) => [s.state, s]));
      this.actor = startWorkflowActor(plan, this.record.snapshot as never);
      this.record.snapshot = this.actor.getPersistedSnapshot();
    }
    return this.actor;
  }

  /** A step that was open when the process died is closed as interrupted; it runs again. */
  private markInterrupted(): void {
    const open = this.ownOpenEntry();
    if (open) {
      this.close(open, 'interrupted');
      this.record.retryOf = interruptedRetry(this.record.retryOf, open.state, INTERRUPTED_WHILE_RUNNING);
    }
    // A step that ran beside it (beside.ts) is closed too: it runs again in its place, hearing why.
    const beside = this.record.timeline.findLast((e) => e.state === DOCS_BESIDE && !e.leftAt);
    if (beside && !this.besideSteps.has(DOCS_BESIDE)) this.close(beside, 'interrupted');
  }

  /** The run's own step left open: the last open entry but a step running beside it (a parallel lane's entries are closed by its phase). */
  private ownOpenEntry(): WorkflowTimelineEntry | undefined {
    const open = this.record.timeline.findLast((e) => !e.leftAt && !(e.state === DOCS_BESIDE && this.record.state !== DOCS_BESIDE));
    return open === this.record.timeline.at(-1) || open?.state === this.record.state ? open : undefined;
  }

  private close(entry: WorkflowTimelineEntry, outcome: NonNullable<WorkflowTimelineEntry['outcome']>, extra: Partial<WorkflowTimelineEntry> = {}): void {
    // Cut off by a process that is gone (left open in the file): it ended at its last activity, not now, after the downtime.
    const at = outcome === 'interrupted' && !this.taken ? cutOffAt(entry, this.savedAt) : new Date().toISOString();
    Object.assign(entry, extra, { leftAt: at, durationMs: Math.max(0, Date.parse(at) - Date.parse(entry.enteredAt)), outcome });
    // A step that ended without its session's answer (killed, stopped, a fault) spent what its log says: it stays counted.
    // (A durable run's worker reports its steps' usage itself: durable/remote-lane.ts.)
    const u = extra.usage ?? (!entry.usage && entry.sessionLog && !this.record.durable ? sessionLogUsage(entry.sessionLog) : undefined);
    if (u && !extra.usage) entry.usage = u;
    if (u) {
      const t = this.record.totals;
      t.inputTokens += u.inputTokens;
      if (u.cacheReadTokens) t.cacheReadTokens = (t.cacheReadTokens ?? 0) + u.cacheReadTokens;
      if (u.cacheWriteTokens) t.cacheWriteTokens = (t.cacheWriteTokens ?? 0) + u.cacheWriteTokens;
      t.outputTokens += u.outputTokens;
      t.totalTokens += u.totalTokens;
      if (u.costUsd !== undefined) t.costUsd = (t.costUsd ?? 0) + u.costUsd;
    }
  }

  /** The checkpoint before a step, or why there is none (a run never stops for want of one); and its tree. */
  private async checkpoint(state: string): Promise<{ fields: Pick<WorkflowTimelineEntry, 'checkpoint' | 'checkpointError'>; tree?: string }> {
    if (!this.deps.beforeStep) return { fields: {} };
    try {
      const { id, tree } = await this.deps.beforeStep(this.record, state);
      return { fields: { checkpoint: id }, tree };
    } catch (err) {
      return { fields: { checkpointError: (err as Error).message } };
    }
  }

  /**
   * The files as a step found them, taken once per step: the tree this context was given for its folder (a worker's
   * clone left at its checkpoint, `RunDeps.startTree`), else the tree of the checkpoint its entry took (in the run's
   * project folder, a repository, nothing run since), else a snapshot of its folder in that folder's repository. Each
   * saves the two git processes of a snapshot. Undefined outside a repository.
   */
  private async startTree(dir: string, checkpointTree: string | undefined): Promise<{ tree: string; in?: 'checkpoints' } | undefined> {
    const known = this.knownTree?.dir === dir ? this.knownTree.tree : undefined;
    this.knownTree = undefined;
    if (known) return { tree: known };
    if (checkpointTree && this.deps.checkpointTrees && resolve(dir) === resolve(this.record.projectDir) && (await this.repoPrefix()) !== undefined) return { tree: checkpointTree, in: 'checkpoints' };
    const tree = await snapshotTree(dir).catch(() => undefined);
    return tree ? { tree } : undefined;
  }

  /** Files that changed since a step's start tree, paths relative to the repository's top (as `filesChangedSince` says them). */
  private async filesSince(dir: string, start: { tree: string; in?: 'checkpoints' }): Promise<WorkflowTimelineEntry['files']> {
    if (start.in !== 'checkpoints' || !this.deps.checkpointTrees) return filesChangedSince(dir, start.tree);
    const prefix = (await this.repoPrefix()) ?? '';
    return (await this.deps.checkpointTrees.changedSince(dir, start.tree)).map((f) => ({ ...f, path: `${prefix}${f.path}` }));
  }

  /**
   * The attempts of the step at `index` that a killed process or a stop cut off (they never listed their files): what
   * changed from each one's start to now, as this attempt starts. A later retest reads them ("only Markdown since the
   * tests passed" needs every step's files); the user's changes meanwhile are counted with them, which errs on asking.
   */
  private async filesOfCutOff(dir: string, index: number): Promise<void> {
    const state = this.record.timeline[index]?.state;
    for (let i = index - 1; i >= 0; i--) {
      const e = this.record.timeline[i]!;
      if (e.state !== state) continue; // another lane's step, side by side
      if (!CUT_OFF.has(e.outcome ?? '') || e.files || !e.startTree) return;
      const files = await this.filesSince(dir, { tree: e.startTree, ...(e.startTreeIn ? { in: e.startTreeIn } : {}) }).catch(() => undefined);
      if (!files) return;
      e.files = files;
    }
  }

  private repoPrefix(): Promise<string | undefined> {
    this.prefix ??= git(this.record.projectDir, ['rev-parse', '--show-prefix']).then(
      (r) => (r.code === 0 ? r.stdout.trim() : undefined),
      () => undefined,
    );
    return this.prefix;
  }

  private context(): RunContext {
    return {
      record: this.record,
      paths: this.deps.paths,
      docs: this.docs,
      executor: this.executor,
      signal: this.abort.signal,
      protocolsDir: this.deps.protocolsDir,
      // A test run may write files: a step entered before it takes a snapshot of its own as it starts.
      runTests: (...args) => {
        this.entered = new WeakMap();
        this.knownTree = undefined;
        return this.deps.runTests(...args);
      },
      emit: this.deps.emit,
      lanesBell: this.lanesBell,
      ...(this.deps.checkpointTrees ? { checkpointTrees: this.deps.checkpointTrees } : {}),
      enter: async (state, extra = {}) => {
        const open = this.record.timeline.at(-1);
        if (this.taken?.state === state && open?.state === state && !open.leftAt) {
          this.record.state = state;
          return open;
        }
        const checkpoint = await this.checkpoint(state);
        const entry: WorkflowTimelineEntry = { state, ...extra, ...checkpoint.fields, enteredAt: new Date().toISOString() };
        if (checkpoint.tree) this.entered.set(entry, checkpoint.tree);
        this.record.timeline.push(entry);
        this.record.state = state;
        await this.persist();
        this.deps.emit('workflow.step', { runId: this.runId, projectDir: this.record.projectDir, entry });
        return entry;
      },
      leave: async (entry, outcome, extra) => {
        this.close(entry, outcome, extra);
        if (this.record.retryOf?.state === entry.state) this.record.retryOf = undefined;
        await this.persist();
        this.deps.emit('workflow.step', { runId: this.runId, projectDir: this.record.projectDir, entry });
      },
      runStep: async (step, forEntry) => {
        const cfg = this.record.executor;
        const max = cfg.kind === 'agent' ? cfg.maxCostUsd : undefined;
        if (max !== undefined) {
          const spent = this.record.totals.costUsd ?? 0;
          if (spent >= max)
            throw new WorkflowError('RUNTIME_ERROR', `the run's cost budget of $${max} is spent ($${spent.toFixed(4)} so far); step ${step.state} did not start. To go on, skip the step (its work undone) or start a new run with a larger budget; the project's documents and commits so far are kept.`);
          step = { ...step, budget: { ...step.budget, maxCostUsd: max - spent } };
        }
        const taken = this.taken;
        this.taken = undefined;
        if (taken && taken.state !== step.state) {
          throw new WorkflowError('RUNTIME_ERROR', `the result submitted for ${taken.state} no longer fits: the run is at ${step.state}. Retry (workflow_retry) to be asked for ${step.state}.`);
        }
        // What the step was asked and which files it touched, for its details on the timeline.
        const entry = forEntry ?? this.record.timeline.at(-1);
        const index = entry ? this.record.timeline.indexOf(entry) : -1;
        if (entry && !entry.leftAt) {
          await this.deps.store.savePrompt(this.record.projectDir, this.runId, index, step.prompt).then(() => (entry.hasPrompt = true), () => undefined);
        }
        // A result submitted before this process took the run did its work already: its files cannot be told apart.
        const checkpointTree = entry ? this.entered.get(entry) : undefined;
        if (entry) this.entered.delete(entry);
        const before = entry && !taken ? await this.startTree(step.projectDir, checkpointTree) : undefined;
        this.knownTree = undefined; // the first step here took it, or ran without it: stale either way
        if (entry && before && !entry.leftAt) {
          // Kept with the entry: should the step not finish (a crash, a stop), its retry is told what this attempt changed.
          entry.startTree = before.tree;
          if (before.in) entry.startTreeIn = before.in;
          else delete entry.startTreeIn;
          if (!this.deps.deferStepFiles) await this.filesOfCutOff(step.projectDir, index);
          void this.persist();
        }
        // The running step names its session as soon as it has one (it is written again, with the result, when the step ends).
        const onSession = (sessionLog: string) => {
          if (!entry || entry.leftAt || entry.sessionLog === sessionLog) return;
          entry.sessionLog = sessionLog;
          void this.persist();
          this.deps.emit('workflow.step', { runId: this.runId, projectDir: this.record.projectDir, entry });
        };
        const result = taken ? taken.result : await this.executor.run({ ...step, runToolsets: await this.runToolsets(step.toolsets), architecture: (await this.docs.text({ doc: 'architecture' })) ?? undefined, runId: this.runId, signal: this.abort.signal, onSession });
        this.record.pending = undefined;
        if (this.record.status === 'AWAITING_COGNITIVE_RESULT') this.setStatus('RUNNING');
        if (entry && before && !this.deps.deferStepFiles) {
          const files = await this.filesSince(step.projectDir, before).catch(() => undefined);
          if (files) entry.files = files;
        }
        return result;
      },
      persist: () => this.persist(),
      setStatus: (s) => this.setStatus(s),
      pausing: () => this.pauseRequested,
      beside: this.besideSteps,
      ...(this.record.durable ? this.durableHooks() : {}),
    };
  }

  private durableHooks(): Pick<RunContext, 'driveLane' | 'completing' | 'lanesRewound'> {
    const { driveLane, completing, lanesRewound } = this.deps.durable?.(this.record) ?? {};
    return { ...(driveLane ? { driveLane } : {}), ...(completing ? { completing } : {}), ...(lanesRewound ? { lanesRewound } : {}) };
  }

  /** The context this run's steps run in: a worker drives a durable run's component with it (durable/worker.ts); `signal` stops the step, as stop does. */
  stepContext(signal?: AbortSignal): RunContext {
    if (signal?.aborted) this.abort.abort();
    else signal?.addEventListener('abort', () => this.abort.abort(), { once: true });
    return this.context();
  }

  /**
   * Every toolset the run's protocols name, in the protocols' order (the step's own where a protocol cannot be
   * read): each step describes them all, so its prompt starts as the previous step's did.
   */
  private async runToolsets(own: string[]): Promise<string[]> {
    // Read once per process driving the run (the protocols do not change under a run that is being driven).
    this.protocolToolsets ??=
      this.deps.runToolsets?.get(this.runId) ??
      loadProtocols(this.record.projectDir, this.deps.protocolsDir, new ProjectTrust(this.deps.paths.projectTrustFile)).then(
        (all) => PROTOCOL_NAMES.flatMap((n) => all[n].toolsets),
        () => [],
      );
    this.deps.runToolsets?.set(this.runId, this.protocolToolsets);
    return [...new Set([...(await this.protocolToolsets), ...own])];
  }
  private protocolToolsets?: Promise<string[]>;

  private onAwait(step: StepRequest): void {
    this.record.pending = { step: stepView(step), prompt: step.prompt };
    this.setStatus('AWAITING_COGNITIVE_RESULT');
    this.persistAndLetGo();
    this.deps.emit('workflow.task', { runId: this.runId, projectDir: this.record.projectDir, step: stepView(step), prompt: step.prompt });
  }

  /**
   * Saves a run whose step waits for the external engine, then lets go of it: the waiting step (and any follow-up asked
   * of it) is in the file, and any process may take it (workflow_get_task) or answer it (workflow_submit_task).
   */
  private persistAndLetGo(): void {
    const saved = this.persist().then(() => this.deps.store.unlock(this.record.projectDir, this.runId));
    this.saving = saved.catch(() => undefined);
  }

  setStatus(status: RunRecord['status']): void {
    const changed = this.record.status !== status;
    this.record.status = status;
    if (changed) this.deps.emit('workflow.status', { runId: this.runId, projectDir: this.record.projectDir, status, state: this.record.state, error: this.record.error });
    this.notify();
  }

  /** Resolves when what was persisted so far is in the file. */
  saved(): Promise<void> {
    return this.saving.catch(() => undefined);
  }

  /** Serialised atomic writes: the file always holds one complete record. */
  persist(): Promise<void> {
    this.saving = this.saving.then(() => this.deps.store.save(this.record)).catch(() => this.deps.store.save(this.record));
    return this.saving;
  }

  // ── control ────────────────────────────────────────────────────────────────────────────────

  answerGoal(goal: string): void {
    if (!this.loop) this.claim();
    if (this.record.status !== 'AWAITING_GOAL') throw invalidState(`run ${this.runId} is ${this.record.status}, not waiting for a goal`);
    this.record.goal = goal;
    delete this.record.suggestedGoal;
    delete this.record.nextGoal;
    this.drive();
  }

  async approve(plan?: WorkflowPlan): Promise<void> {
    if (!this.loop) this.claim();
    if (this.record.status !== 'AWAITING_APPROVAL' || !this.record.plan) throw invalidState(`run ${this.runId} is ${this.record.status}, not waiting for approval`);
    // What the user saved during the review is what runs: the task list is read again (a broken one is refused; the run keeps waiting).
    const list = parseTaskListOrThrow((await this.docs.text({ doc: 'task_list' })) ?? '', this.docs.path({ doc: 'task_list' }));
    const reread = planFromTaskList(list, { defaultTestCommand: this.record.plan.defaultTestCommand, maxDebugAttempts: this.record.plan.maxDebugAttempts });
    if (JSON.stringify(reread.components) !== JSON.stringify(this.record.plan.components)) {
      const { finalTestCommand, finalTestCommandByUser } = this.record.plan;
      this.record.plan = { ...reread, ...(finalTestCommand !== undefined ? { finalTestCommand } : {}), ...(finalTestCommandByUser ? { finalTestCommandByUser } : {}) };
      this.deps.emit('workflow.plan', { runId: this.runId, projectDir: this.record.projectDir, plan: reread });
    }
    if (plan) {
      const known = new Set(this.record.plan.components.map((c) => c.id));
      const unknown = plan.components.filter((c) => !known.has(c.id)).map((c) => c.id);
      if (unknown.length) throw new WorkflowError('PARSE_ERROR', `the edited plan names components that are not in the task list: ${unknown.join(', ')}`);
      // The edited plan chooses and orders components; their tasks and test commands come from the task list as saved.
      const byId = new Map(this.record.plan.components.map((c) => [c.id, c]));
      this.record.plan = { ...this.record.plan, components: plan.components.map((c) => byId.get(c.id)!) };
      // The final gate's command as the user wrote it runs as written; cleared, it is composed from the project again.
      const edited = plan.finalTestCommand?.trim();
      if (plan.finalTestCommand !== undefined && edited !== this.record.plan.finalTestCommand) {
        if (edited) this.record.plan = { ...this.record.plan, finalTestCommand: edited, finalTestCommandByUser: true };
        else {
          const { finalTestCommand: _dropped, finalTestCommandByUser: _by, ...rest } = this.record.plan;
          this.record.plan = rest;
        }
      }
    }
    // Components with Depends: lines run side by side in worktrees where the project is a repository and the executor can run steps at once.
    this.record.plan = { ...this.record.plan, parallel: runsInParallel(this.record) };
    if (!this.record.plan.parallel) delete this.record.plan.parallel;
    // Development starts on the run's own branch (unless the user asked for the current one).
    await beginRunBranch(this.record);
    this.record.approved = true;
    this.record.phase = 'execute';
    this.actor = undefined;
    this.record.snapshot = undefined;
    this.ensureActor();
    this.record.state = currentState(this.actor!);
    await this.persist();
    this.drive();
  }

  /**
   * The task list was saved during the plan review: the plan shown for approval is read from it again
   * (a list that does not parse leaves the plan as it was; the document view shows its issues, approve refuses it).
   */
  async replan(): Promise<void> {
    if (this.record.status !== 'AWAITING_APPROVAL' || !this.record.plan || this.loop) return;
    let list;
    try {
      list = parseTaskListOrThrow((await this.docs.text({ doc: 'task_list' })) ?? '', this.docs.path({ doc: 'task_list' }));
    } catch {
      return;
    }
    const plan = withUnplanned(planFromTaskList(list, { defaultTestCommand: this.record.plan.defaultTestCommand, maxDebugAttempts: this.record.plan.maxDebugAttempts }), await this.docs.text({ doc: 'architecture' }));
    if (JSON.stringify(plan.components) === JSON.stringify(this.record.plan.components) && String(plan.unplanned) === String(this.record.plan.unplanned)) return;
    try {
      this.claim();
    } catch {
      return; // another live process holds the run: it shows its own plan
    }
    try {
      this.record.plan = plan;
      await this.persist();
    } finally {
      this.deps.store.unlock(this.record.projectDir, this.runId);
    }
    this.deps.emit('workflow.plan', { runId: this.runId, projectDir: this.record.projectDir, plan });
  }

  /**
   * The answer to the waiting step. The step may have been issued by this process (its executor
   * waits) or by another one (the record holds it): then this process takes the run over and
   * continues from that step with this result. Returns the follow-up when the answer was not taken
   * because it lacks a part the step requires (asked once per step), else undefined.
   */
  submit(result: WorkflowStepResult, state?: string): string | undefined {
    if (!(this.executor instanceof ExternalExecutor)) throw invalidState(`run ${this.runId} uses the ${this.executor.kind} executor, not the external cognitive engine`);
    const step = this.executor.waiting ?? (this.loop ? undefined : this.record.pending?.step);
    if (this.record.status !== 'AWAITING_COGNITIVE_RESULT' || !step) throw invalidState(`run ${this.runId} is ${this.record.status}: no step waits for a result${state ? ` (your answer for ${state} was not applied)` : ''}`);
    if (state !== undefined && state !== step.state) {
      throw invalidState(`run ${this.runId} waits on ${step.state}, not ${state}: your answer was not applied (it was answered already, perhaps by another client). Call workflow_get_task for the step that waits.`);
    }
    if (!result.output.trim() && !(step.answer === 'document' && result.contextDoc?.trim())) {
      throw new WorkflowError('PARSE_ERROR', `the result for ${step.state} is empty: \`output\` must hold ${step.answer === 'document' ? 'the document' : step.answer === 'report' ? 'the report' : 'what you did'} (see "How to answer" in the step's prompt). The step stays open: submit again.`, { field: 'result.output' });
    }
    // A finished answer that lacks a part the step requires (its context document, a fixes step's `## Left open`) is sent back
    // once, naming what is missing: the step waits on, the request kept in the file for whichever process gets the next
    // submit. A second answer still lacking it is taken as it is, the timeline saying so (as on the agent path).
    const pending = this.record.pending;
    // An answer that says the step is not done stops the run at it as it is (the agent path follows up only a finished session).
    const lacking = result.done === false ? [] : missingParts(step, result);
    this.claim();
    if (lacking.length && pending && !pending.followUp) {
      const followUp = externalFollowUp({ ...step, runId: this.runId }, result)!;
      pending.followUp = followUp;
      this.persistAndLetGo();
      return followUp;
    }
    const taken: StepResult = lacking.length ? { ...result, note: stillLacksNote(lacking) } : result;
    if (this.executor.waiting) return void this.executor.submit(taken);
    this.taken = { state: step.state, result: taken };
    this.drive();
    return undefined;
  }

  /** Pause: a waiting step is abandoned now (it runs again on resume); a running step finishes first. */
  async pause(): Promise<void> {
    if (!this.loop && this.record.status === 'AWAITING_COGNITIVE_RESULT') return this.abandonWaiting('PAUSED');
    if (!this.loop) throw invalidState(`run ${this.runId} is ${this.record.status}, not running`);
    this.pauseRequested = true;
    // Said at once: the steps under way end first, which may take a while.
    this.deps.emit('workflow.status', { runId: this.runId, projectDir: this.record.projectDir, status: this.record.status, state: this.record.state, pausing: true });
    if (this.record.status === 'AWAITING_COGNITIVE_RESULT') {
      this.abort.abort();
      await this.loop;
    }
  }

  /** Stop now: the running step is aborted (its changes stay); resume runs it again. */
  async stop(): Promise<void> {
    if (this.loop) {
      this.abort.abort();
      await this.loop;
      return;
    }
    if (this.record.status === 'COMPLETED') throw invalidState(`run ${this.runId} is already complete`);
    if (this.record.status === 'AWAITING_COGNITIVE_RESULT') return this.abandonWaiting('STOPPED');
    this.setStatus('STOPPED');
    await this.persist();
  }

  /** A step that waits in the file (issued by this or another process, none driving): it is abandoned, and asked again on resume. */
  private async abandonWaiting(status: 'PAUSED' | 'STOPPED'): Promise<void> {
    this.claim();
    try {
      const open = this.record.timeline.at(-1);
      if (open && !open.leftAt) this.close(open, 'aborted');
      this.record.pending = undefined;
      this.setStatus(status);
      await this.persist();
    } finally {
      this.deps.store.unlock(this.record.projectDir, this.runId);
    }
  }

  /** Left for a newer goal: the run rests for good (its documents and commits stay; the new goal's run updates them). */
  /** Returns what was kept, and what could not be done (also in the record's error). */
  async abandon(): Promise<{ kept: KeptLane[]; note?: string }> {
    if (this.loop) throw invalidState(`run ${this.runId} is running in this process; stop it before leaving it for a new goal`);
    const s = this.record.status;
    if (s === 'COMPLETED' || s === 'ABANDONED') throw invalidState(`run ${this.runId} is ${s === 'COMPLETED' ? 'complete' : 'abandoned already'}`);
    this.claim();
    try {
      for (const e of this.record.timeline) if (!e.leftAt) this.close(e, 'interrupted'); // a parallel run may have several open
      this.record.pending = undefined;
      const notes: string[] = [];
      // Its components' worktrees and branches go; work no branch holds is kept under a ref each lane names.
      const kept: KeptLane[] = await leaveLanes(this.record, 'abandoned').catch((err: Error) => {
        // Abandoned all the same; what is left stays in place (the next run's load tries again) and the record says why.
        notes.push(`its components' worktrees were left in place (git worktree list shows them): ${err.message}`);
        this.record.error = { kind: 'RUNTIME_ERROR', message: notes[0]! };
        return [];
      });
      // A durable run's components: their workflows cancelled, their work on origin kept here, the run's refs on origin gone.
      const leaving = this.record.durable ? this.deps.durable?.(this.record).leaving : undefined;
      if (leaving) {
        const remote = await leaving(kept).catch((err: Error) => ({ kept: [], note: `its refs on origin (refs/erasmus/${this.runId}/, erasmus-lane/${this.runId}/) were left in place: ${err.message}` }));
        for (const k of remote.kept) {
          const lane = this.record.lanes?.find((l) => l.component === k.component);
          if (lane) lane.kept = k.ref;
        }
        kept.push(...remote.kept);
        if (remote.note) {
          notes.push(remote.note);
          this.record.error = { kind: 'RUNTIME_ERROR', message: [this.record.error?.message, remote.note].filter(Boolean).join('; ') };
        }
      }
      this.setStatus('ABANDONED');
      await this.persist();
      return { kept, ...(notes.length ? { note: notes.join('; ') } : {}) };
    } finally {
      this.deps.store.unlock(this.record.projectDir, this.runId);
    }
  }

  resume(): void {
    if (this.record.status === 'ABANDONED') throw invalidState(`run ${this.runId} was abandoned for a newer goal: it is not driven again`);
    if (!this.loop) this.claim();
    const s = this.record.status;
    if (this.loop) throw invalidState(`run ${this.runId} is already running`);
    if (s === 'AWAITING_GOAL' || s === 'AWAITING_APPROVAL') throw invalidState(`run ${this.runId} is ${s}: answer it (workflow.answerGoal / workflow.approve) instead`);
    if (s === 'COMPLETED') throw invalidState(`run ${this.runId} is already complete`);
    if (this.record.phase === 'execute' && this.ensureActor().getSnapshot().context.blocked) this.actor!.send({ type: 'RETRY' });
    this.drive();
  }

  /**
   * `component`: a side-by-side component blocked while others run, retried at once (the others go on). `answer`: the
   * user's words for the step run again (what it stopped to ask, or how to go on), which its retry section carries.
   */
  retry(component?: string, answer?: string): void {
    // An answer is one step's: with several components blocked, which one must be said (never the first taken for it).
    const blocked = this.record.state === PARALLEL_STATE ? (this.record.lanes ?? []).filter((l) => l.status === 'blocked').map((l) => l.component) : [];
    if (answer !== undefined && component === undefined && blocked.length > 1) {
      throw invalidState(`${blocked.length} components are blocked (${blocked.join(', ')}): say which one your answer is for (--component ID on a terminal; its own card in the app). Nothing was retried`);
    }
    if (this.loop) {
      const lane = this.record.state === PARALLEL_STATE ? blockedLane(this.record, component) : undefined;
      if (!lane) throw invalidState(component ? notBlocked(this.record, component, 'retry') : 'the run is running: a step can be retried once the run is blocked, paused or stopped');
      if (answer !== undefined) lane.retryOf = this.answered(lane.retryOf, lane.state, answer);
      reopenLane(lane);
      this.deps.emit('workflow.status', { runId: this.runId, projectDir: this.record.projectDir, status: this.record.status, state: this.record.state });
      this.lanesBell.ring();
      return;
    }
    // A component named that is not blocked (mistyped, merged, or the run not side by side): refused, not the run's step retried instead.
    if (component !== undefined && !(this.record.state === PARALLEL_STATE && blockedLane(this.record, component))) throw invalidState(notBlocked(this.record, component, 'retry'));
    // A run that resume() refuses (complete, abandoned, waiting for its goal or its plan) is refused in its words, unchanged.
    if (answer !== undefined && !['COMPLETED', 'ABANDONED', 'AWAITING_GOAL', 'AWAITING_APPROVAL'].includes(this.record.status)) {
      // A component's step (blocked, or its merge step, which stopped the run) hears the answer through its lane's retry note.
      const lane = this.record.state === PARALLEL_STATE ? (blockedLane(this.record, component) ?? (component === undefined ? mergingLane(this.record) : undefined)) : undefined;
      if (lane) lane.retryOf = this.answered(lane.retryOf, lane.retryOf?.state.endsWith(':merge') && lane.status === 'ready' ? lane.retryOf.state : lane.state, answer);
      // Blocked at a step that ran: its retry note is made as the run goes on (runLoop), and the answer joins it there.
      else if (this.record.error && !this.record.error.setup && this.record.state) this.answer = answer;
      else this.record.retryOf = this.answered(this.record.retryOf, this.record.state, answer);
    }
    // The component named goes on alone: another blocked one is not run again unasked (one that asked would take the
    // retry as the user's word to go on as things are).
    if (this.record.state === PARALLEL_STATE) holdOthers(this.record, component);
    try {
      this.resume();
    } catch (err) {
      this.answer = undefined; // not gone on: no later run of the loop takes it up
      throw err;
    }
  }

  /** The step's retry note with the user's answer; refused where no step ran and stopped (nothing was asked to answer). */
  private answered(retryOf: RetryOf | undefined, state: string | undefined, answer: string): RetryOf {
    if (!retryOf || retryOf.state !== state) {
      const none = state ? `${humanState(state)} has not run since the run stopped, so it asked nothing` : 'no step of this run has run yet, so none asked anything';
      throw invalidState(`there is no stopped step to answer: ${none}. Retry without an answer (or resume the run); put what the step should know into the documents if it must hear it`);
    }
    return withAnswer(retryOf, answer);
  }

  /** `component`: which side-by-side component's blocked step (the first blocked one when not said); while others run, skipped at once. */
  async skip(component?: string): Promise<void> {
    if (this.record.status === 'ABANDONED') throw invalidState(`run ${this.runId} was abandoned for a newer goal: it is not driven again`);
    if (!this.loop) this.claim();
    if (component !== undefined && !(this.record.state === PARALLEL_STATE && blockedLane(this.record, component))) throw invalidState(notBlocked(this.record, component, 'skip'));
    if (this.loop && !(this.record.state === PARALLEL_STATE && blockedLane(this.record, component))) throw invalidState('the run is running: a step can be skipped once the run is blocked or paused');
    if (this.record.phase !== 'execute') throw invalidState('preparation steps cannot be skipped: write the document (workflow.docs.write) and retry');
    const actor = this.ensureActor();
    const from = currentState(actor);
    if (from === PARALLEL_STATE) {
      // Components run side by side: the step where one blocked is skipped, and the others go on.
      const lane = skipBlockedLane(this.record, component);
      if (!lane) throw invalidState(component ? `component ${component} is not blocked, so there is no step of it to skip` : 'no component is blocked, so there is no step to skip: resume the run instead');
      this.record.timeline.push(skippedEntry(lane.state!, lane.component));
      lane.entries.push(this.record.timeline.length - 1); // the component's later steps read it (its review hears the tests still fail)
      if (this.loop) {
        // Others still run: the component goes on from the step after at once.
        reopenLane(lane);
        await this.persist();
        this.deps.emit('workflow.step', { runId: this.runId, projectDir: this.record.projectDir, entry: this.record.timeline.at(-1)! });
        this.lanesBell.ring();
        return;
      }
      this.record.error = undefined; // the skipped step's failure: no step after it is told it was a retry of it
      holdOthers(this.record, component); // named: the other blocked components stay blocked
      await this.persist();
      this.drive();
      return;
    }
    this.record.timeline.push(skippedEntry(from));
    actor.send({ type: 'SKIP' });
    if (this.record.untraced?.state === from) this.record.untraced = undefined; // skipped: its tasks are not asked for again
    if (this.record.retryOf?.state === from) this.record.retryOf = undefined; // skipped after a stop or a crash: not a retry if it runs later
    this.record.snapshot = actor.getPersistedSnapshot();
    this.record.state = currentState(actor);
    // The skipped step's failure is not the next step's: it runs for the first time, not as a retry.
    this.record.error = undefined;
    await this.persist();
    this.deps.emit('workflow.transition', { runId: this.runId, projectDir: this.record.projectDir, from, to: this.record.state, outcome: 'skipped' });
    this.drive();
  }

  /** Ends the loop without changing the recorded status, so the run resumes after a restart. */
  async shutdown(): Promise<void> {
    if (this.loop) {
      this.shuttingDown = true;
      this.abort.abort(SHUTDOWN);
      await this.loop;
    }
    this.actor?.stop();
    await this.saving.catch(() => undefined);
  }

  // ── views ──────────────────────────────────────────────────────────────────────────────────

  view(): WorkflowRunView {
    const r = this.record;
    return {
      runId: r.runId,
      projectDir: r.projectDir,
      status: r.status,
      state: r.state,
      goal: r.goal,
      ...(r.suggestedGoal && r.status === 'AWAITING_GOAL' ? { suggestedGoal: r.suggestedGoal } : {}),
      ...(r.nextGoal && r.status === 'AWAITING_GOAL' ? { nextGoal: true } : {}),
      ...(r.goalUpdate ? { newGoal: true } : {}),
      ...(r.existing ? { existing: true } : {}),
      ...(this.pauseRequested && this.loop ? { pausing: true } : {}),
      executor: r.executor.kind,
      plan: r.plan && planWithDepends(r.plan),
      ...(r.status === 'AWAITING_APPROVAL' ? { taskListFile: this.docs.path({ doc: 'task_list' }), architectureFile: this.docs.path({ doc: 'architecture' }) } : {}),
      approved: r.approved,
      error: r.error,
      pending: r.pending,
      timeline: r.timeline,
      totals: r.totals,
      ...(r.executor.kind === 'agent' && r.executor.maxCostUsd !== undefined ? { budgetUsd: r.executor.maxCostUsd } : {}),
      ...(r.git ? { git: { mode: r.git.mode, ...(r.git.branch ? { branch: r.git.branch } : {}), ...(r.git.base ? { base: r.git.base } : {}), ...(r.git.startedFrom ? { startedFrom: r.git.startedFrom } : {}), ...(r.git.finished ? { finished: r.git.finished } : {}) } } : {}),
      ...(r.parallelComponents !== undefined ? { parallelComponents: r.parallelComponents } : {}),
      ...(r.lanes ? { lanes: laneViews(r) } : {}),
      ...(r.durable ? { durable: r.durable } : {}),
      createdAt: r.createdAt,
      updatedAt: r.updatedAt,
    };
  }

  /** The recorded prompt of timeline entry `index`. */
  stepPrompt(index: number): Promise<string | null> {
    return this.deps.store.readPrompt(this.record.projectDir, this.runId, index);
  }

  task(): WorkflowTask {
    const r = this.record;
    switch (r.status) {
      case 'AWAITING_COGNITIVE_RESULT':
        // A step whose first answer was sent back: asked again, it says what that answer lacked.
        return { status: 'AWAITING_COGNITIVE_RESULT', runId: r.runId, prompt: r.pending!.followUp ? `${r.pending!.prompt}\n\n## Your answer to this step was not taken\n\n${r.pending!.followUp}` : r.pending!.prompt, step: r.pending!.step };
      case 'COMPLETED':
        // A review point nobody addressed is part of the answer, never left out of a plain "complete".
        return {
          status: 'COMPLETED',
          runId: r.runId,
          output: [...r.timeline.filter((e) => e.outcome).map((e) => `${e.state}: ${e.outcome}${e.commit ? ` ${e.commit}` : ''}`), ...reviewsLeftOpenLines(r.timeline).map((l) => `review point open: ${l}`)],
        };
      case 'AWAITING_GOAL':
        return { status: 'AWAITING_GOAL', runId: r.runId };
      case 'AWAITING_APPROVAL':
        return { status: 'AWAITING_APPROVAL', runId: r.runId, plan: r.plan! };
      case 'BLOCKED':
      case 'PAUSED':
      case 'STOPPED':
        return { status: r.status, runId: r.runId, error: r.error };
      default:
        throw new WorkflowError('RUNTIME_ERROR', `run ${r.runId} is ${r.status}`);
    }
  }

  get resting(): boolean {
    return !this.loop && RESTING.has(this.record.status);
  }
}
