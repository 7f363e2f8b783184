import { describe, expect, it } from 'vitest';
import type { WorkflowTimelineEntry } from '../../../../electron/contract/index';
import { layout } from './lanes';

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
    expect(adder.map((b) => `${b.step}:${b.status}:${b.attempt}`)).toEqual(['development:done:1', 'testing:failed:1', 'debugging:done:1', 'testing:done:2', 'review:current:1']);
    expect(lanes[0]!.blocks[0]!.left).toBe(0);
    expect(adder[0]!.left).toBeCloseTo(10 / 60);
    expect(adder[4]!.width).toBeCloseTo(10 / 60);
  });
  it('shows an unfinished step of a stopped run as interrupted, and keeps tiny steps visible', () => {
    const lanes = layout({ timeline: [e('prepare:architecture', 0, 0, 'written'), e('x:development', 0, undefined, undefined, 'x')], state: 'x:development', status: 'STOPPED' }, Date.parse(t(100)));
    expect(lanes[1]!.blocks[0]!.status).toBe('interrupted');
    expect(lanes[0]!.blocks[0]!.width).toBe(0.015);
  });
  it('is empty for a run with no steps yet', () => {
    expect(layout({ timeline: [], status: 'LOADED' }, 0)).toEqual([]);
  });
});
