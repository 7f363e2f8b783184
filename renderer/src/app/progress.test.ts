import { describe, expect, it } from 'vitest';
import { liveTotals, runProgress } from './progress';

const usage = (totalTokens: number, costUsd: number | null) => ({ inputTokens: totalTokens, outputTokens: 0, totalTokens, costUsd });

describe('one token count', () => {
  it("the run's totals count the step running now from its session, so the status bar and the session header agree", () => {
    const view = {
      totals: { inputTokens: 100, outputTokens: 0, totalTokens: 100, costUsd: 0.1 },
      timeline: [
        { state: 'prepare:architecture', enteredAt: 'a', leftAt: 'b', usage: { inputTokens: 100, outputTokens: 0, totalTokens: 100, costUsd: 0.1 }, sessionLog: '/h/sessions/s1.jsonl' },
        { state: 'prepare:progress_schedule', enteredAt: 'b', sessionLog: '/h/sessions/s2.jsonl' },
      ],
    };
    // s1 ended (its usage is in the totals already, not counted twice); s2 is working.
    const sessions = { s1: { usage: usage(100, 0.1) }, s2: { usage: usage(40, 0.04) } };
    const t = liveTotals(view, sessions);
    expect(t.totalTokens).toBe(140);
    expect(t.costUsd).toBeCloseTo(0.14);
    // Before its session reports usage, the totals are what they are.
    expect(liveTotals(view, { s1: sessions.s1 }).totalTokens).toBe(100);
    // The process died (serve killed): nothing is running, so a session seen before the restart adds nothing, as after a reload.
    expect(liveTotals({ ...view, interrupted: true }, sessions).totalTokens).toBe(100);
  });
});

describe('the components done', () => {
  it("counts those finished for earlier goals and those this run committed, not a rewound commit", () => {
    const comp = (id: string, status: 'todo' | 'done') => ({ id, title: id, testCommand: 'npm test', tasks: [{ id: `${id}1`, title: 't', status }] });
    const plan = { components: [comp('a', 'done'), comp('b', 'done'), comp('c', 'done'), comp('d', 'todo'), comp('e', 'todo')] } as never;
    const commit = (component: string, rewound?: boolean) => ({ state: `${component}:commit`, component, enteredAt: 'a', leftAt: 'b', outcome: 'committed' as const, ...(rewound ? { rewound } : {}) });
    expect(runProgress({ plan, status: 'RUNNING', timeline: [] })).toEqual({ done: 3, total: 5 });
    expect(runProgress({ plan, status: 'RUNNING', timeline: [commit('d', true)] })).toEqual({ done: 3, total: 5 });
    expect(runProgress({ plan, status: 'RUNNING', timeline: [commit('d')] })).toEqual({ done: 4, total: 5 });
    expect(runProgress({ plan, status: 'COMPLETED', timeline: [] })).toEqual({ done: 5, total: 5 });
  });
});
