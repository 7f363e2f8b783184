// The check before Start, in the core: the app's workflow.load/start refuse an agent run that has no
// model or lacks a toolset its protocols name, saying what is missing and where it is fixed; nothing
// is created. The same check serves `erasmus workflow start` (workflow/preflight.ts).
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RpcError } from '../../../contract/index';
import { connectedCore, type ConnectedCore } from '../testing';

let c: ConnectedCore | undefined;
afterEach(async () => {
  await c?.dispose();
  c = undefined;
});

function project(home: string): string {
  const dir = join(home, 'project');
  mkdirSync(dir, { recursive: true });
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: dir });
  return dir;
}

async function refusal(p: Promise<unknown>): Promise<RpcError> {
  const err = await p.then(() => undefined, (e: unknown) => e);
  expect(err).toBeInstanceOf(RpcError);
  return err as RpcError;
}

describe('workflow.load / workflow.start: the check before Start', () => {
  it('refuses an agent run with no provider and no toolsets, naming each and where to fix it; creates nothing', async () => {
    c = connectedCore('wf-preflight');
    const dir = project(c.home);
    const err = await refusal(c.client.request('workflow.load', { projectDir: dir, executor: 'agent', goal: 'add' }));
    expect(err.message).toMatch(/^the workflow cannot start:\n {2}- No model to run the steps: /);
    const data = err.data as { kind: string; problems: Array<{ fix: string; message: string; how: string }> };
    expect(data.kind).toBe('PREFLIGHT');
    expect(data.problems.map((p) => p.fix)).toEqual(['providers', 'servers', 'servers']);
    expect(data.problems[1]!.message).toBe('The toolset "files" (needed by the design, orchestration, development, testing, debugging, review, documentation protocols) is not available (available: none).');
    expect(data.problems[2]!.message).toMatch(/^The toolset "runners" \(needed by the design, development, testing, debugging, review, documentation protocols\)/);
    expect(data.problems[2]!.how).toMatch(/Servers view/);
    expect(await c.client.request('workflow.latest', { projectDir: dir })).toEqual({ runId: null });
    // The external engine brings its own model and tools: no check.
    expect(await c.client.request('workflow.load', { projectDir: dir, executor: 'external', goal: 'add' })).toMatchObject({ runId: expect.any(String) });
  });

  it('with a provider, only the missing toolsets are named; a loaded agent run is checked again at start', async () => {
    c = connectedCore('wf-preflight-start');
    const dir = project(c.home);
    writeFileSync(join(c.home, 'config.yaml'), 'defaultProvider: local\nproviders:\n  - id: local\n    kind: openai-compatible\n    model: m\n    baseUrl: http://127.0.0.1:9/v1\n');
    const err = await refusal(c.client.request('workflow.load', { projectDir: dir, executor: 'agent' }));
    expect((err.data as { problems: Array<{ fix: string }> }).problems.map((p) => p.fix)).toEqual(['servers', 'servers']);
    // A run created past the check (another face, an older version) still cannot start without it.
    const { runId } = await c.core.workflow.load({ projectDir: dir, executor: { kind: 'agent' } });
    const atStart = await refusal(c.client.request('workflow.start', { runId }));
    expect(atStart.data).toMatchObject({ kind: 'PREFLIGHT', problems: [{ fix: 'servers' }, { fix: 'servers' }] });
    expect((await c.client.request('workflow.status', { runId })).status).toBe('LOADED');
  });
});

describe('workflow.runs: a project’s runs with their steps’ sessions, for the sessions list', () => {
  it('lists runs newest first with the goal’s first line, each step in run order and the session that ran it; validates its params', async () => {
    c = connectedCore('wf-runs');
    const dir = project(c.home);
    const first = await c.client.request('workflow.load', { projectDir: dir, executor: 'external', goal: 'Add numbers\nwith a CLI' });
    const task = await c.client.request('workflow.getTask', { runId: first.runId });
    expect(task).toMatchObject({ status: 'AWAITING_COGNITIVE_RESULT', step: { state: 'prepare:architecture' } });
    await c.client.request('workflow.submitTask', { runId: first.runId, state: 'prepare:architecture', result: { output: '# Architecture\n\nOne module.\n', sessionLog: join(c.home, 'sessions', 'sess-arch-1.jsonl') } });
    const next = await c.client.request('workflow.getTask', { runId: first.runId });
    expect(next).toMatchObject({ step: { state: 'prepare:progress_schedule' } });
    // An engine's log by another name links no session.
    await c.client.request('workflow.submitTask', { runId: first.runId, state: 'prepare:progress_schedule', result: { output: '# Schedule\n\n1. adder\n', sessionLog: '/elsewhere/notes.txt' } });
    await c.client.request('workflow.stop', { runId: first.runId });
    await new Promise((r) => setTimeout(r, 5)); // createdAt orders the runs
    const second = await c.client.request('workflow.load', { projectDir: dir, executor: 'external' });

    const { runs } = await c.client.request('workflow.runs', { projectDir: dir });
    expect(runs.map((r) => r.runId)).toEqual([second.runId, first.runId]);
    expect(runs[0]).toMatchObject({ status: 'LOADED', steps: [] });
    expect(runs[0]!.goal).toBeUndefined();
    const old = runs[1]!;
    expect(old.goal).toBe('Add numbers');
    expect(old.steps.slice(0, 2)).toEqual([
      expect.objectContaining({ state: 'prepare:architecture', outcome: 'written', sessionId: 'sess-arch-1' }),
      expect.objectContaining({ state: 'prepare:progress_schedule', outcome: 'written' }),
    ]);
    expect(old.steps[1]!.sessionId).toBeUndefined();
    expect(Date.parse(old.createdAt)).toBeLessThanOrEqual(Date.parse(old.steps[0]!.enteredAt));

    expect((await c.client.request('workflow.runs', { projectDir: dir, limit: 1 })).runs.map((r) => r.runId)).toEqual([second.runId]);
    expect(await c.client.request('workflow.runs', { projectDir: join(c.home, 'no-runs-here') })).toEqual({ runs: [] });
    const bad = await refusal(c.client.request('workflow.runs', { projectDir: dir, limit: 0 }));
    expect(bad.code).toBe(-32602);
  });
});
