import { expect, it } from 'vitest';
import { reportText } from './report-text';
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
});
