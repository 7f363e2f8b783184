import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { WorkflowRunView } from '../../../../electron/contract/index';
import { FakeCore } from '../../testing/fakeCore';
import { runCost, TimelineView } from './TimelineView';

afterEach(cleanup);

const view: WorkflowRunView = {
  runId: 'r1',
  projectDir: '/p',
  status: 'BLOCKED',
  state: 'adder:debugging',
  executor: 'agent',
  approved: true,
  timeline: [
    { state: 'adder:development', component: 'adder', enteredAt: '2026-01-01T00:00:00Z', leftAt: '2026-01-01T00:00:10Z', durationMs: 10_000, outcome: 'done', sessionLog: '/h/sessions/s-dev.jsonl', usage: { inputTokens: 900, outputTokens: 100, totalTokens: 1000, costUsd: 0.02 } },
    { state: 'adder:testing', component: 'adder', enteredAt: '2026-01-01T00:00:10Z', leftAt: '2026-01-01T00:00:20Z', durationMs: 10_000, outcome: 'tests-failed', test: { command: 'node --test', exitCode: 1, passed: false } },
    { state: 'adder:debugging', component: 'adder', enteredAt: '2026-01-01T00:00:20Z', leftAt: '2026-01-01T00:00:25Z', durationMs: 5_000, outcome: 'not-done' },
  ],
  totals: { inputTokens: 900, outputTokens: 100, totalTokens: 1000, costUsd: 0.02 },
  error: { kind: 'RUNTIME_ERROR', message: 'adder:debugging ended without finishing' },
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:25Z',
};

describe('runCost', () => {
  it('shows the run cost with cached tokens and the budget; an unpriced model with a budget says the cost is unknown', () => {
    expect(runCost({ totals: { inputTokens: 9000, cacheReadTokens: 8000, outputTokens: 1000, totalTokens: 10_000, costUsd: 0.5 }, budgetUsd: 2 })).toBe('10.0k tokens (8.0k from cache) · $0.50 of a $2.00 budget');
    expect(runCost({ totals: { inputTokens: 10, outputTokens: 5, totalTokens: 15 }, budgetUsd: 2 })).toBe('15 tokens · cost unknown (no prices for this model) of a $2.00 budget');
    expect(runCost({ totals: { inputTokens: 10, outputTokens: 5, totalTokens: 15 } })).toBe('15 tokens');
  });
});

describe('TimelineView', () => {
  it('is empty without a run', () => {
    new FakeCore().render(<TimelineView onOpenSession={() => {}} />);
    screen.getByTestId('timeline-empty');
  });

  it('draws the steps, explains a failed one, opens a step session, and offers the blocked controls', async () => {
    const core = new FakeCore({ 'workflow.latest': () => ({ runId: 'r1' }), 'workflow.status': () => view, 'workflow.retry': () => ({ status: 'RUNNING' }) });
    await core.services.run.attach('/p');
    const open = vi.fn();
    core.render(<TimelineView onOpenSession={open} />);
    const blocks = screen.getAllByTestId('timeline-block');
    expect(blocks.map((b) => `${b.dataset.state}:${b.dataset.status}`)).toEqual(['adder:development:done', 'adder:testing:failed', 'adder:debugging:failed']);
    expect(screen.getByRole('alert').textContent).toContain('ended without finishing');
    fireEvent.click(blocks[1]!);
    expect(screen.getByTestId('step-details').textContent).toContain('failed (exit 1)');
    expect(screen.queryByTestId('open-step-session')).toBeNull();
    expect(screen.queryByTestId('step-cost')).toBeNull();
    fireEvent.click(blocks[0]!);
    expect(screen.getByTestId('step-cost').textContent).toBe('$0.02');
    expect(blocks[0]!.textContent).toContain('$0.02');
    expect(screen.getByTestId('run-cost').textContent).toBe('1.0k tokens · $0.02');
    fireEvent.click(screen.getByTestId('open-step-session'));
    expect(open).toHaveBeenCalledWith('s-dev');
    expect(screen.getByTestId('run-controls').textContent).toContain('Retry step');
    fireEvent.click(screen.getByTestId('run-retry'));
    await waitFor(() => expect(core.callsOf('workflow.retry')).toEqual([{ runId: 'r1' }]));
  });
});
