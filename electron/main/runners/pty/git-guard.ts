import { lstatSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { laneGitDir, type SandboxProfile } from './sandbox';

/**
 * The files that tell git where a repository's configuration and hooks are, which a sandboxed command can write
 * although `.git/config` and `.git/hooks` are read-only: `.git/commondir` (git then reads the config and hooks of
 * the folder it names, one the command made in the project), a `.git` file (a worktree's pointer to its git
 * folder) and a lane's own `commondir`. Erasmus runs git outside the sandbox (status, add, merge…), and that git
 * would run what such a configuration names (`core.fsmonitor`, filters, hooks) as the user, unconfined.
 * Each is read before a sandboxed command and put back as it was after it (the command's PID namespace
 * guarantees nothing of it runs on afterwards). A command left running in the background (`on_timeout: background`)
 * runs on after that check, and one step's command runs while another component's step has Erasmus run git: while a
 * command runs, its pointers are held (`holdGitPointers`), and every git Erasmus runs in a project first puts the held
 * ones back (`guardGitPointers`), so it never follows a pointer a running command rewrote.
 */
export type GitPointers = Map<string, string | null>;

/** The pointer files of a profile and what each holds now (null: absent; a folder or a link reads as `\0other`). */
export function gitPointers(p: SandboxProfile): GitPointers {
  const root = resolve(p.root);
  const paths = [join(root, '.git'), join(root, '.git', 'commondir')];
  if (p.lane) {
    paths.push(join(resolve(p.lane), '.git'));
    const own = laneGitDir(resolve(p.lane));
    if (own) paths.push(join(own, 'commondir'));
  }
  return new Map(paths.map((f) => [f, read(f)]));
}

/** Puts back every pointer file the command changed; returns them, relative to the project. */
export function restoreGitPointers(p: SandboxProfile, before: GitPointers): string[] {
  const changed: string[] = [];
  for (const [f, was] of before) {
    if (was === DIR || (was === null && f === join(resolve(p.root), '.git'))) continue; // a `.git` folder is a mount point in the sandbox, it cannot be replaced; a repository the command made (`git init`) stays
    const now = read(f);
    if (now === was) continue;
    changed.push(relative(resolve(p.root), f) || f);
    try {
      rmSync(f, { recursive: true, force: true });
      if (was !== null) writeFileSync(f, was);
    } catch {
      // Nothing more to do here: the note says what changed.
    }
  }
  return changed;
}

/** The pointers of the sandboxed commands running now (in the foreground or the background): what each held before it began. */
const held = new Set<{ profile: SandboxProfile; before: GitPointers }>();

/** Holds a command's pointers while it runs; returns the release (called when it has ended and its pointers were put back). */
export function holdGitPointers(profile: SandboxProfile, before: GitPointers): () => void {
  const hold = { profile, before };
  held.add(hold);
  return () => void held.delete(hold);
}

/**
 * Before Erasmus runs git (outside the sandbox) or reads the pointers for a new command: every pointer a running command
 * changed is put back as it was before that command began. Returns what was put back, relative to each project.
 */
export function guardGitPointers(): string[] {
  const changed: string[] = [];
  for (const { profile, before } of held) changed.push(...restoreGitPointers(profile, before));
  return changed;
}

/**
 * A component's worktree removed (merged, rewound, abandoned): the pointers held for commands that ran in it are let go,
 * the project's own kept. Its `.git` file and git's folder for it are gone, and a worktree made again at that place gets
 * pointers of its own, which the old ones must not overwrite. `dir`: the worktree, or a folder of worktrees (a run's).
 */
export function forgetLaneGitPointers(dir: string): void {
  const real = (p: string) => {
    try {
      return realpathSync(p);
    } catch {
      return resolve(p);
    }
  };
  const gone = [resolve(dir), real(dir)];
  for (const { profile, before } of held) {
    if (!profile.lane) continue;
    const lane = resolve(profile.lane);
    if (!gone.some((g) => lane === g || lane.startsWith(`${g}/`))) continue;
    const root = resolve(profile.root);
    for (const f of [...before.keys()]) if (f !== join(root, '.git') && f !== join(root, '.git', 'commondir')) before.delete(f);
  }
}

const DIR = '\0dir';

function read(f: string): string | null {
  try {
    const st = lstatSync(f);
    if (st.isDirectory()) return DIR;
    if (!st.isFile()) return '\0other';
    return readFileSync(f, 'utf8');
  } catch {
    return null;
  }
}
