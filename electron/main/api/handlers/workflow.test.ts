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
    expect(data.problems[2]!.message).toMatch(/^The toolset "runners" \(needed by the development, testing, debugging protocols\)/);
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
