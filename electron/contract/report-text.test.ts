import { expect, it } from 'vitest';
import { reportText } from './report-text';
import { pullRequestBody } from './pr-summary';
import { runReport } from './run-report';

it("a later goal's report says the components an earlier run committed were, not 'not committed'", () => {
  const plan = {
    maxDebugAttempts: 3,
    components: [
      { id: 'slug', title: 'slugs', tasks: [{ id: 'S1', title: 'Slugify', status: 'done' as const }] },
      { id: 'trunc', title: 'truncates', tasks: [{ id: 'T1', title: 'Truncate', status: 'todo' as const }] },
      { id: 'count', title: 'counts', tasks: [{ id: 'C1', title: 'Count', status: 'todo' as const }] },
    ],
  };
  const at = { enteredAt: '2026-01-01T00:00:00Z', leftAt: '2026-01-01T00:00:01Z' };
  const report = runReport({
    runId: 'r2', projectDir: '/p', status: 'BLOCKED', goal: 'truncate', plan,
    timeline: [{ state: 'trunc:commit', component: 'trunc', ...at, outcome: 'committed', commit: 'abcdef0123456789' }],
  });
  expect(report.tasks.map((t) => [t.id, t.commit, t.earlier ?? false])).toEqual([['S1', null, true], ['T1', 'abcdef0123456789', false], ['C1', null, false]]);
  const text = reportText(report);
  expect(text).toContain('slug — committed by an earlier run');
  expect(text).toContain('trunc — commit abcdef012345');
  expect(text).toContain('count — not committed');
  // The run's status in words, as every view says it (it printed the internal name: "(BLOCKED)", "(ABANDONED)").
  expect(text).toContain('Run r2 (blocked — needs you): truncate');
});

it("an earlier goal's task is verified by this run's passing test that names it, from any gate of the run; a hooks-refused commit is no untraced test run", () => {
  const plan = {
    maxDebugAttempts: 3,
    components: [
      { id: 'slug', title: 'slugs', tasks: [{ id: 'SLUG-1', title: 'Slugify', status: 'done' as const }] },
      { id: 'count', title: 'counts', tasks: [{ id: 'COUNT-1', title: 'Count', status: 'todo' as const }] },
    ],
  };
  const at = { enteredAt: '2026-01-01T00:00:00Z', leftAt: '2026-01-01T00:00:01Z' };
  const tests = [{ name: 'SLUG-1: slugify joins words', passed: true }, { name: 'COUNT-1: counts words', passed: true }];
  const report = runReport({
    runId: 'r3', projectDir: '/p', status: 'COMPLETED', goal: 'count', plan,
    timeline: [
      { state: 'count:commit', component: 'count', ...at, outcome: 'tests-failed', test: { command: 'git commit', exitCode: 1, passed: false, output: 'hook said no' } },
      { state: 'count:testing', component: 'count', ...at, outcome: 'tests-passed', test: { command: 'npm test', exitCode: 0, passed: true, output: '', traced: true, tests } },
      { state: 'count:commit', component: 'count', ...at, outcome: 'committed', commit: 'abcdef0123456789' },
      { state: 'final:testing', ...at, outcome: 'tests-passed', test: { command: 'npm test --silent', exitCode: 0, passed: true, output: '' } },
    ],
  });
  expect(report.tasks.map((t) => [t.id, t.tests.map((x) => x.name)])).toEqual([['SLUG-1', ['SLUG-1: slugify joins words']], ['COUNT-1', ['COUNT-1: counts words']]]);
  expect(report.verified).toBe(true);
  expect(report.untraced).toEqual([{ state: 'final:testing', command: 'npm test --silent', note: 'recorded by an older Erasmus that did not read a test report for this gate' }]);
  expect(reportText(report)).toContain("slug — committed by an earlier run (an earlier goal's tasks; the tests below ran in this run)\n  SLUG-1: Slugify\n    pass  SLUG-1: slugify joins words");
  expect(pullRequestBody({ goal: 'count', plan, timeline: [] }, report)).toContain("- [x] SLUG-1 Slugify (an earlier goal's task): SLUG-1: slugify joins words");
});
