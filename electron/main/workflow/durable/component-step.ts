// One step of a durable run's component, in a worker (a DBOS step: durable/dbos.ts). What goes in and
// comes out is plain JSON, kept by DBOS in Postgres: the job (what the run sent: its record, the
// component's plan, the documents the steps read) and the component's progress after each step (its lane,
// its timeline entries, its documents, the checkpoint of its worktree on origin). A step starts from the
// progress the step before recorded, in the worker's clone, so any worker on any machine can run it.
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { WorkflowTimelineEntry } from '../../../contract/methods/workflow';
import { writeFileAtomic } from '../../common/fs';
import type { Paths } from '../../paths/index';
import { ContextDocs, type DocRef } from '../documents';
import { changedFiles } from '../git';
import { driveLane } from '../parallel';
import type { Plan } from '../plan';
import type { RunContext } from '../run-context';
import { LaneRecord, type RunRecord } from '../run-record';
import { carryUserChanges, type CarriedChange } from '../user-changes';
import { laneBranch } from '../worktrees';
import { StepPrompt } from './bridge';
import { laneCommitRef, recordLane, restoreLane, type MadeCheckpoint } from './lane-git';

export const LaneDocs = z.object({
  architecture: z.string().optional(),
  progress_schedule: z.string().optional(),
  task_list: z.string().optional(),
  component: z.string().optional(),
  /**
   * The component's review report, when the run keeps reports with its documents (`reviews: 'home'`), and the file
   * it was read from: the next step, in whichever worker, reads it (its fixes), and the run keeps it where its own
   * would be, naming that file where a step's note named the worker's.
   */
  review: z.object({ file: z.string(), text: z.string() }).optional(),
});
export type LaneDocs = z.infer<typeof LaneDocs>;

export const LaneProgress = z.object({
  /** The worktree after the last finished step, on origin (absent: the component's base). */
  checkpoint: z.object({ step: z.number().int().nonnegative(), sha: z.string(), attempt: z.number().int().positive().optional() }).optional(),
  /** How many steps ran (the next one's number). */
  steps: z.number().int().nonnegative(),
  lane: LaneRecord,
  timeline: z.array(WorkflowTimelineEntry),
  docs: LaneDocs,
  /** The component's commit, pushed to origin as its branch: it is ready to merge. */
  done: z.boolean(),
  /** The step failed: why (the run blocks naming the component; a retry goes on from `checkpoint`). */
  failed: z.string().optional(),
  /** The prompts the last step was given, by its entries' index in `timeline` (the run keeps each beside its run file). */
  prompts: z.array(StepPrompt).optional(),
  /** Where the last step's time went, in ms per phase (restore, docs, step, checkpoint, push wait: what the step waited for its push after it ended; ahead: how long it ran before its DBOS step began): the bench prints them. */
  timings: z.record(z.string(), z.number()).optional(),
});
export type LaneProgress = z.infer<typeof LaneProgress>;

export interface LaneJob {
  runId: string;
  component: string;
  /** Which workflow of the component this is (`<run>:<component>:<attempt>`): its refs on origin and its clone are its own. */
  attempt: number;
  /** The project's origin (workers clone it, push the component's checkpoints and branch to it). */
  origin: string;
  /** The run's record as the component's steps read it (no lanes, no timeline). */
  record: RunRecord;
  plan: Plan;
  /** Where the component stood when it was enqueued. */
  start: LaneProgress;
  /** The user's changes made while the run was stopped, carried into the component's files by this workflow's first step. */
  userChanges?: CarriedChange[];
}

const DOCS: Array<[Exclude<keyof LaneDocs, 'review'>, (component: string) => DocRef]> = [
  ['architecture', () => ({ doc: 'architecture' })],
  ['progress_schedule', () => ({ doc: 'progress_schedule' })],
  ['task_list', () => ({ doc: 'task_list' })],
  ['component', (component) => ({ doc: 'component', component })],
];

/** Writes the documents given (one already so is not written again: each write is synced to disk). */
export async function writeLaneDocs(docs: ContextDocs, component: string, texts: LaneDocs): Promise<void> {
  for (const [key, ref] of DOCS) {
    const text = texts[key];
    if (text !== undefined) await docs.update(ref(component), (now) => (now === text || now === `${text}\n` ? now : text));
  }
}

export async function readLaneDocs(docs: ContextDocs, component: string): Promise<LaneDocs> {
  const out: LaneDocs = {};
  for (const [key, ref] of DOCS) {
    const text = await docs.text(ref(component));
    if (text !== undefined) out[key] = text;
  }
  return out;
}

/** Where the component's review report is kept for the run (its documents' home, `reviews: 'home'`); undefined when the run keeps reports in the project (they travel with its checkpoints). */
function reviewFile(paths: Paths, projectDir: string, record: RunRecord, component: string): string | undefined {
  return record.reviews === 'home' ? paths.reviewReport(projectDir, record.runId, component) : undefined;
}

/** The component's review report as kept for the run, if it has one yet. */
export async function readLaneReview(paths: Paths, projectDir: string, record: RunRecord, component: string): Promise<LaneDocs['review']> {
  const file = reviewFile(paths, projectDir, record, component);
  const text = file ? await readFile(file, 'utf8').catch(() => undefined) : undefined;
  return file && text !== undefined ? { file, text } : undefined;
}

/** Keeps a review report another process wrote (`review`, from its home) where this process's would be. */
export async function writeLaneReview(paths: Paths, projectDir: string, record: RunRecord, component: string, review: LaneDocs['review']): Promise<void> {
  const file = reviewFile(paths, projectDir, record, component);
  if (file && review && (await readFile(file, 'utf8').catch(() => undefined)) !== review.text) await writeFileAtomic(file, review.text);
}

/**
 * A worker's step note names the review report in the worker's home (a review that asked for no changes): the run
 * names its own file, where the report is kept (`writeLaneReview`), whichever worker or machine wrote it.
 */
export function reviewNoteHere(note: string | undefined, paths: Paths, projectDir: string, runId: string): string | undefined {
  if (!note) return note;
  const theirs = new RegExp(`\\(([^()]*/runs/${runId.replace(/[^\w-]/g, '\\$&')}\\.reviews/([\\w.-]+)\\.md)\\)`, 'g');
  return note.replace(theirs, (_all, _file: string, name: string) => `(${paths.reviewReport(projectDir, runId, name)})`);
}

/** The checkpoint this process last left in each clone: the next step there needs no restore (and keeps ignored files, e.g. node_modules), and a step that changes nothing needs no new checkpoint. */
const left = new Map<string, MadeCheckpoint>();

/** The clone is gone (its workflow ended): nothing is left there. */
export function forgetClone(dir: string): void {
  left.delete(dir);
}

/** The tree of a step's folder as its context starts, when the worker knows it: the step's snapshot before it is not taken again. */
export interface StartTree {
  dir: string;
  tree: string;
}

/** A step's progress, and the push of its checkpoint to origin (DBOS records the step only once that settled). */
export interface StepDone {
  progress: LaneProgress;
  pushed: Promise<void>;
}

/**
 * Runs the component's next step in `dir` (the worker's clone for it) and returns its progress after it, its
 * checkpoint's push to origin under way (`pushed`): the next step may start beside it, and the step is recorded
 * once it settled.
 * `host` builds the context the step runs in (the worker's engine: its executor, its sandboxed runner, its tool servers);
 * `start`, when given, is the clone's tree as the step starts (this process left it at its last checkpoint).
 */
export async function runComponentStep(
  job: LaneJob,
  before: LaneProgress,
  dir: string,
  paths: Paths,
  host: (record: RunRecord, start?: StartTree) => RunContext | Promise<RunContext>,
  /** Aborted when the component's workflow is cancelled, or the step is dropped: it stops, nothing of it is recorded nor pushed. */
  cancelled?: AbortSignal,
): Promise<StepDone> {
  const { runId, component } = job;
  const key = { runId, component, attempt: job.attempt };
  const planned = job.plan.components.find((c) => c.id === component);
  if (!planned) throw new Error(`component ${component} is not in the run's plan`);
  const timings: Record<string, number> = {};
  let t = performance.now();
  const lap = (phase: string) => {
    const now = performance.now();
    timings[phase] = (timings[phase] ?? 0) + Math.round(now - t);
    t = now;
  };
  const previous = before.checkpoint && left.get(dir)?.sha === before.checkpoint.sha ? left.get(dir) : undefined;
  if (!previous) await restoreLane(dir, job.origin, key, before.checkpoint);
  left.delete(dir);
  lap('restore');
  const docs = new ContextDocs(paths, dir);
  // Left here by this process after the step before: the documents in its home are what that step read back (its clone's own).
  if (!previous) await writeLaneDocs(docs, component, before.docs);
  await writeLaneReview(paths, dir, job.record, component, before.docs.review);
  const timeline = structuredClone(before.timeline);
  const lane: LaneRecord = { ...structuredClone(before.lane), worktree: dir, branch: laneBranch(runId, component), entries: timeline.map((_, i) => i) };
  const record: RunRecord = { ...structuredClone(job.record), projectDir: dir, timeline, lanes: [lane] };
  let failed: string | undefined;
  lap('docs');
  try {
    // The workflow's first step: the user's changes made while the run was stopped go into the clone first (and are told to its steps).
    const carrying = before.steps === job.start.steps && !!job.userChanges?.length;
    if (carrying) await carryUserChanges(dir, job.userChanges!, lane);
    // The host may refuse before the step starts (e.g. the worker lacks the run's provider): the component blocks, saying why.
    // Left here by this process at the checkpoint the step starts from: its worktree's tree is that checkpoint's (nothing ran since, unless the user's changes went in).
    await driveLane(await host(record, previous && !carrying ? { dir, tree: previous.tree } : undefined), job.plan, lane, planned, { steps: 1 });
  } catch (err) {
    failed = (err as Error).message;
  }
  lap('step');
  if (cancelled?.aborted) return { progress: { ...before, failed: 'its workflow was cancelled (the run was abandoned or rewound)' }, pushed: Promise.resolve() };
  // Once committed, the component's branch goes to origin in the checkpoint's push.
  const done = !failed && lane.status === 'ready';
  // The step's files, beside its checkpoint's commit: what changed from the tree it started from to the one recorded
  // after it (its context left them unread, RunDeps.deferStepFiles).
  const stepFiles = async (tree: string) => {
    await Promise.all(
      record.timeline.slice(before.timeline.length).map(async (e) => {
        if (e.startTree && !e.files && e.startTreeIn === undefined) e.files = await changedFiles(dir, e.startTree, tree);
      }),
    );
  };
  const { made, pushed } = await recordLane(dir, key, before.steps, { previous, also: done && lane.commit ? [{ sha: lane.commit, ref: laneCommitRef(key) }] : [], withTree: stepFiles });
  // The next step here starts from it; should its push fail, the clone is restored from what origin has instead.
  left.set(dir, made);
  pushed.catch(() => left.get(dir) === made && left.delete(dir));
  lap('checkpoint');
  const after = await readLaneDocs(docs, component);
  const review = await readLaneReview(paths, dir, job.record, component);
  lap('docs');
  return {
    progress: {
      checkpoint: { step: made.step, sha: made.sha, attempt: job.attempt },
      steps: before.steps + 1,
      lane: { ...lane, worktree: undefined, branch: undefined, entries: [] },
      timeline: record.timeline,
      docs: { ...after, ...(review ? { review } : {}) },
      done,
      ...(failed ? { failed } : {}),
      timings,
    },
    pushed,
  };
}
