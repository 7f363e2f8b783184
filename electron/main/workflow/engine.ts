import { shellQuote } from '../runners/policy/flags';
import { askDriver, relayDir, relayRefusal, relaySilence, serveRelay, type RelayOutcome, type RelayRequest } from './relay';
import { readFile, stat } from 'node:fs/promises';
import { projectFolder } from '../project/inspect';
import { join, resolve } from 'node:path';
import { runStepsOf } from '../../contract/run-steps';
import type { WorkflowDriftDocument, WorkflowPlan, WorkflowReport, WorkflowRunSteps, WorkflowRunSummary, WorkflowRunView, WorkflowStepResult, WorkflowTask } from '../../contract/methods/workflow';
import { loadAgentConfig } from '../agent/providers/config';
import { loadRetention } from '../checkpoints/retention';
import { checkpointView, CheckpointStore } from '../checkpoints/store';
import { RunCheckpoints } from '../checkpoints/workflow';
import type { Paths } from '../paths/index';
import { CommandExecutor } from './command-executor';
import { ContextDocs, type DocRef, type DocView } from './documents';
import { driftedDocuments } from './drift';
import { documentsGoal, documentsPlan, driftedOrRefuse } from './docs-update';
import { loadProtocol } from './protocols';
import { ProjectTrust } from '../project/trust';
import { invalidState, runNotFound, WorkflowError } from './errors';
import type { WorkflowEmit } from './events';
import { ExternalExecutor, type StepExecutor } from './executor';
import { newRunId, RunStore, type ExecutorConfig, type RunRecord } from './run-record';
import type { RunContext } from './run-context';
import { DurableRuns } from './durable/durable-runs';
import type { RunGate } from './durable/bridge';
import { runReport } from '../../contract/run-report';
import { keptReviewFile } from './kept-reviews';
import { reviewOutcomes } from '../../contract/review-points';
import { assertConfigReadable } from './preflight';
import { WorkflowRun } from './run';
import { DEFAULT_PARALLEL_COMPONENTS, keptWords, removeStaleLanes } from './parallel';
import type { KeptLane } from './worktrees';
import { PtyManager } from '../runners/pty/index';
import { CommandRunner } from '../runners/runner';
import { inspectProject, RecentProjects } from '../project/inspect';
import { runGate } from './gate';
import { finishRun, savePullRequest, type FinishChoice, type FinishOutcome } from './finish';
import { currentBranch, hasCommittedCode, headCommit } from './git';
import { loadGitSettings } from './git-settings';
import { inheritedBase, prepareGit, refuseDirtyTree, type BranchMode, type DirtyTreeChoice } from './run-git';
import type { TestRunner } from './verify';

export interface WorkflowEngineOptions {
  paths: Paths;
  emit: WorkflowEmit;
  /** The agent-loop executor, once the core has one; without it, "agent" runs are refused. */
  agentExecutor?: (config: Extract<ExecutorConfig, { kind: 'agent' }>) => StepExecutor;
  protocolsDir?: string;
  env?: NodeJS.ProcessEnv;
  /** How test commands run (the core's runner; default: the engine's own sandboxed runner). */
  runTests?: TestRunner;
  /** Where checkpoints are kept (default: a store under ERASMUS_HOME/checkpoints; the core shares its own). */
  checkpoints?: CheckpointStore;
  /** A durable run's workers' questions are asked here, and their sessions' events shown here (the core's gate and bus). */
  durableGate?: RunGate;
}

export interface LoadOptions {
  projectDir: string;
  goal?: string;
  executor?: ExecutorConfig;
  /** Uncommitted changes in the project: refused unless chosen here (commit them first, stash them, or include them uncommitted). */
  dirtyTree?: DirtyTreeChoice;
  /** `branch`: the run works on `erasmus/<goal>`; `current`: on the branch checked out. Default: config.yaml's `git.branch`, else `branch`. */
  branch?: BranchMode;
  /** How many components may run at once where the task list lets them (default: config.yaml parallelComponents, else 2). */
  parallel?: number;
  /** `drifted`: a documentation run for the documents `drift` lists (docs-update.ts); on the branch checked out unless `branch` says otherwise. */
  documents?: 'drifted';
  /** postgres://…: the run is durable, its components run in `erasmus worker` processes over DBOS (default: the options' env ERASMUS_DATABASE_URL). */
  databaseUrl?: string;
}

/** `--parallel N` on start, approve and resume: how many components may run at once from now on. */
export interface ParallelOption {
  parallel?: number;
  /** A durable run's database (postgres://…), for this process to drive it; on a run not yet in its components' phase it makes the run durable. */
  databaseUrl?: string;
}

/**
 * All workflow runs of one core, several projects at once. This is the API the contract handlers,
 * the CLI and the Erasmus MCP server (workflow_get_task / workflow_submit_task) sit on.
 */
/** How long submitTask waits for the transition it caused before answering RUNNING. */
const SUBMIT_SETTLE_MS = 30_000;

export class WorkflowEngine {
  readonly store: RunStore;
  private readonly runs = new Map<string, WorkflowRun>();
  /** A checkpoint before every step; rewinds (electron/main/checkpoints). */
  readonly runCheckpoints: RunCheckpoints;
  private readonly pruned = new Set<string>();

  constructor(private readonly options: WorkflowEngineOptions) {
    this.store = new RunStore(options.paths);
    this.runCheckpoints = new RunCheckpoints(options.checkpoints ?? new CheckpointStore(options.paths), options.paths);
  }

  /** The run this process drives for a project now (RUNNING), if any. */
  drivingRun(projectDir: string): string | undefined {
    const dir = resolve(projectDir);
    for (const run of this.runs.values()) if (run.record.projectDir === dir && run.record.status === 'RUNNING') return run.runId;
    return undefined;
  }

  /** Throws what `load` would for uncommitted changes with no `dirtyTree` choice, changing nothing (asked before an unfinished run is abandoned for a new one). */
  async refuseDirtyTree(projectDir: string, dirtyTree: DirtyTreeChoice | undefined): Promise<void> {
    await refuseDirtyTree(resolve(projectDir), dirtyTree);
  }

  /** Creates a run for a project; nothing runs until start/getTask. */
  async load(opts: LoadOptions): Promise<{ runId: string }> {
    const projectDir = await projectFolder(opts.projectDir).catch((err: Error) => {
      throw new WorkflowError('RUNTIME_ERROR', err.message);
    });
    let executor = opts.executor ?? { kind: 'external' };
    const config = await loadAgentConfig(this.options.paths.configYaml).catch(() => undefined);
    // config.yaml's runBudgetUsd is the budget of a run started without one (kept in the run record).
    if (executor.kind === 'agent' && executor.maxCostUsd === undefined && config?.runBudgetUsd !== undefined) executor = { ...executor, maxCostUsd: config.runBudgetUsd };
    const parallelComponents = opts.parallel ?? config?.parallelComponents ?? DEFAULT_PARALLEL_COMPONENTS;
    if (executor.kind === 'agent' && !this.options.agentExecutor) throw new WorkflowError('RUNTIME_ERROR', 'the agent executor is not available in this core');
    // An existing code base: code committed before Erasmus documented the project. It stays one for every later goal
    // (its maintainers' conventions, its own tests instead of a new end-to-end suite), whose documents those goals
    // update (prepare.ts, goalUpdate); a project Erasmus built from the start never becomes one.
    const documented = !!(await new ContextDocs(this.options.paths, projectDir).text({ doc: 'architecture' }).catch(() => undefined))?.trim();
    const existing = documented ? (await this.records(projectDir)).some((r) => r.existing) : await hasCommittedCode(projectDir).catch(() => false);
    // config.yaml's git: section: the branch a run works on when not told, and whether review reports are committed.
    const settings = await loadGitSettings(this.options.paths.configYaml).catch((err: Error) => {
      throw new WorkflowError('PARSE_ERROR', err.message, { file: this.options.paths.configYaml, field: 'git' });
    });
    // A documentation run is planned here, from the drifted documents and the task list: no preparation, no plan review.
    const docsRun = opts.documents === 'drifted' ? await this.documentsRun(projectDir) : undefined;
    if (docsRun && opts.goal?.trim()) throw new WorkflowError('INVALID_STATE', 'a documentation run has no goal of its own: start it without one');
    const goal = docsRun?.goal ?? opts.goal;
    const branch = opts.branch ?? (docsRun || settings.branch === 'current' ? 'current' : 'branch');
    const databaseUrl = this.durable.urlFor(opts.databaseUrl);
    if (databaseUrl) executor = await this.durable.check(projectDir, databaseUrl, executor, config);
    const git = await prepareGit(projectDir, { goal, dirtyTree: opts.dirtyTree, branch, runTests: this.testRunner() });
    // Started on an unfinished earlier run's branch (a goal left for a new one): finished into that run's base, not its branch.
    const records = git?.mode === 'branch' ? await this.records(projectDir) : [];
    const on = git?.mode === 'branch' ? await currentBranch(projectDir).catch(() => undefined) : undefined;
    const inherited = inheritedBase(records, on);
    if (git && inherited && on) {
      git.base = inherited;
      // Where it starts (the earlier run's branch and commit), so its pull request names the commits that come along.
      const commit = await headCommit(projectDir);
      const earlier = records.find((r) => r.git?.mode === 'branch' && r.git.branch === on);
      if (commit) git.startedFrom = { branch: on, commit, ...(earlier ? { runId: earlier.runId } : {}) };
    }
    const now = new Date().toISOString();
    const runId = newRunId();
    const record: RunRecord = {
      version: 1,
      runId,
      projectDir,
      goal: goal?.trim() || undefined,
      executor,
      status: 'LOADED',
      phase: docsRun ? 'execute' : 'prepare',
      approved: !!docsRun,
      ...(docsRun ? { plan: docsRun.plan } : {}),
      timeline: [],
      totals: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
      parallelComponents,
      ...(databaseUrl ? { durable: this.durable.remember(runId, databaseUrl) } : {}),
      ...(git ? { git } : {}),
      // An existing code base without a docs folder keeps review reports out of its tree (with the context documents).
      ...(existing ? { existing } : {}),
      // Where its change starts: the final steps review and document what the run changed since.
      ...(existing && git ? await headCommit(projectDir).then((c) => (c ? { startCommit: c } : {})) : {}),
      ...(existing && !settings.commitReviews && !(await stat(join(projectDir, 'docs')).catch(() => undefined)) ? { reviews: 'home' as const } : {}),
      createdAt: now,
      updatedAt: now,
    };
    await this.prune(projectDir);
    if (git) await this.removeStaleLanes(projectDir);
    const run = this.adopt(record);
    await run.persist();
    // The app's Recent list shows the project, whichever face (CLI, MCP, app) started the run.
    await inspectProject(projectDir).then((summary) => new RecentProjects(this.options.paths.recentProjects).add(summary)).catch(() => undefined);
    return { runId: record.runId };
  }

  /** A documentation run's goal and plan: the documents that drifted (refused when none did). */
  private async documentsRun(projectDir: string): Promise<{ goal: string; plan: WorkflowPlan }> {
    const docs = new ContextDocs(this.options.paths, projectDir);
    const drifted = await driftedOrRefuse(docs);
    const debugging = await loadProtocol('debugging', projectDir, this.options.protocolsDir, new ProjectTrust(this.options.paths.projectTrustFile));
    return { goal: documentsGoal(drifted), plan: await documentsPlan(docs, drifted, debugging.maxAttempts) };
  }

  /** The project's old checkpoints go as config.yaml's retention says, once per process and project, when a run starts. */
  /** Worktrees and lane branches of runs not driven again (abandoned, complete, record gone) go; their unmerged work is kept and named. */
  private async removeStaleLanes(projectDir: string): Promise<void> {
    const byId = new Map((await this.records(projectDir)).map((r) => [r.runId, r.status]));
    const kept = await removeStaleLanes(projectDir, (id) => byId.get(id)).catch((err: Error) => {
      // Never in the way of the new run: the user hears what is left and why.
      this.options.emit('app.notify', { title: 'Worktrees of an earlier run were left in place', body: `${err.message}. They are under .git/erasmus/worktrees; git worktree list shows them.` });
      return [];
    });
    if (kept.length) this.options.emit('app.notify', { title: 'Worktrees of an earlier run removed', body: `Work of theirs that no branch held is kept: ${keptWords(kept)}` });
  }

  private async prune(projectDir: string): Promise<void> {
    if (this.pruned.has(projectDir)) return;
    this.pruned.add(projectDir);
    const retention = await loadRetention(this.options.paths.configYaml).catch((err: Error) => {
      throw new WorkflowError('PARSE_ERROR', err.message, { file: this.options.paths.configYaml });
    });
    await this.runCheckpoints.prune(projectDir, retention);
  }

  private adopt(record: RunRecord): WorkflowRun {
    const run = new WorkflowRun(record, {
      paths: this.options.paths,
      store: this.store,
      emit: this.options.emit,
      protocolsDir: this.options.protocolsDir,
      runTests: this.testRunner(),
      makeExecutor: (config, onAwait) => this.makeExecutor(config, onAwait),
      durable: (r) => this.durable.hooks(r),
      // Another process's retry or skip of this run while it is driven here (relay.ts): applied as this process's own call.
      relay: (r) => serveRelay(relayDir(this.store.file(r.record.projectDir, r.runId)), (q) => (q.verb === 'retry' ? this.retry(r.runId, { component: q.component, answer: q.answer }) : this.skip(r.runId, { component: q.component }))),
      beforeStep: async (r, state) => {
        const { id, tree } = await this.runCheckpoints.beforeStep(r, state);
        return { id, tree };
      },
      checkpointTrees: this.runCheckpoints.trees,
    });
    this.runs.set(record.runId, run);
    return run;
  }

  /** What componentContext's steps read once per run (WorkflowRun's runToolsets), by run id. */
  private readonly stepToolsets = new Map<string, Promise<string[]>>();

  private readonly durable = new DurableRuns(() => this.options.env, () => this.options.durableGate);

  /**
   * A worker's context for a durable run's component (durable/worker.ts): this engine's executor and runner, a record
   * that is never saved here (`saved` hears each save instead: the worker publishes the step's timeline as it goes).
   */
  componentContext(record: RunRecord, saved?: (record: RunRecord) => void, signal?: AbortSignal, startTree?: { dir: string; tree: string }, prompted?: (index: number, prompt: string) => Promise<void>): RunContext {
    // A step's prompt goes where `prompted` says (the worker sends it to the run, which keeps it), not into this process's home.
    const store = Object.assign(Object.create(this.store) as RunStore, {
      save: async (r: RunRecord) => saved?.(r),
      ...(prompted ? { savePrompt: async (_dir: string, _run: string, index: number, prompt: string) => prompted(index, prompt) } : {}),
      lock: () => undefined,
      unlock: () => undefined,
    });
    // The runs' toolsets, read once per run (the last few runs this worker worked for).
    if (!this.stepToolsets.has(record.runId) && this.stepToolsets.size >= 16) this.stepToolsets.delete(this.stepToolsets.keys().next().value!);
    const run = new WorkflowRun(record, {
      runToolsets: this.stepToolsets,
      ...(startTree ? { startTree } : {}),
      // Its steps' files are read against the checkpoint the worker records after each (component-step.ts).
      deferStepFiles: true,
      paths: this.options.paths,
      store,
      emit: this.options.emit,
      protocolsDir: this.options.protocolsDir,
      runTests: this.testRunner(),
      makeExecutor: (config, onAwait) => this.makeExecutor(config, onAwait),
    });
    return run.stepContext(signal);
  }

  private makeExecutor(config: ExecutorConfig, onAwait: ConstructorParameters<typeof ExternalExecutor>[0]): StepExecutor {
    switch (config.kind) {
      case 'external':
        return new ExternalExecutor(onAwait);
      case 'command':
        return new CommandExecutor(config.command, this.options.env);
      case 'agent':
        if (!this.options.agentExecutor) throw new WorkflowError('RUNTIME_ERROR', 'the agent executor is not available in this core');
        return this.options.agentExecutor(config);
    }
  }

  /** The run in memory, or read back from its file (after a restart, or when another process moved it on). */
  async get(runId: string): Promise<WorkflowRun> {
    const known = this.runs.get(runId);
    if (known?.running && known.record.status !== 'AWAITING_COGNITIVE_RESULT') return known;
    if (known) {
      // Another process (the CLI, the desktop, a second MCP server) may have moved it on since: take the newer file.
      // A step that waits here may have been answered elsewhere: this process lets go of it.
      const onDisk = await this.store.readFile(this.store.file(known.record.projectDir, runId)).catch(() => undefined);
      if (!onDisk || onDisk.updatedAt <= known.record.updatedAt) return known;
      if (known.running) await known.shutdown();
      return this.adopt(onDisk);
    }
    let record: RunRecord | undefined;
    try {
      record = await this.store.find(runId);
    } catch (err) {
      if (err instanceof WorkflowError) throw err;
    }
    if (!record) throw runNotFound(runId);
    return this.runs.get(runId) ?? this.adopt(record); // another call may have read it meanwhile
  }

  /**
   * While another live process drives an external-engine run between two steps, waits (up to the timeout) until it
   * rests or a step waits again, then reads the run back.
   */
  private async afterOtherDriver(run: WorkflowRun, timeoutMs = 600_000): Promise<WorkflowRun> {
    const deadline = Date.now() + timeoutMs;
    while (run.record.executor.kind === 'external' && !run.running && run.record.status === 'RUNNING' && this.store.holder(run.record.projectDir, run.runId)) {
      if (Date.now() > deadline) throw new WorkflowError('RUNTIME_ERROR', `run ${run.runId} is still running in another Erasmus process (pid ${this.store.holder(run.record.projectDir, run.runId)}) after ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 100));
      run = await this.get(run.runId);
    }
    // The other driver may have saved its last state and let go of the lock between our read of the file and the
    // lock check: read the file once more, so a step it left waiting is handed out, not driven again from RUNNING.
    if (run.record.executor.kind === 'external' && !run.running && run.record.status === 'RUNNING') run = await this.get(run.runId);
    return run;
  }

  async start(runId: string, opts: ParallelOption = {}): Promise<WorkflowRunView['status']> {
    const run = await this.get(runId);
    await this.setParallel(run, opts);
    if (run.record.status === 'LOADED') run.drive();
    else if (!run.running && run.record.status === 'RUNNING') run.drive();
    await run.saved();
    return run.record.status;
  }

  /** Runs until a step needs a model (AWAITING_COGNITIVE_RESULT with its prompt), or the run rests. */
  async getTask(runId: string, timeoutMs?: number): Promise<WorkflowTask> {
    const run = await this.afterOtherDriver(await this.get(runId), timeoutMs);
    const s = run.record.status;
    // A waiting step is in the file: it is handed out as it is (whichever process issued it), not asked again.
    if (!run.running && (s === 'LOADED' || s === 'RUNNING' || (s === 'AWAITING_COGNITIVE_RESULT' && !run.record.pending))) run.drive();
    await run.settle(timeoutMs);
    await run.saved(); // what is handed out is in the file, for any other process to take
    return run.task();
  }

  /** `state`, when given, is the step the answer is for: refused if the run waits on another one. */
  async submitTask(runId: string, result: WorkflowStepResult, state?: string): Promise<{ success: true; status: WorkflowRunView['status']; followUp?: string }> {
    const run = await this.afterOtherDriver(await this.get(runId), SUBMIT_SETTLE_MS);
    const followUp = run.submit(result, state);
    // Sent back for a part it lacks: the step still waits, and the caller is told what to submit.
    if (followUp !== undefined) {
      await run.saved();
      return { success: true, status: run.record.status, followUp };
    }
    // The status after the transition: the step's tests (if any) ran and the next step waits, or the run rests; RUNNING if that takes long.
    await new Promise((r) => setImmediate(r));
    await run.settle(SUBMIT_SETTLE_MS).catch(() => undefined);
    await run.saved();
    return { success: true, status: run.record.status };
  }

  async status(runId: string): Promise<WorkflowRunView> {
    const run = await this.get(runId);
    return { ...run.view(), ...(this.isInterrupted(run.record, run.running) ? { interrupted: true } : {}) };
  }

  /** Recorded RUNNING while no live process drives it (its driver was killed or crashed): `resume` takes it up. */
  private isInterrupted(record: RunRecord, runningHere: boolean): boolean {
    return record.status === 'RUNNING' && !runningHere && !this.store.holder(record.projectDir, record.runId);
  }

  /** Changes how an agent run's steps call tools from its next step on (a run at rest; kept in its record). */
  async setToolMode(runId: string, toolMode: 'auto' | 'native' | 'xml'): Promise<void> {
    const run = await this.get(runId);
    if (run.running) throw new WorkflowError('INVALID_STATE', `run ${runId} is running; its tool mode changes when it rests`);
    const executor = run.record.executor;
    if (executor.kind !== 'agent') throw new WorkflowError('INVALID_STATE', `run ${runId} uses the ${executor.kind} executor: it has no tool mode`);
    if (executor.toolMode === toolMode) return;
    run.record.executor = { ...executor, toolMode };
    await run.persist();
    await run.shutdown();
    this.runs.delete(runId);
    this.adopt(run.record); // its executor is built from the record
  }

  /**
   * Leaves a run that rests unfinished (blocked, paused, stopped, interrupted, waiting for its goal or plan) for a
   * newer goal: ABANDONED, never driven again. A run another live process drives is refused. `databaseUrl`: a
   * durable run's database, which abandoning it needs while a component's workflow is not merged (it is cancelled).
   */
  async abandon(runId: string, opts: { databaseUrl?: string } = {}): Promise<{ status: WorkflowRunView['status']; kept: KeptLane[]; note?: string }> {
    const run = await this.get(runId);
    this.durable.beforeAbandon(run.record, opts.databaseUrl);
    const left = await run.abandon();
    return { status: run.record.status, ...left };
  }

  async stepPrompt(runId: string, index: number): Promise<string | null> {
    return (await this.get(runId)).stepPrompt(index);
  }

  /** Runs newest first, with their goals. */
  async list(projectDir?: string): Promise<WorkflowRunSummary[]> {
    return (await this.records(projectDir)).map((r) => ({
      runId: r.runId,
      projectDir: r.projectDir,
      status: r.status,
      state: r.state,
      ...(r.goal ? { goal: r.goal } : {}),
      ...(this.isInterrupted(r, !!this.runs.get(r.runId)?.running) ? { interrupted: true } : {}),
      createdAt: r.createdAt,
      updatedAt: r.updatedAt,
    }));
  }

  /** A project's runs, newest first, each with its steps and the session that ran each (for the sessions list). */
  async runSteps(projectDir: string, limit: number): Promise<WorkflowRunSteps[]> {
    return (await this.records(projectDir)).slice(0, limit).map((r) => ({ ...runStepsOf(r), ...(this.isInterrupted(r, !!this.runs.get(r.runId)?.running) ? { interrupted: true } : {}) }));
  }

  /** Run records (the files, and the runs this process holds, which are newer), newest first. */
  private async records(projectDir?: string): Promise<RunRecord[]> {
    const byId = new Map<string, RunRecord>();
    const files = projectDir ? (await this.store.forProject(resolve(projectDir))).map((r) => r) : [];
    if (!projectDir) {
      for (const f of await this.store.listFiles()) {
        try {
          const r = await this.store.readFile(f);
          byId.set(r.runId, r);
        } catch {}
      }
    }
    for (const r of files) byId.set(r.runId, r);
    for (const run of this.runs.values()) if (!projectDir || run.record.projectDir === resolve(projectDir)) byId.set(run.runId, run.record);
    return [...byId.values()].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  }

  /** The pid of another live process driving the run (the CLI signals it to pause or stop). */
  async driverPid(runId: string): Promise<number | undefined> {
    const run = await this.get(runId);
    return this.store.holder(run.record.projectDir, runId);
  }

  /**
   * Hands a retry or skip to the live process `pid` that drives the run (it applies it as its own call, relay.ts), and
   * waits for its answer (at most `waitMs`).
   */
  async relay(runId: string, pid: number, request: RelayRequest, waitMs?: number): Promise<RelayOutcome> {
    const { projectDir } = (await this.get(runId)).record;
    return askDriver(relayDir(this.store.file(projectDir, runId)), request, () => this.store.holder(projectDir, runId) === pid, waitMs);
  }

  /** The newest run of a project. */
  async latest(projectDir: string): Promise<string | null> {
    return (await this.list(projectDir))[0]?.runId ?? null;
  }

  async answerGoal(runId: string, goal: string) {
    const run = await this.get(runId);
    run.answerGoal(goal);
    await run.saved(); // the file says it runs before the caller (or another process) reads it
    return run.record.status;
  }
  async plan(runId: string): Promise<{ plan: WorkflowPlan | null; approved: boolean }> {
    const run = await this.get(runId);
    return { plan: run.record.plan ?? null, approved: run.record.approved };
  }
  /** What the run verified: each task, the tests Erasmus ran that name it, its component's commit. */
  async report(runId: string): Promise<WorkflowReport> {
    const { record } = await this.get(runId);
    const report: WorkflowReport = runReport(record);
    // Review reports kept outside the project: this is where the user reads them.
    if (record.reviews === 'home') {
      const kept = await Promise.all(
        reviewOutcomes(record.timeline).map(async (r) => {
          const file = await keptReviewFile(this.options.paths, record.projectDir, record.runId, r.scope);
          const text = await readFile(file, 'utf8').catch(() => undefined);
          return text === undefined ? undefined : { scope: r.scope, file, ...(r.verdict ? { verdict: r.verdict } : {}), text };
        }),
      );
      const reviews = kept.filter((r) => r !== undefined);
      if (reviews.length) report.reviews = reviews;
    }
    if (record.status !== 'COMPLETED') return report;
    return { ...report, pullRequest: await savePullRequest(this.options.paths, record) };
  }

  /**
   * A completed run's branch, as the user chose: squashed into the branch the run started from, or kept for a
   * pull request (`finish.ts`). Refused while another process holds the run.
   */
  async finish(runId: string, choice: FinishChoice): Promise<FinishOutcome> {
    const run = await this.get(runId);
    const { projectDir } = run.record;
    if (run.running) throw invalidState(`run ${runId} is running: it is finished once it completes`);
    this.store.lock(projectDir, runId);
    try {
      const out = await finishRun(this.options.paths, run.record, choice);
      await run.persist();
      this.options.emit('workflow.status', { runId, projectDir, status: run.record.status, state: run.record.state });
      return out;
    } finally {
      this.store.unlock(projectDir, runId);
    }
  }
  /** A run about to be driven again: config.yaml must read as settings first, or the next step's session could not start (refused, the run unchanged). */
  private async toDrive(runId: string): Promise<WorkflowRun> {
    await assertConfigReadable(this.options.paths.configYaml);
    return this.get(runId);
  }

  async approve(runId: string, plan?: WorkflowPlan, opts: ParallelOption = {}) {
    const run = await this.toDrive(runId);
    await this.setParallel(run, opts);
    await run.approve(plan);
    await run.saved();
    return run.record.status;
  }
  async pause(runId: string) {
    const run = await this.get(runId);
    await run.pause();
    return run.record.status;
  }
  async resume(runId: string, opts: ParallelOption = {}) {
    const run = await this.toDrive(runId);
    await this.setParallel(run, opts);
    run.resume();
    await run.saved();
    return run.record.status;
  }
  async stop(runId: string) {
    const run = await this.get(runId);
    await run.stop();
    return run.record.status;
  }
  /** `databaseUrl`: a durable run's database, given to this process (as approve and resume take it). */
  /** `component`: a side-by-side component blocked while others run (retried, or its step skipped, at once). */
  /** `answer`: the user's words for the step run again (run.ts retry). */
  async retry(runId: string, opts: { databaseUrl?: string; component?: string | undefined; answer?: string | undefined } = {}) {
    const handed = await this.handOver(runId, { verb: 'retry', ...(opts.component !== undefined ? { component: opts.component } : {}), ...(opts.answer !== undefined ? { answer: opts.answer } : {}) });
    if (handed) return handed;
    const run = await this.toDrive(runId);
    if (opts.databaseUrl !== undefined) await this.setParallel(run, { databaseUrl: opts.databaseUrl });
    run.retry(opts.component, opts.answer);
    await run.saved();
    return run.record.status;
  }
  async skip(runId: string, opts: { databaseUrl?: string; component?: string | undefined } = {}) {
    const handed = await this.handOver(runId, { verb: 'skip', ...(opts.component !== undefined ? { component: opts.component } : {}) });
    if (handed) return handed;
    const run = await this.toDrive(runId);
    if (opts.databaseUrl !== undefined) await this.setParallel(run, { databaseUrl: opts.databaseUrl });
    await run.skip(opts.component);
    await run.saved();
    return run.record.status;
  }

  /**
   * A retry or skip of a run another live process drives (the app's card, an MCP call, while a terminal drives it):
   * handed to that process (relay.ts), its answer this call's (the run's status there, or its refusal). Undefined when
   * this process may take the call itself: nobody else drives the run, or its driver let go of it before taking it.
   */
  private async handOver(runId: string, request: RelayRequest): Promise<WorkflowRunView['status'] | undefined> {
    const run = await this.get(runId);
    const pid = run.running ? undefined : this.store.holder(run.record.projectDir, runId);
    if (!pid) return undefined;
    const out = await this.relay(runId, pid, request);
    if (out.kind === 'gone') return undefined;
    if (out.kind === 'silent') throw new WorkflowError('RUNTIME_ERROR', relaySilence(pid, runId, request.verb, out.taken, `erasmus workflow pause ${shellQuote(run.record.projectDir)}, or Pause in the app`));
    if (!out.reply.ok) throw invalidState(relayRefusal(pid, runId, request.verb, out.reply.message));
    return out.reply.status as WorkflowRunView['status'];
  }

  /** `--parallel N`: how many components run at once from the next start of the parallel phase on (kept in the run record). */
  private async setParallel(run: WorkflowRun, opts: ParallelOption): Promise<void> {
    if (opts.databaseUrl !== undefined) {
      if (!run.record.durable) run.record.executor = await this.durable.check(run.record.projectDir, opts.databaseUrl, run.record.executor, await loadAgentConfig(this.options.paths.configYaml).catch(() => undefined));
      else this.durable.checkUrl(opts.databaseUrl);
      if (!run.record.durable && run.record.lanes) throw invalidState(`run ${run.runId} has started its components in this process; --database-url makes a run durable only before its components' phase`);
      run.record.durable = this.durable.remember(run.runId, opts.databaseUrl);
    }
    if (opts.parallel === undefined) return;
    if (run.running) throw invalidState(`run ${run.runId} is running; --parallel applies when it starts or resumes`);
    run.record.parallelComponents = opts.parallel;
  }

  /** The run's checkpoints, oldest first. */
  async checkpoints(runId: string) {
    return this.runCheckpoints.list((await this.get(runId)).record);
  }

  async rewindPreview(runId: string, checkpointId: string) {
    return this.runCheckpoints.preview((await this.get(runId)).record, checkpointId);
  }

  /**
   * Back to a checkpoint: the files, HEAD and context documents of that moment, the run PAUSED at its
   * state. Refused while a process drives the run; what is left is a checkpoint of its own (`undo`).
   */
  async rewind(runId: string, checkpointId: string) {
    let run = await this.get(runId);
    // A step waiting for the external engine is abandoned first, as pause does (the rewind takes the run elsewhere).
    if (run.record.status === 'AWAITING_COGNITIVE_RESULT') {
      await run.pause();
      run = await this.get(runId);
    }
    const { projectDir } = run.record;
    const holder = this.store.holder(projectDir, runId);
    if (run.running || holder) throw invalidState(`run ${runId} is being driven${holder ? ` by process ${holder}` : ''}: pause or stop it before rewinding (erasmus workflow pause|stop)`);
    this.store.lock(projectDir, runId);
    try {
      // Recorded running, but its process is gone (killed, crashed): nothing drives it, so nothing is to pause or stop;
      // it is taken as stopped (played as a user: the rewind said "is RUNNING: pause or stop it" of a run whose status
      // said "nothing is driving it").
      if (run.record.status === 'RUNNING') await run.stop();
      const done = await this.runCheckpoints.rewind(run.record, checkpointId);
      await run.shutdown();
      const next = this.adopt(done.record);
      await next.persist();
      this.options.emit('workflow.status', { runId, projectDir, status: next.record.status, state: next.record.state });
      return { status: next.record.status, state: next.record.state, undo: checkpointView(done.undo), files: done.files, commitsUndone: done.commitsUndone, ...(done.branchRemoved ? { branchRemoved: done.branchRemoved } : {}) };
    } finally {
      this.store.unlock(projectDir, runId);
    }
  }

  /** Waits until the run rests (goal, approval, blocked, paused, stopped, completed). */
  async waitForRest(runId: string, timeoutMs = 600_000): Promise<WorkflowRunView> {
    const run = await this.get(runId);
    const deadline = Date.now() + timeoutMs;
    while (!run.resting && run.running && run.record.status !== 'AWAITING_COGNITIVE_RESULT') {
      await run.settle(Math.max(1, deadline - Date.now()));
    }
    return run.view();
  }

  /** The project's context documents whose subject changed since the commit they describe. */
  drift(projectDir: string): Promise<WorkflowDriftDocument[]> {
    return driftedDocuments(new ContextDocs(this.options.paths, resolve(projectDir)));
  }

  readDoc(projectDir: string, ref: DocRef): Promise<DocView> {
    return new ContextDocs(this.options.paths, resolve(projectDir)).read(ref);
  }
  async writeDoc(projectDir: string, ref: DocRef, text: string): Promise<DocView> {
    const view = await new ContextDocs(this.options.paths, resolve(projectDir)).write(ref, text);
    // A task list saved while its plan waits for review is the plan the user sees (and confirms) from now on.
    if (ref.doc === 'task_list') {
      const latest = await this.latest(resolve(projectDir));
      const run = latest ? await this.get(latest).catch(() => undefined) : undefined;
      if (run?.record.status === 'AWAITING_APPROVAL') await run.replan();
    }
    return view;
  }

  /** An engine without the core's runner runs its gates through one of its own: the same sandbox, PTYs of its own. */
  private own: { ptys: PtyManager; runner: CommandRunner } | undefined;
  /** Tests and the run's commits (the repository's hooks) go through the one runner and its sandbox. */
  private testRunner(): TestRunner {
    return this.options.runTests ?? ((command, cwd, signal, options) => runGate(this.ownRunner(), command, cwd, signal, options));
  }

  private ownRunner(): CommandRunner {
    if (!this.own) {
      const ptys = new PtyManager({ outputsDir: this.options.paths.outputsDir, env: this.options.env });
      this.own = { ptys, runner: new CommandRunner(ptys, { erasmusHome: this.options.paths.home, ...(this.options.env?.HOME ? { home: this.options.env.HOME } : {}) }) };
    }
    return this.own.runner;
  }

  /** Ends every loop; runs keep their recorded status and resume after a restart. */
  async dispose(): Promise<void> {
    // A run of the external engine between two steps (an answer taken, its plan approved, resumed) issues its next step
    // before this process lets go of it (up to SUBMIT_SETTLE_MS): cut off, that step read interrupted and its task said
    // "This is a retry" (an MCP client starting `erasmus mcp-server` for each call, which ends once it has answered).
    await Promise.all([...this.runs.values()].filter((r) => r.external).map((r) => r.settle(SUBMIT_SETTLE_MS).catch(() => undefined)));
    await Promise.all([...this.runs.values()].map((r) => r.shutdown()));
    this.runs.clear();
    await this.durable.dispose();
    if (this.own) {
      await this.own.ptys.dispose();
      this.own.runner.dispose();
      this.own = undefined;
    }
  }
}
