import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Paths } from '../../paths/index';
import { WorkflowEngine } from '../engine';
import { checkDatabaseUrl, redactedUrl } from './database-url';
import { dbosUrl } from './dbos';
import { checkpointLane, laneCommitRef, laneRef, originUrl, pushRef, restoreLane } from './lane-git';

/** Component a's first workflow in run r1. */
const K = { runId: 'r1', component: 'a', attempt: 1 };
import type { Plan, PlanComponent } from '../plan';
import type { RunContext } from '../run-context';
import { driveRemoteLane } from './remote-lane';

let root: string | undefined;
afterEach(async () => {
  if (root) await rm(root, { recursive: true, force: true });
  root = undefined;
});

const git = (dir: string, ...args: string[]) => execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...args], { cwd: dir, encoding: 'utf8' }).trimEnd();

async function project(): Promise<{ dir: string; origin: string }> {
  root = await mkdtemp(join(tmpdir(), 'erasmus-lane-git-'));
  const origin = join(root, 'origin.git');
  const dir = join(root, 'project');
  git(root, 'init', '-q', '--bare', '-b', 'main', origin);
  await mkdir(dir);
  git(dir, 'init', '-q', '-b', 'main');
  return { dir, origin };
}

describe("a component's worktree between two workers", () => {
  it('comes back exactly as the step left it: changed, new and deleted files, uncommitted; then the commit on top', async () => {
    const { dir, origin } = await project();
    await writeFile(join(dir, 'kept.txt'), 'kept\n');
    await writeFile(join(dir, 'gone.txt'), 'gone\n');
    git(dir, 'add', '-A');
    git(dir, 'commit', '-qm', 'base');
    git(dir, 'remote', 'add', 'origin', origin);
    await pushRef(dir, git(dir, 'rev-parse', 'HEAD'), laneRef(K, 'base'));

    // Worker one: the component's first step changes a file, adds one, deletes one.
    const one = join(root!, 'w1', 'r1', 'a');
    await restoreLane(one, await originUrl(dir), K, undefined);
    await writeFile(join(one, 'kept.txt'), 'changed\n');
    await writeFile(join(one, 'new.txt'), 'new\n');
    await rm(join(one, 'gone.txt'));
    // The checkpoint is Erasmus's own: a pre-push hook of the clone's (or of a global core.hooksPath) does not run for it.
    await writeFile(join(one, '.git', 'hooks', 'pre-push'), `#!/bin/sh\necho hooked >> ${join(root!, 'hooked')}\nexit 1\n`, { mode: 0o755 });
    const first = await checkpointLane(one, K, 0);
    expect(existsSync(join(root!, 'hooked'))).toBe(false);
    // (made by Erasmus, on top of the clone's HEAD)
    expect(git(one, 'log', '-1', '--format=%an <%ae> %P', first.sha)).toBe(`Erasmus <erasmus@localhost> ${git(dir, 'rev-parse', 'HEAD')}`);
    // (the checkpoint leaves the clone's index and files as they were)
    expect(git(one, 'status', '--porcelain').split('\n').sort()).toEqual([' D gone.txt', ' M kept.txt', '?? new.txt']);

    // A step that changed nothing (a review that asked for nothing): the checkpoint before it stands, nothing is pushed.
    expect(await checkpointLane(one, K, 1, { previous: first })).toBe(first);
    expect(git(origin, 'for-each-ref', '--format=%(refname)', 'refs/erasmus/r1/a/')).toBe([laneRef(K, 'base'), laneRef(K, 0)].join('\n'));
    // A changed file, or another HEAD, is a new checkpoint, whatever came before.
    await writeFile(join(one, 'new.txt'), 'newer\n');
    const changed = await checkpointLane(one, K, 1, { previous: first });
    expect(changed.sha).not.toBe(first.sha);
    await writeFile(join(one, 'new.txt'), 'new\n');

    // Worker two (another machine: another folder) goes on from that checkpoint.
    const two = join(root!, 'w2', 'r1', 'a');
    await restoreLane(two, await originUrl(dir), K, first);
    expect(await readFile(join(two, 'kept.txt'), 'utf8')).toBe('changed\n');
    expect(await readFile(join(two, 'new.txt'), 'utf8')).toBe('new\n');
    expect(existsSync(join(two, 'gone.txt'))).toBe(false);
    expect(git(two, 'status', '--porcelain').split('\n').sort()).toEqual([' D gone.txt', ' M kept.txt', '?? new.txt']);
    expect(git(two, 'rev-parse', 'HEAD')).toBe(git(dir, 'rev-parse', 'HEAD'));

    // Its commit step commits; the checkpoint after it has that commit as HEAD, and a clean tree.
    git(two, 'add', '-A');
    git(two, 'commit', '-qm', 'component a');
    // (the component's branch goes in the checkpoint's push)
    const commit = git(two, 'rev-parse', 'HEAD');
    const second = await checkpointLane(two, K, 1, { also: [{ sha: commit, ref: laneCommitRef(K) }] });
    expect(git(origin, 'rev-parse', laneCommitRef(K))).toBe(commit);
    await restoreLane(one, await originUrl(dir), K, second);
    expect(git(one, 'log', '-1', '--format=%s')).toBe('component a');
    expect(git(one, 'status', '--porcelain')).toBe('');

    // A step run again after a crash pushes its own step's ref: the checkpoint the step before recorded stays.
    expect(git(origin, 'rev-parse', laneRef(K, 0))).toBe(first.sha);
    await expect(restoreLane(one, await originUrl(dir), K, { step: 0, sha: second.sha, attempt: 1 })).rejects.toThrow(/not .* as that step recorded/);
  });
});

describe('--database-url', () => {
  it('is checked, and shown without its password', () => {
    expect(redactedUrl('postgres://me:secret@db.example:5432/runs')).toBe('postgres://me:***@db.example:5432/runs');
    expect(() => checkDatabaseUrl('mysql://db/runs')).toThrow(/must start with postgres:\/\//);
    expect(() => checkDatabaseUrl('not a url')).toThrow(/is not a URL; give postgres:\/\/user:password@host:port\/database/);
  });

  it("is given to DBOS with its idle-in-transaction timeout set at connection start (DBOS's own query for it on each new connection is what pg reports as deprecated)", () => {
    const given = (url: string) => new URL(dbosUrl(url)).searchParams.get('options');
    expect(given('postgres://me:p%40ss@db:5432/runs?sslmode=verify-full')).toBe('-c idle_in_transaction_session_timeout=60000');
    expect(new URL(dbosUrl('postgres://me:p%40ss@db:5432/runs?sslmode=verify-full')).password).toBe('p%40ss');
    expect(given('postgres://db/runs?options=-c%20search_path%3Dx')).toBe('-c search_path=x -c idle_in_transaction_session_timeout=60000');
    const own = 'postgres://db/runs?options=-c%20idle_in_transaction_session_timeout%3D5000';
    expect(dbosUrl(own)).toBe(own);
  });

  it('refuses a project without an origin remote before anything is done, saying how to go on', async () => {
    const { dir } = await project();
    const engine = new WorkflowEngine({ paths: new Paths(join(root!, 'home')), emit: () => undefined });
    try {
      await expect(engine.load({ projectDir: dir, goal: 'x', executor: { kind: 'command', command: 'true' }, databaseUrl: 'postgres://u@127.0.0.1:1/db' })).rejects.toThrow(
        /needs the project to have an `origin` remote .* \(`git remote add origin <url>`\), or start the run without --database-url/,
      );
      // The external engine's steps cannot run in a worker: refused, saying so.
      git(dir, 'remote', 'add', 'origin', join(root!, 'origin.git'));
      await expect(engine.load({ projectDir: dir, goal: 'x', executor: { kind: 'external' }, databaseUrl: 'postgres://u@127.0.0.1:1/db' })).rejects.toThrow(
        /with the agent executor \(the default\) or --executor command; the external executor's steps are answered by the engine that asks for them/,
      );
      expect(await engine.list(dir)).toEqual([]);
    } finally {
      await engine.dispose();
    }
  });

  it("a database that cannot be reached blocks the component, saying which (without its password) and how to go on", async () => {
    const lane = { component: 'a', status: 'waiting', entries: [] } as const;
    await expect(driveRemoteLane('postgres://me:secret@127.0.0.1:1/runs', { record: { projectDir: root ?? '/nowhere' } } as unknown as RunContext, {} as Plan, { ...lane, entries: [] }, { id: 'a' } as PlanComponent)).rejects.toThrow(
      /^the run's database postgres:\/\/me:\*\*\*@127\.0\.0\.1:1\/runs cannot be reached \(.*ECONNREFUSED.*\): start it, or resume with the right --database-url/,
    );
  });
});
