import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Block } from './lanes';
import { StepDetails } from './StepDetails';

const block = (status: Block['status']): Block => ({
  key: 'k',
  index: 0,
  state: 'prepare:architecture',
  step: 'architecture',
  status,
  attempt: 1,
  start: 0,
  end: 1000,
  left: 0,
  width: 1,
  share: 1,
  entry: { state: 'prepare:architecture', enteredAt: new Date(0).toISOString() },
});

afterEach(cleanup);

describe('StepDetails', () => {
  it('a running step without its session link yet says where its session is, not that it has none', () => {
    render(<StepDetails runId="r" block={block('current')} onOpenSession={null} />);
    expect(screen.getByTestId('step-session-pending').textContent).toMatch(/running: its session is listed under Sessions now/);
    expect(screen.queryByText(/No agent session for this step/)).toBeNull();
  });

  it('a finished step without a session says it had none', () => {
    render(<StepDetails runId="r" block={block('done')} onOpenSession={null} />);
    expect(screen.getByText(/No agent session for this step/)).toBeTruthy();
    expect(screen.queryByTestId('step-session-pending')).toBeNull();
  });

  it("a component's step side by side says where a rewind goes (it has no checkpoint of its own)", () => {
    const lane: Block = { ...block('done'), state: 'truncate:development', entry: { state: 'truncate:development', component: 'truncate', enteredAt: new Date(0).toISOString(), worktree: '/p/.git/erasmus/worktrees/r/truncate' } };
    render(<StepDetails runId="r" block={lane} onOpenSession={null} rewind={{ running: false, onRewound: () => undefined }} />);
    expect(screen.getByTestId('step-no-rewind').textContent).toContain('select the “components” step of the Side by side lane and rewind there');
    cleanup();
    // A step of the run itself (not in a component's worktree) gets no such note.
    render(<StepDetails runId="r" block={block('done')} onOpenSession={null} rewind={{ running: false, onRewound: () => undefined }} />);
    expect(screen.queryByTestId('step-no-rewind')).toBeNull();
  });
});
