import { cleanup, screen } from '@testing-library/react';
import { afterEach, expect, it } from 'vitest';
import { FakeCore } from '../../testing/fakeCore';
import { ApprovalCard } from './ApprovalCard';

afterEach(cleanup);

it('an agent approval says the tool in words, names its step, and says what "always" covers in words', () => {
  const core = new FakeCore({});
  const item = { kind: 'approval' as const, id: 'q1', approvalKind: 'tool' as const, name: 'files__remove', args: { path: 'build' }, reasons: ['the tool says it is destructive'] };
  core.render(<ApprovalCard item={item} scope="step" step="adder · fixes" onDecide={async () => {}} />);
  expect(screen.getByTestId('approval-words').textContent).toBe('Deleted build');
  expect(screen.getByTestId('approval-step').textContent).toBe('adder · fixes');
  expect(screen.getByTestId('approve-always').textContent).toBe('Always allow the files tool “remove” for the rest of this workflow step');
  expect(screen.getByTestId('approval-card').textContent).not.toMatch(/files__remove/);
});
