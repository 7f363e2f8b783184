// A durable run (DBOS over a real Postgres): the run in this process, its components in `erasmus worker`
// processes, each in its own clone of the project's origin (a bare repository on disk). Rewind, resume after a
// crash and retry are in workflow-durable-lifecycle.test.ts (a file of its own: the two run side by side).
import { execFileSync, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AgentEvent, WorkflowRunView } from '../../electron/contract/index';
import { approvalPath, unansweredReason } from '../../electron/main/agent/approval-path';
import { WorkflowEngine } from '../../electron/main/workflow/engine';
import { Core } from '../../electron/main/api/core';
import { grantDepsOf } from '../../electron/main/api/grant-deps';
import { withAlwaysAllow, type AnswerWithScope } from '../../electron/main/mcp/elicitation';
import type { ElicitationRequest } from '../../electron/main/mcp/types';
import { Paths } from '../../electron/main/paths/index';
import { readSessionLog } from '../../electron/main/sessions/index';
import { bridgePool, closeBridgePools, following, nextLook, RunBridge, RunGone, unfollow, WorkerBridge } from '../../electron/main/workflow/durable/bridge';
import { migrateSystemDatabase } from '../../electron/main/workflow/durable/dbos';
import { attachBuiltinServers } from '../../electron/servers/builtin';
import { startScriptedLlm, type ScriptTurn } from '../fixtures/scripted-llm/index';
import { alive, approvedRun, cores, database, engines, durableHooks, git, hangs, modelCalls, notices, root, said, setup, stopModel, until, useLlm, worker } from './durable-harness';
import { CLI, killGroup } from './workflow-helpers';

durableHooks();

describe('a durable run over DBOS', () => {
  // One run, three workers, so the suite pays for one durable run: the end-to-end path and both kinds of recovery together.
  it('runs components in workers, each in a clone of origin; a worker killed mid-step, and one killed while the checkpoint of a step it finished was on its way to origin (the next step begun beside that push): a third takes both components up from their last recorded checkpoints, each step not recorded runs once more, nothing is committed twice', async () => {
    const { dir, origin, url, env } = await setup('killed_worker');
    const mark = join(root, 'hung.json');
    Object.assign(env, { PARALLEL_MODEL_HANG: 'a:documentation', PARALLEL_MODEL_HANG_MARK: mark });
    // Origin holds the push of b's first checkpoint after its development's (until the test's folder goes): the worker
    // pushing it is killed while it waits, the step after it begun meanwhile.
    const held = join(root, 'push-held');
    await writeFile(
      join(origin, 'hooks', 'pre-receive'),
      `#!/bin/sh\nwhile read old new ref; do case "$ref" in refs/erasmus/*/b/1/step-0) ;; refs/erasmus/*/b/1/step-*) if [ ! -e ${held} ]; then echo "$ref" > ${held}.tmp; mv ${held}.tmp ${held}; while [ -d ${root} ]; do sleep 0.2; done; fi ;; esac; done\n`,
      { mode: 0o755 },
    );
    // Both start at once on the fresh database (DBOS's own migration races there: durable/dbos.ts serialises it).
    const [w1, w2] = await Promise.all([worker('w1', url, env), worker('w2', url, env)]);
    const { engine, runId } = await approvedRun(dir, url, env);
    // a:documentation hangs in whichever worker took component a; b's push is held in the other (one component each).
    const { dir: hungIn, pid } = await hangs(mark);
    const [killedA, killedB] = hungIn.startsWith(join(root, 'work-w1')) ? [w1, w2] : [w2, w1];
    await until("b's checkpoint push held", () => existsSync(held), said.get(killedB)!);
    // The step after the held one began beside its push (DBOS had not recorded the held step: it waits for that push).
    const heldStep = Number(/step-(\d+)$/.exec(readFileSync(held, 'utf8').trim())![1]);
    await until('the next step begun beside the push', () => new RegExp(`component b of run \\S+: step ${heldStep + 2} `).test(said.get(killedB)!()), said.get(killedB)!);
    // Both die (SIGKILL, their whole process groups): a third worker takes both up.
    killGroup(killedA);
    killGroup(killedB);
    stopModel(pid); // the step's model (the command executor runs it in a process group of its own) goes with it
    const w3 = await worker('w3', url, env, 2);
    const view = await engine.waitForRest(runId, 120_000);
    expect(view.error?.message).toBeUndefined();
    expect(view.status).toBe('COMPLETED');
    // The run said the worker running each component's step is gone, then which worker took it up (named apart on one machine by pid).
    const name = (w: ChildProcess) => `the worker on ${hostname()} (pid ${/worker \S+-(\d+)-\w+ takes components/.exec(said.get(w)!())![1]})`;
    for (const [component, killed] of [['a', killedA], ['b', killedB]] as const) {
      const gone = notices.indexOf(`Component ${component}: ${name(killed)} that ran it is gone; the step runs again when a worker is free`);
      expect(gone, notices.join('\n')).toBeGreaterThanOrEqual(0);
      expect(notices.slice(gone + 1), notices.join('\n')).toContain(`Component ${component}: taken up by ${name(w3)}; the step it was in runs again there from its last checkpoint`);
    }
    expect(view.lanes?.map((l) => l.waiting)).toEqual([undefined, undefined]);
    // The killed step ran once more, in the third worker's clone; the steps before it were not run again.
    const calls = readFileSync(join(root, 'model.log'), 'utf8').split('\n').filter(Boolean);
    const docs = calls.filter((l) => l.startsWith('a:documentation '));
    expect(docs).toHaveLength(2);
    expect(docs[1]).toContain(join(root, 'work-w3'));
    expect(modelCalls().filter((s) => s === 'a:development')).toHaveLength(1);
    expect(modelCalls().filter((s) => s === 'a:review')).toHaveLength(1);
    // b went on from its development's checkpoint (on origin): development not run again. The step whose push was held
    // (its review: the first of b's steps after development to change the clone) had ended but was never recorded: it
    // shows interrupted, saying so, and ran again; so did the one begun beside its push.
    expect(modelCalls().filter((s) => s === 'b:development')).toHaveLength(1);
    expect(modelCalls().filter((s) => s === 'b:review')).toHaveLength(2);
    const bSteps = view.timeline.filter((e) => e.component === 'b');
    const bSaid = bSteps.map((e) => `${e.state} ${e.outcome} ${e.note ?? ''}`).join('\n');
    const interrupted = bSteps.filter((e) => e.outcome === 'interrupted');
    // (the step begun beside the push shows too when the run saw it start before that worker died)
    expect([['b:review'], ['b:review', 'b:fixes']], bSaid).toContainEqual(interrupted.map((e) => e.state));
    expect(interrupted[0]!.note, bSaid).toBe('its worker stopped before the step was recorded (its checkpoint had not reached origin); the step runs again from the last checkpoint');
    for (const e of interrupted) expect(bSteps.filter((x) => x.state === e.state && x.outcome !== 'interrupted'), bSaid).toHaveLength(1);
    // What a:development wrote came back from the checkpoint; one commit per component, one commit step each on the timeline.
    expect(readFileSync(join(dir, 'a.txt'), 'utf8')).toBe('a\n');
    expect(git(dir, 'log', '--format=%H', '--', 'a.txt').split('\n')).toHaveLength(1);
    expect(git(dir, 'log', '--format=%H', '--', 'b.txt').split('\n')).toHaveLength(1);
    expect(view.timeline.filter((e) => e.state === 'a:commit' && e.outcome === 'committed')).toHaveLength(1);
    expect(view.timeline.filter((e) => e.state === 'b:commit' && e.outcome === 'committed')).toHaveLength(1);
    expect(git(dir, 'status', '--porcelain')).toBe('');
    // Each component's steps show on the run's timeline like any other run's, naming the clone they ran in.
    expect(view.lanes?.map((l) => [l.component, l.status])).toEqual([['a', 'merged'], ['b', 'merged']]);
    expect(view.durable).toEqual({ database: url });
    expect(view.timeline.find((e) => e.state === 'b:development')?.worktree).toMatch(new RegExp(`^${root}/work-w[12]/`));
    // A worker's step's files are read against the checkpoint after it: what the step wrote, nothing else.
    expect(view.timeline.find((e) => e.state === 'b:development')?.files).toEqual([{ path: 'b.txt', change: 'added' }]);
    expect(view.timeline.find((e) => e.state === 'a:review' && e.outcome !== 'interrupted')?.files).toEqual([{ path: 'docs/reviews/a.md', change: 'added' }]);
    // The killed attempt stays on the timeline, interrupted (its session listed as that step's), as a crash on one machine leaves it.
    expect(view.timeline.filter((e) => e.state === 'a:documentation').map((e) => [e.outcome, e.component, e.note])).toEqual([
      ['interrupted', 'a', 'its worker stopped mid-step; the step runs again from the last checkpoint'],
      ['done', 'a', undefined],
    ]);
    // A worker's step's prompt is kept with the run, as a step run here is (the app's step view reads it): each attempt's.
    const prompt = (state: string) => Promise.all(view.timeline.flatMap((e, i) => (e.state === state ? [engine.stepPrompt(runId, i)] : [])));
    for (const state of ['a:documentation', 'b:development', 'b:review']) {
      const texts = await prompt(state);
      expect(texts.length, state).toBeGreaterThan(0);
      for (const text of texts) expect(text, state).toContain(`Component: ${state.split(':')[0]}`);
    }
    // The components' branches fetched from origin left no remote-tracking ref behind (nor any lane branch).
    expect(git(dir, 'for-each-ref', '--format=%(refname)')).not.toMatch(/erasmus-lane\//);
    // The tasks the workers marked are marked in the run's task list.
    expect(readFileSync(new Paths(join(root, 'home-run')).orchestrationDoc(dir, 'task_list'), 'utf8')).toMatch(/- \[x\] A1:[^]*- \[x\] B1:/);
    // The merged result is on origin; the run's refs there (bases, checkpoints, component branches) are gone.
    expect(git(origin, 'rev-parse', `refs/heads/${git(dir, 'symbolic-ref', '--short', 'HEAD')}`)).toBe(git(dir, 'rev-parse', 'HEAD'));
    expect(git(origin, 'for-each-ref', '--format=%(refname)')).not.toMatch(/refs\/erasmus\/|erasmus-lane\//);
  }, 180_000);

  it("abandoned: its components' workflows are cancelled, the work only origin held is kept in the project, and origin keeps no ref of the run, even one a worker pushes after", async () => {
    const { dir, origin, url, env } = await setup('abandoned');
    const mark = join(root, 'hung.json');
    // One worker, one component at a time: a:testing hangs (after a:development wrote a.txt and pushed its checkpoint); b runs before it or waits.
    Object.assign(env, { PARALLEL_MODEL_HANG: 'a:testing', PARALLEL_MODEL_HANG_MARK: mark });
    const w = await worker('w1', url, env);
    const { engine, runId } = await approvedRun(dir, url, env);
    const { pid } = await hangs(mark);
    await engine.stop(runId);
    // Abandoned by another process (the next goal's `workflow start`): without the run's database URL it could not
    // cancel the workflows, and the workers would go on spending the model on them, so it is refused, nothing changed.
    const next = new WorkflowEngine({ paths: new Paths(join(root, 'home-run')), env: { ...process.env, ...env }, emit: () => undefined });
    engines.push(next);
    await expect(next.abandon(runId)).rejects.toThrow(/may still run in `erasmus worker` processes over [^]*needs the run's database URL[^]*nothing was changed[^]*--database-url '/);
    await expect(next.abandon(runId, { databaseUrl: url.replace(/\/abandoned$/, '/elsewhere') })).rejects.toThrow(/not over the database given[^]*nothing was changed/);
    expect((await next.status(runId)).status).toBe('STOPPED');
    const { status, kept, note } = await next.abandon(runId, { databaseUrl: url });
    expect(note).toBeUndefined();
    expect(status).toBe('ABANDONED');
    // a's work, which only origin held, is kept in the project as the one-machine path keeps a worktree's (b's too
    // when it ran first: committed, fetched, waiting to be merged after a, its branch is kept as any lane branch).
    const b = (await next.status(runId)).lanes?.find((l) => l.component === 'b');
    expect(kept.map((k) => [k.component, k.ref])).toEqual([...(b?.kept ? [['b', `refs/erasmus/kept/${runId}/b`]] : []), ['a', `refs/erasmus/kept/${runId}/a`]]);
    expect(git(dir, 'show', `refs/erasmus/kept/${runId}/a:a.txt`)).toBe('a');
    expect((await next.status(runId)).lanes?.find((l) => l.component === 'a')?.kept).toBe(`refs/erasmus/kept/${runId}/a`);
    expect(git(origin, 'for-each-ref', '--format=%(refname)')).not.toMatch(/refs\/erasmus\/|erasmus-lane\//);
    // The worker stops the step under way soon after its workflow is cancelled (its model is killed): the stopped step
    // records and pushes nothing, and the worker drops what the workflow pushed since the run cleaned origin.
    await until('the cancelled step stopped', () => !alive(pid), said.get(w)!);
    await until('the worker dropped the abandoned work', () => /its workflow was cancelled \(the run was abandoned, or rewound to before its components\); its refs on origin and this clone are gone/.test(said.get(w)!()), said.get(w)!);
    await until('the worker says the step was stopped', () => /component a of run \S+: its workflow was cancelled; its step is stopped/.test(said.get(w)!()), said.get(w)!);
    expect(execFileSync('git', ['ls-remote', origin], { encoding: 'utf8' })).not.toMatch(/refs\/erasmus\/|erasmus-lane\//);
    expect(existsSync(join(root, 'work-w1', runId, 'a'))).toBe(false);
  }, 120_000);
});

// ── the default path: the agent executor, in a worker ────────────────────────────────────────────

const TASKS_AB =
  '# Task list\n\n## Component: alpha — part alpha\nTest: test -f alpha.txt\nDepends: none\n- [ ] A1: Write alpha.txt\n\n## Component: beta — part beta\nTest: test -f beta.txt\nDepends: none\n- [ ] B1: Write beta.txt\n';

/** A turn for the step of `phase` of one component (its prompt names the step and carries the component's document). */
const stepOf = (task: string, component: string) => ({ regex: `^(?=[\\s\\S]*${task})(?=[\\s\\S]*# Component: ${component} )` });
const write = (path: string, content: string) => ({ toolCalls: [{ name: 'files__write_file', arguments: { path, content } }] });

/**
 * Two components. alpha's testing step overwrites its file twice (the files server asks first, in the worker: the
 * first is answered "always allow for this run", which covers the second); beta's removes a draft, a kind of
 * question that grant does not cover, whichever component asks first.
 */
function agentScript(): ScriptTurn[] {
  const dev = (c: string, files: string[]): ScriptTurn[] => [
    { label: `${c} development`, match: { lastUser: stepOf('Implement the open tasks of this component', c) }, toolCalls: files.map((f) => write(f, `${f}\n`).toolCalls[0]!) },
    { label: `${c} development done`, match: { last: `created ${files.at(-1)!}` }, text: `Wrote ${files.join(', ')}.` },
  ];
  const review = (c: string): ScriptTurn => ({ label: `${c} review`, match: { lastUser: stepOf('Review this component', c) }, text: `# Review: ${c}\n\nVerdict: no changes needed\n` });
  const parts = [
    ...dev('alpha', ['alpha.txt']),
    { label: 'alpha testing', match: { lastUser: stepOf('Write the tests of this component', 'alpha') }, ...write('alpha.txt', 'alpha tested\n') },
    review('alpha'),
    ...dev('beta', ['beta.txt', 'beta-draft.txt']),
    { label: 'beta testing', match: { lastUser: stepOf('Write the tests of this component', 'beta') }, toolCalls: [{ name: 'files__remove', arguments: { path: 'beta-draft.txt' } }] },
    review('beta'),
  ];
  return [
    { label: 'architecture', match: { lastUser: 'Write the architecture document' }, text: '# Architecture\n\n- alpha: alpha.txt\n- beta: beta.txt\n' },
    { label: 'schedule', match: { lastUser: 'Break the architecture into a progress schedule' }, text: '# Schedule\n\n1. alpha\n2. beta\n' },
    { label: 'task list', match: { lastUser: 'Turn the progress schedule into a task list' }, text: TASKS_AB },
    ...parts,
    // alpha overwrites its file once more: the run's "always allow" answer covers it, nobody is asked again.
    { label: 'alpha testing again', match: { last: 'replaced alpha.txt' }, ...write('alpha.txt', 'alpha tested twice\n') },
    // After the overwrite was answered (replaced, or refused because nobody could be asked), and every other step.
    { label: 'testing done', match: { last: { regex: 'replaced alpha\\.txt|nobody could be asked' } }, text: 'The file is there; its test is `test -f`.', repeat: true },
    { label: 'any other step', text: 'Done.', repeat: true },
  ];
}

describe('a durable run with the agent executor (the default path)', () => {
  it("runs each component's agent steps in a worker with the built-in toolsets on its clone; the worker's questions are asked through the run's gate (one answered and always allowed for the run, which then covers the next, one of another kind refused at once as nobody can answer); a step shows while it runs; COMPLETED with one commit per component", async () => {
    const llm = useLlm(await startScriptedLlm(agentScript()));
    const { dir, url } = await setup('agent_worker');
    const provider = `defaultProvider: scripted\nproviders:\n  - id: scripted\n    kind: openai-compatible\n    model: scripted\n    baseUrl: ${llm.baseUrl}\n    nativeTools: true\n`;
    for (const home of ['home-run', 'home-w1']) {
      await mkdir(join(root, home), { recursive: true });
      await writeFile(join(root, home, 'config.yaml'), provider);
    }
    // The run's process: a core as a face has it (the hub on the project, the built-in servers), its gate the test's.
    const core = new Core({ face: 'cli', home: join(root, 'home-run'), env: { ...process.env, ERASMUS_DATABASE_URL: url } });
    cores.push(core);
    await core.hub.start({ projectDir: dir, watch: false });
    await attachBuiltinServers(core, { root: dir });
    const asked: string[] = [];
    const events: string[] = [];
    core.bus.onEvent('agent.event', (e) => events.push(e.type === 'tool_complete' || e.type === 'tool_running' ? `${e.type} ${e.name}` : e.type));
    let seenMidStep: unknown;
    let seenWorker: string | undefined;
    let seenLog: unknown;
    const granted: string[] = [];
    // The face's gate as the CLI and the app have it: the run's "always allow" answers first, then the person.
    const ask = async (req: ElicitationRequest, signal: AbortSignal, offer?: { scopes: string[] }): Promise<AnswerWithScope> => {
      const message = (req.params as { message: string }).message;
      asked.push(message);
      if (message.startsWith('beta')) return approvalPath({ nobodyBecause: 'nobody watches this run' }).elicitation(req, signal);
      // alpha's step waits for this answer in the worker: `workflow status --json` (another process) shows it under way.
      for (let i = 0; ; i++) {
        const status = JSON.parse(execFileSync('node', [CLI, 'workflow', 'status', dir, '--json'], { env: { ...process.env, ERASMUS_HOME: join(root, 'home-run') }, encoding: 'utf8' })) as WorkflowRunView;
        seenMidStep = status.timeline.filter((e) => e.component === 'alpha').map((e) => [e.state, e.leftAt ? 'left' : 'open']);
        seenWorker = status.timeline.find((e) => e.state === 'alpha:testing' && !e.leftAt)?.worker;
        if (status.timeline.some((e) => e.state === 'alpha:testing' && !e.leftAt) || i > 50) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      // The step's session log is in the run's home already, up to the call that waits on this question (a window
      // reloaded now reads its running call from it, and so that it waits for you).
      // It comes through the database in pieces: on a loaded machine the first may still be on its way.
      for (let i = 0; i < 100; i++) {
        const open = (await core.workflow.status(runId)).timeline.find((e) => e.state === 'alpha:testing' && !e.leftAt)?.sessionLog;
        seenLog = open ? readSessionLog(open).entries.flatMap((e) => (e.type === 'event' && (e.event.type === 'tool_running' || e.event.type === 'tool_complete') ? [`${e.event.type} ${e.event.name}`] : [])) : [open];
        if ((seenLog as unknown[]).length > 0 && (seenLog as unknown[])[0] !== undefined) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(offer?.scopes).toContain('run');
      return { action: 'accept', always: 'run' };
    };
    core.hub.setElicitationHandler(withAlwaysAllow(grantDepsOf(core), ask, (g) => granted.push(`${g.message} (${g.words})`)));
    const wf = core.workflow;
    const { runId } = await wf.load({ projectDir: dir, goal: 'two parts', executor: { kind: 'agent', toolMode: 'native' } });
    await wf.start(runId);
    expect((await wf.waitForRest(runId, 120_000)).status).toBe('AWAITING_APPROVAL');
    const notices: string[] = [];
    core.bus.onEvent('app.notify', (n) => notices.push(`${n.title}: ${n.body}`));
    await wf.approve(runId);
    // No worker runs on the database yet: the components say so, and how to start one (the run's database, its provider).
    const none = /^queued: no `erasmus worker` runs on this run's database; start one where the project's origin can be cloned and pushed to, with the run's provider "scripted" in its config\.yaml \(the same id\) and its key: erasmus worker --database-url '[^']+' \(/;
    const queuedAs = (re: RegExp) => async () => (await wf.status(runId)).lanes?.filter((l) => re.test(l.waiting ?? '')).length === 2;
    await until('both components said no worker runs', queuedAs(none));
    // A worker without the run's provider (an empty config.yaml) takes none of its components: they wait in the
    // provider's queue, and the run says so, until a worker that has the provider starts.
    const w0 = await worker('w0', url, {});
    const lacking = /^queued: one `erasmus worker` runs on this run's database, none with the run's provider "scripted" in its config\.yaml: add it there under that id \(its key with erasmus secrets set NAME\) and restart the worker, or start one that has it: erasmus worker --database-url '/;
    await until('both components said the worker that runs lacks the provider', queuedAs(lacking), said.get(w0)!);
    expect(notices.filter((n) => /^Component (alpha|beta): queued: no `erasmus worker` runs/.test(n))).toHaveLength(2);
    expect(notices.filter((n) => /^Component (alpha|beta): queued: one `erasmus worker` runs/.test(n))).toHaveLength(2);
    expect(said.get(w0)!()).toMatch(/it has no provider in this machine's config\.yaml: it takes only --executor command runs' components/);
    expect(said.get(w0)!()).not.toMatch(/component \w+ of run/);
    const w1 = await worker('w1', url, {});
    const view = await wf.waitForRest(runId, 150_000);
    expect(view.error?.message).toBeUndefined();
    expect(view.status).toBe('COMPLETED');
    expect((await wf.get(runId)).record.executor).toMatchObject({ kind: 'agent', provider: 'scripted' }); // pinned: every worker uses the run's provider
    // Each component's steps ran in the worker's clone, writing through the files toolset there.
    expect(view.timeline.find((e) => e.state === 'beta:development')?.worktree).toMatch(new RegExp(`^${root}/work-w1/`));
    // Each of those steps names the worker that ran it (the app's step details and session view say it), as recorded and as seen mid-step.
    expect([...new Set(view.timeline.filter((e) => e.worktree).map((e) => e.worker))]).toEqual([`the worker on ${hostname()} (pid ${w1.pid})`]);
    expect(seenWorker).toBe(`the worker on ${hostname()} (pid ${w1.pid})`);
    expect(said.get(w0)!()).not.toMatch(/component \w+ of run/); // w0 never took one
    expect(view.lanes?.map((l) => l.waiting)).toEqual([undefined, undefined]);
    expect(readFileSync(join(dir, 'alpha.txt'), 'utf8')).toBe('alpha tested twice\n'); // accepted on the run's side, then by its grant
    expect(readFileSync(join(dir, 'beta-draft.txt'), 'utf8')).toBe('beta-draft.txt\n'); // its removal refused at once: nobody could answer
    // Asked through the run's gate, naming the step asking; the refusal reached the model, and the timeline says so.
    expect([...asked].sort()).toEqual([expect.stringMatching(/^alpha · testing: /), expect.stringMatching(/^beta · testing: /)]);
    expect(granted).toEqual([expect.stringMatching(/^alpha · testing: .*alpha\.txt.* \(Always allow .* for this run\)$/)]);
    expect(view.timeline.find((e) => e.state === 'beta:testing')?.note).toMatch(/^1 call\(s\) not run, as nobody could approve them \(the files tool “remove”\)/);
    // While alpha's step waited in the worker, the run's record (read by another process) showed it under way.
    expect(seenMidStep).toEqual([['alpha:development', 'left'], ['alpha:testing', 'open']]);
    // The worker's sessions' tool calls showed in the run's process as they ran.
    expect(events).toEqual(expect.arrayContaining(['tool_running files__write_file', 'tool_complete files__write_file', 'session_started', 'session_ended']));
    // Each worker step's session log is kept in the run's home, where its entry points, holding the step's calls and
    // their results as the worker's log has them (the app and `erasmus sessions` read it as any step's).
    expect(seenLog).toEqual(['tool_running files__write_file']);
    const runHome = new Paths(join(root, 'home-run'));
    for (const [state, call] of [['alpha:development', /files__write_file .*created alpha\.txt/], ['alpha:testing', /files__write_file .*replaced alpha\.txt/], ['beta:testing', /files__remove /]] as const) {
      const log = view.timeline.find((e) => e.state === state)?.sessionLog;
      expect(log, state).toMatch(new RegExp(`^${runHome.sessionsDir}/[^/]+\\.jsonl$`));
      const here = readFileSync(log!, 'utf8');
      expect(here, state).toBe(readFileSync(join(root, 'home-w1', 'sessions', log!.split('/').pop()!), 'utf8'));
      const { entries, warnings } = readSessionLog(log!);
      expect(warnings, state).toEqual([]);
      const results = entries.flatMap((e) => (e.type === 'event' && e.event.type === 'tool_complete' ? [`${e.event.name} ${String(e.event.result)}`] : []));
      expect(results.join('\n'), state).toMatch(call);
      expect(entries.at(-1), state).toMatchObject({ type: 'event', event: { type: 'session_ended' } });
    }
    // One commit per component, merged; a clean tree.
    expect(git(dir, 'log', '--format=%H', '--', 'alpha.txt').split('\n')).toHaveLength(1);
    expect(git(dir, 'log', '--format=%H', '--', 'beta.txt').split('\n')).toHaveLength(1);
    expect(view.timeline.filter((e) => /^(alpha|beta):commit$/.test(e.state) && e.outcome === 'committed').map((e) => e.state).sort()).toEqual(['alpha:commit', 'beta:commit']);
    expect(git(dir, 'status', '--porcelain')).toBe('');
  }, 200_000);
});

describe("what a worker's step and the run's process say to each other (durable/bridge.ts, over the real Postgres)", () => {
  it('asks through the run\'s gate and brings the answer back; a refusal comes back at once; a question of a workflow no run follows is refused at once, and one the run stops looking at after a bounded wait; a paused run leaves the question for its next look; a withdrawn question is no longer asked; the step\'s timeline and events reach the run', async () => {
    const url = database('bridge');
    await migrateSystemDatabase(url);
    const pool = await bridgePool(url);
    try {
      const place = { runId: 'r1', workflowId: 'r1:alpha:1' };
      const worker = new WorkerBridge(pool, 20);
      const asked: Array<{ step?: string; sessionId?: string }> = [];
      const shown: string[] = [];
      const signals: AbortSignal[] = [];
      let answer: (d: 'allow_once' | 'always_allow' | 'deny') => void = () => undefined;
      const gate = {
        approval: (req: { step?: string; sessionId?: string }, signal: AbortSignal) => {
          asked.push({ step: req.step, sessionId: req.sessionId });
          signals.push(signal);
          return new Promise<'allow_once' | 'always_allow' | 'deny'>((res) => (answer = res));
        },
        elicitation: async () => approvalPath({ nobodyBecause: 'nobody watches this run' }).elicitation({ server: 'files', params: { message: 'm', requestedSchema: { type: 'object', properties: {} } } }, new AbortController().signal),
        agentEvent: (e: { type: string }) => void shown.push(e.type),
      };
      const request = { requestId: 'q1', kind: 'command' as const, name: 'runners__bash', args: { command: 'rm -r build' }, reasons: ['removes files'], step: 'alpha:development' };
      // Asked while the run follows the component: its gate hears the step and the worker's session; the answer comes back.
      let run = new RunBridge(pool, place.workflowId, gate as never, 'alpha');
      await run.look(); // the run follows the workflow (as it says before it enqueues it)
      const decided = worker.approval(place, { ...request, sessionId: 's-1' }, new AbortController().signal);
      while (!asked.length) await run.look();
      expect(asked).toEqual([{ step: 'alpha:development', sessionId: 's-1' }]);
      // The run pauses before the person answers: nothing is answered; the next look asks again and that answer counts.
      await run.close();
      answer('deny');
      run = new RunBridge(pool, place.workflowId, gate as never, 'alpha');
      while (asked.length < 2) await run.look();
      answer('always_allow');
      expect(await decided).toBe('always_allow');
      // A step run again after its worker died withdraws what the dead run left asking: the run's card goes.
      const dead = worker.approval(place, request, new AbortController().signal).catch((e: Error) => e);
      while (asked.length < 3) await run.look();
      await worker.withdraw(place);
      await run.look();
      expect(signals[2]!.aborted).toBe(true);
      expect(await dead).toBeInstanceOf(RunGone);
      // Nobody can answer on the run's side: refused at once, with why.
      const declined = worker.elicitation(place, { server: 'files', params: { message: 'overwrite a.txt?', requestedSchema: { type: 'object', properties: {} } } }, new AbortController().signal);
      // Looked at until it is answered, as the run does while it follows the component (a fixed number of looks could
      // all come before the worker's question is in the table, which then waited its two minutes).
      let settled = false;
      void declined.finally(() => (settled = true));
      while (!settled) await run.look();
      expect(unansweredReason(await declined)).toBe('nobody watches this run');
      // The step's timeline and its session's events reach the run's look; each wakes the run's next look at once (it waits
      // for the worker's notice, here with a bound no test waits out), and so does a step DBOS recorded; one noticed while
      // no look waited makes the next look come at once.
      await nextLook(url, place.workflowId, 0);
      const woken = nextLook(url, place.workflowId, 600_000);
      await worker.timeline(place, 3, [{ state: 'alpha:testing', enteredAt: '2026-01-01T00:00:00.000Z' }]);
      await woken;
      await worker.event(place, 3, { type: 'tool_running', sessionId: 's-1', at: 1, callId: 'c1', name: 'files__write_file', args: {} });
      await nextLook(url, place.workflowId, 600_000);
      // The step's prompt (for its entry in the component's timeline) reaches the run too, which keeps it.
      await worker.prompt(place, 3, 0, 'the prompt of alpha · testing');
      await nextLook(url, place.workflowId, 600_000);
      // So does each piece of the step's session log (whole lines, in order; the run writes it in its own home).
      await worker.log(place, 3, { sessionId: 's-1', from: 0, text: '{"type":"header"}\n' });
      await nextLook(url, place.workflowId, 600_000);
      const recorded = nextLook(url, place.workflowId, 600_000);
      await worker.recorded(place);
      await recorded;
      unfollow(url, place.workflowId);
      expect(await run.look()).toEqual({ timeline: { step: 3, entries: [{ state: 'alpha:testing', enteredAt: '2026-01-01T00:00:00.000Z' }] }, prompts: [{ entry: 0, text: 'the prompt of alpha · testing' }], logs: [{ sessionId: 's-1', from: 0, text: '{"type":"header"}\n' }] });
      expect(shown).toEqual(['tool_running']);
      await run.close();
      // The worker running a step dies mid-question (DBOS recovery gives its workflow to another): the run withdraws
      // the question (its card resolved, its row gone, not asked again) and ends the dead worker's session here, with
      // its tool call; that session belongs to the run's project, not to a project named after the worker's clone.
      const events: AgentEvent[] = [];
      const seen = new RunBridge(pool, place.workflowId, { ...gate, agentEvent: (e: AgentEvent) => void (e.sessionId === 's-2' && events.push(e)) } as never, 'alpha', '/home/u/reverse-project');
      await worker.event(place, 4, { type: 'session_started', sessionId: 's-2', at: 2, logPath: '/w2/sessions/s-2.jsonl', provider: 'p', model: 'm', toolMode: 'native', resumed: false, project: '/w2/.git/erasmus/worktrees/r1.1/alpha' });
      await worker.event(place, 4, { type: 'tool_running', sessionId: 's-2', at: 3, callId: 'c2', name: 'runners__bash', args: { command: 'node -e 1' } });
      await seen.look(); // it follows the workflow (the run before it stopped following: close)
      const orphan = worker.approval(place, { ...request, sessionId: 's-2' }, new AbortController().signal).catch((e: Error) => e);
      while (asked.length < 4) await seen.look();
      expect(events[0]).toMatchObject({ type: 'session_started', project: '/home/u/reverse-project' });
      await seen.workerGone('the worker running it stopped');
      expect(signals[3]!.aborted).toBe(true);
      expect(events.slice(2).map((e) => e.type)).toEqual(['tool_complete', 'warning', 'session_ended']);
      expect(events[2]).toMatchObject({ sessionId: 's-2', callId: 'c2', isError: true, result: 'Not finished: the worker running it stopped.' });
      await seen.look();
      expect(asked).toHaveLength(4);
      expect(await orphan).toBeInstanceOf(RunGone);
      // A workflow that ends ends no session twice.
      await seen.finish('its workflow ended');
      expect(events.filter((e) => e.type === 'session_ended')).toHaveLength(1);
      await seen.close();
      // The run follows a workflow again (resumed after its process died): its first look shows neither what the recorded
      // steps did (their timeline entries say how they ended) nor what a dead worker's attempt of the step under way did
      // (the step runs again), only the newest attempt's calls so far; then each new one, in order.
      const r5 = { runId: 'r5', workflowId: 'r5:alpha:1' };
      const started = (sessionId: string): AgentEvent => ({ type: 'session_started', sessionId, at: 1, logPath: `/w/${sessionId}.jsonl`, provider: 'p', model: 'm', toolMode: 'native', resumed: false, project: '/w' });
      const wrote = (sessionId: string, path: string): AgentEvent => ({ type: 'tool_complete', sessionId, at: 2, callId: path, name: 'files__write_file', args: { path }, result: `created ${path}`, isError: false, durationMs: 1 });
      const line = (sessionId: string, n: number) => `{"session":"${sessionId}","n":${n}}\n`;
      for (const [step, sessionId, path] of [[0, 'dev', 'src/a.js'], [1, 'test-dead', 'test/a.test.js'], [1, 'test', 'test/a.test.js']] as const) {
        await worker.log(r5, step, { sessionId, from: 0, text: line(sessionId, 1) });
        await worker.event(r5, step, started(sessionId));
        await worker.event(r5, step, wrote(sessionId, path));
      }
      const replayed: AgentEvent[] = [];
      // Its worker sessions' logs are kept in the run's home: every session's, the recorded steps' and the dead attempt's too.
      const logOf = (sessionId: string) => join(root, 'bridge-home', 'sessions', `${sessionId}.jsonl`);
      const resumed = new RunBridge(pool, r5.workflowId, { ...gate, agentEvent: (e: AgentEvent) => void replayed.push(e) } as never, 'alpha', undefined, logOf);
      await resumed.look(1);
      expect(replayed.map((e) => `${e.type} ${e.sessionId}`)).toEqual(['session_started test', 'tool_complete test']);
      expect(replayed[0]).toMatchObject({ logPath: logOf('test') });
      for (const sessionId of ['dev', 'test-dead', 'test']) expect(readFileSync(logOf(sessionId), 'utf8')).toBe(line(sessionId, 1));
      // A piece sent again (a step's chain replayed) lands on the same bytes; the next one is appended; one past a gap is not written.
      await worker.log(r5, 1, { sessionId: 'test', from: 0, text: line('test', 1) });
      await worker.log(r5, 1, { sessionId: 'test', from: line('test', 1).length, text: line('test', 2) });
      await worker.log(r5, 1, { sessionId: 'test-dead', from: 1000, text: line('test-dead', 9) });
      await worker.event(r5, 1, wrote('test', 'test/b.test.js'));
      await resumed.look(1);
      expect(replayed.map((e) => (e.type === 'tool_complete' ? e.args.path : e.type))).toEqual(['session_started', 'test/a.test.js', 'test/b.test.js']);
      expect(readFileSync(logOf('test'), 'utf8')).toBe(line('test', 1) + line('test', 2));
      expect(readFileSync(logOf('test-dead'), 'utf8')).toBe(line('test-dead', 1));
      // The workflow commits the component: no session is left open to be ended with a warning (the dead attempt's, never
      // ended, was not shown: on a success "This session ended: its workflow committed the component" was printed).
      await worker.event(r5, 1, { type: 'session_ended', sessionId: 'test', at: 3, reason: 'complete', usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0, costUsd: null }, turns: 1 });
      await resumed.finish('its workflow committed the component');
      expect(replayed.filter((e) => e.type === 'warning')).toEqual([]);
      // The run stops looking while a question waits: it is refused after the bounded wait (the model goes on without the call); it is not left behind.
      await following(pool, place.workflowId);
      const lonely = new WorkerBridge(pool, 20, 300);
      const err = await lonely.approval(place, request, new AbortController().signal).catch((e: Error) => e);
      expect(err).toBeInstanceOf(RunGone);
      expect((err as Error).message).toBe("needs approval; nobody could be asked (nobody follows run r1 now: the process that drives it is paused, stopped or gone)");
      expect((await pool.query('SELECT count(*)::int AS n FROM erasmus.asks')).rows[0].n).toBe(0);
      // A workflow no run's process follows (its run was never resumed after its process died): refused at once, not after a wait.
      const patient = new WorkerBridge(pool, 20, 3_600_000);
      const unfollowed = await patient.approval({ runId: 'r2', workflowId: 'r2:alpha:1' }, request, new AbortController().signal).catch((e: Error) => e);
      expect(unfollowed).toBeInstanceOf(RunGone);
      expect((await pool.query('SELECT count(*)::int AS n FROM erasmus.asks')).rows[0].n).toBe(0);
      // The run's process stops following (stop, pause): the worker's next question is refused at once, not after the
      // bounded wait (this worker's is an hour: on the old code these waited it out).
      const r3 = { runId: 'r3', workflowId: 'r3:alpha:1' };
      const stopped = new RunBridge(pool, r3.workflowId, gate as never, 'alpha');
      await stopped.look();
      await stopped.close();
      expect(await patient.approval(r3, request, new AbortController().signal).catch((e: Error) => e)).toBeInstanceOf(RunGone);
      // The run's process dies (killed: its database session ends with it): the question it left waiting, and the next
      // one, are refused at once, though it said it followed a moment ago.
      const { default: pg } = await import('pg');
      const dying = new pg.Client({ connectionString: url });
      await dying.connect();
      const r4 = { runId: 'r4', workflowId: 'r4:alpha:1' };
      await following(dying as never, r4.workflowId);
      const waiting = patient.approval(r4, request, new AbortController().signal).catch((e: Error) => e);
      while (!(await pool.query('SELECT count(*)::int AS n FROM erasmus.asks')).rows[0].n) await new Promise((r) => setTimeout(r, 20));
      await dying.end();
      expect(await waiting).toBeInstanceOf(RunGone);
      expect(await patient.approval(r4, request, new AbortController().signal).catch((e: Error) => e)).toBeInstanceOf(RunGone);
    } finally {
      await closeBridgePools();
    }
  }, 60_000);
});
