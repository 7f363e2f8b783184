// The git side of a durable run (DBOS over Postgres): a component runs in a worker's own clone of the
// project's `origin`, and its work between two steps lives on origin as a checkpoint commit, so another
// worker on another machine goes on from there after a crash. Refs on origin, per run, component and
// workflow (its attempt: the n of the workflow `<run>:<component>:<n>`, so a workflow cancelled by a rewind
// whose step is still under way never touches the refs of the one that replaces it):
//   refs/erasmus/<run>/<component>/<n>/base        the run's branch as it was when the component was enqueued
//   refs/erasmus/<run>/<component>/<n>/step-<k>    the worktree after its step k (a commit whose parent is the
//                                                  clone's HEAD then: the component's commit, once made). One
//                                                  ref per step: a step run again after a crash never moves
//                                                  the ref the step before it recorded.
//   refs/heads/erasmus-lane/<run>/<component>/<n>  the component's commit, which the run merges
import { mkdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { readHead } from '../../checkpoints/head';
import { git, snapshotTree } from '../git';
import { laneBranch } from '../worktrees';

/** One workflow of a run's component: its refs on origin and its clone in a worker are its own. */
export interface LaneKey {
  runId: string;
  component: string;
  /** The workflow's attempt (`<run>:<component>:<attempt>`). */
  attempt: number;
}

/** A component's ref on origin: its base, or the checkpoint after its step n. */
export function laneRef(key: LaneKey, what: 'base' | number): string {
  return `refs/erasmus/${key.runId}/${key.component}/${key.attempt}/${what === 'base' ? 'base' : `step-${what}`}`;
}

/** The branch on origin a workflow pushes the component's commit to (the run fetches it as the component's branch, `laneBranch`). */
export function laneCommitRef(key: LaneKey): string {
  return `refs/heads/${laneBranch(key.runId, key.component)}/${key.attempt}`;
}

/** Where a component's work stands on origin: the checkpoint commit after a step (absent: its base), under the refs of the workflow that made it. */
export interface LaneCheckpoint {
  step: number;
  sha: string;
  /** The attempt whose refs hold it (a retry goes on from its predecessor's checkpoint); absent in records from before attempts had refs of their own: 1. */
  attempt?: number;
}

async function must(cwd: string, args: string[], what: string, env?: NodeJS.ProcessEnv): Promise<string> {
  const r = await git(cwd, args, env);
  if (r.code !== 0) throw new Error(`${what} failed (git ${args.join(' ')}): ${r.stdout.trim().slice(-1500)}`);
  return r.stdout.trim();
}

/** The project's `origin` remote, as a URL a worker on another machine clones (a local path made absolute). */
export async function originUrl(projectDir: string): Promise<string> {
  const r = await git(projectDir, ['remote', 'get-url', 'origin']);
  const url = r.code === 0 ? r.stdout.trim() : '';
  if (!url)
    throw new Error(
      `a durable run (--database-url) needs the project to have an \`origin\` remote that its workers can clone and push to; ${projectDir} has none. Add one (\`git remote add origin <url>\`), or start the run without --database-url to run it in this process.`,
    );
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(url) || /^[^/]+@[^/]+:/.test(url)) return url;
  return (await must(projectDir, ['-C', url, 'rev-parse', '--absolute-git-dir'], `reading origin ${url}`)).trim();
}

/** Pushes a commit to a ref on origin (forced: the ref is the run's own). */
export async function pushRef(dir: string, sha: string, ref: string): Promise<void> {
  await must(dir, ['push', '-q', '-f', 'origin', `${sha}:${ref}`], `pushing ${ref} to origin`);
}

/** Deletes the run's refs on origin (its bases, checkpoints and component branches), or one workflow's. */
export async function removeRunRefs(dir: string, runId: string, lane?: LaneKey): Promise<void> {
  const patterns = lane ? [`refs/erasmus/${runId}/${lane.component}/${lane.attempt}/*`, laneCommitRef(lane)] : [`refs/erasmus/${runId}/*`, `refs/heads/erasmus-lane/${runId}/*`];
  // A worker may delete some of them at the same time (it drops what a cancelled workflow pushed): a push that names a
  // ref already gone fails whole, so what is still there is listed and deleted again.
  for (let attempt = 1; ; attempt++) {
    const listed = await must(dir, ['ls-remote', 'origin', ...patterns], "listing the run's refs on origin");
    const refs = listed.split('\n').map((l) => l.split('\t')[1]).filter(Boolean) as string[];
    if (!refs.length) return;
    const push = ['push', '-q', 'origin', ...refs.map((ref) => `:${ref}`)];
    if (attempt >= 3) return void (await must(dir, push, "deleting the run's refs on origin"));
    if ((await git(dir, push)).code === 0) return;
  }
}

/**
 * Fetches a ref of origin into the project: its commit. `--refmap=`: only `into` is written (git would also leave a
 * remote-tracking `refs/remotes/origin/erasmus-lane/…` behind for a branch, which outlives its deletion on origin).
 */
export async function fetchRef(dir: string, ref: string, into: string): Promise<string> {
  await must(dir, ['fetch', '-q', '-f', '--refmap=', 'origin', `${ref}:${into}`], `fetching ${ref} from origin`);
  return must(dir, ['rev-parse', into], `reading ${into}`);
}

/**
 * The worker's clone for a component: cloned from origin once, then its worktree is put back exactly as the
 * last finished step left it (`checkpoint`), or at the component's base for its first step. Untracked files
 * stay untracked, changes stay uncommitted: the next step sees what the previous one left.
 */
export async function restoreLane(dir: string, origin: string, key: LaneKey, checkpoint: LaneCheckpoint | undefined): Promise<void> {
  const { runId, component } = key;
  // Made here once (a folder with its own .git is one of this worker's clones); a fresh one needs no cleaning.
  const cloned = await stat(join(dir, '.git')).then(() => true, () => false);
  if (!cloned) {
    await rm(dir, { recursive: true, force: true });
    await mkdir(dir, { recursive: true });
    await must(dir, ['init', '-q'], 'git init of the worker clone');
    await must(dir, ['remote', 'add', 'origin', origin], 'adding origin');
  }
  const ref = checkpoint ? laneRef({ ...key, attempt: checkpoint.attempt ?? 1 }, checkpoint.step) : laneRef(key, 'base');
  const sha = await fetchRef(dir, ref, `refs/erasmus/${checkpoint ? 'checkpoint' : 'base'}`);
  if (checkpoint && sha !== checkpoint.sha) throw new Error(`origin's checkpoint of component ${component} after its step ${checkpoint.step} is ${sha.slice(0, 8)}, not ${checkpoint.sha.slice(0, 8)} as that step recorded`);
  const branch = laneBranch(runId, component);
  if (!checkpoint) {
    await must(dir, ['checkout', '-q', '-f', '-B', branch, sha], 'checking out the component base');
    if (cloned) await must(dir, ['clean', '-q', '-fdx'], 'cleaning the worker clone');
    return;
  }
  // The checkpoint's parent is HEAD as the step left it; its tree is the worktree.
  const head = await must(dir, ['rev-parse', `${sha}^`], 'reading the checkpoint');
  await must(dir, ['checkout', '-q', '-f', '-B', branch, head], 'checking out the component');
  if (cloned) await must(dir, ['clean', '-q', '-fdx'], 'cleaning the worker clone');
  await must(dir, ['read-tree', '-u', '--reset', sha], 'restoring the checkpoint');
  await must(dir, ['reset', '-q'], 'unstaging the checkpoint');
}

/** A checkpoint as this process made it: with its tree and parent, so a step that changed neither needs no new one. */
export interface MadeCheckpoint extends LaneCheckpoint {
  tree: string;
  head: string;
}

/**
 * The identity of a checkpoint commit: Erasmus's own, under the run's refs (deleted when the run ends), never on a
 * branch of the user's (the component's commit, its parent, is made with the project's identity). Given, not asked.
 */
const CHECKPOINT_IDENTITY = ['-c', 'user.name=Erasmus', '-c', 'user.email=erasmus@localhost'];

/** A checkpoint recorded in the clone, and its push to origin under way. */
export interface RecordedCheckpoint {
  made: MadeCheckpoint;
  /**
   * Settles once origin has it (at once when nothing was pushed). DBOS must record the step only after this:
   * a step recorded is one whose checkpoint another worker can fetch. Rejects with what git said.
   */
  pushed: Promise<void>;
}

/**
 * Records the worktree as it is now as a commit on top of HEAD (through a private index: the clone's is untouched)
 * and starts pushing it, with `also` (e.g. the component's branch once committed) in the same push. A step that
 * changed neither the worktree nor HEAD since `previous` (the checkpoint this process made before it) records no
 * new one: `previous` stands, and nothing is pushed for it. Three git processes and the push's: the worktree's tree
 * (`add`, `write-tree`), HEAD read from git's files, the commit (`commit-tree`), then `push --no-verify` (the
 * checkpoint is Erasmus's own: no pre-push hook of the clone's, nor of a global `core.hooksPath`, runs for it).
 */
export async function recordLane(
  dir: string,
  key: LaneKey,
  step: number,
  options: { previous?: MadeCheckpoint; also?: Array<{ sha: string; ref: string }>; /** Run beside the commit, given the worktree's tree. */ withTree?: (tree: string) => Promise<void> } = {},
): Promise<RecordedCheckpoint> {
  const { component } = key;
  const [tree, { commit: head }] = await Promise.all([snapshotTree(dir), readHead(dir)]);
  if (!tree || !head) throw new Error(`recording component ${component}'s worktree in ${dir} failed: not a git clone with a commit`);
  const { previous, withTree } = options;
  const also = [...(options.also ?? [])];
  let made: MadeCheckpoint;
  const beside = withTree?.(tree);
  if (previous && previous.tree === tree && previous.head === head) made = previous;
  else {
    const sha = await must(dir, [...CHECKPOINT_IDENTITY, 'commit-tree', tree, '-p', head, '-m', `Erasmus checkpoint of component ${component} after its step ${step + 1}`], 'recording the worktree');
    made = { step, sha, tree, head, attempt: key.attempt };
    also.unshift({ sha, ref: laneRef(key, step) });
  }
  await beside;
  const pushed = also.length ? must(dir, ['push', '-q', '-f', '--no-verify', 'origin', ...also.map((r) => `${r.sha}:${r.ref}`)], `pushing ${also.map((r) => r.ref).join(', ')} to origin`).then(() => undefined) : Promise.resolve();
  pushed.catch(() => undefined); // said by whoever awaits it; never an unhandled rejection meanwhile
  return { made, pushed };
}

/** recordLane, its push awaited. */
export async function checkpointLane(dir: string, key: LaneKey, step: number, options: { previous?: MadeCheckpoint; also?: Array<{ sha: string; ref: string }> } = {}): Promise<MadeCheckpoint> {
  const { made, pushed } = await recordLane(dir, key, step, options);
  await pushed;
  return made;
}
