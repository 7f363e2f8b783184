import { readFile, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { git } from './shadow';

/** Where the project's HEAD is: its commit (absent before the first commit or outside a repository) and branch (absent when detached). */
export interface HeadState {
  commit?: string;
  branch?: string;
}

/** Where a repository keeps HEAD (its git dir) and its branches (the common dir: a linked worktree shares its main one's). */
interface GitDirs {
  gitDir: string;
  commonDir: string;
}
/** By project folder, once it is known to be in a repository (a folder outside one is asked again: it may become one). */
const gitDirs = new Map<string, GitDirs>();

async function gitDirsOf(projectDir: string): Promise<GitDirs | undefined> {
  const known = gitDirs.get(projectDir);
  if (known) return known;
  const r = await git(projectDir, ['rev-parse', '--absolute-git-dir', '--git-common-dir']);
  const [gitDir, common] = r.code === 0 ? r.stdout.trim().split('\n') : [];
  if (!gitDir || !common) return undefined;
  const dirs = { gitDir, commonDir: resolve(projectDir, common) };
  gitDirs.set(projectDir, dirs);
  return dirs;
}

const SHA = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;

/**
 * HEAD read from the repository's files, as git keeps them (HEAD, the branch's loose ref, else packed-refs); no
 * process once the repository's folders are known. Undefined where the files say something this does not read
 * (reftable, a symbolic branch ref, HEAD naming something other than a branch): git is asked then.
 */
async function headFromFiles(dirs: GitDirs): Promise<HeadState | undefined> {
  if (await stat(join(dirs.commonDir, 'reftable')).then(() => true, () => false)) return undefined;
  const head = (await readFile(join(dirs.gitDir, 'HEAD'), 'utf8').catch(() => '')).trim();
  if (SHA.test(head)) return { commit: head };
  const ref = /^ref: (refs\/heads\/\S+)$/.exec(head)?.[1];
  if (!ref) return undefined;
  const branch = ref.slice('refs/heads/'.length);
  const loose = await readFile(join(dirs.commonDir, ...ref.split('/')), 'utf8').then(
    (t) => t.trim(),
    (err: NodeJS.ErrnoException) => (err.code === 'ENOENT' || err.code === 'EISDIR' ? undefined : null),
  );
  if (loose === null) return undefined;
  if (loose !== undefined) return SHA.test(loose) ? { commit: loose, branch } : undefined;
  const packed = await readFile(join(dirs.commonDir, 'packed-refs'), 'utf8').catch(() => '');
  for (const line of packed.split('\n')) {
    const [sha, name] = line.split(' ');
    if (name === ref && sha && SHA.test(sha)) return { commit: sha, branch };
  }
  // No commit yet: the branch is all there is.
  return { branch };
}

/** The project's HEAD, or `{}` outside a git repository. */
export async function readHead(projectDir: string): Promise<HeadState> {
  const dirs = await gitDirsOf(projectDir);
  if (!dirs) return {};
  const fromFiles = await headFromFiles(dirs);
  if (fromFiles) return fromFiles;
  // One process in the common case: the commit and the ref HEAD names ("HEAD" when detached).
  const both = await git(projectDir, ['rev-parse', 'HEAD^{commit}', '--symbolic-full-name', 'HEAD']);
  if (both.code === 0) {
    const [commit, ref] = both.stdout.trim().split('\n');
    return { ...(commit ? { commit } : {}), ...(ref?.startsWith('refs/heads/') ? { branch: ref.slice('refs/heads/'.length) } : {}) };
  }
  // That fails only when HEAD names no commit: before the first commit (or outside a repository), where the branch is all there is.
  const branch = await git(projectDir, ['symbolic-ref', '-q', '--short', 'HEAD']);
  return branch.code === 0 && branch.stdout.trim() ? { branch: branch.stdout.trim() } : {};
}

async function must(projectDir: string, args: string[]): Promise<void> {
  const r = await git(projectDir, args);
  if (r.code !== 0) throw new Error(`git ${args.join(' ')} failed in ${projectDir}: ${r.stdout.trim()}`);
}

/** The ref under which a rewind keeps the commits it undoes, so they stay reachable (`git log --all` shows them). */
export function keptRef(checkpointId: string): string {
  return `refs/erasmus/rewound/${checkpointId}`;
}

/** The commits between `to` and `from` (newest first): what moving HEAD from `from` back to `to` undoes. */
export async function commitsUndone(projectDir: string, from: HeadState, to: HeadState): Promise<Array<{ commit: string; subject: string }>> {
  if (!from.commit || from.commit === to.commit) return [];
  const r = await git(projectDir, ['log', '--format=%H%x00%s', from.commit, ...(to.commit ? [`^${to.commit}`] : []), '--']);
  if (r.code !== 0) return [];
  return r.stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [commit, subject] = line.split('\0');
      return { commit: commit!, subject: subject ?? '' };
    });
}

/**
 * Puts the project's HEAD back where `target` was: the same branch at the same commit (or detached
 * at it). The index follows HEAD (a mixed reset), the working tree is left to the caller. The commit
 * HEAD leaves is kept under `keep` first, so nothing it undoes becomes unreachable.
 */
export async function restoreHead(projectDir: string, target: HeadState, keep?: string): Promise<void> {
  const now = await readHead(projectDir);
  if (now.commit === target.commit && now.branch === target.branch) return;
  if (now.commit && keep) await must(projectDir, ['update-ref', keep, now.commit]);
  if (target.branch) {
    if (now.branch !== target.branch) await must(projectDir, ['symbolic-ref', 'HEAD', `refs/heads/${target.branch}`]);
    if (target.commit) await must(projectDir, ['reset', '-q', '--mixed', target.commit]);
    else {
      // Before the first commit: the branch is unborn again and the index empty (the files are the caller's).
      await git(projectDir, ['update-ref', '-d', `refs/heads/${target.branch}`]);
      await must(projectDir, ['read-tree', '--empty']);
    }
    return;
  }
  if (target.commit) {
    await must(projectDir, ['update-ref', '--no-deref', 'HEAD', target.commit]);
    await must(projectDir, ['reset', '-q', '--mixed']);
  }
}

/** Removes `branch` if it still points at `commit` (a branch moved since is left as it is); whether it went. */
export async function removeBranch(projectDir: string, branch: string, commit: string): Promise<boolean> {
  return (await git(projectDir, ['update-ref', '-d', `refs/heads/${branch}`, commit])).code === 0;
}
