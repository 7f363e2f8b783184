import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ToolCard } from './ToolCard';

afterEach(cleanup);

const base = { kind: 'tool' as const, id: 'c1', name: 'runners__bash_run', args: { command: 'node --test' }, startedAt: 0 };

describe('ToolCard', () => {
  it("shows a running call's progress, and a finished call's last keep-alive not at all", () => {
    render(<ToolCard item={{ ...base, status: 'running', progress: { progress: 3, message: 'still running' } }} />);
    expect(screen.getByTestId('tool-progress').textContent).toBe('still running');
    cleanup();
    render(<ToolCard item={{ ...base, status: 'running', progress: { progress: 1, total: 4, message: 'cloning' } }} />);
    expect(screen.getByTestId('tool-progress').textContent).toBe('25% cloning');
    cleanup();
    // The card of a call that ended showed "done 1 still running".
    render(<ToolCard item={{ ...base, status: 'done', result: 'ok', durationMs: 2500, progress: { progress: 1, message: 'still running' } }} />);
    expect(screen.queryByTestId('tool-progress')).toBeNull();
    expect(screen.getByTestId('tool-card').textContent).not.toContain('still running');
  });
});
