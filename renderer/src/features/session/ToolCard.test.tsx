import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../../../electron/contract/index';
import { reduceSession, type SessionState } from './sessionState';
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

  it('a call that never ran says "not run" and why, as the CLI does, with no run time; one that ran and failed stays an error', () => {
    const done = (callId: string, command: string, result: string, extra: Record<string, unknown> = {}) =>
      ({ type: 'tool_complete', sessionId: 's1', at: 9000, callId, name: 'runners__bash_run', args: { command }, result, isError: true, durationMs: 8643, ...extra }) as AgentEvent;
    const s = [
      done('c1', 'git stash list && rm -rf node_modules', '$ git stash list && rm -rf node_modules\nNot run: the user declined the approval. Approval was needed because: recursive delete: rm -rf node_modules'),
      done('c2', 'rm -rf coverage', 'Refused: nobody could be asked (nobody follows run r1 now)', { refused: true }),
      done('c3', 'npm test', '$ npm test\nnot ok 1\n[exit code 1]'),
    ].reduce<SessionState | undefined>((x, e) => reduceSession(x, e), undefined)!;
    const tools = s.items.filter((i) => i.kind === 'tool');
    render(<>{tools.map((t) => <ToolCard key={t.id} item={t} />)}</>);
    const cards = screen.getAllByTestId('tool-card');
    expect(cards.map((c) => c.querySelector('[data-testid="tool-status"]')!.textContent)).toEqual(['not run', 'not run', 'error']);
    expect(screen.getAllByTestId('tool-not-run').map((x) => x.textContent)).toEqual([
      'the user declined the approval. Approval was needed because: recursive delete: rm -rf node_modules',
      'Refused: nobody could be asked (nobody follows run r1 now)',
    ]);
    // Not "Ran …" for 8.6 s: what it asked, and no run time.
    expect(cards[0]!.querySelector('[data-testid="tool-words"]')!.textContent).toBe('Run git stash list && rm -rf node_modules');
    expect(cards.map((c) => c.querySelector('[data-testid="tool-duration"]')!.textContent)).toEqual(['', '', '8.6 s']);
  });

  it('a call of a tool the session does not have is "not run", named as the model wrote it, never "Read slug.js … error"', () => {
    const s = reduceSession(undefined, {
      type: 'tool_complete', sessionId: 's1', at: 9000, callId: 'c9', name: 'files__cat', args: { path: 'slug.js' }, isError: true, durationMs: 3,
      result: 'Unknown tool "files__cat". Available tools: files__read_file, files__edit_file. Every toolset is open: these are all the tools this session has.',
    } as AgentEvent);
    const tool = s.items.find((i) => i.kind === 'tool')!;
    render(tool.kind === 'tool' ? <ToolCard item={tool} /> : null);
    expect(screen.getByTestId('tool-words').textContent).toBe('files__cat (no such tool)');
    expect(screen.getByTestId('tool-status').textContent).toBe('not run');
    expect(screen.getByTestId('tool-not-run').textContent).toMatch(/^Unknown tool "files__cat". Available tools: files__read_file/);
    expect(screen.getByTestId('tool-duration').textContent).toBe('');
  });
});
