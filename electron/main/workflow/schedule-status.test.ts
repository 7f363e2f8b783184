import { describe, expect, it } from 'vitest';
import type { Plan } from './plan';
import { componentsStatus, SCHEDULE_STATUS_HEADING, scheduleWithStatus } from './schedule-status';

const plan: Plan = {
  components: [
    { id: 'core', title: 'The core', tasks: [{ id: 'C1', title: 'x', status: 'todo' }, { id: 'C2', title: 'y', status: 'todo' }] },
    { id: 'cli', title: 'The CLI', tasks: [{ id: 'L1', title: 'z', status: 'todo' }] },
  ],
  maxDebugAttempts: 2,
};

describe("a parallel run's schedule update, written by Erasmus", () => {
  const status = componentsStatus(plan, [
    { component: 'core', status: 'merged', entries: [], commit: '1234567890abcdef' },
    { component: 'cli', status: 'merged', entries: [] },
  ]);

  it('names each component finished, with its commit on the run branch and its tasks, then the final phase as what is next', () => {
    expect(status.split('\n')[0]).toBe(SCHEDULE_STATUS_HEADING);
    expect(status).toContain("- core — The core (tasks C1, C2): finished; committed and merged into the run's branch as 12345678.");
    expect(status).toContain('- cli — The CLI (tasks L1): finished; it had nothing to commit.');
    expect(status).toMatch(/After them, the run's final phase: .*No component of this goal is left\.$/);
    expect(status).toContain('the milestones above were planned before the components ran');
  });

  it("is added at the schedule's end, keeping the model's text and the stamp; a later run's replaces it, keeping what follows", () => {
    const stamp = '<!-- erasmus: describes commit abcdef1 -->';
    const first = scheduleWithStatus(`# Schedule\n\n1. core: next\n2. cli\n\n${stamp}\n`, status);
    expect(first).toBe(`# Schedule\n\n1. core: next\n2. cli\n\n${status}\n\n${stamp}\n`);
    const later = scheduleWithStatus(`${first.replace(`\n\n${stamp}\n`, '\n')}\n## Second goal\n\n3. docs\n`, `${SCHEDULE_STATUS_HEADING}\n\nnew`);
    expect(later).toBe(`# Schedule\n\n1. core: next\n2. cli\n\n${SCHEDULE_STATUS_HEADING}\n\nnew\n\n## Second goal\n\n3. docs\n`);
    expect(scheduleWithStatus(undefined, 'x')).toBe('x\n');
  });

  it("drops the model's 'Next' lines written before the components ran: the status part says what is next", () => {
    const before = '# Progress schedule\n\n1. **slugify** — finished when its tests pass.\n2. **count_words**\n\nThe two milestones are independent.\n\nNext: slugify and count_words (none finished).\n\n- **Next:** slugify\n\nNext steps are listed above.\n';
    const after = scheduleWithStatus(before, status);
    expect(after).toBe(`# Progress schedule\n\n1. **slugify** — finished when its tests pass.\n2. **count_words**\n\nThe two milestones are independent.\n\nNext steps are listed above.\n\n${status}\n`);
    expect(after).not.toMatch(/Next:/); // the status part names what follows without a "Next" of its own, stale once the run is done
  });

  it('a milestone line naming a finished component says finished where the model wrote that it was not started', () => {
    const before = [
      '# Progress schedule',
      '',
      '## Milestone 1: truncate and wordCount',
      '- `truncate`: `src/truncate.js`, tests in `test/truncate.test.js`, README API entry. Not started.',
      '- **core**: the parser — next',
      '- cli (pending)',
      '- `docs`: the README. Not started.',
      'The core comes next, and the truncate-like helpers are planned.',
    ].join('\n');
    const after = scheduleWithStatus(before, status, ['truncate', 'core', 'cli']);
    expect(after).toContain('- `truncate`: `src/truncate.js`, tests in `test/truncate.test.js`, README API entry. Finished.');
    expect(after).toContain('- **core**: the parser — finished');
    expect(after).toContain('- cli (finished)');
    expect(after).toContain('- `docs`: the README. Not started.'); // not one of the run's components
    expect(after).toContain('The core comes next, and the truncate-like helpers are planned.'); // prose, not a status after a separator
  });
});
