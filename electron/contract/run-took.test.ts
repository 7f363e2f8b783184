import { describe, expect, it } from 'vitest';
import { runTookMs } from './run-report';

const t = (s: number) => new Date(Date.UTC(2026, 0, 1) + s * 1000).toISOString();

describe('runTookMs', () => {
  it('leaves out the time nothing drove the run: from a cut-off step (closed at its last activity) until resume', () => {
    const timeline = [
      { enteredAt: t(0), leftAt: t(10), outcome: 'done' },
      // Two steps side by side when the process died; each closed at its last activity (20 s, 25 s).
      { enteredAt: t(10), leftAt: t(20), outcome: 'interrupted' },
      { enteredAt: t(12), leftAt: t(25), outcome: 'interrupted' },
      // Resumed 8 minutes later.
      { enteredAt: t(505), leftAt: t(530), outcome: 'done' },
    ];
    expect(runTookMs(timeline, t(540))).toBe((540 - 480) * 1000);
  });

  it('keeps waits that are not downtime (the plan review, a blocked step) and a run never cut off', () => {
    const timeline = [
      { enteredAt: t(0), leftAt: t(10), outcome: 'written' },
      { enteredAt: t(300), leftAt: t(320), outcome: 'done' },
    ];
    expect(runTookMs(timeline, t(330))).toBe(330_000);
    expect(runTookMs([], t(5))).toBe(0);
  });
});
