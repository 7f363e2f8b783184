import { describe, expect, it } from 'vitest';
import { askingStep } from './askingStep';

const wt = '/p/.git/erasmus/worktrees/r1';
const timeline = [
  { state: 'truncate:documentation', component: 'truncate', enteredAt: '2026-01-01T00:00:00Z', worktree: `${wt}/truncate`, sessionLog: '/h/sessions/s-trunc.jsonl' },
  { state: 'cli:documentation', component: 'cli', enteredAt: '2026-01-01T00:00:01Z', worktree: `${wt}/cli`, sessionLog: '/h/sessions/s-cli.jsonl' },
  { state: 'slug:development', component: 'slug', enteredAt: '2025-12-31T00:00:00Z', leftAt: '2025-12-31T00:01:00Z', worktree: `${wt}/slug`, sessionLog: '/h/sessions/s-slug.jsonl' },
];
const view = { timeline } as unknown as Parameters<typeof askingStep>[0];

describe('askingStep', () => {
  it('names the step that asks: by the worktree a server acts in, else by the asking session', () => {
    const owners: Record<string, string> = { files: 's-trunc' };
    const ownerOf = (server: string) => owners[server];
    // Two components edit README.md at once: their approvals read alike but for the step.
    expect(askingStep(view, ownerOf, { server: 'files', cwd: `${wt}/cli` })).toBe('cli · documentation');
    expect(askingStep(view, ownerOf, { server: 'files', cwd: `${wt}/truncate/docs` })).toBe('truncate · documentation');
    expect(askingStep(view, ownerOf, { sessionId: 's-cli' })).toBe('cli · documentation');
    // No folder: the session that makes the call to the server.
    expect(askingStep(view, ownerOf, { server: 'files' })).toBe('truncate · documentation');
    // A worktree whose step ended does not claim a question; no run, no step.
    expect(askingStep(view, () => undefined, { server: 'files', cwd: `${wt}/slug` })).toBeUndefined();
    expect(askingStep(null, ownerOf, { sessionId: 's-cli' })).toBeUndefined();
  });
});
