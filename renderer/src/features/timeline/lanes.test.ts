import { describe, expect, it } from 'vitest';
import type { WorkflowTimelineEntry } from '../../../../electron/contract/index';
import { focusOf, layout } from './lanes';
import { alongsideWords } from './StepBlock';

const t = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s)).toISOString();
const e = (state: string, from: number, to: number | undefined, outcome?: WorkflowTimelineEntry['outcome'], component?: string): WorkflowTimelineEntry => ({
  state,
  component,
  enteredAt: t(from),
  ...(to !== undefined ? { leftAt: t(to), durationMs: (to - from) * 1000 } : {}),
  ...(outcome ? { outcome } : {}),
});

describe('timeline layout', () => {
  const timeline = [
    e('prepare:architecture', 0, 10, 'written'),
    e('adder:development', 10, 20, 'done', 'adder'),
    e('adder:testing', 20, 30, 'tests-failed', 'adder'),
    e('adder:debugging', 30, 40, 'tests-passed', 'adder'),
    e('adder:testing', 40, 50, 'tests-passed', 'adder'),
    e('adder:review', 50, undefined, undefined, 'adder'),
  ];
  it('puts components in lanes in the order they ran, with failures, retries and the current step', () => {
    const lanes = layout({ timeline, state: 'adder:review', status: 'RUNNING' }, Date.parse(t(60)));
    expect(lanes.map((l) => l.id)).toEqual(['prepare', 'adder']);
    const adder = lanes[1]!.blocks;
    // The failed test run that debugging fixed reads as fixed, not as a failure of the run.
    expect(adder.map((b) => `${b.step}:${b.status}:${b.attempt}`)).toEqual(['development:done:1', 'testing:fixed:1', 'debugging:done:1', 'testing:done:2', 'review:current:1']);
    // One column per step in run order: nothing overlaps, whatever the durations.
    expect(lanes[0]!.blocks[0]!.left).toBe(0);
    expect(adder.map((b) => b.left)).toEqual([1, 2, 3, 4, 5].map((i) => i / 6));
    expect(adder.every((b) => b.width === 1 / 6)).toBe(true);
    expect(adder[4]!.share).toBe(1);
  });
  it('keeps a failed test run that nothing fixed as failed, and marks a step waiting for the user', () => {
    const lanes = layout({ timeline: [e('a:development', 0, 5, 'done', 'a'), e('a:testing', 5, 9, 'tests-failed', 'a'), e('a:debugging', 9, undefined, undefined, 'a')], state: 'a:debugging', status: 'RUNNING' }, Date.parse(t(20)), (x) => x.state === 'a:debugging');
    expect(lanes[0]!.blocks.map((b) => b.status)).toEqual(['done', 'failed', 'waiting']);
  });
  it('shows an unfinished step of a stopped run as interrupted, and gives a step of no time its column', () => {
    const lanes = layout({ timeline: [e('prepare:architecture', 0, 0, 'written'), e('x:development', 0, undefined, undefined, 'x')], state: 'x:development', status: 'STOPPED' }, Date.parse(t(100)));
    expect(lanes[1]!.blocks[0]!.status).toBe('interrupted');
    expect(lanes[0]!.blocks[0]!.width).toBe(0.5);
    expect(lanes[0]!.blocks[0]!.share).toBe(0);
  });
  it('shows a step the user stopped (aborted) as interrupted, not failed', () => {
    const lanes = layout({ timeline: [e('x:review', 0, 5, 'aborted', 'x'), e('x:review', 6, 9, 'done', 'x')], state: 'x:fixes', status: 'RUNNING' }, Date.parse(t(20)));
    expect(lanes[0]!.blocks.map((b) => b.status)).toEqual(['interrupted', 'done']);
  });
  it('keeps in sight the step running (the latest of several), else the blocked step, else the last step', () => {
    const running = layout({ timeline, state: 'adder:review', status: 'RUNNING' }, Date.parse(t(60)));
    expect(focusOf(running, false)?.state).toBe('adder:review');
    // Blocked: the failed step, even with a final-phase step drawn after it.
    const blocked = layout({ timeline: [...timeline.slice(0, 3), e('final:review', 31, 32, 'done')], state: 'adder:testing', status: 'BLOCKED' }, Date.parse(t(60)));
    expect(focusOf(blocked, true)?.index).toBe(2);
    // Completed: the end of the run (the final phase), not the beginning.
    const done = layout({ timeline: [...timeline.slice(0, 5), e('final:review', 50, 60, 'done')], state: 'completed', status: 'COMPLETED' }, Date.parse(t(60)));
    expect(focusOf(done, false)?.state).toBe('final:review');
  });
  it('is empty for a run with no steps yet', () => {
    expect(layout({ timeline: [], status: 'LOADED' }, 0)).toEqual([]);
  });
  it("lays a parallel run's components side by side: steps that ran at once share a column, each in its lane", () => {
    const w = (x: WorkflowTimelineEntry) => ({ ...x, worktree: `/p/.git/erasmus/worktrees/r/${x.component}` });
    const timeline = [
      e('parallel:components', 0, 0, 'done'),
      w(e('a:development', 0, 10, 'done', 'a')),
      w(e('b:development', 1, 5, 'done', 'b')),
      w(e('b:testing', 5, 9, 'tests-passed', 'b')),
      w(e('a:testing', 10, undefined, undefined, 'a')),
      e('parallel:orchestration', 12, 13, 'done'),
    ];
    const lanes = layout({ timeline, state: 'parallel:components', status: 'RUNNING' }, Date.parse(t(11)));
    const by = (id: string) => lanes.find((l) => l.id === id)!.blocks;
    // a's development ran while b developed and tested: b's first step shares its column, b's second takes the next.
    expect(by('a').map((b) => b.left)).toEqual([1 / 5, 3 / 5]);
    expect(by('b').map((b) => b.left)).toEqual([1 / 5, 2 / 5]);
    expect(by('a')[0]!.alongside).toEqual(['b:development', 'b:testing']);
    // Said once each, with how many times: "at the same time as slugify · debugging ×3", not the same words thrice.
    expect(alongsideWords(['s:debugging', 's:debugging', 'c:review', 's:debugging'])).toBe('s · debugging ×3, c · review');
    // A component's open step is running, though the run's own state is the parallel phase.
    expect(by('a')[1]!.status).toBe('current');
    expect(by('parallel').map((b) => b.left)).toEqual([0, 4 / 5]);
  });
});
