// A durable run over a project's life (DBOS over a real Postgres, a bare origin): rewound to before its components
// and run again, then a second goal; its own process killed and resumed; a component blocked in a worker, retried.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { WorkflowRunView } from '../../electron/contract/index';
import { Paths } from '../../electron/main/paths/index';
import { alive, approvedRun, durableHooks, git, hangs, MODEL, modelCalls, root, said, setup, until, worker, workers, workflows } from './durable-harness';
import { CLI, killGroup } from './workflow-helpers';

durableHooks();

describe('a durable run over a project\'s life', () => {
  it("rewound to before its components, one merged and one in flight: the rewound workflows are cancelled, each component is done afresh by workflows of new attempts and committed once in the final history, origin keeps no ref of the run; a second goal runs its new component in a worker under workflow ids of its own", async () => {
    const { dir, origin, url, env } = await setup('rewound');
    const mark = join(root, 'hung.json');
    // One worker, two at once: b:testing hangs (b:development wrote b.txt and pushed its checkpoint) while a is merged.
    Object.assign(env, { PARALLEL_MODEL_HANG: 'b:testing', PARALLEL_MODEL_HANG_MARK: mark });
    const w = await worker('w1', url, env, 2);
    const { engine, runId } = await approvedRun(dir, url, env);
    const { pid } = await hangs(mark);
    await until('a merged', async () => (await engine.status(runId)).lanes?.find((l) => l.component === 'a')?.status === 'merged');
    await engine.stop(runId);
    const cp = (await engine.status(runId)).timeline.find((e) => e.state === 'parallel:components')?.checkpoint;
    expect((await engine.rewind(runId, cp!)).state).toBe('parallel:components');
    await engine.resume(runId);
    // Entering the phase again cancels b's rewound workflow: the worker stops its hung step (kills its model), not waiting for its end.
    await until('the rewound step stopped', () => !alive(pid), said.get(w)!);
    // The worker says so once the step has ended (the model's process is gone a moment before the line is written).
    await until('the worker says the step was stopped', () => /component b of run \S+: its workflow was cancelled; its step is stopped/.test(said.get(w)!()), said.get(w)!);
    expect(said.get(w)!()).not.toMatch(/DeprecationWarning/); // DBOS's query queued on each new connection (durable/dbos.ts dbosUrl)
    const view = await engine.waitForRest(runId, 120_000);
    expect(view.error?.message).toBeUndefined();
    expect(view.status).toBe('COMPLETED');
    // The rewound step under way ended when its workflow was cancelled, not left open (shown as running, or interrupted for as long as the run lasted).
    expect(view.timeline.filter((e) => e.rewound && !e.leftAt)).toEqual([]);
    expect(view.timeline.find((e) => e.rewound && e.state === 'b:testing')).toMatchObject({ outcome: 'aborted', note: 'stopped: the run was rewound to before it, and its components started again' });
    // Done afresh, not the rewound workflows' results again: each development asked twice, a's first workflow SUCCESS, b's CANCELLED.
    expect(modelCalls().filter((s) => s === 'a:development')).toHaveLength(2);
    expect(modelCalls().filter((s) => s === 'b:development')).toHaveLength(2);
    expect(workflows(url)).toEqual([`${runId}:a:1 SUCCESS`, `${runId}:a:2 SUCCESS`, `${runId}:b:1 CANCELLED`, `${runId}:b:2 SUCCESS`]);
    expect(git(dir, 'log', '--format=%H', '--', 'a.txt').split('\n')).toHaveLength(1);
    expect(git(dir, 'log', '--format=%H', '--', 'b.txt').split('\n')).toHaveLength(1);
    expect(existsSync(join(dir, 'b-hung.txt'))).toBe(false);
    expect(git(dir, 'status', '--porcelain')).toBe('');
    // b's rewound work (only origin held it) is kept in the project, and the phase's entry says where.
    const kept = `refs/erasmus/kept/${runId}/b`;
    expect(git(dir, 'show', `${kept}:b.txt`)).toBe('b');
    expect(view.timeline.filter((e) => e.state === 'parallel:components' && !e.rewound).at(-1)?.note).toContain(kept);
    expect(execFileSync('git', ['ls-remote', origin], { encoding: 'utf8' })).not.toMatch(/refs\/erasmus\/|erasmus-lane\//);
    expect(readFileSync(new Paths(join(root, 'home-run')).orchestrationDoc(dir, 'task_list'), 'utf8')).toMatch(/- \[x\] A1:[^]*- \[x\] B1:/);

    // A second goal on the project: its new components run in the worker under its own run's ids; a and b are not done again.
    const second = await approvedRun(dir, url, { ...env, PARALLEL_MODEL_COMPONENTS: 'a,b,c,d' }, 'two more parts');
    const next = await second.engine.waitForRest(second.runId, 120_000);
    expect(next.error?.message).toBeUndefined();
    expect(next.status).toBe('COMPLETED');
    expect(workflows(url).filter((l) => l.startsWith(second.runId))).toEqual([`${second.runId}:c:1 SUCCESS`, `${second.runId}:d:1 SUCCESS`]);
    expect(modelCalls().filter((s) => s.endsWith(':development')).slice(4).sort()).toEqual(['c:development', 'd:development']);
    for (const f of ['a.txt', 'b.txt', 'c.txt', 'd.txt']) expect(git(dir, 'log', '--format=%H', '--', f).split('\n')).toHaveLength(1);
    expect(git(origin, 'rev-parse', `refs/heads/${git(dir, 'symbolic-ref', '--short', 'HEAD')}`)).toBe(git(dir, 'rev-parse', 'HEAD'));
    expect(execFileSync('git', ['ls-remote', origin], { encoding: 'utf8' })).not.toMatch(/refs\/erasmus\/|erasmus-lane\//);
  }, 240_000);

  it("resumed after the run process was killed mid-components: the component merged before is not done again; the one whose workflow a worker went on with meanwhile (and which blocked with nobody following it) goes on from that workflow's last checkpoint, its finished steps imported into the run's timeline, never from development again", async () => {
    const { dir, url, env } = await setup('run_killed');
    const hold = join(root, 'hold');
    const fixed = join(root, 'fixed');
    await writeFile(hold, '');
    // b's development waits in the worker while a is merged; then the run's process (the CLI) is killed. b's tests
    // never pass until `fixed` exists: with nobody following it, its workflow blocks after its debugging attempts.
    Object.assign(env, { PARALLEL_MODEL_HOLD: hold, PARALLEL_MODEL_HOLD_ONLY: 'b', PARALLEL_MODEL_BROKEN: 'b', PARALLEL_MODEL_FIXED: fixed });
    const w = await worker('w1', url, env, 2);
    const cliEnv = { ...process.env, ...env, ERASMUS_HOME: join(root, 'home-run') };
    const cli = (args: string[]) => spawn('node', [CLI, 'workflow', ...args], { env: cliEnv, detached: true, stdio: 'ignore' });
    const run = cli(['start', dir, '--goal', 'two parts', '--executor', 'command', '--command', `node ${MODEL}`, '--database-url', url, '--yes']);
    workers.push(run);
    await until('a merged while b is held', () => existsSync(join(dir, 'a.txt')) && modelCalls().includes('b:development'));
    killGroup(run);
    await new Promise((r) => run.once('exit', r));
    // b's workflow goes on in the worker with nobody following it, and blocks.
    await rm(hold);
    await until('b blocked in the worker', () => /component b of run \S+: blocked/.test(said.get(w)!()), said.get(w)!);
    // Its workflow has ended in DBOS (the worker logs the block a moment before; resumed before that, the run would
    // follow the workflow to its end and block, as it does when it watches a component block).
    await until("b's workflow ended", () => workflows(url).some((l) => /:b:1 SUCCESS$/.test(l)), said.get(w)!);
    await writeFile(fixed, '');
    const resumed = spawn('node', [CLI, 'workflow', 'resume', dir, '--database-url', url, '--yes'], { env: cliEnv, detached: true, stdio: ['ignore', 'ignore', 'pipe'] });
    workers.push(resumed);
    let out = '';
    resumed.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    expect(await new Promise((r) => resumed.once('exit', r)), out).toBe(0);
    const view = JSON.parse(execFileSync('node', [CLI, 'workflow', 'status', dir, '--json'], { env: cliEnv, encoding: 'utf8' })) as WorkflowRunView;
    expect(view.error?.message).toBeUndefined();
    expect(view.status).toBe('COMPLETED');
    // The workflow the dead process followed was not enqueued again; one new attempt went on from its last checkpoint.
    expect(workflows(url).map((l) => l.slice(view.runId.length))).toEqual([':a:1 SUCCESS', ':b:1 SUCCESS', ':b:2 SUCCESS']);
    // b's steps the worker finished meanwhile are on the run's timeline as the worker ended them, not as interrupted.
    const b = view.timeline.filter((e) => e.component === 'b').map((e) => `${e.state} ${e.outcome}`);
    expect(b.slice(0, 2)).toEqual(['b:development done', 'b:testing tests-failed']);
    expect(b.filter((s) => s.startsWith('b:debugging'))).toHaveLength(4);
    expect(b.filter((s) => / interrupted$/.test(s))).toEqual([]);
    // Neither its development nor its testing ran again after the crash: the resumed attempt began with the blocked debugging step.
    const steps = modelCalls().filter((s) => /^[ab]:/.test(s));
    expect(steps.filter((s) => s === 'b:development' || s === 'b:testing')).toEqual(['b:development', 'b:testing']);
    expect(steps.filter((s) => s === 'a:development')).toHaveLength(1);
    expect(git(dir, 'show', 'HEAD:b-draft.txt')).toBe('a draft of b');
    expect(git(dir, 'log', '--format=%H', '--', 'a.txt').split('\n')).toHaveLength(1);
    expect(git(dir, 'log', '--format=%H', '--', 'b.txt').split('\n')).toHaveLength(1);
    expect(git(dir, 'status', '--porcelain')).toBe('');
  }, 180_000);

  it("blocked in a worker, then retried: a new workflow goes on from the blocked one's last checkpoint (under its own attempt's refs), nothing before it is done again; COMPLETED", async () => {
    const { dir, origin, url, env } = await setup('retried');
    const fixed = join(root, 'fixed');
    // b's tests never pass (its steps write only a draft) until `fixed` exists: it blocks after its debugging attempts.
    Object.assign(env, { PARALLEL_MODEL_BROKEN: 'b', PARALLEL_MODEL_FIXED: fixed });
    await worker('w1', url, env, 2);
    const { engine, runId } = await approvedRun(dir, url, env);
    const blocked = await engine.waitForRest(runId, 120_000);
    expect(blocked.status).toBe('BLOCKED');
    expect(blocked.error?.message).toMatch(/^component b: tests still fail after 3 debugging attempts in b · debugging/);
    await writeFile(fixed, '');
    // While it is blocked, the user adds a note in the project folder: b's steps, in a worker's clone, have it in their
    // files and are told of it, as a plain run's steps are; b's commit holds it as the work's (as a plain run's would),
    // and the project folder's copy, the same, is not in the merge's way.
    await writeFile(join(dir, 'user-note.txt'), "the user's note\n");
    await engine.retry(runId);
    const view = await engine.waitForRest(runId, 120_000);
    expect(view.error?.message).toBeUndefined();
    expect(view.status).toBe('COMPLETED');
    expect(workflows(url)).toEqual([`${runId}:a:1 SUCCESS`, `${runId}:b:1 SUCCESS`, `${runId}:b:2 SUCCESS`]);
    const prompts = new Paths(join(root, 'home-run')).runStepPrompt(dir, runId, 0).replace(/[^/]+$/, '');
    const told = readdirSync(prompts).map((f) => readFileSync(join(prompts, f), 'utf8')).filter((p) => p.includes('## What the user changed'));
    expect(told.length).toBeGreaterThan(0);
    expect(told[0]).toContain("While the run was stopped at Components side by side, the user changed the project; here is what they changed, from the files as the run left them to the files as it went on:");
    expect(told[0]).toContain("+the user's note");
    // The retry ran the blocked step again, from where b stood: its development (which wrote the draft) was not asked again.
    expect(modelCalls().filter((s) => s === 'b:development')).toHaveLength(1);
    expect(modelCalls().filter((s) => s === 'b:debugging')).toHaveLength(4);
    expect(git(dir, 'show', 'HEAD:b-draft.txt')).toBe('a draft of b');
    expect(git(dir, 'log', '--format=%H', '--', 'b.txt').split('\n')).toHaveLength(1);
    expect(git(dir, 'log', '--format=%s', '--', 'user-note.txt')).toBe('Write b.txt');
    expect(git(dir, 'status', '--porcelain')).toBe('');
    expect(execFileSync('git', ['ls-remote', origin], { encoding: 'utf8' })).not.toMatch(/refs\/erasmus\/|erasmus-lane\//);
  }, 180_000);
});
