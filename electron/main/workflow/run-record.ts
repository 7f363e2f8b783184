import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import {
  WorkflowErrorInfo as ErrorView,
  WorkflowPlan,
  WorkflowRunStatus,
  WorkflowStep,
  WorkflowTimelineEntry,
  WorkflowUsage,
} from '../../contract/methods/workflow';
import { writeJsonAtomic } from '../common/fs';
import { processAlive, processStart } from '../common/process-alive';
import type { Paths } from '../paths/index';
import { WorkflowError } from './errors';

export const ExecutorConfig = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('external') }),
  z.object({
    kind: z.literal('agent'),
    provider: z.string().optional(),
    model: z.string().optional(),
    baseUrl: z.string().optional(),
    toolMode: z.enum(['auto', 'native', 'xml']).optional(),
    autoApprove: z.boolean().optional(),
    maxCostUsd: z.number().positive().optional(),
  }),
  z.object({ kind: z.literal('command'), command: z.string().min(1) }),
]);
export type ExecutorConfig = z.infer<typeof ExecutorConfig>;

/** What the user changed while a run (or a component of it) was stopped for them: user-changes.ts. */
/** `from`/`to`: the trees of the files as the run left them and as it went on (in the checkpoints' store when `fromIn`). */
const UserChanges = z.array(z.object({ state: z.string(), at: z.string(), from: z.string(), to: z.string().optional(), fromIn: z.literal('checkpoints').optional(), kind: z.enum(['diff', 'stat']), text: z.string() }));

/**
 * One component of a parallel run (plan.parallel): its own XState snapshot, branch and worktree, and the run
 * record fields a step reads and writes (lastTest, untraced, retryOf, a commit under way), so several components
 * are in flight in one run file. Its steps' entries are in the run's timeline (`entries`: their indexes).
 */
/** A step that runs again after it ended unfinished: what happened (`what`), what it wrote last (`said`), the user's answer given with the retry. */
const RetryOfRecord = z.object({ state: z.string(), what: z.string(), said: z.string().optional(), answer: z.string().optional() });

export const LaneRecord = z.object({
  component: z.string(),
  status: z.enum(['waiting', 'running', 'ready', 'merged', 'blocked']),
  /** The git worktree it works in (under .git/erasmus/worktrees/<run>/) and its branch. */
  worktree: z.string().optional(),
  branch: z.string().optional(),
  state: z.string().optional(),
  snapshot: z.unknown().optional(),
  lastTest: z.object({ command: z.string(), exitCode: z.number().nullable(), passed: z.boolean(), output: z.string() }).optional(),
  untraced: z.object({ state: z.string(), tasks: z.array(z.string()), asked: z.number().int().nonnegative() }).optional(),
  retryOf: RetryOfRecord.optional(),
  pendingCommit: z.object({ state: z.string(), head: z.string().nullable() }).optional(),
  entries: z.array(z.number().int().nonnegative()),
  /** Its commit in its worktree (ready), then on the run's branch (merged); absent when it had nothing to commit. */
  commit: z.string().optional(),
  /** A merge that conflicted: its files, and how many merge steps ran for it. */
  conflicts: z.array(z.string()).optional(),
  mergeAttempts: z.number().int().nonnegative().optional(),
  /** The user skipped the step where it blocked: it goes on after that step. */
  skip: z.boolean().optional(),
  /**
   * Blocked, and the user retried or skipped another component by name: it stays blocked as the run goes on (its step
   * is not run again unasked; one that asked would take that as the user's word to go on), until it is retried itself.
   */
  held: z.boolean().optional(),
  error: z.string().optional(),
  /** Its worktree's files as it blocked, and what the user changed there before it went on (as the run's own: user-changes.ts). */
  stoppedTree: z.string().optional(),
  userChanges: UserChanges.optional(),
  /** The run was abandoned before it merged, or the component ended without a commit while its worktree held work: that work, which no branch held, is kept under this ref (its worktree and branch are gone). */
  kept: z.string().optional(),
  /** A durable run's component (durable/remote-lane.ts): its DBOS workflow, that workflow's attempt (the n of `<run>:<component>:<n>`), and its worktree's checkpoint on origin after its last finished step (with the attempt whose refs hold it). */
  workflow: z.string().optional(),
  attempts: z.number().int().nonnegative().optional(),
  checkpoint: z.object({ step: z.number().int().nonnegative(), sha: z.string(), attempt: z.number().int().positive().optional() }).optional(),
  /** A durable run's component: the user's changes made while the run was stopped (their `at`) already handed to one of its workflows, to carry into its files. */
  carried: z.array(z.string()).optional(),
  /** A durable run's component that does not move, and why (queued with no worker taking it, or its worker gone): the CLI and status say so. */
  waiting: z.string().optional(),
});
export type LaneRecord = z.infer<typeof LaneRecord>;

export const PREPARE_STEPS = ['architecture', 'progress_schedule', 'task_list', 'plan'] as const;

/** Everything a run is, as written to context/<project-key>/runs/<run-id>.json after each transition. */
export const RunRecord = z.object({
  version: z.literal(1),
  runId: z.string(),
  projectDir: z.string(),
  goal: z.string().optional(),
  /** While the run waits for its goal: what the project's README says it is, offered as a start. */
  suggestedGoal: z.object({ file: z.string(), goal: z.string() }).optional(),
  /**
   * Set when the goal is new to a project that has documents already (its earlier goals): the
   * preparation updates them instead of loading them, and the final steps review what changed since
   * `baseCommit`. `doneTasks` are the ids finished before, which the updated task list keeps done.
   */
  goalUpdate: z.object({ baseCommit: z.string().optional(), doneTasks: z.array(z.string()) }).optional(),
  /** The step that runs again after it ended unfinished (blocked, interrupted), and what happened: its next prompt says it is a retry. */
  retryOf: RetryOfRecord.optional(),
  /** While the run waits for its goal on a project whose tasks are all done: the goal asked is the next one. */
  nextGoal: z.boolean().optional(),
  /** The project's files as the run left them when it stopped for the user (a tree in the project's repository): going on, it reads what the user changed since. */
  stoppedTree: z.string().optional(),
  /** `checkpoints`: stoppedTree is a tree among the checkpoints' (as a step's startTree can be), not in the project's repository. */
  stoppedTreeIn: z.literal('checkpoints').optional(),
  /** What the user changed while the run was stopped (user-changes.ts): the steps of the part it stopped at are shown it until that part is committed. */
  userChanges: UserChanges.optional(),
  executor: ExecutorConfig,
  status: WorkflowRunStatus,
  phase: z.enum(['prepare', 'execute']),
  state: z.string().optional(),
  plan: WorkflowPlan.optional(),
  approved: z.boolean(),
  /** The XState persisted snapshot (execute phase). */
  snapshot: z.unknown().optional(),
  lastTest: z.object({ command: z.string(), exitCode: z.number().nullable(), passed: z.boolean(), output: z.string() }).optional(),
  /** The project was an existing code base when the run started (commits with source files): prompts frame the goal as a change to it. */
  existing: z.boolean().optional(),
  /**
   * An existing code base's HEAD when the run was loaded (after the user's changes were committed, when they chose so): the
   * final documentation and review of its first goal are shown what the run changed since (a later goal has `goalUpdate.baseCommit`).
   */
  startCommit: z.string().optional(),
  /** Where review reports go: the project's docs/reviews/ (a new project, or one with a docs folder), or `home`: with the context documents. */
  reviews: z.enum(['project', 'home']).optional(),
  /** The run's place in git (a project that is a repository): its branch, and the user's work it must not commit. */
  git: z
    .object({
      /** `branch`: the run works on a branch of its own, made when development starts; `current`: on the branch checked out. */
      mode: z.enum(['branch', 'current']),
      branch: z.string().optional(),
      /** The branch the run started from (absent when HEAD was detached). */
      base: z.string().optional(),
      /** Files the user had changed at start and chose to include: never committed by the run. */
      userFiles: z.array(z.string()).optional(),
      /** The stash holding the user's changes when they chose to stash them. */
      stashed: z.string().optional(),
      /** A commit under way: HEAD before it, so a crash between the commit and this file does not commit twice. */
      pendingCommit: z.object({ state: z.string(), head: z.string().nullable() }).optional(),
      /**
       * Started on an unfinished earlier run's branch (`inheritedBase`): that branch and its commit at start, and the run. Its
       * commits come along into `base`; the pull request names them.
       */
      startedFrom: z.object({ branch: z.string(), commit: z.string(), runId: z.string().optional() }).optional(),
      /** What the user chose at completion: the branch squashed into `base` (as `commit`), or kept for a pull request. */
      finished: z.object({ choice: z.enum(['squash', 'keep']), commit: z.string().optional(), at: z.string() }).optional(),
    })
    .optional(),
  /** A testing state whose tests passed while some tasks had none that names them: asked again (at most TRACE_CORRECTIONS times), naming them. */
  untraced: z.object({ state: z.string(), tasks: z.array(z.string()), asked: z.number().int().nonnegative() }).optional(),
  /** How many components may run at once (config.yaml parallelComponents, --parallel N; default 2). */
  parallelComponents: z.number().int().min(1).max(16).optional(),
  /**
   * A durable run (--database-url): its components run in `erasmus worker` processes as DBOS workflows over
   * this Postgres database (its URL without the password; the URL itself is given to each process that drives the run).
   */
  durable: z.object({ database: z.string() }).optional(),
  /** A parallel run's components, in schedule order, from the moment they start (parallel.ts). */
  lanes: z.array(LaneRecord).optional(),
  error: ErrorView.optional(),
  pending: z.object({ step: WorkflowStep, prompt: z.string(), followUp: z.string().optional() }).optional(),
  timeline: z.array(WorkflowTimelineEntry),
  totals: WorkflowUsage,
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type RunRecord = z.infer<typeof RunRecord>;

const OWN_START = processStart(process.pid);

/** A lock file's text: the driver's pid and, where the system tells, when it started. */
function readLock(file: string): { pid: number; start?: string } {
  const [pid, start] = readFileSync(file, 'utf8').trim().split(/\s+/);
  return { pid: Number(pid), ...(start ? { start } : {}) };
}
const LOCK_TEXT = `${process.pid}${OWN_START ? ` ${OWN_START}` : ''}`;

export function newRunId(): string {
  const t = new Date().toISOString().replace(/[-:]/g, '').replace(/\..*$/, '');
  return `${t}-${Math.random().toString(36).slice(2, 8)}`;
}

/** Reads and writes run files; several projects (and runs) side by side. */
/** Keeps the prompt of timeline entry `index` beside the run file (a durable run's worker step's too, as the run imports it). */
export async function writeStepPrompt(paths: Paths, projectDir: string, runId: string, index: number, prompt: string): Promise<void> {
  const file = paths.runStepPrompt(projectDir, runId, index);
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, prompt);
}

export class RunStore {
  constructor(private readonly paths: Paths) {}

  file(projectDir: string, runId: string): string {
    return this.paths.run(projectDir, runId);
  }

  /**
   * Claims the right to drive a run in this process (desktop, serve and CLI may share a home).
   * A lock left by a dead process (SIGKILL) is taken over; a live one is refused.
   */
  lock(projectDir: string, runId: string): void {
    const file = `${this.file(projectDir, runId)}.lock`;
    try {
      writeFileSync(file, LOCK_TEXT, { flag: 'wx' });
      return;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return; // no runs folder yet: nothing else can hold it
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const { pid, start } = readLock(file);
    if (pid && pid !== process.pid && processAlive(pid, start)) throw new WorkflowError('INVALID_STATE', `run ${runId} is being driven by another Erasmus process (pid ${pid})`);
    writeFileSync(file, LOCK_TEXT);
  }

  /** The live process (other than this one) that drives the run, if any. */
  holder(projectDir: string, runId: string): number | undefined {
    try {
      const { pid, start } = readLock(`${this.file(projectDir, runId)}.lock`);
      return pid && pid !== process.pid && processAlive(pid, start) ? pid : undefined;
    } catch {
      return undefined;
    }
  }

  unlock(projectDir: string, runId: string): void {
    const file = `${this.file(projectDir, runId)}.lock`;
    try {
      if (readLock(file).pid === process.pid) rmSync(file, { force: true });
    } catch {}
  }

  async save(record: RunRecord): Promise<void> {
    record.updatedAt = new Date().toISOString();
    await writeJsonAtomic(this.file(record.projectDir, record.runId), record);
  }

  /** Keeps the prompt of a step beside the run file (too long for the run file, which is rewritten at every transition). */
  async savePrompt(projectDir: string, runId: string, index: number, prompt: string): Promise<void> {
    await writeStepPrompt(this.paths, projectDir, runId, index, prompt);
  }

  async readPrompt(projectDir: string, runId: string, index: number): Promise<string | null> {
    return readFile(this.paths.runStepPrompt(projectDir, runId, index), 'utf8').catch(() => null);
  }

  async readFile(file: string): Promise<RunRecord> {
    let json: unknown;
    try {
      json = JSON.parse(await readFile(file, 'utf8'));
    } catch (err) {
      throw new WorkflowError('PARSE_ERROR', `${file}: ${(err as Error).message}`, { file });
    }
    const r = RunRecord.safeParse(json);
    if (!r.success) throw new WorkflowError('PARSE_ERROR', `${file}: not a workflow run: ${r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`, { file });
    return r.data;
  }

  /** Every run file under ERASMUS_HOME/context/<key>/runs. */
  async listFiles(): Promise<string[]> {
    const root = join(this.paths.home, 'context');
    const keys = await readdir(root).catch(() => [] as string[]);
    const out: string[] = [];
    for (const key of keys) {
      const runs = await readdir(join(root, key, 'runs')).catch(() => [] as string[]);
      for (const f of runs) if (f.endsWith('.json')) out.push(join(root, key, 'runs', f));
    }
    return out;
  }

  async find(runId: string): Promise<RunRecord | undefined> {
    for (const f of await this.listFiles()) if (f.endsWith(`/${runId}.json`)) return this.readFile(f);
    return undefined;
  }

  /** Runs of a project, newest first. */
  async forProject(projectDir: string): Promise<RunRecord[]> {
    const dir = this.paths.runsDir(projectDir);
    const files = (await readdir(dir).catch(() => [] as string[])).filter((f) => f.endsWith('.json'));
    const recs: RunRecord[] = [];
    for (const f of files) {
      try {
        recs.push(await this.readFile(join(dir, f)));
      } catch {}
    }
    return recs.sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  }
}
