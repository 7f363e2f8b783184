import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { WorkflowReport, WorkflowRunView } from '../../../../electron/contract/index';
import { FakeCore } from '../../testing/fakeCore';
import { RunFinish } from './RunFinish';
import { RunSummary } from './RunSummary';

afterEach(cleanup);

const view: WorkflowRunView = {
  runId: 'r1',
  projectDir: '/p/lib',
  status: 'COMPLETED',
  executor: 'agent',
  approved: true,
  timeline: [],
  totals: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
  git: { mode: 'branch', branch: 'erasmus/add-a-greeting', base: 'main' },
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
};
const report: WorkflowReport = {
  runId: 'r1',
  projectDir: '/p/lib',
  status: 'COMPLETED',
  goal: 'Add a greeting',
  verified: false,
  finalTestCommand: null,
  tasks: [],
  untraced: [],
  pullRequest: { title: 'feat: add a greeting', body: '## Goal\n\nAdd a greeting\n', file: '/h/runs/r1.pull-request.md' },
  reviews: [{ scope: 'core', file: '/h/ctx/reviews/core.md', verdict: 'Verdict: no changes needed', text: '# Review\n\nVerdict: no changes needed\n' }],
};

describe('the completion of a run on its own branch', () => {
  it('shows the pull request to copy and both choices; a refusal is shown in its words, then the branch can be kept', async () => {
    let finished = 0;
    const core = new FakeCore({
      'workflow.finish': ({ choice }) => {
        if (choice === 'squash') throw new Error('main moved since the run started (1 new commit), and it conflicts with the run\'s changes in src/greet.js. Nothing was changed');
        return { choice, branch: 'erasmus/add-a-greeting', base: 'main', message: 'Kept branch erasmus/add-a-greeting (branched from main).' };
      },
    });
    core.render(<RunFinish view={view} pr={report.pullRequest!} onFinished={() => finished++} />);
    expect((await screen.findByLabelText('Pull request title and body') as HTMLTextAreaElement).value).toBe('feat: add a greeting\n\n## Goal\n\nAdd a greeting\n');
    expect(screen.getByTestId('pull-request').textContent).toContain('/h/runs/r1.pull-request.md');
    fireEvent.click(screen.getByRole('button', { name: 'Squash and merge into main' }));
    expect((await screen.findByRole('alert')).textContent).toContain('it conflicts with the run\'s changes in src/greet.js. Nothing was changed');
    expect(finished).toBe(0);
    fireEvent.click(screen.getByRole('button', { name: 'Keep the branch' }));
    expect((await screen.findByTestId('finish-said')).textContent).toBe('Kept branch erasmus/add-a-greeting (branched from main).');
    await waitFor(() => expect(finished).toBe(1));
    expect(core.callsOf('workflow.finish')).toEqual([{ runId: 'r1', choice: 'squash' }, { runId: 'r1', choice: 'keep' }]);
  });

  it('says what was chosen once the run is finished, and offers nothing for a run on the current branch', async () => {
    const core = new FakeCore({});
    core.render(<RunFinish view={{ ...view, git: { ...view.git!, finished: { choice: 'squash', commit: 'abcdef0123456789', at: 'now' } } }} pr={null} onFinished={() => {}} />);
    expect((await screen.findByTestId('finish-done')).textContent).toBe('Squashed into main as abcdef0123.');
    expect(screen.queryByRole('button', { name: /Squash/ })).toBeNull();
    cleanup();
    core.render(<RunFinish view={{ ...view, git: { mode: 'current' } }} pr={null} onFinished={() => {}} />);
    expect(screen.queryByTestId('finish-done')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Keep the branch' })).toBeNull();
  });

  it("names the unfinished run's branch it started from, whose commits come along, not its base alone", async () => {
    const core = new FakeCore({});
    const startedFrom = { branch: 'erasmus/add-slugify', commit: '0123456789abcdef', runId: 'r0' };
    core.render(<RunFinish view={{ ...view, git: { ...view.git!, startedFrom } }} pr={null} onFinished={() => {}} />);
    expect((await screen.findByTestId('run-finish')).textContent).toContain("The run's work is on branch erasmus/add-a-greeting, started from the unfinished run's branch erasmus/add-slugify (at 0123456789): its commits come along into main.");
  });
});

describe('the completion card', () => {
  it('lists each review once: the report kept with the run\'s documents is read where its review is listed', async () => {
    const done = { enteredAt: '2026-01-01T00:00:40Z', leftAt: '2026-01-01T00:00:41Z' };
    const timeline: WorkflowRunView['timeline'] = [
      { state: 'core:review', component: 'core', ...done, outcome: 'done', note: '/h/ctx/reviews/core.md', verdict: 'Verdict: no changes needed' },
      { state: 'final:review', ...done, outcome: 'done', note: '/p/lib/docs/reviews/final.md', verdict: 'Verdict: no changes needed' },
    ];
    const core = new FakeCore({ 'workflow.report': () => report });
    core.render(<RunSummary view={{ ...view, timeline }} />);
    const kept = await screen.findByTestId('kept-review-core');
    // Inside the review's own line, not a second listing below the card.
    expect(within(screen.getByTestId('summary-review-core')).getByTestId('kept-review-core')).toBe(kept);
    expect(kept.textContent).toBe("Read the report: kept with the run's documents, not in the project/h/ctx/reviews/core.md# Review\n\nVerdict: no changes needed\n");
    const card = screen.getByTestId('run-summary').textContent!;
    expect(card.match(/review of core/gi)).toHaveLength(1);
    expect(card.match(/\/h\/ctx\/reviews\/core\.md/g)).toHaveLength(1);
    // A review whose report is in the project names where it is.
    expect(screen.getByTestId('summary-review-final').textContent).toBe('The final review (Verdict: no changes needed): no fixes step ran — /p/lib/docs/reviews/final.md');
    expect((await screen.findByLabelText('Pull request title and body') as HTMLTextAreaElement).value).toBe('feat: add a greeting\n\n## Goal\n\nAdd a greeting\n');
  });
});
