import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Paths } from '../paths/index';
import { WorkflowEngine } from './engine';
import { git, repositoryIn } from './testing-repo';

let root: string | undefined;
let engine: WorkflowEngine | undefined;
afterEach(async () => {
  await engine?.dispose();
  if (root) rmSync(root, { recursive: true, force: true });
  root = engine = undefined;
});

function setup(configYaml: string) {
  root = mkdtempSync(join(tmpdir(), 'erasmus-git-settings-'));
  const dir = repositoryIn(root);
  const home = join(root, 'home');
  mkdirSync(home);
  writeFileSync(join(home, 'config.yaml'), configYaml);
  engine = new WorkflowEngine({ paths: new Paths(home), emit: () => undefined });
  return { dir, e: engine };
}

describe("config.yaml's git section", () => {
  it('git.branch current keeps a run on the branch checked out unless told otherwise; commitReviews keeps review reports in the project', async () => {
    const { dir, e } = setup('git:\n  branch: current\n  commitReviews: true\n');
    const { runId } = await e.load({ projectDir: dir, goal: 'Add a greeting' });
    expect((await e.status(runId)).git).toEqual({ mode: 'current' });
    expect((await e.store.find(runId))?.reviews).toBeUndefined(); // an existing code base without docs/: committed all the same
    const own = await e.load({ projectDir: dir, goal: 'Add a greeting', branch: 'branch' });
    expect((await e.status(own.runId)).git).toEqual({ mode: 'branch' });
    expect(git(dir, 'symbolic-ref', '--short', 'HEAD')).toBe('main');
  });

  it('without the section a run has its own branch and keeps reviews out of the tree; a bad value names the key and what it takes', async () => {
    const { dir, e } = setup('toolMode: auto\n');
    const { runId } = await e.load({ projectDir: dir, goal: 'Add a greeting' });
    expect((await e.status(runId)).git).toEqual({ mode: 'branch' });
    expect((await e.store.find(runId))?.reviews).toBe('home');
    writeFileSync(new Paths(join(root!, 'home')).configYaml, 'git:\n  branch: main\n');
    await expect(e.load({ projectDir: dir, goal: 'x' })).rejects.toThrow(/config\.yaml: git: branch: .*\(git takes branch: own \| current, commitReviews: true \| false\)/);
  });
});
