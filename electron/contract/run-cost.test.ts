import { describe, expect, it } from 'vitest';
import { addWorkflowUsage, costByPart, costPartsText } from './run-cost';

const u = (totalTokens: number, costUsd?: number) => ({ inputTokens: totalTokens - 1, outputTokens: 1, totalTokens, ...(costUsd !== undefined ? { costUsd } : {}) });

describe('cost per part of a run', () => {
  it('adds each step to its part in run order: the preparation, each component (its schedule update with it), the final phase', () => {
    const parts = costByPart([
      { state: 'prepare:architecture', usage: u(100, 0.01) },
      { state: 'prepare:task_list', usage: u(50, 0.005) },
      { state: 'adder:development', component: 'adder', usage: u(200, 0.02) },
      { state: 'adder:testing', component: 'adder' },
      { state: 'orchestration:adder', usage: u(10, 0.001) },
      { state: 'cli:development', component: 'cli', usage: u(300) },
      { state: 'final:review', usage: u(40, 0.004) },
    ]);
    // Components side by side: the schedule update after them all is a part of its own, in words (it read "parallel").
    expect(costByPart([{ state: 'parallel:orchestration', usage: u(7) }]).map((p) => p.label)).toEqual(['Schedule update']);
    expect(parts.map((p) => [p.label, p.totalTokens, p.costUsd === undefined ? 'unknown' : Number(p.costUsd.toFixed(4))])).toEqual([
      ['Preparation', 150, 0.015],
      ['adder', 210, 0.021],
      // A step whose model has no prices makes its part's cost unknown, never a low number.
      ['cli', 300, 'unknown'],
      ['Final phase', 40, 0.004],
    ]);
  });

  it('adds live usage to totals; the cost stays known only while both sides know it', () => {
    expect(addWorkflowUsage({ inputTokens: 0, outputTokens: 0, totalTokens: 0 }, { ...u(10), costUsd: 0.5 })).toMatchObject({ totalTokens: 10, costUsd: 0.5 });
    expect(addWorkflowUsage(u(10, 0.5), { ...u(5), costUsd: 0.25, cacheReadTokens: 3 })).toMatchObject({ totalTokens: 15, costUsd: 0.75, cacheReadTokens: 3 });
    expect(addWorkflowUsage(u(10, 0.5), { ...u(5), costUsd: null }).costUsd).toBeUndefined();
    expect(addWorkflowUsage(u(10), { ...u(5), costUsd: 0.25 }).costUsd).toBeUndefined();
  });
});

describe('costPartsText', () => {
  const o = { tokens: String, cost: (usd: number) => `$${usd.toFixed(2)}`, sep: ' · ', hint: 'set prices in Settings' };
  it('says where to give prices once, not after every part', () => {
    const text = costPartsText([{ label: 'a', totalTokens: 1, inputTokens: 1, outputTokens: 0 }, { label: 'b', totalTokens: 2, inputTokens: 2, outputTokens: 0 }] as never, o);
    expect(text).toBe('a 1 tokens · b 2 tokens (cost unknown: set prices in Settings)');
  });
  it('marks only the unpriced part when others have a price, and says nothing when all do', () => {
    const parts = [{ label: 'a', totalTokens: 1, costUsd: 0.5 }, { label: 'b', totalTokens: 2 }] as never;
    expect(costPartsText(parts, o)).toBe('a 1 tokens $0.50 · b 2 tokens (cost unknown) (where the cost is unknown, set prices in Settings)');
    expect(costPartsText([{ label: 'a', totalTokens: 1, costUsd: 0.5 }] as never, o)).toBe('a 1 tokens $0.50');
  });
});
