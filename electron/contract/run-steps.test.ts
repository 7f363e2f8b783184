import { describe, expect, it } from 'vitest';
import { builtWords, componentsBuilt, runCommits, runElapsed, runRestEnd, runStepsOf } from './run-steps';

describe("a run's commits", () => {
  it('are listed once each, in history order, when components side by side finish out of schedule order', () => {
    // As a two-component run recorded it: count finished first, slug was merged first, count's merge commit is its commit.
    const timeline = [
      { state: 'count:commit', commit: 'f820' },
      { state: 'slug:commit', commit: '0d40' },
      { state: 'count:merge', commit: 'f820' },
      { state: 'parallel:orchestration' },
      { state: 'final:commit', commit: '718b' },
    ];
    expect(runCommits(timeline).map((e) => [e.state, e.commit])).toEqual([['slug:commit', '0d40'], ['count:merge', 'f820'], ['final:commit', '718b']]);
  });

  it('leave out the commits a rewind undid (the steps after it are marked rewound, then run again)', () => {
    const timeline = [
      { state: 'a:commit', commit: '599b', rewound: true },
      { state: 'final:commit', commit: 'ba47', rewound: true },
      { state: 'a:commit', commit: '96a8' },
      { state: 'final:commit', commit: 'f910' },
    ];
    expect(runCommits(timeline).map((e) => e.commit)).toEqual(['96a8', 'f910']);
  });
});

describe("a run's wall time", () => {
  it('runs while the run does and stops at its last update once it rests, the same for every view', () => {
    const view = (status: string) => ({ status, updatedAt: '2026-01-01T00:18:46Z', timeline: [{ state: 'prepare:architecture', enteredAt: '2026-01-01T00:00:00Z' }] }) as unknown as Parameters<typeof runElapsed>[0];
    const now = Date.parse('2026-01-01T00:25:27Z');
    // A rewound run rests PAUSED: the status bar said 25 m 27 s (now) where the timeline said 18 m 46 s (its last update).
    expect(runElapsed(view('PAUSED'), now)).toBe((18 * 60 + 46) * 1000);
    expect(runElapsed(view('BLOCKED'), now)).toBe((18 * 60 + 46) * 1000);
    expect(runElapsed(view('RUNNING'), now)).toBe((25 * 60 + 27) * 1000);
    // Left for a newer goal: never driven again, its clock stopped.
    expect(runElapsed(view('ABANDONED'), now)).toBe((18 * 60 + 46) * 1000);
    expect(runElapsed(view('RUNNING'), now, false)).toBe((18 * 60 + 46) * 1000); // the core is gone: nothing is live
    expect(runElapsed({ ...view('RUNNING'), timeline: [] }, now)).toBeUndefined();
  });

  it("a completed run's time ends with its last step, not when it was saved again (finished into its branch later)", () => {
    // Played as a user: "1 component built in 3 m 12 s" read "25 m 28 s" once the run was squashed into main 20 minutes on.
    const timeline = [
      { state: 'prepare:architecture', enteredAt: '2026-01-01T00:00:00Z', leftAt: '2026-01-01T00:01:00Z' },
      { state: 'final:commit', enteredAt: '2026-01-01T00:03:00Z', leftAt: '2026-01-01T00:03:12Z' },
    ];
    const completed = { status: 'COMPLETED', updatedAt: '2026-01-01T00:25:28Z', timeline } as unknown as Parameters<typeof runElapsed>[0];
    expect(runElapsed(completed, Date.parse('2026-01-01T01:00:00Z'))).toBe((3 * 60 + 12) * 1000);
    expect(runRestEnd(completed)).toBe('2026-01-01T00:03:12.000Z');
    // A run at rest otherwise stops at its last update (a blocked run waits from when it blocked).
    expect(runRestEnd({ ...completed, status: 'BLOCKED' } as typeof completed)).toBe('2026-01-01T00:25:28Z');
  });
});

describe('what a finished run built', () => {
  it("counts the components it reached the commit of, not its plan's earlier ones, and says so at completion", () => {
    // A later goal's plan: truncate and wordcount done before this run, capitalize built now (a rewound commit not counted).
    const timeline = [
      { state: 'capitalize:development', component: 'capitalize' },
      { state: 'capitalize:commit', component: 'capitalize' },
      { state: 'wordcount:commit', component: 'wordcount', rewound: true },
      { state: 'final:commit' },
    ];
    expect(componentsBuilt(timeline)).toEqual(['capitalize']);
    expect(builtWords(3, componentsBuilt(timeline))).toBe("component capitalize is done (the plan's other 2 were done before this run)");
    expect(builtWords(2, ['capitalize'])).toBe("component capitalize is done (the plan's other one was done before this run)");
    expect(builtWords(1, ['core'])).toBe('its component is done');
    expect(builtWords(2, ['a', 'b'])).toBe('all 2 components are done');
    expect(builtWords(3, ['a', 'b'])).toBe("2 components are done (the plan's other one was done before this run)");
    expect(builtWords(2, [])).toBe("no component needed building (the plan's 2 components were done before this run); the final phase is done");
  });
});

describe('a run as the sessions list knows it', () => {
  it("carries a step's note when it says calls were refused and gone on without (its session view says so), no other note", () => {
    const refused = '1 call(s) not run, as nobody could approve them (the runners tool “bash run”); the step went on without them';
    const run = { runId: 'r1', projectDir: '/p', status: 'COMPLETED' as const, createdAt: '2026-01-01T00:00:00Z', updatedAt: '2026-01-01T00:01:00Z', timeline: [
      { state: 'a:testing', enteredAt: '2026-01-01T00:00:00Z', sessionLog: '/h/sessions/s1.jsonl', note: refused, worker: 'the worker on vm (pid 7)' },
      { state: 'a:review_fixes', enteredAt: '2026-01-01T00:00:30Z', outcome: 'skipped' as const, note: 'the review asked for no changes' },
    ] };
    expect(runStepsOf(run).steps.map((s) => s.refused)).toEqual([refused, undefined]);
    expect(runStepsOf(run).steps.map((s) => s.worker)).toEqual(['the worker on vm (pid 7)', undefined]);
  });

  it('carries that a step stopped to ask the user (the list draws it asking, not failed)', () => {
    const run = { runId: 'r1', projectDir: '/p', status: 'BLOCKED' as const, createdAt: '2026-01-01T00:00:00Z', updatedAt: '2026-01-01T00:01:00Z', timeline: [
      { state: 'a:development', enteredAt: '2026-01-01T00:00:00Z', leftAt: '2026-01-01T00:00:10Z', outcome: 'not-done' as const, asked: true },
      { state: 'b:development', enteredAt: '2026-01-01T00:00:00Z', leftAt: '2026-01-01T00:00:10Z', outcome: 'not-done' as const },
    ] };
    expect(runStepsOf(run).steps.map((s) => s.asked)).toEqual([true, undefined]);
  });
});
