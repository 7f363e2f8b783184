import { describe, expect, it } from 'vitest';
import { wentOnWithout } from '../../main/workflow/agent-executor';
import { refusedNote } from '../../main/workflow/durable/worker';
import { entryLine, eventLine, eventPrinter, planText, statusText } from './workflow-print';

const step = { state: 'dev:api', protocol: 'development', enteredAt: '2026-01-01T00:00:00.000Z', leftAt: '2026-01-01T00:00:02.000Z', durationMs: 2000, outcome: 'done' as const };

it('a finished step shows its tokens and cost; a step without prices shows tokens only', () => {
  expect(entryLine({ ...step, usage: { inputTokens: 900, outputTokens: 100, totalTokens: 1000, costUsd: 0.01234 } })).toBe('  dev · api: done in 2.0 s (1000 tokens, $0.0123)');
  expect(entryLine({ ...step, usage: { inputTokens: 900, outputTokens: 100, totalTokens: 1000 } })).toBe('  dev · api: done in 2.0 s (1000 tokens)');
  const test = (n: number) => ({ command: 'npm test', exitCode: 0, passed: true, output: '', traced: true, tests: Array.from({ length: n }, (_, i) => ({ name: `T-${i}: ok`, passed: true })) });
  expect(entryLine({ ...step, outcome: 'tests-passed', test: test(4) })).toBe("  dev · api: tests passed in 2.0 s (`npm test` exit 0, 4 tests in the runner's report)");
  expect(entryLine({ ...step, outcome: 'tests-passed', test: test(1) })).toBe("  dev · api: tests passed in 2.0 s (`npm test` exit 0, 1 test in the runner's report)");
});

it('a step that went on without calls refused (nobody could approve them, or nobody followed the durable run) says which under its line; other notes are not repeated', () => {
  const passed = { ...step, outcome: 'tests-passed' as const, test: { command: 'npm test', exitCode: 0, passed: true, output: '' } };
  const durable = refusedNote(['the runners tool “bash”'], 'r1');
  expect(entryLine({ ...passed, note: durable })).toBe(`  dev · api: tests passed in 2.0 s (\`npm test\` exit 0)\n    note: ${durable}`);
  const local = wentOnWithout(['runners__bash', 'files__write_file']);
  expect(entryLine({ ...step, note: local })).toBe(`  dev · api: done in 2.0 s\n    note: ${local}`);
  // A review's report path, a context document's: the step's line alone.
  expect(entryLine({ ...step, note: '/p/docs/reviews/api.md' })).toBe('  dev · api: done in 2.0 s');
});

it('a rewound step says so, open or ended', () => {
  const { leftAt: _l, durationMs: _d, outcome: _o, ...open } = step;
  expect(entryLine({ ...open, rewound: true })).toBe('→ dev · api — rewound');
  expect(entryLine(open)).toBe('→ dev · api');
  expect(entryLine({ ...step, outcome: 'aborted', rewound: true })).toBe('  dev · api: stopped in 2.0 s — rewound');
});

it('the run status shows the run cost and each step cost', () => {
  const text = statusText({
    runId: 'r1',
    status: 'RUNNING',
    state: 'test:api',
    projectDir: '/p',
    executor: 'agent',
    totals: { inputTokens: 1800, outputTokens: 200, totalTokens: 2000, costUsd: 0.5 },
    timeline: [
      { ...step, usage: { inputTokens: 900, outputTokens: 100, totalTokens: 1000, costUsd: 0.25 } },
      { ...step, state: 'final:review', usage: { inputTokens: 900, outputTokens: 100, totalTokens: 1000 } },
    ],
  } as unknown as Parameters<typeof statusText>[0]);
  expect(text).toContain('tokens 2000  $0.5000');
  // Per part: the component's, and the final phase's whose model has no prices, saying where to give them.
  expect(text).toContain('cost by part: dev 1000 tokens $0.2500; Final phase 1000 tokens (cost unknown) (where the cost is unknown, no prices for this model; give them as the provider\'s pricing: {input, output} (US dollars per million tokens) in config.yaml)');
  expect(text).toContain('dev · api: done in 2.0 s (1000 tokens, $0.2500)');
});

it('with no prices at all, the hint where to give them is said once, not per part', () => {
  const unpriced = { inputTokens: 900, outputTokens: 100, totalTokens: 1000 };
  const text = statusText({
    runId: 'r1', status: 'COMPLETED', state: 'done', projectDir: '/p', executor: 'agent',
    totals: { inputTokens: 1800, outputTokens: 200, totalTokens: 2000 },
    timeline: [{ ...step, usage: unpriced }, { ...step, state: 'final:review', usage: unpriced }],
  } as unknown as Parameters<typeof statusText>[0]);
  expect(text).toContain('cost by part: dev 1000 tokens; Final phase 1000 tokens (cost unknown: no prices for this model; give them as the provider\'s pricing: {input, output} (US dollars per million tokens) in config.yaml)');
  expect(text.match(/cost unknown/g)).toHaveLength(1);
});

it('a step passed over says why', () => {
  expect(entryLine({ ...step, outcome: 'skipped', durationMs: 0, note: 'the review asked for no changes (docs/reviews/api.md)' })).toBe('  dev · api: skipped — the review asked for no changes (docs/reviews/api.md)');
  expect(entryLine({ ...step, outcome: 'skipped', durationMs: 0 })).toBe('  dev · api: skipped in 0.0 s');
});

it("a step start is one line: the same running step sent again (it names its session, a durable run's worker saves it again) is not printed again", () => {
  const eventLine = eventPrinter();
  const sent = (entry: object) => eventLine('workflow.step', { runId: 'r1', projectDir: '/p', entry });
  const running = { state: 'dev:api', protocol: 'development', enteredAt: '2026-01-01T00:00:00.000Z' };
  expect(sent(running)).toBe('→ dev · api');
  expect(sent({ ...running, sessionLog: '/h/sessions/s1.jsonl' })).toBeUndefined();
  // A worker's step, as the run imports it again: its checkpoint tree, then its prompt, kept with it.
  expect(sent({ ...running, startTree: 'abc123' })).toBeUndefined();
  expect(sent({ ...running, startTree: 'abc123', hasPrompt: true })).toBeUndefined();
  expect(sent({ ...step, sessionLog: '/h/sessions/s1.jsonl' })).toBe('  dev · api: done in 2.0 s');
  // Its files, added after it ended: the same end is not said twice.
  expect(sent({ ...step, sessionLog: '/h/sessions/s1.jsonl', files: [{ path: 'a.js', status: 'added' }] })).toBeUndefined();
  // Another attempt at the step (its worker died) starts at another time: a start of its own.
  expect(sent({ ...running, enteredAt: '2026-01-01T00:01:00.000Z' })).toBe('→ dev · api');
  expect(eventPrinter()('workflow.step', { runId: 'r1', projectDir: '/p', entry: running })).toBe('→ dev · api');
});

it('a blocked run says how to go on: retry, and skip where the state can be skipped', () => {
  const view = { runId: 'r1', status: 'BLOCKED', projectDir: '/p', executor: 'agent', totals: { inputTokens: 0, outputTokens: 0, totalTokens: 0 }, timeline: [], error: { kind: 'PARSE_ERROR', message: 'invalid task list' } };
  const blocked = (state: string) => statusText({ ...view, state } as unknown as Parameters<typeof statusText>[0]);
  expect(blocked('prepare:task_list')).toContain('to go on: fix the cause, then run the step again: erasmus workflow retry /p');
  expect(blocked('prepare:task_list')).not.toContain('skip');
  expect(blocked('api:testing')).toContain('erasmus workflow retry /p, or skip it (the run goes on to the next step with these tests not passing): erasmus workflow skip /p');
  expect(statusText({ ...view, status: 'RUNNING', error: undefined } as unknown as Parameters<typeof statusText>[0])).not.toContain('to go on');
  // Blocked at a side-by-side merge git refused: retry merges again, no model runs there (after a merge step with a model, the usual words).
  const lanes = [{ component: 'count', status: 'merged', depends: [] }, { component: 'reverse', status: 'ready', depends: [] }];
  const atMerge = (timeline: unknown[]) => statusText({ ...view, state: 'parallel:components', lanes, timeline } as unknown as Parameters<typeof statusText>[0]);
  expect(atMerge([])).toContain("to go on: fix the cause in the project folder (the error names what is in the way: commit, stash or move those files), then erasmus workflow retry /p: it merges component reverse's commit into the run's branch again (no model runs at a merge)");
  expect(atMerge([{ ...step, state: 'reverse:merge', outcome: 'not-done' }])).toContain('to go on: fix the cause, then run the step again: erasmus workflow retry /p');
});

it('a completed run lists every review point left open; with none, it says every point was addressed', () => {
  const base = { runId: 'r1', status: 'COMPLETED', projectDir: '/p', executor: 'agent', totals: { inputTokens: 0, outputTokens: 0, totalTokens: 0 } };
  const review = { ...step, state: 'final:review', note: '/p/docs/reviews/final.md', verdict: 'Verdict: one small fix needed' };
  const open = statusText({ ...base, timeline: [review, { ...step, state: 'final:fixes', outcome: 'tests-passed', openPoints: ['no --help'] }] } as unknown as Parameters<typeof statusText>[0]);
  expect(open).toContain('completed with review points left open:\n  the final review (/p/docs/reviews/final.md) — Verdict: one small fix needed: left open: no --help');
  const clean = statusText({ ...base, timeline: [review, { ...step, state: 'final:fixes', outcome: 'tests-passed', openPoints: [] }] } as unknown as Parameters<typeof statusText>[0]);
  expect(clean).toContain('reviews: 1, every point addressed by a fixes step');
  const none = statusText({ ...base, timeline: [review, { ...step, state: 'final:fixes', outcome: 'skipped', note: 'the review asked for no changes' }] } as unknown as Parameters<typeof statusText>[0]);
  expect(none).toContain('reviews: 1, none asked for changes');
  expect(clean).not.toContain('left open');
});

it('statuses, states, outcomes and errors are words, never the internal names', () => {
  expect(eventLine('workflow.status', { runId: 'r1', projectDir: '/p', status: 'AWAITING_APPROVAL', state: 'prepare:plan' })).toBe('■ Waiting for your plan review, at Preparation · plan review');
  expect(eventLine('workflow.status', { runId: 'r1', projectDir: '/p', status: 'COMPLETED', state: 'completed' })).toBe('■ Completed');
  expect(eventLine('workflow.status', { runId: 'r1', projectDir: '/p', status: 'BLOCKED', state: 'adder:testing', error: { kind: 'RUNTIME_ERROR', message: 'tests fail' } })).toBe('■ Blocked — needs you, at adder · testing');
  expect(entryLine({ ...step, state: 'prepare:progress_schedule', outcome: 'tests-failed' })).toBe('  Preparation · schedule: tests failed in 2.0 s');
  const view = { runId: 'r1', status: 'RUNNING', state: 'adder:development', interrupted: true, projectDir: '/p', executor: 'agent', totals: { inputTokens: 0, outputTokens: 0, totalTokens: 0 }, timeline: [] };
  const text = statusText(view as unknown as Parameters<typeof statusText>[0]);
  expect(text).toContain('run r1: Interrupted — nothing is driving it, at adder · development');
  expect(text).toContain('nothing is driving it: erasmus workflow resume /p');
});

it("a parallel run's status lists each component: what it needs, its step and worktree while it runs, its commit once merged", () => {
  const text = statusText({
    runId: 'r1',
    status: 'RUNNING',
    state: 'parallel:components',
    projectDir: '/p',
    executor: 'agent',
    totals: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
    timeline: [],
    parallelComponents: 2,
    lanes: [
      { component: 'core', status: 'merged', depends: [], commit: 'abcdef0123456789' },
      { component: 'cli', status: 'running', depends: ['core'], state: 'cli:testing', worktree: '/p/.git/erasmus/worktrees/r1/cli' },
    ],
  } as unknown as Parameters<typeof statusText>[0]);
  expect(text).toContain('components side by side (at most 2 at once), merged in this order:\n  core: merged as abcdef01\n  cli: running, at cli · testing in /p/.git/erasmus/worktrees/r1/cli; needs core');
});

it("a durable run's status says its components run in workers, over which database", () => {
  const text = statusText({
    runId: 'r1',
    status: 'RUNNING',
    state: 'parallel:components',
    projectDir: '/p',
    executor: 'command',
    totals: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
    timeline: [],
    parallelComponents: 2,
    durable: { database: 'postgres://me:***@db:5432/runs' },
    lanes: [{ component: 'core', status: 'running', depends: [], state: 'core:review' }],
  } as unknown as Parameters<typeof statusText>[0]);
  expect(text).toContain('components side by side (at most 2 at once, run by `erasmus worker` processes over postgres://me:***@db:5432/runs), merged in this order:\n  core: running, at core · review');
});

describe('planText', () => {
  const plan = { components: [{ id: 'cli', title: 'The command', testCommand: 'python3 -m pytest', tasks: [{ id: 'C1', title: 'Add --chars', status: 'todo' }] }] } as never;
  it("says what follows the components: an end-to-end pass, or an existing project's own tests", () => {
    expect(planText(plan)).toContain('  then: end-to-end testing, final documentation, final review');
    expect(planText(plan, true)).toContain("  then: the project's own tests, final documentation, final review");
  });
  it('says "needs no other component" for every component whose Depends: line is none, the first too', () => {
    const two = { components: ['a', 'b'].map((id) => ({ id, depends: [], tasks: [{ id: `${id}1`, title: 'x', status: 'todo' }] })) } as never;
    expect(planText(two).match(/\(needs no other component\)/g)).toHaveLength(2);
  });
});

it('an interrupted run side by side shows its running components as interrupted, not running', () => {
  const text = statusText({
    runId: 'r1', status: 'RUNNING', interrupted: true, state: 'parallel:components', projectDir: '/p', executor: 'agent', parallelComponents: 2,
    totals: { inputTokens: 0, outputTokens: 0, totalTokens: 0 }, timeline: [],
    lanes: [
      { component: 'upper', status: 'running', state: 'upper:development', depends: [] },
      { component: 'slug', status: 'merged', commit: '8a429ac3aa', depends: [] },
    ],
  } as unknown as Parameters<typeof statusText>[0]);
  expect(text).toContain('  upper: interrupted at upper · development (resume runs it again)');
  expect(text).not.toContain('upper: running');
  expect(text).toContain('  slug: merged as 8a429ac3');
});

it("a blocked side-by-side run says its component's error once, then how to go on", () => {
  const text = statusText({
    runId: 'r1', status: 'BLOCKED', state: 'parallel:components', projectDir: '/p', executor: 'agent', parallelComponents: 2,
    totals: { inputTokens: 0, outputTokens: 0, totalTokens: 0 }, timeline: [],
    error: { kind: 'RUNTIME_ERROR', message: 'component count (count:debugging): tests still fail after 3 debugging steps' },
    lanes: [
      { component: 'slug', status: 'merged', commit: '8a429ac3aa', depends: [] },
      { component: 'count', status: 'blocked', state: 'count:debugging', worktree: '/p/.git/erasmus/worktrees/r1/count', error: 'tests still fail after 3 debugging steps', depends: [] },
    ],
  } as unknown as Parameters<typeof statusText>[0]);
  expect(text.split('tests still fail after 3 debugging steps').length - 1).toBe(1);
  expect(text).toContain('component count is blocked at count · debugging; its work is in its worktree /p/.git/erasmus/worktrees/r1/count. To go on:');
  expect(text).toMatch(/\n {2}count: blocked, at count · debugging in \/p\/\.git\/erasmus\/worktrees\/r1\/count$/);
});

it("a side-by-side component's commit line says where the commit is: on its lane, then the one merged into the run's branch", () => {
  const at = { enteredAt: '2026-01-01T00:00:00.000Z', leftAt: '2026-01-01T00:00:01.000Z', durationMs: 1000, outcome: 'committed' as const };
  const lane = { ...at, state: 'b:commit', worktree: '/p/.git/erasmus/worktrees/r1/b', commit: '24a2e0a8ffff' };
  expect(entryLine(lane)).toBe("  b · commit: committed in 1.0 s (commit 24a2e0a8 on its lane, to be merged into the run's branch in schedule order)");
  expect(entryLine({ ...lane, commit: '8a429ac3ffff', laneCommit: '24a2e0a8ffff' })).toBe("  b · commit: committed in 1.0 s (commit 8a429ac3, merged from its lane's 24a2e0a8)");
  expect(entryLine({ ...at, state: 'b:commit', commit: '8a429ac3ffff' })).toBe('  b · commit: committed in 1.0 s (commit 8a429ac3)');
});

it("a durable run's hints name its database (the password masked, as the record keeps it), so following them does not ask for it again", () => {
  const durable = { database: 'postgres://me:***@db.example:5432/erasmus' };
  const base = { runId: 'r1', projectDir: '/p', executor: 'agent', durable, totals: { inputTokens: 0, outputTokens: 0, totalTokens: 0 }, timeline: [] };
  const view = (v: object) => statusText({ ...base, ...v } as unknown as Parameters<typeof statusText>[0]);
  const opt = "--database-url 'postgres://me:***@db.example:5432/erasmus'";
  const note = '(your password in place of ***; or set ERASMUS_DATABASE_URL instead of --database-url)';
  expect(view({ status: 'RUNNING', interrupted: true, state: 'parallel:components' })).toContain(`nothing is driving it: erasmus workflow resume /p ${opt} ${note}`);
  expect(view({ status: 'BLOCKED', state: 'api:testing', error: { kind: 'RUNTIME_ERROR', message: 'tests fail' } })).toContain(`erasmus workflow retry /p ${opt}, or skip it (the run goes on to the next step with these tests not passing): erasmus workflow skip /p ${opt} ${note}`);
  const lane = { component: 'api', status: 'blocked', state: 'api:debugging', depends: [], entries: [] };
  expect(view({ status: 'BLOCKED', state: 'parallel:components', lanes: [lane], error: { kind: 'RUNTIME_ERROR', message: 'component api: tests fail' } })).toContain(
    `erasmus workflow retry /p --component api ${opt}, or skip that step: erasmus workflow skip /p --component api ${opt} ${note}`,
  );
  // A URL without a password is given as it is; a run that is not durable names no database.
  expect(statusText({ ...base, durable: { database: 'postgres://localhost/erasmus' }, status: 'RUNNING', interrupted: true } as unknown as Parameters<typeof statusText>[0])).toContain(
    "erasmus workflow resume /p --database-url 'postgres://localhost/erasmus' (or set ERASMUS_DATABASE_URL instead of --database-url)",
  );
  expect(statusText({ ...base, durable: undefined, status: 'RUNNING', interrupted: true } as unknown as Parameters<typeof statusText>[0])).not.toContain('database');
});

it("a durable run not followed now (paused, stopped, its process gone) shows its running components as running in the workers, which go on", () => {
  const view = (over: Record<string, unknown>) =>
    statusText({
      runId: 'r1', status: 'RUNNING', state: 'parallel:components', projectDir: '/p', executor: 'agent', parallelComponents: 2, durable: { database: 'postgres://db/runs' },
      totals: { inputTokens: 0, outputTokens: 0, totalTokens: 0 }, timeline: [],
      lanes: [{ component: 'center', status: 'running', state: 'center:testing', depends: [] }],
      ...over,
    } as unknown as Parameters<typeof statusText>[0]);
  const goesOn = 'its workflow goes on in the workers, and resume takes up what they did, nothing done twice)';
  expect(view({ interrupted: true })).toContain(`  center: running in \`erasmus worker\`, at center · testing (nothing follows it here: ${goesOn}`);
  expect(view({ interrupted: true })).not.toContain('resume runs it again');
  expect(view({ status: 'PAUSED' })).toContain(`  center: running in \`erasmus worker\`, at center · testing (the run is paused: ${goesOn}`);
  expect(view({ status: 'STOPPED' })).toContain('(the run is stopped: ');
  expect(view({})).toContain('  center: running, at center · testing');
});

it("a durable run's component that does not move says why in status (no worker takes it, or its worker is gone)", () => {
  const lane = (component: string, waiting: string) => ({ component, status: 'running', state: `${component}:development`, depends: [], waiting });
  const text = statusText({
    runId: 'r1', projectDir: '/p', executor: 'agent', status: 'RUNNING', durable: { database: 'postgres://localhost/e' }, totals: { inputTokens: 0, outputTokens: 0, totalTokens: 0 }, timeline: [],
    lanes: [lane('a', 'queued: waiting for an `erasmus worker` (none has taken it since 13:02)'), lane('b', 'the worker on vm that ran it is gone; the step runs again when a worker is free')],
  } as unknown as Parameters<typeof statusText>[0]);
  // On the queue: queued, not running (which the words after it would contradict).
  expect(text).toContain('  a: queued, at a · development; waiting for an `erasmus worker` (none has taken it since 13:02)');
  expect(text).toContain('  b: running, at b · development; the worker on vm that ran it is gone; the step runs again when a worker is free');
});
