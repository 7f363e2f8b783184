// The app (`erasmus serve`) and a terminal on one run, a component side by side stopped to ask while another runs:
// whichever drives the run takes the other's retry or skip (relay.ts). Serve drives and a terminal answers; a terminal
// drives and the app's card answers (its refusal, in the driver's words, too).
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import WebSocket from 'ws';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startServe, type ServeHandle } from '../support/serve';
import { askingLanes, CLI, ensureBuilt, killGroup } from './workflow-helpers';

const MODEL = resolve(__dirname, '../fixtures/workflow/parallel-model.mjs');
let root: string | undefined;
const children: ChildProcess[] = [];
const sockets: WebSocket[] = [];
/** Each test's `erasmus serve` (on its own home, which startServe leaves to the test): stopped after it, passed or not. */
const serves: ServeHandle[] = [];

beforeAll(() => {
  ensureBuilt();
}, 120_000);

afterEach(async () => {
  for (const s of sockets.splice(0)) s.close();
  await Promise.all(serves.splice(0).map((s) => s.stop()));
  for (const c of children.splice(0)) killGroup(c);
  if (root) await rm(root, { recursive: true, force: true });
  root = undefined;
});

async function setup(): Promise<{ project: string; hold: string; env: Record<string, string> }> {
  root = await mkdtemp(join(tmpdir(), 'erasmus-relay-serve-'));
  // a's development is held in flight (until the hold file goes) while b stops to ask.
  return askingLanes(root);
}

/** JSON-RPC over the app's socket, as the renderer speaks it. */
async function connect(wsUrl: string): Promise<(method: string, params: object) => Promise<{ result?: Record<string, unknown>; error?: { message: string } }>> {
  const ws = new WebSocket(wsUrl);
  sockets.push(ws);
  await new Promise<void>((res, rej) => {
    ws.once('open', () => res());
    ws.once('error', rej);
  });
  const waiting = new Map<number, (m: { result?: Record<string, unknown>; error?: { message: string } }) => void>();
  ws.on('message', (m) => {
    const msg = JSON.parse(String(m)) as { id?: number; result?: Record<string, unknown>; error?: { message: string } };
    if (msg.id !== undefined) waiting.get(msg.id)?.(msg);
  });
  let id = 0;
  return (method, params) =>
    new Promise((res) => {
      waiting.set(++id, res);
      ws.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
    });
}

async function until<T>(get: () => Promise<T> | T, ok: (v: T) => boolean, what = 'a condition'): Promise<T> {
  for (const end = Date.now() + 60_000; ; ) {
    const v = await get();
    if (ok(v)) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}; last: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function cli(args: string[], env: Record<string, string>): { stderr: () => string; done: Promise<number | null>; pid: number } {
  const c = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, ...env }, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(c);
  let stderr = '';
  c.stderr!.on('data', (b: Buffer) => (stderr += b.toString()));
  c.stdout!.resume();
  return { stderr: () => stderr, done: new Promise((res) => c.on('close', res)), pid: c.pid! };
}

type Lane = { component: string; status: string };
const bBlocked = (v: { result?: Record<string, unknown> }) => ((v.result?.lanes as Lane[] | undefined) ?? []).some((l) => l.component === 'b' && l.status === 'blocked');

describe('a retry between the app and a terminal while the other drives the run', () => {
  it("serve drives: a terminal's answer reaches b's step there, a goes on, the run completes", async () => {
    const { project, hold, env } = await setup();
    const serve = await startServe(env);
    serves.push(serve);
    const rpc = await connect(serve.wsUrl);
    const loaded = await rpc('workflow.load', { projectDir: project, goal: 'two parts', executor: 'command', command: `node ${MODEL}` });
    const runId = loaded.result?.runId as string;
    expect(runId, JSON.stringify(loaded)).toBeTruthy();
    await rpc('workflow.start', { runId });
    await until(() => rpc('workflow.status', { runId }), (v) => v.result?.status === 'AWAITING_APPROVAL', 'the plan');
    await rpc('workflow.approve', { runId });
    await until(() => rpc('workflow.status', { runId }), bBlocked, 'b to stop and ask');
    const second = cli(['workflow', 'retry', project, '--component', 'b', '--answer', 'part b'], env);
    expect(await second.done, second.stderr()).toBe(0);
    expect(second.stderr()).toContain(`component b runs again with your answer, in process ${serve.child.pid}, which drives the run`);
    await rm(hold, { force: true });
    const done = await until(() => rpc('workflow.status', { runId }), (v) => v.result?.status !== 'RUNNING', 'the run to end');
    expect(done.result?.status).toBe('COMPLETED');
    expect(execFileSync('git', ['show', 'HEAD:b.txt'], { cwd: project, encoding: 'utf8' })).toBe('part b\n');
    await serve.stop();
  }, 120_000);

  it("a terminal drives: the app's retry reaches b's step there, and its skip of a (not blocked) is refused in the terminal's words", async () => {
    const { project, hold, env } = await setup();
    const first = cli(['workflow', 'start', project, '--goal', 'two parts', '--executor', 'command', '--command', `node ${MODEL}`, '--yes'], env);
    await until(first.stderr, (s) => s.includes('★ Component b stopped to ask you at b · development'), 'b to stop and ask');
    const serve = await startServe(env);
    serves.push(serve);
    const rpc = await connect(serve.wsUrl);
    const runId = (await rpc('workflow.latest', { projectDir: project })).result?.runId as string;
    const skip = await rpc('workflow.skip', { runId, component: 'a' });
    expect(skip.error?.message).toMatch(new RegExp(`process ${first.pid}, which drives run ${runId}, refused the skip: component a is not blocked: nothing to skip \\(the blocked one is b\\)`));
    const retry = await rpc('workflow.retry', { runId, component: 'b', answer: 'part b' });
    expect(retry.error, JSON.stringify(retry)).toBeUndefined();
    await until(first.stderr, (s) => s.includes('→ b · development\n    with your answer: “part b”'), "b's step with the answer in the terminal");
    await rm(hold, { force: true });
    expect(await first.done, first.stderr()).toBe(0);
    expect(first.stderr()).toContain('■ Completed');
    expect(execFileSync('git', ['show', 'HEAD:b.txt'], { cwd: project, encoding: 'utf8' })).toBe('part b\n');
    await serve.stop();
  }, 120_000);
});
