import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { WorkflowPlan } from '../../../../electron/contract/index';
import { PlanReview } from './PlanReview';

afterEach(cleanup);

const component = (id: string, depends?: string[]) => ({ id, title: id, tasks: [{ id: `${id.toUpperCase()}-1`, title: 'do it', status: 'todo' as const }], ...(depends ? { depends } : {}) });

describe('PlanReview', () => {
  it("says what each component waits for, from its Depends: line (without one, the component before it)", () => {
    const done = { ...component('old', []), tasks: [{ id: 'OLD-1', title: 'x', status: 'done' as const }] };
    const plan: WorkflowPlan = { components: [done, component('slug', []), component('count', []), component('cli', ['slug', 'count']), component('docs')], maxDebugAttempts: 3 };
    render(<PlanReview plan={plan} onConfirm={async () => undefined} />);
    const needs = screen.getAllByTestId('plan-needs').map((p) => p.textContent);
    expect(needs).toEqual([
      'finished for an earlier goal: not developed again',
      'needs no other component: may run beside the others',
      'needs no other component: may run beside the others',
      'needs slug, count: starts once they are merged',
      'starts after cli',
    ]);
  });

  it('warns about components the architecture names and the task list leaves out', () => {
    const plan: WorkflowPlan = { components: [component('upper')], maxDebugAttempts: 3 };
    render(<PlanReview plan={{ ...plan, unplanned: ['cli'] }} onConfirm={async () => undefined} />);
    expect(screen.getByTestId('plan-unplanned').textContent).toBe(
      'The architecture names a component the task list has no section for: cli. This run builds none of it. If it is to be built, add its tasks to the task list (a "## Component: id" section each) before you confirm; if it exists already and needs no change, confirm the plan as it is.',
    );
    cleanup();
    render(<PlanReview plan={plan} onConfirm={async () => undefined} />);
    expect(screen.queryByTestId('plan-unplanned')).toBeNull();
  });
});
