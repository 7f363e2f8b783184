import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { cp, mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../../contract/index';
import { AgentService } from '../../agent/service';
import { SessionLog } from '../../sessions/log';
import { Paths } from '../../paths/index';
import { laneOf } from '../../runners/pty/sandbox';
import { WORKTREE_META, worktreeOf } from '../../runners/runner';
import { WorkflowEngine } from '../engine';
import type { StepRequest } from '../executor';
import type { RunRecord } from '../run-record';
import { UnansweredApproval } from '../../agent/approval-path';
import { RunGone, type WorkerBridge } from './bridge';
import type { LaneProgress } from './component-step';
import type { StepLog } from './step-log';
import { workerName } from './dbos';
import { cloneDir, inStep, providerReady, settleStep, sweepClones, warmWorker, withWorker, workerForward, workRoot } from './worker';

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

  it('removes, as it starts, the clones a killed worker left of workflows that ended since; those under way or unknown stay', async () => {
    root = await mkdtemp(join(tmpdir(), 'erasmus-worker-'));
    const work = await workRoot(join(root, 'work'));
    const clones = { done: cloneDir(work, 'r1', 'alpha', 1), running: cloneDir(work, 'r1', 'beta', 1), unknown: cloneDir(work, 'r2', 'gamma', 3), cancelled: cloneDir(work, 'r3', 'delta', 2) };
    for (const dir of Object.values(clones)) await mkdir(dir, { recursive: true });
    const statuses: Record<string, string> = { 'r1:alpha:1': 'SUCCESS', 'r1:beta:1': 'PENDING', 'r3:delta:2': 'CANCELLED' };
    const asked: string[] = [];
    const gone = await sweepClones(work, async (ids) => (asked.push(...ids), ids.filter((id) => statuses[id]).map((workflowID) => ({ workflowID, status: statuses[workflowID]! }))));
    expect(asked.sort()).toEqual(['r1:alpha:1', 'r1:beta:1', 'r2:gamma:3', 'r3:delta:2']);
    expect(gone.sort()).toEqual([clones.done, clones.cancelled].sort());
    expect(existsSync(clones.running) && existsSync(clones.unknown)).toBe(true);
    expect(existsSync(join(work, '.git', 'erasmus', 'worktrees', 'r3.2'))).toBe(false); // emptied: gone too
    expect(await sweepClones(join(root, 'none'), async () => [])).toEqual([]);
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

  it("refuses a call nobody following the run can answer, and the step does not fail for it: its note says what was not asked and how to have the next asked", async () => {
    const why = 'nobody follows run r1 now: the process that drives it is paused, stopped or gone';
    const bridge = { approval: () => Promise.reject(new RunGone(why)), elicitation: () => Promise.reject(new RunGone(why)) } as unknown as WorkerBridge;
    const forward = workerForward(bridge);
    const request = { requestId: 'q', kind: 'command' as const, name: 'runners__bash', args: { command: 'npm test' }, reasons: ['runs code'] };
    const lines: string[] = [];
    const entry = { state: 'alpha:testing', enteredAt: '2026-01-01T00:00:00.000Z', leftAt: '2026-01-01T00:01:00.000Z', outcome: 'tests-passed' } as LaneProgress['timeline'][number];
    const out = { steps: 3, lane: { component: 'alpha', status: 'running', entries: [] }, timeline: [{ ...entry, state: 'alpha:development' }, entry], docs: {}, done: false } as LaneProgress;
    const settled = await inStep({ runId: 'r1', workflowId: 'r1:alpha:1', component: 'alpha', step: 2, state: () => 'alpha:testing' }, async (place) => {
      // The model's call is refused at once with words that say nobody could be asked, and why (the agent tells it to go on without it).
      const err = await forward.approval(request, new AbortController().signal).catch((e: Error) => e);
      expect(err).toBeInstanceOf(UnansweredApproval);
      expect((err as Error).message).toBe(`needs approval; nobody could be asked (${why})`);
      expect((err as Error).message).not.toMatch(/fails|resume/);
      await forward.approval(request, new AbortController().signal).catch(() => undefined);
      return settleStep(place, out, 1, (l) => lines.push(l));
    });
    expect(settled.failed).toBeUndefined();
    expect(settled.timeline[0]!.note).toBeUndefined();
    expect(settled.timeline[1]!.note).toBe(
      'not asked, refused and gone on without: the runners tool “bash” (2 times); nobody followed run r1 to answer (its process was paused, stopped or gone). Resume the run (erasmus workflow resume <project> --database-url …, or Resume in the app) for its next questions to be asked',
    );
    expect(lines).toEqual([`component alpha of run r1: ${settled.timeline[1]!.note}`]);
  });

  it("names the worker in the step's own entries, as it publishes them while the step runs and as DBOS records them; earlier steps' entries keep theirs", async () => {
    const published: unknown[] = [];
    const bridge = { timeline: async (_p: unknown, _step: number, timeline: unknown) => void published.push(timeline) } as unknown as WorkerBridge;
    const forward = workerForward(bridge);
    const earlier = { state: 'alpha:development', enteredAt: '2026-01-01T00:00:00.000Z', leftAt: '2026-01-01T00:01:00.000Z', outcome: 'done', worker: 'the worker on a (pid 1)' } as LaneProgress['timeline'][number];
    const running = { state: 'alpha:testing', enteredAt: '2026-01-01T00:01:00.000Z' } as LaneProgress['timeline'][number];
    const worker = { name: workerName('vm-13407-ab12cd34'), from: 1 };
    expect(worker.name).toBe('the worker on vm (pid 13407)');
    expect(workerName('some-id')).toBe('the worker some-id');
    await inStep({ runId: 'r1', workflowId: 'r1:alpha:1', component: 'alpha', step: 1, state: () => 'alpha:testing', worker }, async (place) => {
      forward.timeline({ timeline: [earlier, running] } as RunRecord);
      await place.chain;
    });
    expect(published).toEqual([[earlier, { ...running, worker: 'the worker on vm (pid 13407)' }]]);
    expect(withWorker([earlier, running], worker).map((e) => e.worker)).toEqual(['the worker on a (pid 1)', 'the worker on vm (pid 13407)']);
    expect(withWorker([running], undefined)).toEqual([running]);
  });

  it("ships the step's session log to the run before each event it forwards and before the approval it waits on (a reloaded window reads that it waits), whole lines, each byte once", async () => {
    root = await mkdtemp(join(tmpdir(), 'worker-log-'));
    const said: string[] = [];
    const pieces: string[] = [];
    const froms: number[] = [];
    const bridge = {
      log: async (_p: unknown, step: number, piece: StepLog) => {
        pieces.push(piece.text);
        froms.push(piece.from);
        said.push(`log ${step} ${piece.sessionId} ${piece.from} ${piece.text.split('\n').filter(Boolean).map((l) => (JSON.parse(l) as { type: string; event?: { type: string } }).event?.type ?? 'header').join(',')}`);
      },
      event: async (_p: unknown, _step: number, e: AgentEvent) => void said.push(`event ${e.type}`),
      approval: async () => (said.push('approval'), 'allow_once'),
    } as unknown as WorkerBridge;
    const forward = workerForward(bridge);
    const path = join(root, 'sessions', 's1.jsonl');
    const log = new SessionLog(path, { fsync: 'none' });
    const emit = (e: AgentEvent) => (log.append({ type: 'event', event: e }), forward.event(e));
    await inStep({ runId: 'r1', workflowId: 'r1:alpha:1', component: 'alpha', step: 2, state: () => 'alpha:testing' }, async (place) => {
      log.append({ type: 'header', sessionId: 's1', provider: 'p', model: 'm', toolMode: 'native' });
      emit({ type: 'session_started', sessionId: 's1', at: 1, logPath: path, provider: 'p', model: 'm', toolMode: 'native', resumed: false });
      emit({ type: 'tool_running', sessionId: 's1', at: 2, callId: 'c1', name: 'runners__bash', args: { command: 'rm -r build' } });
      log.append({ type: 'event', event: { type: 'approval_required', sessionId: 's1', at: 3, requestId: 'q1', kind: 'command', callId: 'c1', name: 'runners__bash', args: { command: 'rm -r build' }, reasons: ['removes files'] } });
      expect(await forward.approval({ requestId: 'q1', kind: 'command', name: 'runners__bash', args: { command: 'rm -r build' }, reasons: ['removes files'] }, new AbortController().signal)).toBe('allow_once');
      await place.chain;
    });
    log.close();
    // Its log first, then each event; every byte of the log once, in order; the approval asked only once the log
    // holding its `approval_required` is on its way.
    expect(said[0]).toMatch(/^log 2 s1 0 header,session_started/);
    expect(said.at(-1)).toBe('approval');
    const logs = said.filter((l) => l.startsWith('log '));
    expect(logs.at(-1)).toMatch(/approval_required$/);
    expect(logs.map((l) => l.split(' ')[4]).join(',')).toBe('header,session_started,tool_running,approval_required');
    expect(pieces.join('')).toBe(readFileSync(path, 'utf8'));
    expect(pieces.map((_, i) => pieces.slice(0, i).join('').length)).toEqual(froms);
  });

  it("reads the run's toolsets once per run, as a one-machine run's process does, though it makes a context per component step", async () => {
    root = await mkdtemp(join(tmpdir(), 'erasmus-worker-'));
    const protocols = join(root, 'protocols');
    await cp(join(__dirname, '../../../../resources/protocols'), protocols, { recursive: true });
    const dir = join(root, 'p');
    await mkdir(dir);
    execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: dir });
    const seen: Array<string[] | undefined> = [];
    const engine = new WorkflowEngine({ paths: new Paths(join(root, 'home')), emit: () => undefined, protocolsDir: protocols, agentExecutor: () => ({ kind: 'agent', run: async (step: StepRequest) => (seen.push(step.runToolsets), { output: '', done: true }) }) });
    try {
      const step = { state: 'a:development', protocol: 'development' as const, prompt: 'p', protocolPrompt: '', toolsets: ['files'], contextDocPath: join(root, 'doc.md'), projectDir: dir, budget: { maxTurns: 1 } };
      const [one, two] = await Promise.all([engine.load({ projectDir: dir, goal: 'x', executor: { kind: 'agent' } }), engine.load({ projectDir: dir, goal: 'y', executor: { kind: 'agent' } })]);
      const record = async (runId: string) => (await engine.store.find(runId))!;
      await engine.componentContext(await record(one.runId)).runStep(step);
      // The protocols change on disk after the run's first step here: its next steps (each in a context of its own) read
      // what its first read; another run reads them anew.
      const testing = join(protocols, 'testing.md');
      await writeFile(testing, (await readFile(testing, 'utf8')).replace('toolsets: [files, runners]', 'toolsets: [files, runners, github]'));
      await engine.componentContext(await record(one.runId)).runStep(step);
      await engine.componentContext(await record(two.runId)).runStep(step);
      expect(seen).toEqual([['files', 'runners'], ['files', 'runners'], ['files', 'runners', 'github']]);
    } finally {
      await engine.dispose();
    }
  });

  it("takes the clone's tree it left at the last checkpoint as the next step's snapshot before it, unless a test run came first; the step's files are left to read against the checkpoint after it", async () => {
    root = await mkdtemp(join(tmpdir(), 'erasmus-worker-'));
    const dir = join(root, 'p');
    await mkdir(dir);
    const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, encoding: 'utf8' }).trim();
    git('init', '-q', '-b', 'main');
    const empty = git('write-tree');
    // The step writes b.txt.
    const engine = new WorkflowEngine({ paths: new Paths(join(root, 'home')), emit: () => undefined, agentExecutor: () => ({ kind: 'agent', run: async () => (await writeFile(join(dir, 'b.txt'), 'b\n'), { output: '', done: true }) }) });
    try {
      const { runId } = await engine.load({ projectDir: dir, goal: 'x', executor: { kind: 'agent' } });
      await writeFile(join(dir, 'a.txt'), 'a\n');
      const step = { state: 'a:development', protocol: 'development' as const, prompt: 'p', protocolPrompt: '', toolsets: ['files'], contextDocPath: join(root, 'doc.md'), projectDir: dir, budget: { maxTurns: 1 } };
      // The folder as it is (a.txt, untracked), as a tree.
      git('add', 'a.txt');
      const withA = git('write-tree');
      git('rm', '-q', '--cached', 'a.txt');
      const started = async (tests: boolean) => {
        await rm(join(dir, 'b.txt'), { force: true });
        // Said to start from the tree without a.txt: that tree is the step's start when it is taken.
        const ctx = engine.componentContext((await engine.store.find(runId))!, undefined, undefined, { dir, tree: empty });
        const entry = await ctx.enter('a:development', {});
        if (tests) await ctx.runTests('true', dir);
        await ctx.runStep(step, entry);
        // Not read as the step ends: the worker reads them against the checkpoint it records next.
        expect(entry.files).toBeUndefined();
        return entry.startTree;
      };
      expect(await started(false)).toBe(empty);
      // A test run may write files: the step's snapshot before it is taken anew.
      expect(await started(true)).toBe(withA);
    } finally {
      await engine.dispose();
    }
  });

  it('warms up once before taking components; a part that fails or hangs does not keep the worker from starting', async () => {
    const did: string[] = [];
    const parts = (run: () => Promise<{ exitCode: number | null }>) => ({
      run: async (command: string) => (did.push(`run ${command}`), run()),
      provider: async (id: string) => (did.push(`provider ${id}`), id === 'gone' ? Promise.reject(new Error('no key')) : id === 'slow' ? new Promise(() => undefined) : {}),
      protocols: async () => did.push('protocols'),
    });
    expect(await warmWorker(parts(async () => ({ exitCode: 0 })), ['local', 'gone', 'slow'], 50)).toMatch(/^warmed up in \d+ ms \(the sandbox, 3 providers, the protocols\)$/);
    expect(did.sort()).toEqual(['protocols', 'provider gone', 'provider local', 'provider slow', 'run true']);
    expect(await warmWorker(parts(async () => ({ exitCode: 1 })), [], 50)).toMatch(/the sandboxed test command did not run cleanly \(a step's commands will say why\)$/);
  });
});
