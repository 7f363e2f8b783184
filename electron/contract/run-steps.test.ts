import { describe, expect, it } from 'vitest';
import { runCommits } from './run-steps';

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
});
