import { existsSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { previewText } from '../../cli/commands/workflow-checkpoints';
import { approved, cleanUpAfterEach, git, setup, until } from '../../../tests/fixtures/workflow/parallel-harness';

// Pause, stop and rewind with two components in flight (their development steps held by a file).
cleanUpAfterEach();

describe('a parallel run under control', () => {
  /** A run whose development steps wait while the file `hold` exists (those of `only`, or all), approved and under way. */
  async function heldRun(env: Record<string, string>, commitFirst = false) {
    const hold = join(tmpdir(), `erasmus-parallel-hold-${process.pid}-${Math.random().toString(36).slice(2)}`);
    await writeFile(hold, '');
    const s = await setup({ PARALLEL_MODEL_HOLD: hold, ...env });
    if (commitFirst) {
      await writeFile(join(s.dir, 'README.md'), 'project\n');
      git(s.dir, 'add', 'README.md');
      git(s.dir, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '-m', 'Start');
    }
    const runId = await approved(s.engine, s.dir, 2);
    return { ...s, runId, hold, release: () => rm(hold, { force: true }) };
  }
  const open = (v: { timeline: Array<{ worktree?: string; leftAt?: string; state: string }> }) => v.timeline.filter((e) => e.worktree && !e.leftAt);

  it('pause with two lanes in flight: each finishes its step, the third does not start, their worktrees stay; resume completes', async () => {
    const { dir, engine, runId, release } = await heldRun({ PARALLEL_MODEL_COMPONENTS: 'a,b,c' });
    try {
      await until(engine, runId, (v) => open(v).length === 2);
      await engine.pause(runId);
      await release();
      const paused = await engine.waitForRest(runId, 120_000);
      expect(paused.status, JSON.stringify(paused.error)).toBe('PAUSED');
      // Both steps in flight ended done (not aborted); nothing is left open; c never started.
      expect(paused.timeline.filter((e) => e.state.endsWith(':development')).map((e) => [e.state, e.outcome]).sort()).toEqual([['a:development', 'done'], ['b:development', 'done']]);
      expect(paused.timeline.every((e) => e.leftAt)).toBe(true);
      expect(paused.lanes?.map((l) => [l.component, l.status])).toEqual([['a', 'running'], ['b', 'running'], ['c', 'waiting']]);
      for (const l of paused.lanes!.slice(0, 2)) expect(await readFile(join(l.worktree!, `${l.component}.txt`), 'utf8')).toBe(`${l.component}\n`);
      expect(git(dir, 'worktree', 'list').split('\n')).toHaveLength(3);
      await engine.resume(runId);
      const view = await engine.waitForRest(runId, 120_000);
      expect(view.status, JSON.stringify(view.error)).toBe('COMPLETED');
      // The paused steps did not run again.
      expect(view.timeline.filter((e) => e.state.endsWith(':development'))).toHaveLength(3);
      expect(git(dir, 'log', '--format=%s').split('\n')).toEqual(['Update the documentation', 'Write c.txt', 'Write b.txt', 'Write a.txt']);
      expect(git(dir, 'worktree', 'list').split('\n')).toHaveLength(1);
      expect(git(dir, 'branch', '--format=%(refname:short)')).toBe('main');
    } finally {
      await release();
    }
  }, 180_000);

  it('stop with two lanes in flight: both steps are aborted and closed, the worktrees kept; resume runs them again and completes', async () => {
    const { dir, engine, runId, release } = await heldRun({ PARALLEL_MODEL_COMPONENTS: 'a,b' });
    try {
      await until(engine, runId, (v) => open(v).length === 2);
      await engine.stop(runId);
      const stopped = await engine.status(runId);
      expect(stopped.status).toBe('STOPPED');
      expect(stopped.timeline.filter((e) => e.state.endsWith(':development')).map((e) => e.outcome)).toEqual(['aborted', 'aborted']);
      expect(stopped.timeline.every((e) => e.leftAt)).toBe(true);
      expect(stopped.lanes?.map((l) => l.status)).toEqual(['running', 'running']);
      expect(git(dir, 'worktree', 'list').split('\n')).toHaveLength(3);
      await release();
      await engine.resume(runId);
      const view = await engine.waitForRest(runId, 120_000);
      expect(view.status, JSON.stringify(view.error)).toBe('COMPLETED');
      expect(view.timeline.filter((e) => e.state.endsWith(':development')).map((e) => e.outcome)).toEqual(['aborted', 'aborted', 'done', 'done']);
      // Each step run again heard that it is a retry of a step stopped while it ran, as after a crash.
      for (const c of ['a', 'b']) {
        const again = view.timeline.findLastIndex((e) => e.state === `${c}:development`);
        expect(await engine.stepPrompt(runId, again)).toContain('This step ran before, and the run stopped there: Erasmus stopped while it ran');
      }
      expect(git(dir, 'log', '--format=%s').split('\n')).toEqual(['Update the documentation', 'Write b.txt', 'Write a.txt']);
      expect(git(dir, 'worktree', 'list').split('\n')).toHaveLength(1);
    } finally {
      await release();
    }
  }, 180_000);

  it('rewind to before the parallel phase, one lane merged and one in flight: a consistent tree and record; resume starts afresh, the rewound work kept', async () => {
    const { dir, engine, runId, release } = await heldRun({ PARALLEL_MODEL_COMPONENTS: 'a,b', PARALLEL_MODEL_HOLD_ONLY: 'b' }, true);
    try {
      await until(engine, runId, (v) => v.lanes?.[0]?.status === 'merged' && open(v).length === 1);
      await engine.pause(runId);
      await release();
      const paused = await engine.waitForRest(runId, 120_000);
      expect(paused.status).toBe('PAUSED');
      expect(git(dir, 'log', '--format=%s').split('\n')).toEqual(['Write a.txt', 'Start']);
      const cp = paused.timeline.find((e) => e.state === 'parallel:components')?.checkpoint;
      expect(cp).toBeDefined();
      // The preview names b's worktree and its uncommitted file (no checkpoint of the project covers them), and where the resume keeps them.
      const preview = await engine.rewindPreview(runId, cp!);
      const bLane = paused.lanes!.find((l) => l.component === 'b')!;
      expect(preview.lanes).toEqual([{ component: 'b', worktree: bLane.worktree, files: [{ path: 'b.txt', change: 'added' }], keptRef: `refs/erasmus/kept/${runId}/b` }]);
      expect(previewText(preview)).toContain(`component b's worktree ${bLane.worktree} holds 1 uncommitted file: the rewind takes it out of the run`);
      const r = await engine.rewind(runId, cp!);
      expect(r.status).toBe('PAUSED');
      expect(r.state).toBe('parallel:components');
      // The tree and HEAD are those before the phase; the record has no lanes; the rewound commit is kept by rewind.
      const rewound = await engine.status(runId);
      expect(rewound.lanes).toBeUndefined();
      expect(git(dir, 'log', '--format=%s')).toBe('Start');
      expect(git(dir, 'status', '--porcelain')).toBe('');
      expect(existsSync(join(dir, 'a.txt'))).toBe(false);
      await engine.resume(runId);
      const view = await engine.waitForRest(runId, 120_000);
      expect(view.status, JSON.stringify(view.error)).toBe('COMPLETED');
      expect(git(dir, 'log', '--format=%s').split('\n')).toEqual(['Update the documentation', 'Write b.txt', 'Write a.txt', 'Start']);
      expect(git(dir, 'status', '--porcelain')).toBe('');
      expect(git(dir, 'worktree', 'list').split('\n')).toHaveLength(1);
      expect(git(dir, 'branch', '--format=%(refname:short)').split('\n').filter((b) => b.startsWith('erasmus-lane/'))).toEqual([]);
      // b's work of the rewound attempt (its file, not committed) is kept, and the phase's entry says where.
      const kept = `refs/erasmus/kept/${runId}/b`;
      expect(git(dir, 'show', `${kept}:b.txt`)).toBe('b');
      expect(view.timeline.filter((e) => e.state === 'parallel:components' && !e.rewound).at(-1)?.note).toContain(kept);
    } finally {
      await release();
    }
  }, 180_000);
});
