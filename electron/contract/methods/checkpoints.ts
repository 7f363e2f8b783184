import { z } from 'zod';
import type { MethodTable } from '../table';
import { WorkflowRunStatus } from './workflow';

/**
 * Checkpoints (issue 22): the project's files, HEAD, the run's state and the conversation's position,
 * taken before every workflow step and every chat turn, kept in a shadow git repository under
 * ERASMUS_HOME. A rewind goes back to one and first takes a checkpoint of what it leaves.
 */
export const CheckpointView = z.object({
  id: z.string(),
  /** What the checkpoint precedes: a workflow state (`cli:development`), a chat turn (`turn 3`), or the state a rewind left. */
  state: z.string(),
  at: z.string(),
  /** The project's HEAD at that moment (absent before the first commit or outside a repository). */
  commit: z.string().optional(),
  branch: z.string().optional(),
  kind: z.enum(['step', 'turn', 'rewind']),
  runId: z.string().optional(),
  sessionId: z.string().optional(),
  /** The conversation's position: the chat turns before it (chat), or the run's timeline entries before it (workflow). */
  turn: z.number().int().nonnegative().optional(),
  note: z.string().optional(),
});
export type CheckpointView = z.infer<typeof CheckpointView>;

export const FileChange = z.object({ path: z.string(), change: z.enum(['added', 'modified', 'deleted']) });

/** What a rewind to a checkpoint would do to the project as it is now. */
export const RewindPreview = z.object({
  checkpoint: CheckpointView,
  /** How the files change: `added` comes back, `deleted` goes away, relative to the project now. */
  files: z.array(FileChange),
  /** Commits HEAD leaves behind (newest first); they stay reachable under refs/erasmus/rewound/. */
  commitsUndone: z.array(z.object({ commit: z.string(), subject: z.string() })),
  /**
   * The run's own branch, made when its plan was approved after this checkpoint: the rewind removes it (its commits stay
   * under refs/erasmus/rewound/, and undoing the rewind makes it again), so approving the plan again makes it under the same name.
   */
  branchRemoved: z.string().optional(),
  /**
   * Side-by-side components whose worktrees hold work the project's checkpoints do not cover (uncommitted files, or a
   * commit not merged yet) and that the rewind takes out of the run: their worktrees stay until the run goes on, which
   * removes them, their work kept under `keptRef` (refs/erasmus/kept/<run>/<component>, or `-2`…). Absent when none.
   */
  lanes: z.array(z.object({ component: z.string(), worktree: z.string(), files: z.array(FileChange), commit: z.string().optional(), keptRef: z.string() })).optional(),
  /**
   * Files and folders `.gitignore` ignores in the project now: no checkpoint holds them and a rewind leaves them
   * alone. Counted here, not at every checkpoint (a git process per step saved).
   */
  ignored: z.number().int().nonnegative(),
});
export type RewindPreview = z.infer<typeof RewindPreview>;

const runId = z.string().regex(/^[A-Za-z0-9._-]{1,128}$/);
const checkpointId = z.string().regex(/^[A-Za-z0-9._-]{1,128}$/);

export const checkpointMethods = {
  /** A run's checkpoints, oldest first. */
  'workflow.checkpoints': { params: z.object({ runId }).strict(), result: z.object({ checkpoints: z.array(CheckpointView) }) },
  /** What rewinding the run to a checkpoint would change (files, commits), without changing anything. */
  'workflow.rewindPreview': { params: z.object({ runId, checkpointId }).strict(), result: RewindPreview },
  /**
   * Restores the project's files and HEAD as they were at the checkpoint and leaves the run PAUSED at its
   * state (later timeline entries marked rewound); first takes a checkpoint of what it leaves (`undo`).
   */
  'workflow.rewind': {
    params: z.object({ runId, checkpointId }).strict(),
    result: z.object({ status: WorkflowRunStatus, state: z.string().optional(), undo: CheckpointView, files: z.array(FileChange), commitsUndone: RewindPreview.shape.commitsUndone, branchRemoved: RewindPreview.shape.branchRemoved }),
  },
  /**
   * A chat back to before user turn `turn` (1 = the task) of the session in `logPath`: `code` the project's
   * files and HEAD, `conversation` a new log holding the conversation before it (continue it with
   * agent.start's `resume`), `both`. Refused while the session works.
   */
  'agent.rewind': {
    params: z.object({ logPath: z.string().min(1).max(4096), turn: z.number().int().min(1), scope: z.enum(['both', 'code', 'conversation']).default('both') }).strict(),
    result: z.object({ logPath: z.string(), sessionId: z.string(), turn: z.number().int(), files: z.array(FileChange), commitsUndone: RewindPreview.shape.commitsUndone }),
  },
} satisfies MethodTable;
