import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, expect, it } from 'vitest';
import { emptySession } from './sessionState';
import { Transcript } from './Transcript';

afterEach(cleanup);

it('an answered approval shows what it asked about, without the server\'s closing "Allow?"; a form\'s question keeps its words', () => {
  const session = {
    ...emptySession('s1', 0),
    items: [
      { kind: 'question' as const, id: 'q1', server: 'files', message: 'Edit textkit/count.py (one replacement):\n+import string\nAllow?', answer: 'accept' as const, yesNo: true, auto: true, always: 'Always allow writing files in this project for this run' },
      { kind: 'question' as const, id: 'q2', server: 'mine', message: 'Which region? Allow?', answer: 'accept' as const },
    ],
  };
  render(<Transcript session={session} scope="step" onDecide={async () => {}} />);
  const [approval, form] = screen.getAllByTestId('question-message');
  expect(approval!.textContent).toBe('Edit textkit/count.py (one replacement):\n+import string');
  expect(form!.textContent).toBe('Which region? Allow?');
});
