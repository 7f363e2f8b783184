import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { forgetLaneGitPointers, gitPointers, guardGitPointers, holdGitPointers } from './git-guard';

const made: string[] = [];
const releases: Array<() => void> = [];
afterEach(() => {
  for (const r of releases.splice(0)) r();
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
});

it("a component's worktree removed: its held pointers are let go (a worktree made again there keeps its own), the project's are still put back", () => {
  const root = mkdtempSync(join(tmpdir(), 'erasmus-guard-'));
  made.push(root);
  const lane = join(root, '.git', 'erasmus', 'worktrees', 'run1', 'a');
  const admin = join(root, '.git', 'worktrees', 'a');
  mkdirSync(lane, { recursive: true });
  mkdirSync(admin, { recursive: true });
  writeFileSync(join(lane, '.git'), `gitdir: ${admin}\n`);
  writeFileSync(join(admin, 'commondir'), '../..\n');
  const profile = { root, lane };
  // A command in the lane runs on (in the background): what its pointers held before it is held.
  releases.push(holdGitPointers(profile, gitPointers(profile)));
  writeFileSync(join(lane, '.git'), 'gitdir: /elsewhere\n');
  writeFileSync(join(root, '.git', 'commondir'), '../evil\n');
  expect(guardGitPointers().sort()).toEqual(['.git/commondir', '.git/erasmus/worktrees/run1/a/.git']);
  expect(readFileSync(join(lane, '.git'), 'utf8')).toBe(`gitdir: ${admin}\n`);
  expect(existsSync(join(root, '.git', 'commondir'))).toBe(false);
  // The worktree is removed and made again at the same place, git's folder for it named anew: left as git made it.
  forgetLaneGitPointers(join(root, '.git', 'erasmus', 'worktrees', 'run1'));
  writeFileSync(join(lane, '.git'), `gitdir: ${admin}1\n`);
  writeFileSync(join(root, '.git', 'commondir'), '../evil\n');
  expect(guardGitPointers()).toEqual(['.git/commondir']);
  expect(readFileSync(join(lane, '.git'), 'utf8')).toBe(`gitdir: ${admin}1\n`);
  expect(existsSync(join(root, '.git', 'commondir'))).toBe(false);
});
