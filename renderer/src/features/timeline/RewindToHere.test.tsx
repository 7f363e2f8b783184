import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { WorkflowRunView } from '../../../../electron/contract/index';
import { FakeCore } from '../../testing/fakeCore';
import { TimelineView } from './TimelineView';

afterEach(cleanup);

const entry = (state: string, checkpoint: string, extra: object = {}) => ({ state, component: 'adder', enteredAt: '2026-01-01T00:00:00Z', leftAt: '2026-01-01T00:00:10Z', durationMs: 10_000, outcome: 'done' as const, checkpoint, ...extra });
const view = (status: WorkflowRunView['status'], rewound = false): WorkflowRunView => ({
  runId: 'r1',
  projectDir: '/p',
  status,
  state: rewound ? 'adder:review' : 'completed',
  executor: 'agent',
  approved: true,
  timeline: [entry('adder:development', 'c1'), entry('adder:review', 'c2', rewound ? { rewound: true } : {}), entry('adder:commit', 'c3', { outcome: 'committed', commit: 'abc', ...(rewound ? { rewound: true } : {}) })],
  totals: { inputTokens: 1, outputTokens: 1, totalTokens: 2 },
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:30Z',
});

describe('Rewind to here', () => {
  it('previews the files and commits, rewinds on confirmation, and the timeline marks the undone steps', async () => {
    let current = view('COMPLETED');
    const core = new FakeCore({
      'workflow.latest': () => ({ runId: 'r1' }),
      'workflow.status': () => current,
      'workflow.rewindPreview': () => ({
        checkpoint: { id: 'c2', state: 'adder:review', at: '2026-01-01T00:00:10Z', kind: 'step', commit: 'def' },
        files: [{ path: 'docs/reviews/adder.md', change: 'deleted' }, { path: 'src/adder.mjs', change: 'modified' }],
        commitsUndone: [{ commit: 'abc0000000000', subject: 'adder: complete component' }],
        branchRemoved: 'erasmus/add-numbers',
        lanes: [{ component: 'reverse', worktree: '/p/.git/erasmus/worktrees/r1/reverse', files: [{ path: 'textkit/reverse.py', change: 'modified' }], keptRef: 'refs/erasmus/kept/r1/reverse' }],
        ignored: 1,
      }),
      'workflow.checkpoints': () => ({ checkpoints: [
        { id: 'c2', state: 'adder:review', at: '2026-01-01T00:00:10Z', kind: 'step' as const },
        ...(current.status === 'PAUSED' ? [{ id: 'c4', state: 'completed', at: '2026-01-01T00:01:00Z', kind: 'rewind' as const }] : []),
      ] }),
      'workflow.rewind': ({ checkpointId }) => {
        current = checkpointId === 'c4' ? view('COMPLETED') : view('PAUSED', true);
        return { status: 'PAUSED', state: 'adder:review', undo: { id: 'c4', state: 'completed', at: '2026-01-01T00:01:00Z', kind: 'rewind' }, files: [], commitsUndone: [] };
      },
    });
    await core.services.run.attach('/p');
    core.render(<TimelineView onOpenSession={() => {}} />);
    fireEvent.click(screen.getAllByTestId('timeline-block')[1]!);
    fireEvent.click(screen.getByTestId('rewind-open'));
    await waitFor(() => screen.getByTestId('rewind-preview'));
    expect(core.callsOf('workflow.rewindPreview')).toEqual([{ runId: 'r1', checkpointId: 'c2' }]);
    expect(screen.getByTestId('rewind-files').textContent).toContain('docs/reviews/adder.md is removed');
    expect(screen.getByTestId('rewind-files').textContent).toContain('src/adder.mjs goes back to how it was');
    expect(screen.getByTestId('rewind-commits').textContent).toContain('adder: complete component');
    expect(screen.getByTestId('rewind-branch').textContent).toMatch(/^The run's branch erasmus\/add-numbers is removed: .*approving the plan again makes it again under this name/);
    expect(screen.getByTestId('rewind-preview').textContent).toContain('one file or folder .gitignore ignores is left as it is');
    // A side-by-side component's uncommitted work is named, per component, with where the resume keeps it.
    expect(screen.getByTestId('rewind-lane').textContent).toBe("Component reverse's worktree /p/.git/erasmus/worktrees/r1/reverse holds 1 uncommitted file: the rewind takes it out of the run (the components start afresh), and going on removes the worktree, the work kept under refs/erasmus/kept/r1/reverse (git log refs/erasmus/kept/r1/reverse):textkit/reverse.py changed");
    expect(core.callsOf('workflow.rewind')).toEqual([]); // nothing changes before the confirmation
    fireEvent.click(screen.getByTestId('rewind-confirm'));
    await waitFor(() => screen.getByTestId('rewind-done'));
    expect(core.callsOf('workflow.rewind')).toEqual([{ runId: 'r1', checkpointId: 'c2' }]);
    await waitFor(() => expect(screen.getByTestId('timeline-status').dataset.status).toBe('PAUSED'));
    expect(screen.getAllByTestId('timeline-block').map((b) => b.dataset.rewound ?? '')).toEqual(['', 'true', 'true']);
    expect(screen.getByTestId('rewind-done').textContent).toContain('“Undo the rewind” at the top of the timeline');

    // The rewind can be undone from the app, as the CLI's "undo it with: erasmus workflow rewind … --to c4" says.
    const banner = await waitFor(() => screen.getByTestId('undo-rewind'));
    expect(banner.textContent).toContain('A rewind put the project and the run back to before adder · review');
    fireEvent.click(within(banner).getByTestId('rewind-open'));
    await waitFor(() => within(banner).getByTestId('rewind-preview'));
    expect(within(banner).getByTestId('rewind-preview').textContent).toContain('Undo the rewind: put the project and the run back');
    expect(core.callsOf('workflow.rewindPreview').at(-1)).toEqual({ runId: 'r1', checkpointId: 'c4' });
    fireEvent.click(within(banner).getByTestId('rewind-confirm'));
    await waitFor(() => expect(screen.getByTestId('timeline-status').dataset.status).toBe('COMPLETED'));
    expect(core.callsOf('workflow.rewind')).toEqual([{ runId: 'r1', checkpointId: 'c2' }, { runId: 'r1', checkpointId: 'c4' }]);
    expect(screen.getAllByTestId('timeline-block').map((b) => b.dataset.rewound ?? '')).toEqual(['', '', '']);
    expect(screen.queryByTestId('undo-rewind')).toBeNull();
  });

  it('offers no undo once a step has run after the rewind (the newest checkpoint is a step)', async () => {
    const core = new FakeCore({
      'workflow.latest': () => ({ runId: 'r1' }),
      'workflow.status': () => view('PAUSED', true),
      'workflow.checkpoints': () => ({ checkpoints: [
        { id: 'c4', state: 'completed', at: '2026-01-01T00:01:00Z', kind: 'rewind' as const },
        { id: 'c5', state: 'adder:review', at: '2026-01-01T00:02:00Z', kind: 'step' as const },
      ] }),
    });
    await core.services.run.attach('/p');
    core.render(<TimelineView onOpenSession={() => {}} />);
    await waitFor(() => expect(core.callsOf('workflow.checkpoints')).toEqual([{ runId: 'r1' }]));
    expect(screen.queryByTestId('undo-rewind')).toBeNull();
  });

  it('a running run says to pause it first', async () => {
    const core = new FakeCore({ 'workflow.latest': () => ({ runId: 'r1' }), 'workflow.status': () => ({ ...view('RUNNING'), state: 'adder:commit' }) });
    await core.services.run.attach('/p');
    core.render(<TimelineView onOpenSession={() => {}} />);
    fireEvent.click(screen.getAllByTestId('timeline-block')[0]!);
    expect(screen.getByTestId('rewind-running').textContent).toContain('Pause or stop the run');
    expect(screen.queryByTestId('rewind-open')).toBeNull();
  });
});
