// `erasmus worker`: a process on any machine that takes durable runs' components from the DBOS queue and
// runs them, one DBOS step per component step, each in its own clone of the project's origin (under its
// work folder, outside ERASMUS_HOME, which the sandbox hides). A workflow another worker left mid-way (that
// worker died: its liveness lock is free) is taken up through DBOS recovery: its recorded steps are not
// run again, the step that was under way runs again from the checkpoint the step before it pushed. Agent
// steps run with the worker's core: its provider (the run's, by id), its built-in files and runners servers on
// the worker's folder; what they ask, their timeline and their session's events go to the run (bridge.ts).
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, rm, rmdir } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import type { ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import type { AgentEvent, ApprovalDecision } from '../../../contract/index';
import { sessionIdOfLog } from '../../../contract/run-steps';
import { databaseHint, humanState, toolName } from '../../../contract/words';
import { unanswered, UnansweredApproval } from '../../agent/approval-path';
import type { ApprovalRequest } from '../../agent/approvals';
import type { ElicitationRequest } from '../../mcp/types';
import type { Paths } from '../../paths/index';
import { git } from '../git';
import type { RunContext } from '../run-context';
import type { RunRecord } from '../run-record';
import { closeBridgePools, forwarded, RunGone, type AskPlace, type StepPrompt, type WorkerBridge } from './bridge';
import { logPiece } from './step-log';
import { forgetClone, runComponentStep, type LaneJob, type LaneProgress, type StartTree } from './component-step';
import { removeRunRefs } from './lane-git';
import { CANCEL_MS, COMPONENT_QUEUE, COMPONENT_WORKFLOW, componentQueue, DBOS_APP, dbosUrl, holdLiveness, migrateSystemDatabase, orphanedWorkflows, POLL_MS, RECOVERY_MS, registerWorker, unregisterWorker, workerName, WORKFLOW_VERSION } from './dbos';

/** The component step this async context runs (its questions and events name it). */
interface StepPlace extends AskPlace {
  component: string;
  step: number;
  /** The state of the step in flight (its timeline entry), for what is asked. */
  state: () => string | undefined;
  /** What was refused because nobody followed the run (the model went on without it): said in the step's note and the worker's log. */
  refused: string[];
  published?: string;
  /** The step's agent session (its events show in the run under this id, and so do its approvals). */
  sessionId?: string;
  /** The prompts the step was given (the run keeps them: its own step view shows them). */
  prompts: StepPrompt[];
  /** The step's sessions' logs (in this worker's home), each with how far it was shipped to the run (step-log.ts). */
  logs?: Map<string, { path: string; sent: number }>;
  chain: Promise<unknown>;
  /** The worker running the step, in words (`workerName`), and the index of the step's first entry in the component's timeline: its entries name it. */
  worker?: { name: string; from: number };
}
const stepPlace = new AsyncLocalStorage<StepPlace>();

/** Runs `fn` as the component step `place` (what it asks and publishes names that step). */
export function inStep<T>(place: Omit<StepPlace, 'refused' | 'prompts' | 'chain'>, fn: (p: StepPlace) => Promise<T>): Promise<T> {
  const p: StepPlace = { ...place, refused: [], prompts: [], chain: Promise.resolve() };
  return stepPlace.run(p, () => fn(p));
}

/**
 * How a step that ended stands. Questions refused because nobody followed the run do not fail it: the model was
 * told the call was not made and to go on without it, and did; the person learns of them from the step's note
 * (its last timeline entry, from `from` on) and the worker's log, with how to have the next ones asked.
 */
export function settleStep(place: StepPlace, out: LaneProgress, from: number, log: (line: string) => void): LaneProgress {
  if (!place.refused.length) return out;
  const said = refusedNote(place.refused, place.runId, place.resume);
  log(`component ${place.component} of run ${place.runId}: ${said}`);
  return withNote(out, from, said);
}

/** The step's own entries (from `worker.from` on) name the worker that runs them, as published and as recorded. */
export function withWorker<E extends { worker?: string }>(timeline: E[], worker: StepPlace['worker']): E[] {
  return worker ? timeline.map((e, i) => (i >= worker.from && !e.worker ? { ...e, worker: worker.name } : e)) : timeline;
}

/**
 * The worker's folder is the root its built-in files and runners servers serve (a git repository of its own,
 * made here), and each component's clone is at `<work>/.git/erasmus/worktrees/<run>.<attempt>/<component>`: where those
 * servers take a parallel lane's worktree to be, so a step's tool calls work in its clone (named in their
 * `_meta`), and its commands may write that clone alone, as a one-machine lane's may write its worktree.
 */
export async function workRoot(workDir: string): Promise<string> {
  await mkdir(workDir, { recursive: true });
  if (!existsSync(join(workDir, '.git'))) {
    const r = await git(workDir, ['init', '-q']);
    if (r.code !== 0) throw new Error(`cannot make the worker's folder ${workDir} a git repository: ${r.stdout.trim()}`);
  }
  return workDir;
}

/**
 * Where a component's workflow has its clone in the worker's folder: one per attempt (`<run>.<attempt>`), so a
 * workflow cancelled while its step ends never works in, nor removes, the clone of the one that replaces it.
 */
export function cloneDir(workDir: string, runId: string, component: string, attempt: number): string {
  return join(workDir, '.git', 'erasmus', 'worktrees', `${runId}.${attempt}`, component);
}

/** DBOS statuses of a workflow that runs no more: its clone is of no use. */
const ENDED = new Set(['SUCCESS', 'ERROR', 'CANCELLED', 'MAX_RECOVERY_ATTEMPTS_EXCEEDED']);

/**
 * The clones in the worker's folder whose workflows have ended (a worker killed mid-step left its clone; another
 * worker finished the component): removed as the worker starts. A clone whose workflow is unknown, or still under
 * way (another worker may share the folder, or this one may take it up), stays. Returns the folders removed.
 */
export async function sweepClones(workDir: string, statusOf: (ids: string[]) => Promise<Array<{ workflowID: string; status: string }>>): Promise<string[]> {
  const base = join(workDir, '.git', 'erasmus', 'worktrees');
  const clones: Array<{ dir: string; id: string }> = [];
  for (const run of await readdir(base).catch(() => [] as string[])) {
    const m = /^(.+)\.(\d+)$/.exec(run);
    if (!m) continue;
    for (const component of await readdir(join(base, run)).catch(() => [] as string[])) clones.push({ dir: join(base, run, component), id: `${m[1]}:${component}:${m[2]}` });
  }
  if (!clones.length) return [];
  const ended = new Set((await statusOf(clones.map((c) => c.id))).filter((w) => ENDED.has(w.status)).map((w) => w.workflowID));
  const gone = clones.filter((c) => ended.has(c.id)).map((c) => c.dir);
  for (const dir of gone) await rm(dir, { recursive: true, force: true });
  for (const run of await readdir(base).catch(() => [] as string[])) await rmdir(join(base, run)).catch(() => undefined); // emptied ones
  return gone;
}

/**
 * An agent run's steps use the run's provider by its id, from this machine's config.yaml and keychain (no key goes
 * through the database): missing here, the step is refused before it starts, saying what to add where.
 */
export async function providerReady(provider: (o: { provider?: string; model?: string; baseUrl?: string }) => Promise<unknown>, configYaml: string, record: RunRecord): Promise<void> {
  const e = record.executor;
  if (e.kind !== 'agent') return;
  try {
    await provider({ provider: e.provider, model: e.model, baseUrl: e.baseUrl });
  } catch (err) {
    throw new Error(
      `the worker on ${hostname()} cannot use the run's provider${e.provider ? ` "${e.provider}"` : ''}: ${(err as Error).message}. A worker takes the run's provider by its id from its own ${configYaml} and keychain: add it there (the same id, kind, model and baseUrl as where the run started; its key with \`erasmus secrets set NAME\`), restart the worker, then retry the run (erasmus workflow retry ${record.projectDir}${databaseHint(record.durable).option}${databaseHint(record.durable).note})`,
    );
  }
}

/**
 * What the worker's core forwards to the run's process: its agent's approvals and its servers' confirmations
 * (asked through the run's gate, the answer brought back), the step's timeline as it changes, and its session's events.
 * Outside a component step (nothing to name) a question is refused at once.
 */
export function workerForward(bridge: WorkerBridge) {
  const place = () => stepPlace.getStore();
  const gone = (p: StepPlace, what: string) => (err: unknown) => {
    if (err instanceof RunGone) p.refused.push(what);
    throw err;
  };
  const outside = () => new UnansweredApproval('asked outside a component step of a durable run');
  return {
    approval: async (req: ApprovalRequest, signal: AbortSignal): Promise<ApprovalDecision> => {
      const p = place();
      if (!p) throw outside();
      // Its log first, holding the approval it waits on: a window reloaded meanwhile reads that it waits for you.
      shipLogs(bridge, p);
      await p.chain;
      return bridge.approval(p, { ...req, ...(p.sessionId ? { sessionId: p.sessionId } : {}) }, signal).catch(gone(p, toolName(req.name)));
    },
    elicitation: async (req: ElicitationRequest, signal: AbortSignal): Promise<ElicitResult> => {
      const p = place();
      if (!p) return unanswered(outside().why);
      // The run's card names the step asking, as a one-machine lane's does.
      const state = p.state();
      const params = { ...req.params, message: `${state ? `${humanState(state)}: ` : `component ${p.component}: `}${(req.params as { message?: string }).message ?? ''}` } as ElicitationRequest['params'];
      return bridge.elicitation(p, { ...req, params }, signal).catch((err: unknown) => {
        if (!(err instanceof RunGone)) throw err;
        p.refused.push(`the ${req.server} tool's confirmation`);
        return unanswered(err.why);
      });
    },
    /** The step's record was saved (its timeline changed): published, when it did change. */
    timeline: (record: RunRecord): void => {
      const p = place();
      if (!p) return;
      const timeline = withWorker(record.timeline, p.worker);
      const text = JSON.stringify(timeline);
      if (text === p.published) return;
      p.published = text;
      // A session its entries name has its log in the run's home before the entry names it there (step-log.ts).
      for (const e of timeline.slice(p.worker?.from ?? 0)) {
        const id = sessionIdOfLog(e.sessionLog);
        if (id && e.sessionLog && !p.logs?.has(id)) (p.logs ??= new Map()).set(id, { path: e.sessionLog, sent: 0 });
      }
      shipLogs(bridge, p);
      p.chain = p.chain.then(() => bridge.timeline(p, p.step, timeline)).catch(() => undefined);
    },
    /** The step's prompt for its timeline entry `entry` (the context's store saves it here instead of in this worker's home). */
    prompt: async (entry: number, text: string): Promise<void> => {
      const p = place();
      if (!p) return;
      p.prompts.push({ entry, text });
      p.chain = p.chain.then(() => bridge.prompt(p, p.step, entry, text)).catch(() => undefined);
    },
    event: (e: AgentEvent): void => {
      const p = place();
      if (!p || !forwarded(e)) return;
      if (e.type === 'session_started') {
        p.sessionId = e.sessionId;
        if (e.logPath && !p.logs?.has(e.sessionId)) (p.logs ??= new Map()).set(e.sessionId, { path: e.logPath, sent: 0 });
      }
      // Its log as far as it goes, then the event: whoever the event sends to the session finds its log in the run's home.
      shipLogs(bridge, p);
      p.chain = p.chain.then(() => bridge.event(p, p.step, e)).catch(() => undefined);
    },
  };
}

/**
 * What the step's sessions appended to their logs since the last piece, whole lines, published in order on the
 * step's chain (the run writes each at its place in its own home: step-log.ts). Their redactor masked them already.
 */
export function shipLogs(bridge: WorkerBridge, p: StepPlace): void {
  if (!p.logs?.size) return;
  p.chain = p.chain
    .then(async () => {
      for (const [sessionId, log] of p.logs ?? []) {
        const piece = logPiece(log.path, log.sent);
        if (!piece) continue;
        await bridge.log(p, p.step, { sessionId, from: log.sent, text: piece.text });
        log.sent = piece.to;
      }
    })
    .catch(() => undefined);
}
export type WorkerForward = ReturnType<typeof workerForward>;

/** What a step's note says of the calls refused because nobody followed the run, and how to have them asked next time. */
export function refusedNote(refused: string[], runId: string, resume = 'erasmus workflow resume <project> --database-url …'): string {
  const counts = new Map<string, number>();
  for (const r of refused) counts.set(r, (counts.get(r) ?? 0) + 1);
  const what = [...counts].map(([name, n]) => (n > 1 ? `${name} (${n} times)` : name)).join(', ');
  return `not asked, refused and gone on without: ${what}; nobody followed run ${runId} to answer (its process was paused, stopped or gone). Resume the run (${resume}, or Resume in the app) for its next questions to be asked`;
}

/** The step's own timeline entries (those after `from`): the last one carries the note. */
export function withNote(out: LaneProgress, from: number, note: string): LaneProgress {
  const i = out.timeline.length - 1;
  if (i < from) return out;
  const e = out.timeline[i]!;
  return { ...out, timeline: out.timeline.map((x, j) => (j === i ? { ...e, note: e.note ? `${e.note}; ${note}` : note } : x)) };
}

/** What a worker warms before it takes components (its core's parts). */
export interface WarmParts {
  /** Runs a command in the worker's folder through the one runner (sandboxed, as a step's are). */
  run(command: string): Promise<{ exitCode: number | null }>;
  /** Resolves one of this machine's providers (its config and keychain), as a step's session does. */
  provider(id: string): Promise<unknown>;
  /** Reads the protocols (the built-in ones, and the folder's own), as a step does. */
  protocols(): Promise<unknown>;
}

/**
 * Once per worker, before it takes components: what a component's first step would otherwise pay for on the
 * run's time (the sandbox's probe and the login shell's snapshot, the PTY, the providers this machine has, the
 * protocols). Each part is bounded and may fail: a step meets the same failure later and says it there. Returns what
 * it did, for the log.
 */
export async function warmWorker(parts: WarmParts, providers: string[], timeoutMs = 10_000): Promise<string> {
  const t0 = performance.now();
  const bounded = <T>(p: Promise<T>): Promise<T | undefined> => Promise.race([p.catch(() => undefined), new Promise<undefined>((r) => setTimeout(() => r(undefined), timeoutMs).unref())]);
  const [ran] = await Promise.all([bounded(parts.run('true')), bounded(parts.protocols()), ...providers.map((id) => bounded(parts.provider(id)))]);
  const ms = Math.round(performance.now() - t0);
  return ran?.exitCode === 0 ? `warmed up in ${ms} ms (the sandbox, ${providers.length} provider${providers.length === 1 ? '' : 's'}, the protocols)` : `warmed up in ${ms} ms; the sandboxed test command did not run cleanly (a step's commands will say why)`;
}

export interface WorkerOptions {
  databaseUrl: string;
  /** How many components this worker runs at once. */
  concurrency: number;
  /**
   * The providers (ids) this worker's config.yaml has: it takes the components of agent runs on these alone (each
   * provider's queue); those of runs on another provider wait in theirs for a worker that has it.
   */
  providers: string[];
  /** The worker's folder (workRoot): the clones go to <workDir>/.git/erasmus/worktrees/<run>.<attempt>/<component>. */
  workDir: string;
  paths: Paths;
  /**
   * The context a component's step runs in (the worker's engine: executor, sandboxed runner, tool servers); it may
   * refuse, saying why. `signal` aborts when the component's workflow is cancelled: the step stops.
   */
  host: (record: RunRecord, signal: AbortSignal, start?: StartTree) => RunContext | Promise<RunContext>;
  log?: (line: string) => void;
  /** What the steps say to the run's process (bridge.ts): a step withdraws what a dead run of it left asking. */
  bridge?: WorkerBridge;
}

export interface Worker {
  executorID: string;
  stop(): Promise<void>;
}

/** A component step under way in this process (worker.ts's `begin`). */
interface Begun {
  /** The step's number (its progress's `steps` before it). */
  steps: number;
  startedAt: number;
  done: Promise<{ progress: LaneProgress; pushed: Promise<void>; stopped: boolean }>;
  /** Stops it (if it runs still) and waits for it to end; its work is not kept. */
  drop(): Promise<void>;
}

/** Looks every CANCEL_MS whether DBOS has the workflow cancelled; if so, aborts `cancel` (once) and says so. */
function watchCancel(status: () => Promise<{ status: string } | null | undefined>, cancel: AbortController, said: () => void): { stop(): void } {
  let stopped = false;
  void (async () => {
    while (!stopped) {
      await new Promise((r) => setTimeout(r, CANCEL_MS));
      if (stopped) break;
      const now = await status().catch(() => undefined);
      if (now?.status === 'CANCELLED' && !stopped) {
        said();
        cancel.abort();
        break;
      }
    }
  })();
  return { stop: () => void (stopped = true) };
}

export async function startWorker(opts: WorkerOptions): Promise<Worker> {
  const { DBOS, Error: DBOSErrors } = await import('@dbos-inc/dbos-sdk');
  const log = opts.log ?? (() => undefined);
  const queues = [COMPONENT_QUEUE, ...opts.providers.map((provider) => componentQueue({ kind: 'agent', provider }))];
  const executorID = `${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`;
  // The lock first: from here on, a workflow this executor takes is known to be alive while it is.
  const liveness = await holdLiveness(opts.databaseUrl, executorID);
  await migrateSystemDatabase(opts.databaseUrl);
  // Listed as taking these queues: a run whose component waits says whether any worker runs, and whether one takes its queue.
  await registerWorker(liveness, executorID, queues);
  DBOS.setConfig({
    name: DBOS_APP,
    systemDatabaseUrl: dbosUrl(opts.databaseUrl),
    executorID,
    applicationVersion: WORKFLOW_VERSION,
    listenQueues: queues,
    logLevel: process.env.ERASMUS_DBOS_LOG ?? 'error',
  });
  DBOS.registerWorkflow(
    async (job: LaneJob): Promise<LaneProgress> => {
      const dir = cloneDir(opts.workDir, job.runId, job.component, job.attempt);
      const key = { runId: job.runId, component: job.component, attempt: job.attempt };
      const workflowId = DBOS.workflowID!;
      let progress = job.start;
      // The run was abandoned (its workflow cancelled): what this worker pushed after the run cleaned origin goes too.
      let left = false;
      const abandoned = async () => {
        if (left) return;
        left = true;
        const removed = await removeRunRefs(dir, job.runId, key).then(
          () => 'its refs on origin and this clone are gone',
          (err: Error) => `this clone is gone; its refs on origin stay: ${err.message}`,
        );
        await rm(dir, { recursive: true, force: true });
        forgetClone(dir);
        log(`component ${job.component} of run ${job.runId}: its workflow was cancelled (the run was abandoned, or rewound to before its components); ${removed}`);
      };
      /**
       * Runs the component's step after `before` (not a DBOS step itself: the DBOS step that records it awaits it). Its
       * questions and events name it; a cancel of the workflow stops it; `drop` stops it too, leaving the clone to be
       * restored from origin (a step begun ahead whose predecessor was never recorded).
       */
      const begin = (before: LaneProgress): Begun => {
        const drop = new AbortController();
        const done = (async () => {
          log(`component ${job.component} of run ${job.runId}: step ${before.steps + 1}${before.lane.state ? ` (after ${humanState(before.lane.state)})` : ''}`);
          let record: RunRecord | undefined;
          const db = databaseHint(job.record.durable);
          const resume = `erasmus workflow resume ${job.record.projectDir}${db.option}${db.note}`;
          const place: StepPlace = { runId: job.runId, workflowId, resume, component: job.component, step: before.steps, state: () => record?.timeline.findLast((e) => !e.leftAt)?.state, refused: [], prompts: [], chain: Promise.resolve(), worker: { name: workerName(executorID), from: before.timeline.length } };
          await opts.bridge?.withdraw(place);
          // The run cancels the workflow (abandoned, or rewound): the step is stopped soon after (its executor's
          // process or its agent session ended), not run to its end.
          const cancel = new AbortController();
          const stop = AbortSignal.any([cancel.signal, drop.signal]);
          // Its status alone (DBOS's getWorkflowStatus loads and decodes the job and the output each time).
          const status = async () => (await DBOS.listWorkflows({ workflowIDs: [workflowId], loadInput: false, loadOutput: false }))[0];
          const watch = watchCancel(status, cancel, () => log(`component ${job.component} of run ${job.runId}: its workflow was cancelled; its step is stopped`));
          const out = await stepPlace
            .run(place, () =>
              runComponentStep(
                job,
                before,
                dir,
                opts.paths,
                (r, start) => {
                  record = r;
                  return opts.host(r, stop, start);
                },
                stop,
              ),
            )
            .finally(() => watch.stop());
          // The rest of its sessions' logs goes to the run before DBOS records the step.
          if (opts.bridge) shipLogs(opts.bridge, place);
          await place.chain;
          // Asked, not only watched: a step may end between two looks.
          if (cancel.signal.aborted || (!drop.signal.aborted && (await status())?.status === 'CANCELLED')) {
            await out.pushed.catch(() => undefined);
            await abandoned();
          }
          const named = { ...out.progress, timeline: withWorker(out.progress.timeline, place.worker) };
          const progress = place.prompts.length ? { ...named, prompts: place.prompts } : named;
          return { progress: settleStep(place, progress, before.timeline.length, log), pushed: out.pushed, stopped: stop.aborted };
        })();
        done.catch(() => undefined); // awaited by the DBOS step that records it, or by drop
        return { steps: before.steps, startedAt: performance.now(), done, drop: () => (drop.abort(), done.then(() => undefined, () => undefined)) };
      };
      /**
       * The step begun beside the push of the one before (not recorded yet). DBOS records a step only once its
       * checkpoint is on origin, so a worker killed meanwhile leaves the last recorded step's checkpoint there to go on
       * from: the step under way then, and the one begun ahead, run again in another worker; none was recorded.
       */
      let ahead: Begun | undefined;
      const dropAhead = async () => {
        const a = ahead;
        ahead = undefined;
        if (a) {
          await a.drop();
          forgetClone(dir);
        }
      };
      try {
        while (!progress.done && !progress.failed) {
          const before = progress;
          progress = await DBOS.runStep(
            async () => {
              const startedAt = performance.now();
              const begun = ahead?.steps === before.steps ? ahead : begin(before);
              ahead = undefined;
              const { progress: out, pushed, stopped } = await begun.done;
              // The next step starts now, beside this one's push (the model's first request need not wait for origin).
              if (!out.done && !out.failed && !stopped) ahead = begin(out);
              const waited = performance.now();
              await pushed.catch(async (err: unknown) => {
                await dropAhead();
                throw err;
              });
              out.timings = { ...out.timings, 'push wait': Math.round(performance.now() - waited), ...(begun.startedAt < startedAt ? { ahead: Math.round(startedAt - begun.startedAt) } : {}) };
              return out;
            },
            { name: `${job.component} step ${before.steps + 1}` },
          );
          // Recorded: the run following the workflow looks now (bridge.ts nextLook), not on its next poll.
          await opts.bridge?.recorded({ runId: job.runId, workflowId }).catch(() => undefined);
        }
      } catch (err) {
        await dropAhead();
        if (err instanceof DBOSErrors.DBOSWorkflowCancelledError) await abandoned();
        throw err;
      }
      // Its clone is its own: committed, or blocked (a retry is another workflow, with a clone of its own), it goes.
      await rm(dir, { recursive: true, force: true });
      forgetClone(dir);
      log(`component ${job.component} of run ${job.runId}: ${progress.done ? 'committed and pushed' : `blocked: ${progress.failed}`}`);
      return progress;
    },
    { name: COMPONENT_WORKFLOW },
  );
  await DBOS.launch();
  // What a killed worker left in this folder: the clones of workflows that ended since.
  await sweepClones(opts.workDir, (ids) => DBOS.listWorkflows({ workflowIDs: ids, loadInput: false, loadOutput: false })).then(
    (gone) => gone.length && log(`removed ${gone.length} clone${gone.length === 1 ? '' : 's'} of ended workflows a worker left in ${opts.workDir}`),
    (err: Error) => log(`the clones of ended workflows in ${opts.workDir} stay: ${err.message}`),
  );
  for (const q of queues) await DBOS.registerQueue(q, { workerConcurrency: opts.concurrency, minPollingIntervalMs: POLL_MS, onConflict: 'always_update' });
  log(`worker ${executorID} takes components from queue ${queues.join(', ')} (at most ${opts.concurrency} at once${queues.length > 1 ? ' from each' : ''})`);
  log(
    opts.providers.length
      ? `it takes --executor command runs' components, and agent runs' on provider${opts.providers.length === 1 ? '' : 's'} ${opts.providers.map((p) => `"${p}"`).join(', ')} (this machine's config.yaml); an agent run on another provider waits for a worker that has it`
      : "it has no provider in this machine's config.yaml: it takes only --executor command runs' components; an agent run's wait for a worker that has the run's provider (add it here, under the same id, and restart this worker to take them)",
  );

  // DBOS recovery of what a dead worker left: its workflows go back on the queue, a live worker takes them.
  let stopping = false;
  const recovery = (async () => {
    while (!stopping) {
      try {
        // Their ids, executors and queues only: each second, not every pending workflow's job and output decoded.
        const pending = await DBOS.listWorkflows({ status: 'PENDING', workflowName: COMPONENT_WORKFLOW, loadInput: false, loadOutput: false });
        for (const w of await orphanedWorkflows(pending, liveness, executorID)) {
          // Back on its own queue: a worker that has its provider takes it (this one, when it is one).
          log(`recovering ${w.workflowID}: the worker that ran it is gone`);
          await DBOS.resumeWorkflow(w.workflowID, { queueName: w.queueName ?? COMPONENT_QUEUE });
        }
      } catch (err) {
        if (!stopping) log(`recovery check failed: ${(err as Error).message}`);
      }
      await new Promise((r) => setTimeout(r, RECOVERY_MS));
    }
  })();

  return {
    executorID,
    async stop() {
      stopping = true;
      await recovery;
      await DBOS.shutdown();
      await unregisterWorker(liveness, executorID).catch(() => undefined);
      await liveness.end().catch(() => undefined);
      await closeBridgePools();
    },
  };
}
