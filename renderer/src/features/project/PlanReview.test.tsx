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
});
