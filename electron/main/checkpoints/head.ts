import { git } from './shadow';

/** Where the project's HEAD is: its commit (absent before the first commit or outside a repository) and branch (absent when detached). */
export interface HeadState {
  commit?: string;
  branch?: string;
}

/** The project's HEAD, or `{}` outside a git repository. */
export async function readHead(projectDir: string): Promise<HeadState> {
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
