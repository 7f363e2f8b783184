import { describe, expect, it } from 'vitest';
import type { WorkflowTimelineEntry } from './methods/workflow';
import { leftOpenOf, openPointsOf, reviewOutcomes, reviewsLeftOpenLines, verdictOf } from './review-points';

const at = (state: string, outcome: WorkflowTimelineEntry['outcome'], extra: Partial<WorkflowTimelineEntry> = {}): WorkflowTimelineEntry => ({
  state,
  enteredAt: '2026-01-01T00:00:00Z',
  leftAt: '2026-01-01T00:00:01Z',
  outcome,
  ...extra,
});

describe('review points', () => {
  it('reads the verdict line without emphasis, and the points under "## Left open" ("- none" is none; no section is unknown)', () => {
    expect(verdictOf('# Final review\n\n**Verdict:** one small fix needed.\n\n1. x')).toBe('Verdict: one small fix needed');
    expect(verdictOf('# Review\n\nAll fine.')).toBeUndefined();
    expect(leftOpenOf('Did it.\n\n## Left open\n- The CLI lacks --help: out of scope\n* 2nd point\n\n## Other\n- not this')).toEqual(['The CLI lacks --help: out of scope', '2nd point']);
    expect(leftOpenOf('Did it.\n\n### Left open\n- none\n')).toEqual([]);
    expect(leftOpenOf('Did it all.')).toBeUndefined();
  });

  it('a review asking for no changes keeps the points it names open; a point a later step fixed (its file changed, the tests passing after) is not left open', () => {
    const report = 'Verdict: no changes needed\n\n- `upper` is implemented.\n- Open point (not a fix for this run): the `cli` entry point named by the goal is not built yet.\n';
    expect(openPointsOf(report)).toEqual(['the `cli` entry point named by the goal is not built yet.']);
    expect(openPointsOf('Verdict: one fix needed\n- Open point: x')).toEqual([]); // its fixes step says what it left open
    const point = '`src/title.js:4` regex fix: my edit was declined by the user';
    const timeline = [
      at('title:review', 'done', { verdict: 'Verdict: one fix needed' }),
      at('title:fixes', 'tests-failed', { openPoints: [point, 'no --help'] }),
      at('title:redebugging', 'tests-passed', { files: [{ path: 'src/title.js', change: 'modified' }] }),
      at('final:review', 'done', { verdict: 'Verdict: no changes needed', openPoints: openPointsOf(report) }),
      at('final:fixes', 'skipped', { note: 'the review asked for no changes (docs/reviews/final.md)' }),
    ];
    const [title, final] = reviewOutcomes(timeline);
    expect(title).toMatchObject({ fixes: 'addressed', open: ['no --help'], changedLater: [{ point, by: 'title:redebugging' }] });
    expect(final).toMatchObject({ fixes: 'none-needed', open: ['the `cli` entry point named by the goal is not built yet.'] });
    expect(reviewsLeftOpenLines(timeline)).toEqual([
      'the review of title — Verdict: one fix needed: left open: no --help',
      'the final review — Verdict: no changes needed: left open: the `cli` entry point named by the goal is not built yet.',
    ]);
  });

  it('follows each review to its fixes step: none needed, fixed with points open, skipped by the user, not said', () => {
    const timeline = [
      at('a:review', 'done', { note: '/p/docs/reviews/a.md', verdict: 'Verdict: no changes needed' }),
      at('a:fixes', 'skipped', { note: 'the review asked for no changes (docs/reviews/a.md)' }),
      at('b:review', 'done', { note: '/p/docs/reviews/b.md' }),
      at('b:fixes', 'skipped'),
      at('c:review', 'done', { note: '/p/docs/reviews/c.md' }),
      at('c:fixes', 'done'),
      at('final:review', 'done', { note: '/p/docs/reviews/final.md', verdict: 'Verdict: one small fix needed' }),
      at('final:fixes', 'tests-passed', { openPoints: ['no --help'] }),
    ];
    expect(reviewOutcomes(timeline).map((r) => [r.scope, r.fixes, r.open, !!r.unstated])).toEqual([
      ['a', 'none-needed', [], false],
      ['b', 'skipped', ['every point of the report: its fixes step was skipped'], false],
      ['c', 'addressed', [], true],
      ['final', 'addressed', ['no --help'], false],
    ]);
    expect(reviewsLeftOpenLines(timeline)).toEqual([
      'the review of b (/p/docs/reviews/b.md): left open: every point of the report: its fixes step was skipped',
      'the review of c (/p/docs/reviews/c.md): the fixes step did not say whether it left any point open; read the report',
      'the final review (/p/docs/reviews/final.md) — Verdict: one small fix needed: left open: no --help',
    ]);
    // For the pull request's readers: a report in the project named from its top, one kept on this machine not named at all
    // (played as a user: the pull request's "Left open" named /tmp/…/home/context/…/cli.md and said to read it).
    const kept = [at('c:review', 'done', { note: '/home/me/.erasmus/context/p-1/runs/r.reviews/c.md' }), at('c:fixes', 'done')];
    expect(reviewsLeftOpenLines(timeline, { forReaders: { projectDir: '/p' } })[1]).toBe('the review of c (docs/reviews/c.md): the fixes step did not say whether it left any point open; read the report');
    expect(reviewsLeftOpenLines(kept, { forReaders: { projectDir: '/p' } })).toEqual(['the review of c: the fixes step did not say whether it left any point open']);
    // A review run again counts from its latest run.
    expect(reviewsLeftOpenLines([...timeline.slice(0, 6), at('c:review', 'done', { verdict: 'Verdict: no changes needed' }), at('c:fixes', 'skipped', { note: 'no changes' })])).toEqual([
      'the review of b (/p/docs/reviews/b.md): left open: every point of the report: its fixes step was skipped',
    ]);
  });
});
