import { z } from 'zod';
import type { MethodTable } from '../table';

/**
 * The development workflow (issue 6): context documents, the plan, the FSM run and the
 * cognitive-engine API (load → getTask/submitTask until COMPLETED) that an external MCP client uses
 * to act as the model.
 */
export const WorkflowRunStatus = z.enum([
  'LOADED',
  'RUNNING',
  'AWAITING_GOAL',
  'AWAITING_APPROVAL',
  'AWAITING_COGNITIVE_RESULT',
  'PAUSED',
  'BLOCKED',
  'STOPPED',
  'COMPLETED',
  /** Left for a newer goal (`start --new`, or the user's choice when a new goal started): never driven again. */
  'ABANDONED',
]);
export type WorkflowRunStatus = z.infer<typeof WorkflowRunStatus>;

export const WorkflowDocumentIssue = z.object({ line: z.number().int().optional(), message: z.string() });

export const WorkflowErrorInfo = z.object({
  kind: z.enum(['RUN_NOT_FOUND', 'EXECUTION_NOT_FOUND', 'INVALID_STATE', 'PARSE_ERROR', 'RUNTIME_ERROR']),
  message: z.string(),
  file: z.string().optional(),
  field: z.string().optional(),
  issues: z.array(WorkflowDocumentIssue).optional(),
  /** The step could not start (a toolset it needs was missing): its model never ran, and its retry is not told of this. */
  setup: z.boolean().optional(),
  /**
   * The step's model stopped to ask the user something only they can settle (a `Cannot finish:` line, no call refused
   * for want of someone to approve it): the faces offer the retry's answer (`workflow.retry` `answer`) as the way on.
   */
  asks: z.boolean().optional(),
});
export type WorkflowErrorInfo = z.infer<typeof WorkflowErrorInfo>;

export const WorkflowTaskStatus = z.enum(['todo', 'in_progress', 'done']);
export const WorkflowPlan = z.object({
  components: z
    .array(
      z.object({
        id: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/),
        title: z.string(),
        testCommand: z.string().optional(),
        tasks: z.array(z.object({ id: z.string(), title: z.string(), status: WorkflowTaskStatus })),
        /** The components it needs (its task list `Depends:` line; empty: none). Absent in a plan: the one before it; a run's view always says. */
        depends: z.array(z.string()).optional(),
      }),
    )
    .min(1),
  /**
   * The components run side by side, each in a git worktree of its own once the components it needs are merged (the
   * task list has Depends: lines, the project is a repository, the executor can run steps at once); decided at approval.
   */
  parallel: z.boolean().optional(),
  defaultTestCommand: z.string().optional(),
  /** The final gate's command: the project's whole test suite and each component's command, each once (edited at plan review). */
  finalTestCommand: z.string().optional(),
  /** The user set finalTestCommand at plan review: it runs as written (otherwise it is composed again when the gate runs). */
  finalTestCommandByUser: z.boolean().optional(),
  maxDebugAttempts: z.number().int().min(1).max(50),
  /** Components the architecture names that the task list has no section for: plan review warns that this run builds none of them. */
  unplanned: z.array(z.string()).optional(),
  /**
   * A documentation run (`workflow drift --fix`, the app's "Bring them up to date"): no component is developed; only these
   * drifted documents are brought up to date with the code, by one documentation step each, then committed and stamped again.
   */
  documents: z.object({ components: z.array(z.string()), architecture: z.boolean() }).strict().optional(),
});
export type WorkflowPlan = z.infer<typeof WorkflowPlan>;

export const WorkflowUsage = z.object({
  inputTokens: z.number().nonnegative(),
  /** Of the input, read from / written to the provider's prompt cache. */
  cacheReadTokens: z.number().nonnegative().optional(),
  cacheWriteTokens: z.number().nonnegative().optional(),
  outputTokens: z.number().nonnegative(),
  totalTokens: z.number().nonnegative(),
  /** Cache-aware, at the catalog's or config.yaml's prices; absent when the model's prices are unknown. */
  costUsd: z.number().nonnegative().optional(),
});
export type WorkflowUsage = z.infer<typeof WorkflowUsage>;

/** One test as its runner's report tells it (JUnit XML, go test -json): never the model's account. */
export const TestCaseResult = z.object({
  name: z.string(),
  /** The suites around it, outermost first, joined by " > " (describe blocks, test classes, parent tests). */
  suite: z.string().optional(),
  file: z.string().optional(),
  passed: z.boolean(),
  skipped: z.boolean().optional(),
});
export type TestCaseResult = z.infer<typeof TestCaseResult>;

export const WorkflowTimelineEntry = z.object({
  state: z.string(),
  protocol: z.string().optional(),
  component: z.string().optional(),
  enteredAt: z.string(),
  leftAt: z.string().optional(),
  durationMs: z.number().optional(),
  outcome: z
    .enum(['done', 'not-done', 'tests-passed', 'tests-failed', 'skipped', 'committed', 'nothing-to-commit', 'interrupted', 'aborted', 'error', 'written', 'loaded', 'tests-untraced'])
    .optional(),
  usage: WorkflowUsage.optional(),
  /** The test run after the step; `output` is the tail of what it printed (the whole is in the runner's log). */
  test: z
    .object({
      command: z.string(),
      exitCode: z.number().nullable(),
      passed: z.boolean(),
      output: z.string().optional(),
      /** Whether the runner's report was read; absent (older runs) or false: only the exit status is known. */
      traced: z.boolean().optional(),
      /** Each test the report lists. */
      tests: z.array(TestCaseResult).optional(),
      /** Why the run is not traced, or only partly. */
      traceNote: z.string().optional(),
    })
    .optional(),
  commit: z.string().optional(),
  /** A side-by-side component's commit once merged: the commit it made on its lane (`commit` is then the one on the run's branch). */
  laneCommit: z.string().optional(),
  /** Files of the project the step added, changed or deleted (from git snapshots around the step; absent outside a repository). */
  files: z.array(z.object({ path: z.string(), change: z.enum(['added', 'modified', 'deleted']) })).optional(),
  /** The step's prompt was recorded (read it with workflow.stepPrompt). */
  hasPrompt: z.boolean().optional(),
  /** The folder's files as the step found them (a git tree id), so a step run again after this one did not finish is told what it changed. */
  startTree: z.string().optional(),
  /** Where `startTree` lives: the project's checkpoints (the tree of the checkpoint taken as the step entered); absent: the project's own repository. */
  startTreeIn: z.literal('checkpoints').optional(),
  sessionLog: z.string().optional(),
  /**
   * A step that did not pass (its tests failed, it did not finish, it failed): what the model said last (its answer, else the
   * last text it wrote), the end of it (at most LAST_WORDS_MAX characters, `chars` the whole length; the session log holds all).
   * A run blocked after it shows this beside the gate's reason: the model may have said why ("this needs a decision …").
   */
  lastWords: z.object({ text: z.string(), chars: z.number().int().nonnegative() }).optional(),
  /** Not done because its model stopped to ask the user (a `Cannot finish:` line, no call refused): it asked, it did not fail. */
  asked: z.boolean().optional(),
  /** The user's answer this step ran with: given with the retry of the step when it had stopped to ask (its prompt carries it too). */
  answer: z.string().optional(),
  note: z.string().optional(),
  /** A review step: its report's verdict line. */
  verdict: z.string().optional(),
  /** A fixes step: the review points it says it left open (under "## Left open"); absent when it did not say. A review asking for no changes: the points it still names open ("Open point: …"). */
  openPoints: z.array(z.string()).optional(),
  /** The checkpoint taken just before the step (rewind to it with workflow.rewind); why none was taken, when it failed. */
  checkpoint: z.string().optional(),
  checkpointError: z.string().optional(),
  /** A rewind went back to before this step: what it did was undone (its checkpoint keeps it). */
  rewound: z.boolean().optional(),
  /** A parallel run's component step: the git worktree it ran in (its lane), not the project folder. */
  worktree: z.string().optional(),
  /** A durable run's component step: the `erasmus worker` that ran it, in words ("the worker on vm (pid 13407)"). */
  worker: z.string().optional(),
});
export type WorkflowTimelineEntry = z.infer<typeof WorkflowTimelineEntry>;

/** The step a model (or the external cognitive engine) is asked to do. */
export const WorkflowStep = z.object({
  state: z.string(),
  protocol: z.string(),
  component: z.string().optional(),
  toolsets: z.array(z.string()),
  contextDocPath: z.string(),
  projectDir: z.string(),
  /** What the final answer is: the context document itself, a report saved in the project, or notes. */
  answer: z.enum(['document', 'report', 'notes']).default('notes'),
  /** A fixes step: its answer's \`output\` must end with a \`## Left open\` section (the review points it did not address). */
  leftOpen: z.boolean().optional(),
});
export type WorkflowStep = z.infer<typeof WorkflowStep>;

/** A component of a parallel run: where it stands, the worktree and branch it works in, its commit once merged. */
export const WorkflowLane = z.object({
  component: z.string(),
  /** waiting: for the components it needs (or a free slot); running; ready: committed in its worktree, waiting its turn to merge; merged; blocked. */
  status: z.enum(['waiting', 'running', 'ready', 'merged', 'blocked']),
  depends: z.array(z.string()),
  state: z.string().optional(),
  worktree: z.string().optional(),
  branch: z.string().optional(),
  /** Its commit on the run's branch, once merged. */
  commit: z.string().optional(),
  error: z.string().optional(),
  /** Blocked because its step's model stopped to ask the user (as WorkflowErrorInfo `asks`): its way on is the retry's answer (`workflow.retry` with `component` and `answer`). */
  asks: z.boolean().optional(),
  /** The run was abandoned before this component merged: its work (no branch held it) is kept under this ref; its worktree and branch are gone. */
  kept: z.string().optional(),
  /** A durable run's component that does not move, and why: queued with no worker taking it, or its worker gone. */
  waiting: z.string().optional(),
});
export type WorkflowLane = z.infer<typeof WorkflowLane>;

export const WorkflowRunView = z.object({
  runId: z.string(),
  projectDir: z.string(),
  status: WorkflowRunStatus,
  state: z.string().optional(),
  goal: z.string().optional(),
  /** While the run waits for its goal: the project's README introduction, offered as a starting point. */
  suggestedGoal: z.object({ file: z.string(), goal: z.string() }).optional(),
  /** While the run waits for its goal on a project whose tasks are all done: the goal asked is what comes next. */
  nextGoal: z.boolean().optional(),
  /** The goal is new to a project built for earlier goals: its documents were updated for it, and only open tasks are developed. */
  newGoal: z.boolean().optional(),
  /** An existing code base (code before Erasmus documented it): its own tests are the final gate, no new end-to-end suite is written. */
  existing: z.boolean().optional(),
  /** Recorded RUNNING, but the process that drove it is gone (killed, crashed): nothing drives it until it is resumed. */
  interrupted: z.boolean().optional(),
  /** Pause was asked while steps run: the run pauses once the steps under way end (none starts meanwhile). */
  pausing: z.boolean().optional(),
  executor: z.string(),
  plan: WorkflowPlan.optional(),
  /** While the plan waits for review: the task list it was read from, which the user may edit first (approve reads it again). */
  taskListFile: z.string().optional(),
  /** While the plan waits for review: the architecture document the plan follows, to read before approving. */
  architectureFile: z.string().optional(),
  approved: z.boolean(),
  error: WorkflowErrorInfo.optional(),
  /** The step waiting for the external engine; \`followUp\`: what its first answer lacked, asked for once (that answer was not taken). */
  pending: z.object({ step: WorkflowStep, prompt: z.string(), followUp: z.string().optional() }).optional(),
  timeline: z.array(WorkflowTimelineEntry),
  totals: WorkflowUsage,
  /** The run's cost budget in US dollars (agent executor), when it has one. */
  budgetUsd: z.number().optional(),
  /** The run's place in git: its own branch (mode `branch`) and the one it started from; what the user chose at completion. */
  git: z
    .object({
      mode: z.enum(['branch', 'current']),
      branch: z.string().optional(),
      base: z.string().optional(),
      /** Started on an unfinished earlier run's branch: that branch and its commit at start (its commits come along into `base`). */
      startedFrom: z.object({ branch: z.string(), commit: z.string(), runId: z.string().optional() }).optional(),
      finished: z.object({ choice: z.enum(['squash', 'keep']), commit: z.string().optional(), at: z.string() }).optional(),
    })
    .optional(),
  /** How many components may run at once (config.yaml parallelComponents, --parallel N). */
  parallelComponents: z.number().int().optional(),
  /** A parallel run's components, in schedule order, once they run side by side. */
  lanes: z.array(WorkflowLane).optional(),
  /** A durable run: its components run in `erasmus worker` processes over DBOS in this database (its URL without the password). */
  durable: z.object({ database: z.string() }).optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type WorkflowRunView = z.infer<typeof WorkflowRunView>;

/** A run in a list: its goal, status and times. */
export const WorkflowRunSummary = z.object({
  runId: z.string(),
  projectDir: z.string(),
  status: WorkflowRunStatus,
  state: z.string().optional(),
  goal: z.string().optional(),
  /** Recorded RUNNING, but the process that drove it is gone. */
  interrupted: z.boolean().optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type WorkflowRunSummary = z.infer<typeof WorkflowRunSummary>;

/**
 * A run as the sessions list groups it: its title (goal, times, status) and each step that ran, in
 * run order, with the session that ran it (the stem of its log, when it had one).
 */
export const WorkflowRunSteps = z.object({
  runId: z.string(),
  projectDir: z.string(),
  status: WorkflowRunStatus,
  /** Recorded RUNNING, but the process that drove it is gone: its open steps are cut off, not running. */
  interrupted: z.boolean().optional(),
  /** The goal's first line, at most 200 characters. */
  goal: z.string().optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
  steps: z.array(
    z.object({
      state: z.string(),
      protocol: z.string().optional(),
      component: z.string().optional(),
      enteredAt: z.string(),
      leftAt: z.string().optional(),
      outcome: WorkflowTimelineEntry.shape.outcome,
      sessionId: z.string().optional(),
      /** The step's note when it says calls were refused and the model went on without them (`saysRefused`): its session view says so. */
      refused: z.string().optional(),
      /** A durable run's step: the worker that ran it, in words. */
      worker: z.string().optional(),
      /** Not done because its model stopped to ask the user (the timeline entry's `asked`): it asked, it did not fail. */
      asked: z.boolean().optional(),
    }),
  ),
});
export type WorkflowRunSteps = z.infer<typeof WorkflowRunSteps>;

/**
 * What a run verified: each task of the plan with the tests that name it (from the latest test run
 * Erasmus made that has any: its runner's report, not the model's word) and the commit that holds
 * its component. `verified` only when every task has passing tests and none failing.
 */
export const WorkflowReport = z.object({
  runId: z.string(),
  projectDir: z.string(),
  status: WorkflowRunStatus,
  goal: z.string().nullable(),
  verified: z.boolean(),
  /** The final gate's command (the project's whole suite), as it ran or as the plan holds it. */
  finalTestCommand: z.string().nullable(),
  tasks: z.array(
    z.object({
      id: z.string(),
      component: z.string(),
      title: z.string(),
      /** `name`: suites and test, joined by " > ". */
      tests: z.array(z.object({ name: z.string(), file: z.string().nullable(), passed: z.boolean() })),
      /** The commit that holds the task's component; null until it is committed. */
      commit: z.string().nullable(),
      /** Done by an earlier run (an earlier goal's task, kept done): its commit is that run's. */
      earlier: z.boolean().optional(),
    }),
  ),
  /** A documentation run (the plan's `documents`): no task was developed, so there is nothing to verify and `tasks` is empty. */
  documentation: z.boolean().optional(),
  /** Test runs whose runner wrote no report (only their exit status is known): the gate's state and why. */
  untraced: z.array(z.object({ state: z.string(), command: z.string(), note: z.string() })),
  /** A completed run's pull request: title, Markdown body, and the file it is saved in (to copy). */
  pullRequest: z.object({ title: z.string(), body: z.string(), file: z.string() }).optional(),
  /** Review reports kept with the context documents (an existing code base without docs/): not in the project, so shown here. */
  reviews: z.array(z.object({ scope: z.string(), file: z.string(), verdict: z.string().optional(), text: z.string() })).optional(),
});
export type WorkflowReport = z.infer<typeof WorkflowReport>;

/** A context document whose subject changed since the commit it describes (`erasmus workflow drift`). */
export const WorkflowDriftDocument = z.object({
  doc: z.enum(['architecture', 'component']),
  component: z.string().optional(),
  path: z.string(),
  /** The commit the document describes (its last line names it). */
  commit: z.string(),
  /** Files of its subject changed since that commit (later commits and the working tree). */
  changed: z.array(z.string()),
});
export type WorkflowDriftDocument = z.infer<typeof WorkflowDriftDocument>;

/** getTask's answer: the next thing the caller must do. */
export const WorkflowTask = z.discriminatedUnion('status', [
  z.object({ status: z.literal('AWAITING_COGNITIVE_RESULT'), runId: z.string(), prompt: z.string(), step: WorkflowStep }),
  z.object({ status: z.literal('COMPLETED'), runId: z.string(), output: z.array(z.string()) }),
  z.object({ status: z.literal('AWAITING_GOAL'), runId: z.string() }),
  z.object({ status: z.literal('AWAITING_APPROVAL'), runId: z.string(), plan: WorkflowPlan }),
  z.object({ status: z.enum(['BLOCKED', 'PAUSED', 'STOPPED']), runId: z.string(), error: WorkflowErrorInfo.optional() }),
]);
export type WorkflowTask = z.infer<typeof WorkflowTask>;

/** What the model (or the external engine) answers for a step. */
export const WorkflowStepResult = z
  .object({
    output: z.string(),
    /** The model says the protocol's "done" criteria are met. */
    done: z.boolean().default(true),
    usage: WorkflowUsage.optional(),
    sessionLog: z.string().optional(),
    /** New text of the step's context document, when the engine did not write it itself. */
    contextDoc: z.string().optional(),
  })
  .strict();
export type WorkflowStepResult = z.infer<typeof WorkflowStepResult>;

/**
 * Something an agent run needs before it starts and does not have. `fix` says where it is fixed:
 * providers (Settings), servers (the Servers view), protocols (a protocol file); `how` says how.
 * workflow.load and workflow.start refuse an agent run with `data: { kind: 'PREFLIGHT', problems }`.
 */
export const WorkflowPreflightProblem = z.object({
  fix: z.enum(['providers', 'servers', 'protocols']),
  message: z.string(),
  how: z.string(),
});
export type WorkflowPreflightProblem = z.infer<typeof WorkflowPreflightProblem>;

export const WorkflowExecutorKind = z.enum(['external', 'agent', 'command']);
export const WorkflowDocName = z.enum(['architecture', 'progress_schedule', 'task_list', 'component']);

const runId = z.string().regex(/^[A-Za-z0-9._-]{1,128}$/);
const dir = z.string().min(1).max(4096);
const RunRef = z.object({ runId }).strict();
/** How many components may run at once from now on (a parallel run); default config.yaml parallelComponents, else 2. */
const parallel = z.number().int().min(1).max(16).optional();
const RunRefParallel = z.object({ runId, parallel }).strict();
const LaneRef = z.object({ runId, component: z.string().min(1).max(200).optional() }).strict();
const Ok = z.object({ status: WorkflowRunStatus });
/** An abandoned parallel run's components whose work no branch held: kept under `ref` (their worktrees and branches are gone). */
/** `kept`: the work of components not merged, each under a ref; `note`: what could not be done (their worktrees left, their workflows not cancelled). */
const Abandoned = Ok.extend({ kept: z.array(z.object({ component: z.string(), ref: z.string(), commit: z.string() })).optional(), note: z.string().optional() });
const DocView = z.object({ path: z.string(), exists: z.boolean(), text: z.string(), issues: z.array(WorkflowDocumentIssue).optional() });

export const workflowMethods = {
  /** Create a run for a project (its documents are loaded, or created by the first steps). */
  'workflow.load': {
    params: z
      .object({
        projectDir: dir,
        goal: z.string().max(100_000).optional(),
        executor: WorkflowExecutorKind.default('external'),
        /** For executor "command": the shell command run per step (step JSON on stdin, result JSON on stdout). */
        command: z.string().max(10_000).optional(),
        /** For executor "agent": provider and model (default: config.yaml's), and unattended approvals. */
        provider: z.string().max(200).optional(),
        model: z.string().max(200).optional(),
        baseUrl: z.string().url().max(2000).optional(),
        toolMode: z.enum(['auto', 'native', 'xml']).optional(),
        autoApprove: z.boolean().optional(),
        /** For executor "agent": stop the run cleanly once its steps have cost this many US dollars (cache-aware). */
        maxCostUsd: z.number().positive().optional(),
        /** The project has uncommitted changes: commit them first, stash them, or include them (never committed by the run). Without it such a project is refused. */
        dirtyTree: z.enum(['commit', 'stash', 'include']).optional(),
        /** `branch`: the run works on a branch of its own, `erasmus/<goal>`; `current`: on the branch checked out. Default: config.yaml's `git.branch` (own unless it says current). */
        branch: z.enum(['branch', 'current']).optional(),
        /** How many components may run at once where the task list lets them (default config.yaml parallelComponents, else 2). */
        parallel,
        /**
         * `drifted`: a documentation run that brings the documents `workflow.drift` lists up to date (no goal, no plan review;
         * refused when none drifted). It works on the branch checked out unless `branch` says otherwise.
         */
        documents: z.literal('drifted').optional(),
      })
      .strict(),
    result: z.object({ runId }),
  },
  'workflow.start': { params: RunRefParallel, result: Ok },
  /** Run until the next step needs a model, or until the run completes or waits for the user. */
  'workflow.getTask': { params: z.object({ runId, timeoutMs: z.number().int().min(0).max(3_600_000).optional() }).strict(), result: WorkflowTask },
  /** `state` (optional): the step answered; refused when the run waits on another one (someone else answered it first). */
  'workflow.submitTask': { params: z.object({ runId, state: z.string().optional(), result: WorkflowStepResult }).strict(), result: z.object({ success: z.literal(true), status: WorkflowRunStatus, /** The answer lacked a part the step requires and was not taken: what is missing and how to submit again (asked once per step). */ followUp: z.string().optional() }) },
  'workflow.status': { params: RunRef, result: WorkflowRunView },
  /** Runs newest first, each with its goal: a project's life, goal by goal. */
  'workflow.list': {
    params: z.object({ projectDir: dir.optional() }).strict(),
    result: z.object({ runs: z.array(WorkflowRunSummary) }),
  },
  /** A project's runs, newest first (at most `limit`), each with its steps and their sessions: for the sessions list. */
  'workflow.runs': {
    params: z.object({ projectDir: dir, limit: z.number().int().min(1).max(200).default(20) }).strict(),
    result: z.object({ runs: z.array(WorkflowRunSteps) }),
  },
  /** The newest run of a project, if any. */
  'workflow.latest': { params: z.object({ projectDir: dir }).strict(), result: z.object({ runId: runId.nullable() }) },
  'workflow.answerGoal': { params: z.object({ runId, goal: z.string().min(1).max(100_000) }).strict(), result: Ok },
  'workflow.plan': { params: RunRef, result: z.object({ plan: WorkflowPlan.nullable(), approved: z.boolean() }) },
  /** What the run verified: each task, the tests Erasmus ran that name it, and its component's commit. */
  'workflow.report': { params: RunRef, result: WorkflowReport },
  /** Confirm the plan (optionally edited: reordered or fewer components) and start development. */
  'workflow.approve': { params: z.object({ runId, plan: WorkflowPlan.optional(), parallel }).strict(), result: Ok },
  'workflow.pause': { params: RunRef, result: Ok },
  /** Continue a paused, stopped, blocked or interrupted run (also after a restart). */
  'workflow.resume': { params: RunRefParallel, result: Ok },
  'workflow.stop': { params: RunRef, result: Ok },
  /** `component`: a side-by-side component that blocked while others run, retried (or its step skipped) at once; they go on. */
  /** `answer`: the user's words for the step run again (what it stopped to ask); refused when no step ran and stopped. */
  'workflow.retry': { params: LaneRef.extend({ answer: z.string().trim().min(1).max(100_000).optional() }).strict(), result: Ok },
  'workflow.skip': { params: LaneRef, result: Ok },
  /** Leaves an unfinished run (blocked, paused, stopped, interrupted, waiting) for a newer goal: ABANDONED, never driven again. */
  'workflow.abandon': { params: RunRef, result: Abandoned },
  /**
   * A completed run that worked on a branch of its own: `squash` makes one commit of it on the branch the run
   * started from (refused, nothing changed, when that branch moved in a conflicting way), `keep` leaves it for a pull request.
   */
  'workflow.finish': {
    params: z.object({ runId, choice: z.enum(['squash', 'keep']) }).strict(),
    result: z.object({ choice: z.enum(['squash', 'keep']), branch: z.string(), base: z.string().optional(), commit: z.string().optional(), message: z.string() }),
  },
  /** The project's context documents whose subject changed since the commit they describe. */
  'workflow.drift': { params: z.object({ projectDir: dir }).strict(), result: z.object({ documents: z.array(WorkflowDriftDocument) }) },
  /** The prompt a step of the run was given (index into its timeline); null when none was recorded. */
  'workflow.stepPrompt': {
    params: z.object({ runId, index: z.number().int().min(0) }).strict(),
    result: z.object({ prompt: z.string().nullable() }),
  },
  'workflow.docs.read': { params: z.object({ projectDir: dir, doc: WorkflowDocName, component: z.string().optional() }).strict(), result: DocView },
  'workflow.docs.write': {
    params: z.object({ projectDir: dir, doc: WorkflowDocName, component: z.string().optional(), text: z.string().max(2_000_000) }).strict(),
    result: DocView,
  },
} satisfies MethodTable;

/** Events of the workflow (added to the contract's event map). */
export const workflowEvents = {
  /** The run's status changed (RUNNING, AWAITING_*, PAUSED, BLOCKED, STOPPED, COMPLETED). */
  'workflow.status': z.object({ runId: z.string(), projectDir: z.string(), status: WorkflowRunStatus, state: z.string().optional(), error: WorkflowErrorInfo.optional(), pausing: z.boolean().optional() }),
  /** The FSM (or the preparation) left one state for another. */
  'workflow.transition': z.object({ runId: z.string(), projectDir: z.string(), from: z.string().optional(), to: z.string(), outcome: z.string().optional() }),
  /** A step started or finished (timeline entry). */
  'workflow.step': z.object({ runId: z.string(), projectDir: z.string(), entry: WorkflowTimelineEntry }),
  /** No architecture document yet: ask the user what to build (answer with workflow.answerGoal). */
  'workflow.goalRequired': z.object({ runId: z.string(), projectDir: z.string() }),
  /** The plan is ready for the user's review (confirm with workflow.approve). */
  'workflow.plan': z.object({ runId: z.string(), projectDir: z.string(), plan: WorkflowPlan }),
  /** A step waits for the external cognitive engine (answer with workflow.submitTask). */
  'workflow.task': z.object({ runId: z.string(), projectDir: z.string(), step: WorkflowStep, prompt: z.string() }),
};
