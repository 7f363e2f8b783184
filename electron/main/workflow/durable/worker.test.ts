import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AgentService } from '../../agent/service';
import { Paths } from '../../paths/index';
import { laneOf } from '../../runners/pty/sandbox';
import { WORKTREE_META, worktreeOf } from '../../runners/runner';
import type { RunRecord } from '../run-record';
import { cloneDir, providerReady, workRoot } from './worker';

let root: string | undefined;
afterEach(async () => {
  if (root) await rm(root, { recursive: true, force: true });
  root = undefined;
});

describe('a worker', () => {
  it("keeps each clone where its built-in servers and the sandbox take a lane's worktree to be", async () => {
    root = await mkdtemp(join(tmpdir(), 'erasmus-worker-'));
    const work = await workRoot(join(root, 'work'));
    const clone = cloneDir(work, 'r1', 'alpha', 2);
    await mkdir(clone, { recursive: true });
    // The files and runners servers (rooted at the worker's folder) work in the clone a call names; the sandbox lets its commands write it alone.
    expect(worktreeOf(work, { [WORKTREE_META]: clone })).toBe(clone);
    expect(laneOf(work, join(clone, 'src'))).toBe(clone);
    expect(await workRoot(work)).toBe(work); // made once
  });

  it("refuses an agent step whose provider this machine lacks, naming it and what to add where", async () => {
    root = await mkdtemp(join(tmpdir(), 'erasmus-worker-'));
    const paths = new Paths(join(root, 'home'));
    await mkdir(paths.home, { recursive: true });
    await writeFile(paths.configYaml, 'providers:\n  - id: local\n    kind: openai-compatible\n    model: m\n    baseUrl: http://127.0.0.1:9/v1\n');
    const agent = new AgentService({ paths, secrets: { get: async () => undefined }, env: {}, emit: () => undefined });
    const record = (executor: RunRecord['executor']) => ({ executor }) as RunRecord;
    await expect(providerReady((o) => agent.provider(o), paths.configYaml, record({ kind: 'agent', provider: 'scripted' }))).rejects.toThrow(
      new RegExp(`^the worker on .+ cannot use the run's provider "scripted": no provider "scripted" in config.yaml; configured: local\\. A worker takes the run's provider by its id from its own ${paths.configYaml} and keychain: add it there .* then retry the run`),
    );
    await expect(providerReady((o) => agent.provider(o), paths.configYaml, record({ kind: 'agent', provider: 'local' }))).resolves.toBeUndefined();
    await expect(providerReady(() => Promise.reject(new Error('never asked')), paths.configYaml, record({ kind: 'command', command: 'true' }))).resolves.toBeUndefined();
  });
});
