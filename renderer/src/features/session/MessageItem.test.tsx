import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { MessageItem } from './MessageItem';

afterEach(cleanup);

const answer = 'Wrote `src/counter.mjs`.\n=== CONTEXT DOCUMENT ===\n# Component: counter\n\n## Notes\n- countWords written\n=== END CONTEXT DOCUMENT ===\n';

describe('MessageItem', () => {
  it("shows a step's handed-back context document apart from its answer, folded, without the marker lines", () => {
    render(<MessageItem item={{ kind: 'assistant', id: 'a1', text: answer, streaming: false }} />);
    const message = screen.getByTestId('assistant-message');
    expect(message.textContent).not.toContain('=== CONTEXT DOCUMENT ===');
    expect(message.textContent).not.toContain('=== END CONTEXT DOCUMENT ===');
    const doc = screen.getByTestId('handed-back-doc') as HTMLDetailsElement;
    expect(doc.open).toBe(false);
    expect(doc.querySelector('summary')!.textContent).toBe('Context document handed back (Erasmus saved it)');
    expect(doc.querySelector('h1')!.textContent).toBe('Component: counter');
    expect(message.firstElementChild!.textContent!.trim()).toBe('Wrote src/counter.mjs.');
  });

  it('shows any other answer, and one still streaming, as it is', () => {
    render(<MessageItem item={{ kind: 'assistant', id: 'a2', text: 'Plain answer with === CONTEXT DOCUMENT === inside.', streaming: false }} />);
    expect(screen.queryByTestId('handed-back-doc')).toBeNull();
    cleanup();
    render(<MessageItem item={{ kind: 'assistant', id: 'a3', text: answer, streaming: true }} />);
    expect(screen.queryByTestId('handed-back-doc')).toBeNull();
    expect(screen.getByTestId('assistant-message').textContent).toContain('=== CONTEXT DOCUMENT ===');
  });
});
