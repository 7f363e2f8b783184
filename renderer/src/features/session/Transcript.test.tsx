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

it('a session opened shows its latest message (the transcript scrolled to its end), and another session opened does too', () => {
  const sizes = { scrollHeight: { get: () => 5000 }, clientHeight: { get: () => 400 } };
  const saved = Object.fromEntries(Object.keys(sizes).map((k) => [k, Object.getOwnPropertyDescriptor(HTMLElement.prototype, k)]));
  Object.defineProperties(HTMLElement.prototype, Object.fromEntries(Object.entries(sizes).map(([k, d]) => [k, { ...d, configurable: true }])));
  try {
    const items = (n: number) => Array.from({ length: n }, (_, i) => ({ kind: 'user' as const, id: `u${i}`, text: `message ${i}` }));
    const view = render(<Transcript session={{ ...emptySession('s1', 0) }} scope="session" onDecide={async () => {}} />);
    const box = screen.getByTestId('transcript');
    expect(box.scrollTop).toBe(0);
    // Its log replayed: every item at once, the reader at the top of an empty box before.
    view.rerender(<Transcript session={{ ...emptySession('s1', 0), items: items(40) }} scope="session" onDecide={async () => {}} />);
    expect(box.scrollTop).toBe(5000);
    box.scrollTop = 0; // the reader scrolls up to read
    view.rerender(<Transcript session={{ ...emptySession('s1', 0), items: items(41) }} scope="session" onDecide={async () => {}} />);
    expect(box.scrollTop).toBe(0); // a new item does not pull a reader who scrolled up
    view.rerender(<Transcript session={{ ...emptySession('s2', 0), items: items(10) }} scope="session" onDecide={async () => {}} />);
    expect(box.scrollTop).toBe(5000);
  } finally {
    for (const [k, d] of Object.entries(saved)) {
      if (d) Object.defineProperty(HTMLElement.prototype, k, d);
      else delete (HTMLElement.prototype as unknown as Record<string, unknown>)[k];
    }
  }
});
