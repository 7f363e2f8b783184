// A parallel run's components (plan.parallel): each runs its own states (development … commit) in its own
// git worktree on its own branch, as soon as the components it needs are merged, at most N at once; each
// is merged into the run's branch in schedule order once its tests passed and it is committed; a conflict
// becomes a merge step for the model. All of it is kept in the one run file (record.lanes), so a crash,
// a pause or a block resumes each component where it stood.
import { readdir } from 'node:fs/promises';
import type { WorkflowLane, WorkflowTimelineEntry } from '../../contract/methods/workflow';
import { ProjectTrust } from '../project/trust';
import { crashPoint } from './crash-point';
import { putBack } from './set-aside';
import { stampDocument } from './drift';
import { WorkflowError } from './errors';
import { askedOf, executeNext } from './execute';
import { lastWordsField, StepAbortedError, StepSetupError } from './executor';
import { undoUnfinishedMerge } from './merge-recovery';
import { currentState, startWorkflowActor } from './machine';
import { openComponents, PARALLEL_STATE, planStates, type Plan, type PlanComponent } from './plan';
import { buildStepPrompt, fenceLanguage } from './prompt';
import { userChangedFiles } from './run-git';
import { loadProtocol } from './protocols';
import { answeredWith, interruptedRetry, retryOfBlock, unfinishedChanges } from './retry-note';
import { laneGoesOn, laneStopped } from './user-changes';
import { SHUTDOWN, type RunContext } from './run-context';
import type { LaneRecord, RunRecord } from './run-record';
import { resolvedDepends } from './task-list';
import { humanState } from '../../contract/words';
import {
  addLaneWorktree,
  conflictSides,
  keepAndRemoveRunWorktrees,
  type KeptLane,
  filesWithMarkers,
  finishMerge,
  keepLaneLeftovers,
  mergeLaneCommit,
  mergeUnderWay,
  quitMerge,
  removeLaneWorktree,
  removeRunWorktrees,
  unmergedFiles,
} from './worktrees';
import { git, gitPath, headCommit } from './git';

/** The merge step's role (its tools and budget are development's). */
const MERGE_PROTOCOL = `You merge one component into the run's branch. The components were developed side by side, each in its own
copy of the project (a git worktree, or a worker's clone), and this one's commit conflicts with what was merged before it. Read both sides of each conflicted file (the task
shows them whole), then write each file so that it does what both sides need (code, tests and documentation alike) and holds no
conflict marker. Change no other file. Use the runners toolset to check the result (run the tests); the workflow commits the
merge itself, so do not commit.

The context document you hand back (as "How to answer" says) records how each conflict was resolved.`;

/** How many components run at once when neither config.yaml nor --parallel says. */
export const DEFAULT_PARALLEL_COMPONENTS = 2;

const INTERRUPTED = 'Erasmus stopped while it ran (stopped by the user, or its process ended).';

/**
 * Runs the plan's open components side by side until every one is merged ('done'), or a pause was asked
 * for and the components under way have finished their step ('paused'). A component that blocks stops new
 * ones from starting; the others finish, then the run blocks naming it (retry or skip goes on from there).
 */
export async function runParallel(ctx: RunContext, plan: Plan): Promise<'done' | 'paused'> {
  const { record } = ctx;
  const open = openComponents(plan);
  const slots = record.parallelComponents ?? DEFAULT_PARALLEL_COMPONENTS;
  if (!record.lanes) {
    // The first time here (or after a rewind to before it): what an earlier attempt left goes, each component waits its turn.
    const again = record.timeline.some((e) => e.state === PARALLEL_STATE);
    const entry = await ctx.enter(PARALLEL_STATE, {});
    const kept = await keepAndRemoveRunWorktrees(record.projectDir, record.runId, 'rewound');
    // A durable run's earlier attempt is in DBOS and on origin too.
    const remote = again && ctx.lanesRewound ? await ctx.lanesRewound() : undefined;
    // The rewound attempt's steps still open end now: a durable run's workflows were just cancelled (their workers
    // stop those steps), a one-machine run's worktrees removed, and no lane follows them any more.
    if (again) for (const e of record.timeline) if (e.rewound && e.component && !e.leftAt) await ctx.leave(e, 'aborted', { note: 'stopped: the run was rewound to before it, and its components started again' });
    kept.push(...(remote?.kept ?? []));
    record.lanes = open.map((c) => ({ component: c.id, status: 'waiting', entries: [] }));
    const earlier = `${kept.length ? `; the rewound attempt's unmerged work is kept: ${keptWords(kept)}` : ''}${remote?.note ? `; ${remote.note}` : ''}`;
    const how = record.durable ? 'sent to `erasmus worker` processes (the queue in the run\'s database)' : 'side by side, each in its own git worktree';
    await ctx.leave(entry, 'done', { note: `${open.length} component${open.length === 1 ? '' : 's'} ${how}, at most ${slots} at once; merged in schedule order${earlier}` });
  } else await recover(ctx);
  const lanes = record.lanes;
  const deps = resolvedDepends(plan.components);
  const openIds = new Set(open.map((c) => c.id));
  const merged = (id: string) => !openIds.has(id) || lanes.find((l) => l.component === id)?.status === 'merged';
  const running = new Map<string, Promise<void>>();
  // Why each component stopped; a blocked one that the user retries or skips meanwhile (lane-control.ts) is no longer blocked.
  const failures = new Map<string, Error>();
  const failure = (): Error | undefined => [...failures].find(([id, err]) => err instanceof StepAbortedError || ctx.signal.aborted || lanes.find((l) => l.component === id)?.status === 'blocked')?.[1];
  // Still blocked as the run goes on (held: the user went on with another by name): as if it had just blocked.
  for (const l of lanes) if (l.status === 'blocked') failures.set(l.component, new WorkflowError('RUNTIME_ERROR', l.error ?? `component ${l.component} is blocked`));

  for (;;) {
    const rung = ctx.lanesBell?.wait();
    await mergeReady(ctx, plan, lanes);
    if (lanes.every((l) => l.status === 'merged')) {
      await removeRunWorktrees(record.projectDir, record.runId); // the run's folder of worktrees, empty now
      return 'done';
    }
    const blockedNow = !!failure();
    // A blocked component stops new ones from starting; one started before (retried, or cut off by a stop or a crash) goes on.
    const stopping = ctx.signal.aborted || !!ctx.pausing?.();
    if (!stopping) {
      for (const lane of lanes) {
        if (blockedNow && lane.status !== 'running') continue;
        if (running.size >= slots) break;
        if (running.has(lane.component) || (lane.status !== 'waiting' && lane.status !== 'running')) continue;
        if (!(deps.get(lane.component) ?? []).every(merged)) continue;
        const component = open.find((c) => c.id === lane.component)!;
        // A durable run's components run in workers (durable/remote-lane.ts); otherwise here, in worktrees.
        failures.delete(lane.component);
        const done = (ctx.driveLane ?? driveLane)(ctx, plan, lane, component).catch(async (err: Error) => {
          failures.set(lane.component, err);
          if (!(err instanceof StepAbortedError) && !ctx.signal.aborted) await laneBlocked(ctx, lane, err, running.size > 1);
        });
        running.set(lane.component, done.finally(() => running.delete(lane.component)));
      }
    }
    if (!running.size) {
      await ctx.persist();
      const failed = failure();
      if (failed) throw failed instanceof StepAbortedError || ctx.signal.aborted ? failed : blockedError(record, failed);
      if (blockedNow && !ctx.signal.aborted && !ctx.pausing?.()) continue; // its component was retried or skipped meanwhile: it starts now
      if (ctx.pausing?.()) return 'paused';
      const stuck = lanes.find((l) => l.status !== 'merged');
      throw new WorkflowError('RUNTIME_ERROR', `component ${stuck?.component} cannot start: it waits for ${(deps.get(stuck?.component ?? '') ?? []).filter((d) => !merged(d)).join(', ')}, which cannot finish`);
    }
    await Promise.race([...running.values(), ...(rung ? [rung] : [])]);
  }
}

/**
 * A component blocked: said at once (its lane, saved and shown, with its step and why), while the others still run
 * (`others`); the user may retry or skip it right away (lane-control.ts), else the run blocks once they finish.
 */
async function laneBlocked(ctx: RunContext, lane: LaneRecord, err: Error, others: boolean): Promise<void> {
  // Its worktree's files as it blocked (taken before anyone sees it blocked): going on, its steps are told what the user changed there meanwhile.
  await laneStopped(lane);
  lane.status = 'blocked';
  lane.error = err.message;
  // Saved before it is said: a user told the component stopped finds it blocked in the run file, even when this process
  // is killed right after (a retry from another terminal then takes the run up at that component).
  await ctx.persist();
  const { runId, projectDir, status, state } = ctx.record;
  ctx.emit('workflow.status', { runId, projectDir, status, ...(state ? { state } : {}) });
  // Answered at once, where the user is: the app's card, or a terminal's command (another process's retry or skip is
  // handed to the process that drives the run, relay.ts).
  // A step that stopped to ask waits for the user's answer (its message says how to give it), as on the main path.
  const asks = laneAsks(ctx.record, lane);
  const at = lane.state ? ` at ${humanState(lane.state)}` : '';
  if (others) ctx.emit('app.notify', { title: asks ? `Component ${lane.component} stopped to ask you${at}` : `Component ${lane.component} is blocked${at}`, body: `${err.message.replace(/[.\s]+$/, '')}. The components under way go on and no new one starts; ${asks ? 'answer it' : 'retry or skip its step'} now, on its card in the app or on a terminal (the process that drives the run takes it).` });
}

/** A blocked component whose step's model stopped to ask the user (its last step says so): its way on is the retry's answer. */
function laneAsks(record: RunRecord, lane: LaneRecord): boolean {
  const last = lane.entries.map((i) => record.timeline[i]).findLast((e) => e && !e.rewound);
  return lane.status === 'blocked' && !!last?.asked && last.outcome === 'not-done';
}

function blockedError(record: RunRecord, first: Error): WorkflowError {
  const lanes = record.lanes ?? [];
  const blocked = lanes.filter((l) => l.status === 'blocked');
  const e = first instanceof WorkflowError ? first : undefined;
  // The step in words ("at wc · debugging"), unless the component's error names it already.
  // One component whose error begins with its step ("The step wc · testing cannot finish: …") names itself already.
  const which = blocked.length === 1 && blocked[0]!.state && blocked[0]!.error?.startsWith(`The step ${humanState(blocked[0]!.state)} `) ? blocked[0]!.error
    : blocked.map((l) => `component ${l.component}${l.state && !l.error?.includes(humanState(l.state)) ? ` (at ${humanState(l.state)})` : ''}: ${l.error}`).join('\n');
  // The run's error names the component (the run's state is the parallel phase, which says nothing of which).
  // It asks the user only where every blocked component asks (another's way on is a fix, not an answer).
  const asks = blocked.length > 0 && blocked.every((l) => laneAsks(record, l));
  const { asks: _asks, ...details } = e?.details ?? {};
  return new WorkflowError(e?.kind ?? 'RUNTIME_ERROR', blocked.length > 1 ? `${blocked.length} components blocked:\n${which}` : blocked.length ? which : first.message, { ...details, ...(asks || (!blocked.length && e?.details?.asks) ? { asks: true } : {}) });
}

/** After a crash or a block: steps left open are closed as interrupted (they run again), blocked components are retried. */
async function recover(ctx: RunContext): Promise<void> {
  for (const lane of ctx.record.lanes ?? []) {
    if (lane.status === 'merged') continue;
    for (const i of lane.entries) {
      const e = ctx.record.timeline[i];
      if (e && !e.leftAt) await ctx.leave(e, 'interrupted');
    }
    const last = ctx.record.timeline[lane.entries.at(-1) ?? -1];
    if (last?.outcome === 'interrupted' && !lane.retryOf && lane.status !== 'ready') lane.retryOf = { state: last.state, what: INTERRUPTED };
    // Blocked: it runs its step again, unless the user went on with another component by name (`held`).
    if (lane.status === 'blocked' && !lane.held) {
      lane.status = lane.commit ? 'ready' : 'running';
      lane.error = undefined;
    }
  }
}

/** The record a component's states read and write: the run's, with the component's own plan, worktree, git and step fields. */
function laneRecordOf(record: RunRecord, lane: LaneRecord, plan: Plan): RunRecord {
  const { lanes: _lanes, ...rest } = record;
  return {
    ...rest,
    projectDir: lane.worktree!,
    plan,
    state: lane.state,
    lastTest: lane.lastTest,
    untraced: lane.untraced,
    retryOf: lane.retryOf,
    userChanges: lane.userChanges,
    git: { mode: 'current', ...(lane.branch ? { branch: lane.branch } : {}), ...(lane.pendingCommit ? { pendingCommit: lane.pendingCommit } : {}) },
    timeline: lane.entries.map((i) => record.timeline[i]!).filter(Boolean),
  };
}

/** Copies what the component's states changed back into its lane (saved with the run). */
function sync(lane: LaneRecord, r: RunRecord): void {
  lane.state = r.state;
  lane.lastTest = r.lastTest;
  lane.untraced = r.untraced;
  lane.retryOf = r.retryOf;
  lane.pendingCommit = r.git?.pendingCommit;
}

/** Opens a timeline entry of a component's lane (no checkpoint: the one before the parallel phase covers it). */
async function enterLane(ctx: RunContext, lane: LaneRecord, state: string, extra: Partial<WorkflowTimelineEntry>, worktree?: string): Promise<WorkflowTimelineEntry> {
  const entry: WorkflowTimelineEntry = { state, component: lane.component, ...extra, ...(worktree ? { worktree } : {}), enteredAt: new Date().toISOString() };
  ctx.record.timeline.push(entry);
  lane.entries.push(ctx.record.timeline.length - 1);
  await ctx.persist();
  ctx.emit('workflow.step', { runId: ctx.record.runId, projectDir: ctx.record.projectDir, entry });
  return entry;
}

/**
 * A component's states, in its worktree, from where it stood to its commit (its schedule update comes once, after all).
 * `steps`: at most this many steps, then it returns (a durable run's worker runs one step per DBOS step).
 */
export async function driveLane(ctx: RunContext, plan: Plan, lane: LaneRecord, component: PlanComponent, options: { steps?: number } = {}): Promise<void> {
  const { record } = ctx;
  if (!lane.worktree || !lane.branch) Object.assign(lane, await addLaneWorktree(record.projectDir, record.runId, component.id));
  await laneGoesOn(lane);
  lane.status = 'running';
  await ctx.persist();
  const lanePlan: Plan = { ...plan, parallel: false, components: [component] };
  const specs = new Map(planStates(lanePlan).map((s) => [s.state, s]));
  const end = `orchestration:${component.id}`;
  const actor = startWorkflowActor(lanePlan, lane.snapshot as never);
  if (actor.getSnapshot().context.blocked) actor.send({ type: 'RETRY' });
  const r = laneRecordOf(record, lane, lanePlan);
  if (lane.skip) {
    lane.skip = undefined;
    actor.send({ type: 'SKIP' });
    if (r.untraced?.state === lane.state) r.untraced = undefined;
  }
  const lctx: RunContext = {
    ...ctx,
    record: r,
    enter: async (state, extra = {}) => {
      r.state = state;
      const entry = await enterLane(ctx, lane, state, extra, lane.worktree);
      r.timeline.push(entry);
      return entry;
    },
    leave: async (entry, outcome, extra) => {
      if (r.retryOf?.state === entry.state) r.retryOf = undefined;
      sync(lane, r);
      await ctx.leave(entry, outcome, extra);
    },
    runStep: (step) => {
      const entry = r.timeline.at(-1);
      return ctx.runStep({ ...step, worktree: lane.worktree, runDir: record.projectDir }, entry && !entry.leftAt ? entry : undefined);
    },
    // Tests and the commit run in the worktree: the sandbox lets them write it alone (and what git needs in the project's .git), from the project as root.
    runTests: (command, cwd, signal, options) => ctx.runTests(command, cwd, signal, { ...options, root: record.projectDir }),
    persist: async () => {
      sync(lane, r);
      await ctx.persist();
    },
  };
  let steps = 0;
  try {
    while (currentState(actor) !== end) {
      // A step that ran out of attempts left the FSM blocked: said now (executeNext throws it), not by the next call, whose
      // RETRY (at the top of driveLane) would give it its attempts again: a worker, one step per call, would debug forever.
      if (options.steps !== undefined && steps++ >= options.steps && !actor.getSnapshot().context.blocked) return;
      if (ctx.signal.aborted) throw new StepAbortedError(currentState(actor));
      if (ctx.pausing?.()) return; // paused between two steps: it goes on from here on resume
      try {
        await executeNext(lctx, actor, specs);
      } catch (err) {
        // The step runs again on retry, hearing what happened.
        const open = r.timeline.at(-1);
        // Stopped: every component's step in flight is closed aborted (the run's loop closes only the last entry);
        // a shutdown leaves them open, as a crash would, and resume closes them interrupted.
        const stoppedMidStep = open !== undefined && !open.leftAt && ctx.signal.aborted && ctx.signal.reason !== SHUTDOWN;
        const before = r.retryOf; // leaving the step clears it; an answer it carried still holds for the step run again
        if (open && !open.leftAt && ctx.signal.reason !== SHUTDOWN) await lctx.leave(open, ctx.signal.aborted ? 'aborted' : 'error', ctx.signal.aborted ? undefined : { note: (err as Error).message });
        // Resumed, a step stopped while it ran runs again hearing so, and what the stopped attempt changed, as after a crash.
        if (stoppedMidStep) r.retryOf = interruptedRetry(before, open.state, INTERRUPTED);
        // A step that could not start (a toolset missing) is not an attempt: its retry is not told of it.
        if (!ctx.signal.aborted && !(err instanceof StepSetupError)) r.retryOf = retryOfBlock(r.timeline, currentState(actor), (err as Error).message);
        throw err;
      } finally {
        sync(lane, r);
        lane.snapshot = actor.getPersistedSnapshot();
        await ctx.persist();
      }
    }
  } finally {
    actor.stop();
  }
  const committed = [...r.timeline].reverse().find((e) => e.state === `${component.id}:commit` && e.outcome === 'committed');
  lane.commit = committed?.commit;
  lane.status = 'ready';
  await ctx.persist();
}

/** Merges ready components into the run's branch, in schedule order: none passes one that is not ready yet. */
async function mergeReady(ctx: RunContext, plan: Plan, lanes: LaneRecord[]): Promise<void> {
  for (const lane of lanes) {
    if (lane.status === 'merged') continue;
    if (lane.status !== 'ready') return;
    await mergeLane(ctx, plan, lane);
  }
}

async function mergeLane(ctx: RunContext, plan: Plan, lane: LaneRecord): Promise<void> {
  const { record } = ctx;
  const dir = record.projectDir;
  let sha: string | undefined;
  let unsaid: string | undefined;
  if (lane.commit) {
    // Its work is in its commit (its branch stays until merged): the worktree goes first, so the project folder a merge
    // step works in holds no copy of it (`node --test` there would run the copy's tests too: it searches .git as well).
    if (lane.worktree) await removeLaneWorktree(dir, lane.worktree, undefined);
    const head = (await headCommit(dir)) ?? null;
    if (lane.pendingCommit?.state === 'merge' && head !== lane.pendingCommit.head) {
      // Merged before a crash. Killed after it moved HEAD, before it removed CHERRY_PICK_HEAD, git left its cherry-pick
      // "in progress": ended here (HEAD, the index and the files stay), not committed a second time (as an empty copy).
      if (await mergeUnderWay(dir)) await quitMerge(dir);
      sha = head!;
    } else if (await mergeUnderWay(dir)) sha = await resolveConflicts(ctx, plan, lane, await unmergedOrMarked(dir, lane));
    else {
      // Begun before a crash and not finished by git: what it left is taken back, for the merge to be made again.
      if (lane.pendingCommit?.state === 'merge') await undoUnfinishedMerge(dir, lane.commit, performance.timeOrigin);
      lane.pendingCommit = { state: 'merge', head };
      await ctx.persist();
      crashPoint(`${lane.component}:merge:before`);
      const r = await mergeLaneCommit(dir, lane.commit, userChangedFiles(record));
      crashPoint(`${lane.component}:merge:after`);
      if (r.kind === 'merged' && r.unsaid) unsaid = r.unsaid;
      sha = r.kind === 'merged' ? r.sha : await resolveConflicts(ctx, plan, lane, r.files);
    }
    // The user's changes a merge set aside, which a crash kept it from putting back (worktrees.ts), go back now it is made.
    unsaid ??= await putBack(dir);
    if (unsaid) ctx.emit('app.notify', { title: `Component ${lane.component} merged: your changes are in the stash`, body: unsaid });
    // The component's commit entry and its document name the commit on the run's branch.
    for (const i of lane.entries) {
      const e = record.timeline[i];
      if (e?.commit === lane.commit) Object.assign(e, { commit: sha, laneCommit: lane.commit });
    }
    if (sha !== lane.commit) await stampDocument(ctx.docs, { doc: 'component', component: lane.component }, sha);
  } else {
    // Nothing to merge: whatever its worktree or branch still holds is kept, never removed in silence.
    const kept = await keepLaneLeftovers(dir, record.runId, lane.component, lane.worktree);
    if (kept) lane.kept = kept.ref;
  }
  await removeLaneWorktree(dir, lane.worktree, lane.branch);
  Object.assign(lane, { status: 'merged', commit: sha, pendingCommit: undefined, snapshot: undefined, lastTest: undefined, untraced: undefined, mergeAttempts: undefined, conflicts: undefined });
  await ctx.persist();
  const laneCommit = lane.entries.map((i) => record.timeline[i]?.laneCommit).findLast(Boolean);
  const nothing = lane.kept ? `nothing to merge (it committed nothing), yet its worktree held work: kept under ${lane.kept} (git log ${lane.kept})` : 'nothing to merge (it committed nothing)';
  ctx.emit('app.notify', { title: `Component ${lane.component} merged`, body: sha ? `into the run's branch as ${sha.slice(0, 8)}${laneCommit && laneCommit !== sha ? ` (its lane's commit ${laneCommit.slice(0, 8)})` : ''}` : nothing });
}

/** A merge under way after a restart: the files git still calls unmerged, or those that kept their markers. */
async function unmergedOrMarked(dir: string, lane: LaneRecord): Promise<string[]> {
  const unmerged = await unmergedFiles(dir);
  return unmerged.length ? unmerged : filesWithMarkers(dir, lane.conflicts ?? []);
}

/**
 * The merge step: the model resolves the conflicts in the project folder with both sides in front of it,
 * at most maxDebugAttempts times while markers remain; then Erasmus commits the merge.
 */
async function resolveConflicts(ctx: RunContext, plan: Plan, lane: LaneRecord, files: string[]): Promise<string> {
  const { record } = ctx;
  const state = `${lane.component}:merge`;
  lane.conflicts = files;
  let left = await filesWithMarkers(record.projectDir, files);
  // The development protocol's tools and budget, with a role of its own: its text sends test tasks to a testing step, which a merge has not.
  const protocol = { ...(await loadProtocol('development', record.projectDir, ctx.protocolsDir, new ProjectTrust(ctx.paths.projectTrustFile))), prompt: MERGE_PROTOCOL };
  const docRef = { doc: 'component', component: lane.component } as const;
  while (left.length) {
    const attempts = lane.mergeAttempts ?? 0;
    if (attempts >= plan.maxDebugAttempts) {
      throw new WorkflowError(
        'RUNTIME_ERROR',
        `merging component ${lane.component} into the run's branch still leaves conflict markers in ${left.join(', ')} after ${attempts} merge step${attempts === 1 ? '' : 's'}. Resolve them in ${record.projectDir} (remove every <<<<<<< ======= >>>>>>> marker; do not commit) and retry: Erasmus commits the merge; or retry to ask the model again.`,
      );
    }
    const references: Array<{ title: string; text: string; lang: string }> = [];
    for (const f of files) {
      const sides = await conflictSides(record.projectDir, f);
      const lang = fenceLanguage(f);
      references.push({ title: `${f} on the run's branch (the components merged before)`, text: sides.ours ?? '(deleted on this side)', lang });
      references.push({ title: `${f} in component ${lane.component}`, text: sides.theirs ?? '(deleted on this side)', lang });
    }
    const again = attempts > 0 ? ` A merge step before this one left conflict markers in ${left.join(', ')}: remove them all.` : '';
    const instruction =
      `Component ${lane.component} was developed in its own copy of the project while other components were developed in theirs. Its commit does not merge cleanly into the run's branch, which holds the components merged before it: git stopped with conflicts in ${files.map((f) => `\`${f}\``).join(', ')}. ` +
      `Each of these files in the project folder holds both sides between the markers \`<<<<<<<\` (the run's branch), \`=======\` and \`>>>>>>>\` (component ${lane.component}); both whole versions are below. ` +
      `Resolve every conflict so the file does what both sides need, remove every marker, and change nothing else. Do not commit: Erasmus commits the merge, and the final test gate runs on the merged tree. ` +
      `Git applies the component's commit as a cherry-pick, so \`git status\` says a cherry-pick is in progress and suggests \`git cherry-pick --continue\`: that is Erasmus's to run once the markers are gone; do not run it, \`--abort\` or \`git commit\`.${again}`;
    const prompt = buildStepPrompt({
      protocol,
      role: 'merge',
      instruction,
      existing: record.existing,
      userFiles: userChangedFiles(record),
      goal: record.goal,
      newGoal: !!record.goalUpdate,
      ...(lane.retryOf?.state === state ? { retryOf: lane.retryOf.what, retrySaid: lane.retryOf.said, retryAnswer: lane.retryOf.answer, retryChanges: await unfinishedChanges(lane.entries.map((i) => record.timeline[i]!).filter(Boolean), state, record.projectDir, ctx.checkpointTrees) } : {}),
      done: `No file of the project holds a conflict marker (${'`<<<<<<<`'}, ${'`>>>>>>>`'}), and each conflicted file keeps what both sides added.`,
      contextDocPath: ctx.docs.path(docRef),
      contextDoc: await ctx.docs.text(docRef),
      references,
    });
    const entry = await enterLane(ctx, lane, state, { protocol: protocol.name, ...answeredWith(lane.retryOf, state) });
    lane.mergeAttempts = attempts + 1;
    const result = await ctx.runStep(
      { state, protocol: protocol.name, role: 'merge', component: lane.component, prompt, protocolPrompt: protocol.prompt, toolsets: protocol.toolsets, access: 'write', contextDocPath: ctx.docs.path(docRef), projectDir: record.projectDir, budget: protocol.budget, answer: 'notes', ...(record.durable ? { database: record.durable.database } : {}) },
      entry,
    );
    if (result.contextDoc !== undefined) await ctx.docs.write(docRef, result.contextDoc);
    if (!result.done) {
      const why = askedOf(ctx, entry, result);
      await ctx.leave(entry, 'not-done', { usage: result.usage, sessionLog: result.sessionLog, ...lastWordsField(result), ...(why.asks ? { asked: true } : {}) });
      lane.retryOf = retryOfBlock([entry], state, why.notDoneBecause ?? 'the merge step ended without finishing');
      throw new WorkflowError('RUNTIME_ERROR', why.notDoneBecause ?? `the merge step of component ${lane.component} ended without finishing; the conflicts stay in the project folder. Retry it, or resolve them yourself and retry.`, why.asks ? { asks: true } : undefined);
    }
    left = await filesWithMarkers(record.projectDir, files);
    if (left.length) {
      await ctx.leave(entry, 'error', { usage: result.usage, sessionLog: result.sessionLog, note: `conflict markers remain in ${left.join(', ')}` });
      continue;
    }
    const sha = await finishMerge(record.projectDir, files);
    await ctx.leave(entry, 'committed', { usage: result.usage, sessionLog: result.sessionLog, commit: sha, note: `merged with conflicts resolved in ${files.join(', ')}` });
    lane.retryOf = undefined;
    return sha;
  }
  // Resolved already (by the user, before a retry): the merge is committed as it stands.
  return finishMerge(record.projectDir, files);
}

/** Skip at the parallel phase skips the step where a blocked component stopped; undefined when none is blocked. */
export function skipBlockedLane(record: RunRecord, component?: string): LaneRecord | undefined {
  const lane = record.lanes?.find((l) => l.status === 'blocked' && !l.commit && l.state && (component === undefined || l.component === component));
  if (lane) lane.skip = true;
  return lane;
}

/** Every component's dependencies as the run's view shows them: the Depends: line, or schedule order. */
export function planWithDepends(plan: Plan): Plan {
  const deps = resolvedDepends(plan.components);
  return { ...plan, components: plan.components.map((c) => ({ ...c, depends: deps.get(c.id) ?? [] })) };
}

/**
 * Whether a run's components go side by side (decided when the plan is approved): its task list has Depends:
 * lines that let two open components run at once, the project is a git repository (worktrees), and the executor
 * runs steps at once (the external engine answers one step at a time: its runs keep the schedule order).
 */
export function runsInParallel(record: RunRecord): boolean {
  const plan = record.plan;
  if (!plan || !record.git || record.executor.kind === 'external') return false;
  const open = openComponents(plan);
  // A durable run's components always go to its workers (one open component, or a chain, too): the components'
  // phase is where they are sent, so the run's durability does not depend on its task list's shape.
  if (record.durable) return open.length > 0;
  if (open.length < 2 || !open.some((c) => c.depends)) return false;
  const deps = resolvedDepends(plan.components);
  const openIds = new Set(open.map((c) => c.id));
  const level = new Map<string, number>();
  for (const c of open) level.set(c.id, 1 + Math.max(0, ...(deps.get(c.id) ?? []).filter((d) => openIds.has(d)).map((d) => level.get(d) ?? 0)));
  const counts = new Map<number, number>();
  for (const l of level.values()) counts.set(l, (counts.get(l) ?? 0) + 1);
  return [...counts.values()].some((n) => n > 1);
}

/** A parallel run's components as its view shows them. */
export function laneViews(record: RunRecord): WorkflowLane[] {
  const deps = record.plan ? resolvedDepends(record.plan.components) : new Map<string, string[]>();
  return (record.lanes ?? []).map((l) => {
    // Where it stands: the step under way (its open entry; a worker's step shows from its start), or the step that runs
    // again (interrupted: its worker or process died mid-step), else the lane's last state (which may be a step that ended).
    const last = l.entries.map((i) => record.timeline[i]).findLast((e) => e && !e.rewound);
    const state = (last && (!last.leftAt || last.outcome === 'interrupted') ? last.state : undefined) ?? l.state;
    return {
      component: l.component,
      status: l.status,
      depends: deps.get(l.component) ?? [],
      ...(state ? { state } : {}),
      ...(l.worktree && l.status !== 'merged' ? { worktree: l.worktree } : {}),
      ...(l.branch && l.status !== 'merged' ? { branch: l.branch } : {}),
      ...(l.commit && l.status === 'merged' ? { commit: l.commit } : {}),
      ...(l.error ? { error: l.error } : {}),
      // Blocked where its step stopped to ask the user (its last entry says so): the faces offer the answer first.
      ...(laneAsks(record, l) ? { asks: true } : {}),
      ...(l.kept ? { kept: l.kept } : {}),
      ...(l.waiting && l.status === 'running' ? { waiting: l.waiting } : {}),
    };
  });
}

/** What to tell the user of kept work: each component's ref and how to look at it. */
export function keptWords(kept: KeptLane[]): string {
  return kept.map((k) => `component ${k.component}: ${k.ref} (git log ${k.ref}; git switch -c <branch> ${k.commit.slice(0, 8)} to go on with it)`).join('; ');
}

/**
 * A run that will not be driven again (abandoned): its components' worktrees and branches go; work of theirs
 * that no branch of the project holds is kept under refs/erasmus/kept/<run>/<component>, named on its lane.
 */
export async function leaveLanes(record: RunRecord, why: string): Promise<KeptLane[]> {
  if (!record.git) return [];
  const kept = await keepAndRemoveRunWorktrees(record.projectDir, record.runId, why);
  for (const lane of record.lanes ?? []) {
    const k = kept.find((x) => x.component === lane.component);
    if (k) lane.kept = k.ref;
    if (lane.status !== 'merged') Object.assign(lane, { worktree: undefined, branch: undefined, snapshot: undefined, pendingCommit: undefined });
  }
  return kept;
}

/**
 * Worktrees and lane branches of runs that will not be driven again (abandoned, complete, or whose record is
 * gone: left by a crash or an older Erasmus), found in the project when a new run is loaded: removed the
 * same way, their unmerged work kept. `status` says what a run id's record is (undefined: no record).
 */
export async function removeStaleLanes(projectDir: string, status: (runId: string) => string | undefined): Promise<Array<KeptLane & { runId: string }>> {
  const ids = new Set<string>();
  const dir = await gitPath(projectDir, 'erasmus/worktrees');
  for (const d of await readdir(dir).catch(() => [])) ids.add(d);
  const refs = await git(projectDir, ['for-each-ref', '--format=%(refname)', 'refs/heads/erasmus-lane/']).catch(() => ({ stdout: '' }));
  for (const ref of refs.stdout.split('\n').filter(Boolean)) ids.add(ref.split('/')[3]!);
  const out: Array<KeptLane & { runId: string }> = [];
  for (const runId of ids) {
    const s = status(runId);
    if (s !== undefined && s !== 'ABANDONED' && s !== 'COMPLETED') continue; // a run that may go on keeps its worktrees
    for (const k of await keepAndRemoveRunWorktrees(projectDir, runId, 'left by a run no longer driven')) out.push({ ...k, runId });
  }
  return out;
}
