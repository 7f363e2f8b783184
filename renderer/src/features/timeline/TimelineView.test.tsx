import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { WorkflowRunView } from '../../../../electron/contract/index';
import { FakeCore } from '../../testing/fakeCore';
import { StatusBar } from '../../app/StatusBar';
import { RunPanel } from '../project/RunPanel';
import { runCost, TimelineView } from './TimelineView';

afterEach(cleanup);

const view: WorkflowRunView = {
  runId: 'r1',
  projectDir: '/p',
  status: 'BLOCKED',
  state: 'adder:debugging',
  executor: 'agent',
  approved: true,
  timeline: [
    { state: 'adder:development', component: 'adder', enteredAt: '2026-01-01T00:00:00Z', leftAt: '2026-01-01T00:00:10Z', durationMs: 10_000, outcome: 'done', sessionLog: '/h/sessions/s-dev.jsonl', hasPrompt: true, files: [{ path: 'src/add.js', change: 'added' }, { path: 'README.md', change: 'modified' }], usage: { inputTokens: 900, outputTokens: 100, totalTokens: 1000, costUsd: 0.02 } },
    { state: 'adder:testing', component: 'adder', enteredAt: '2026-01-01T00:00:10Z', leftAt: '2026-01-01T00:00:20Z', durationMs: 10_000, outcome: 'tests-failed', test: { command: 'node --test', exitCode: 1, passed: false, output: 'not ok 1 - adds\n# fail 1' }, files: [] },
    { state: 'adder:debugging', component: 'adder', enteredAt: '2026-01-01T00:00:20Z', leftAt: '2026-01-01T00:00:25Z', durationMs: 5_000, outcome: 'not-done', lastWords: { text: 'Cannot finish: should add() round or truncate?', chars: 46 } },
  ],
  totals: { inputTokens: 900, outputTokens: 100, totalTokens: 1000, costUsd: 0.02 },
  error: { kind: 'RUNTIME_ERROR', message: 'adder:debugging ended without finishing' },
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:25Z',
};

describe('runCost', () => {
  it('shows the run cost with cached tokens and the budget; an unpriced model with a budget says the cost is unknown', () => {
    expect(runCost({ totals: { inputTokens: 9000, cacheReadTokens: 8000, outputTokens: 1000, totalTokens: 10_000, costUsd: 0.5 }, budgetUsd: 2 })).toBe('10.0k tokens (8.0k from cache) · $0.50 of a $2.00 budget');
    expect(runCost({ totals: { inputTokens: 10, outputTokens: 5, totalTokens: 15 }, budgetUsd: 2 })).toBe('15 tokens · cost unknown (no prices for this model) of a $2.00 budget');
    expect(runCost({ totals: { inputTokens: 10, outputTokens: 5, totalTokens: 15 } })).toBe('15 tokens');
  });
});

describe('TimelineView', () => {
  it('a step whose model stopped to ask is drawn as asking you, not failed, and its details say so', async () => {
    // Played as a user: a documentation step that asked whether to add release notes was a red "failed" block.
    const timeline = [view.timeline[0]!, view.timeline[1]!, { ...view.timeline[2]!, asked: true }];
    const asked = { ...view, timeline, error: { kind: 'RUNTIME_ERROR' as const, message: 'The step adder · debugging cannot finish: should add() round or truncate?', asks: true } };
    const core = new FakeCore({ 'workflow.latest': () => ({ runId: 'r1' }), 'workflow.status': () => asked });
    await core.services.run.attach('/p');
    core.render(<TimelineView onOpenSession={() => {}} />);
    const blocks = screen.getAllByTestId('timeline-block');
    expect(blocks.map((b) => `${b.dataset.state}:${b.dataset.status}`)).toEqual(['adder:development:done', 'adder:testing:failed', 'adder:debugging:asked']);
    expect(blocks[2]!.title).toContain('stopped to ask you');
    fireEvent.click(blocks[2]!);
    expect(screen.getByTestId('step-outcome').textContent).toBe('stopped to ask you');
    expect(screen.getByLabelText('Legend').textContent).toContain('asked you');
    // The run's error above the steps is amber too: it waits for the answer, it did not fail.
    const said = screen.getAllByRole('alert').find((a) => a.textContent?.startsWith('The step needs your answer'));
    expect(said?.dataset.asks).toBe('true');
    expect(said?.className).toContain('text-amber-900');
  });

  it("the step run again with the user's answer says so on its block and shows the answer in its details", async () => {
    // Played as a user: the answer left no trace on the timeline, only inside the retried step's saved prompt.
    const retried = { state: 'adder:debugging', component: 'adder', enteredAt: '2026-01-01T00:00:30Z', leftAt: '2026-01-01T00:00:40Z', durationMs: 10_000, outcome: 'tests-passed' as const, answer: 'Round half up.\nNever truncate.' };
    const answered = { ...view, status: 'RUNNING' as const, error: undefined, timeline: [view.timeline[0]!, view.timeline[1]!, { ...view.timeline[2]!, asked: true }, retried] };
    const core = new FakeCore({ 'workflow.latest': () => ({ runId: 'r1' }), 'workflow.status': () => answered });
    await core.services.run.attach('/p');
    core.render(<TimelineView onOpenSession={() => {}} />);
    const blocks = screen.getAllByTestId('timeline-block');
    expect(blocks.map((b) => b.dataset.answered ?? '-')).toEqual(['-', '-', '-', 'true']);
    expect(blocks[3]!.textContent).toContain('with your answer');
    expect(blocks[3]!.title).toContain('with your answer: “Round half up.\nNever truncate.”');
    fireEvent.click(blocks[3]!);
    expect(screen.getByTestId('step-answer').textContent).toBe('given with the retry; this step ran with it:Round half up.\nNever truncate.');
    fireEvent.click(blocks[2]!);
    expect(screen.queryByTestId('step-answer')).toBeNull();
  });

  it('is empty without a run', () => {
    new FakeCore().render(<TimelineView onOpenSession={() => {}} />);
    screen.getByTestId('timeline-empty');
  });

  it('draws the steps, explains a failed one, opens a step session, and offers the blocked controls', async () => {
    const core = new FakeCore({ 'workflow.latest': () => ({ runId: 'r1' }), 'workflow.status': () => view, 'workflow.retry': () => ({ status: 'RUNNING' }), 'workflow.stepPrompt': () => ({ prompt: 'Implement the open tasks of adder.' }) });
    await core.services.run.attach('/p');
    const open = vi.fn();
    core.render(<TimelineView onOpenSession={open} />);
    const blocks = screen.getAllByTestId('timeline-block');
    expect(blocks.map((b) => `${b.dataset.state}:${b.dataset.status}`)).toEqual(['adder:development:done', 'adder:testing:failed', 'adder:debugging:failed']);
    expect(screen.getByRole('alert').textContent).toContain('ended without finishing');
    fireEvent.click(blocks[1]!);
    expect(screen.getByTestId('step-details').textContent).toContain('failed (exit 1)');
    expect(screen.queryByTestId('open-step-session')).toBeNull();
    expect(screen.queryByTestId('step-cost')).toBeNull();
    fireEvent.click(blocks[0]!);
    expect(screen.getByTestId('step-cost').textContent).toBe('$0.02');
    expect(blocks[0]!.textContent).toContain('$0.02');
    expect(screen.getByTestId('run-cost').textContent).toBe('1.0k tokens · $0.02');
    fireEvent.click(screen.getByTestId('open-step-session'));
    expect(open).toHaveBeenCalledWith('s-dev');
    // The step's details: files it touched, and its prompt read from the core when opened.
    expect(screen.getByTestId('step-files').textContent).toContain('src/add.js added');
    expect(screen.getByTestId('step-files').textContent).toContain('README.md changed');
    const promptDetails = screen.getByTestId('step-prompt-details') as HTMLDetailsElement;
    promptDetails.open = true;
    fireEvent(promptDetails, new Event('toggle'));
    await waitFor(() => expect(screen.getByTestId('step-prompt-text').textContent).toBe('Implement the open tasks of adder.'));
    expect(core.callsOf('workflow.stepPrompt')).toEqual([{ runId: 'r1', index: 0 }]);
    fireEvent.click(blocks[1]!);
    expect(screen.getByTestId('step-files').textContent).toBe('none touched');
    expect(screen.queryByTestId('step-last-words')).toBeNull();
    // A step that did not finish says why in the model's words (played: a review that said "Cannot finish: …" read only
    // "not finished" once the run had gone on and completed).
    fireEvent.click(blocks[2]!);
    expect(screen.getByTestId('step-last-words').textContent).toBe('Cannot finish: should add() round or truncate?');
    fireEvent.click(blocks[1]!);
    expect(screen.getByTestId('step-test-output').textContent).toContain('# fail 1');
    expect(screen.queryByTestId('step-prompt-details')).toBeNull();
    expect(screen.getByTestId('run-controls').textContent).toContain('Retry step');
    fireEvent.click(screen.getByTestId('run-retry'));
    await waitFor(() => expect(core.callsOf('workflow.retry')).toEqual([{ runId: 'r1' }]));
  });

  it('draws the plan as its state machine: a row per component, the current state alive, a visited state opens its details', async () => {
    const running: WorkflowRunView = {
      ...view,
      status: 'RUNNING',
      error: undefined,
      plan: { components: [{ id: 'adder', title: 'adds numbers', tasks: [] }, { id: 'cli', title: 'command line', tasks: [] }], maxDebugAttempts: 3 },
      timeline: [...view.timeline.slice(0, 2), { state: 'adder:debugging', component: 'adder', enteredAt: '2026-01-01T00:00:20Z' }],
    };
    const core = new FakeCore({ 'workflow.latest': () => ({ runId: 'r1' }), 'workflow.status': () => running });
    await core.services.run.attach('/p');
    core.render(<TimelineView onOpenSession={() => {}} />);
    expect(screen.queryByTestId('state-machine')).toBeNull();
    fireEvent.click(screen.getByTestId('timeline-mode-machine'));
    expect(screen.getByTestId('timeline-mode-machine').getAttribute('aria-pressed')).toBe('true');
    expect(screen.getAllByTestId(/^machine-row-/).map((r) => r.dataset.testid)).toEqual(['machine-row-prepare', 'machine-row-adder', 'machine-row-cli', 'machine-row-final']);
    const cell = (state: string) => screen.getAllByTestId('machine-state').find((c) => c.dataset.state === state)!;
    expect(cell('adder:debugging').dataset.status).toBe('current');
    expect(cell('adder:debugging').className).toContain('alive');
    expect(cell('adder:testing').dataset.status).toBe('failed');
    expect(cell('adder:review').dataset.status).toBe('pending');
    expect(cell('cli:development').tagName).toBe('SPAN');
    fireEvent.click(cell('adder:testing'));
    expect(screen.getByTestId('step-details').textContent).toContain('failed (exit 1)');
  });

  it('shows a run whose driving process is gone as interrupted everywhere at once: header, status bar (clock stopped), cut-off steps amber, Resume', async () => {
    const w = (component: string) => ({ component, worktree: `/p/.git/erasmus/worktrees/r1/${component}` });
    const crashed: WorkflowRunView = {
      ...view,
      status: 'RUNNING',
      interrupted: true,
      state: 'parallel:components',
      error: undefined,
      timeline: [
        { state: 'a:development', ...w('a'), enteredAt: '2026-01-01T00:00:00Z', leftAt: '2026-01-01T00:00:10Z', durationMs: 10_000, outcome: 'done' },
        { state: 'a:testing', ...w('a'), enteredAt: '2026-01-01T00:00:10Z' },
        { state: 'b:testing', ...w('b'), enteredAt: '2026-01-01T00:00:11Z' },
      ],
      updatedAt: '2026-01-01T00:00:30Z',
    };
    const core = new FakeCore({ 'workflow.latest': () => ({ runId: 'r1' }), 'workflow.status': () => crashed, 'workflow.docs.read': () => ({ path: '/h/a.md', exists: false, text: '' }) });
    await core.services.run.attach('/p');
    core.render(<><TimelineView onOpenSession={() => {}} /><StatusBar face="browser" onApprovals={() => {}} /><RunPanel view={crashed} onOpenTimeline={() => {}} /></>);
    expect(screen.getByTestId('timeline-status').textContent).toBe('Interrupted — nothing is driving it');
    expect(screen.getAllByTestId('timeline-block').map((b) => `${b.dataset.state}:${b.dataset.status}`)).toEqual(['a:development:done', 'a:testing:interrupted', 'b:testing:interrupted']);
    // A cut-off step ran until the run's last update, not until now.
    expect(screen.getAllByTestId('timeline-block')[1]!.textContent).toContain('20.0 s');
    expect(screen.getByTestId('status-state').textContent).toMatch(/^Interrupted — nothing is driving it/);
    // The clock stopped at the run's last update (30 s), in the status bar as in the header.
    expect(screen.getByTestId('status-bar').textContent).toContain('30.0 s');
    expect(screen.getByTestId('run-phase').textContent).toMatch(/^Interrupted/);
    expect(screen.getAllByTestId('run-controls').map((c) => c.textContent)).toEqual(['Resume', 'Resume']);
  });
});

describe('TimelineView: the project\'s earlier runs', () => {
  const earlier: WorkflowRunView = {
    ...view,
    runId: 'r1',
    status: 'ABANDONED',
    state: 'adder:testing',
    goal: 'add numbers\nwith a CLI',
    error: undefined,
    timeline: [
      { ...view.timeline[0]!, commit: 'abc1234', checkpoint: 'cp-1' },
      // Left open when the run was abandoned for a newer goal: cut off, not running.
      { state: 'adder:testing', component: 'adder', enteredAt: '2026-01-01T00:00:10Z' },
    ],
    updatedAt: '2026-01-01T00:00:40Z',
  };
  const current: WorkflowRunView = { ...view, runId: 'r2', goal: 'subtract numbers', createdAt: '2026-01-02T00:00:00Z', updatedAt: '2026-01-02T00:00:25Z' };
  const summary = (v: WorkflowRunView) => ({ runId: v.runId, projectDir: v.projectDir, status: v.status, goal: v.goal, createdAt: v.createdAt, updatedAt: v.updatedAt });

  it('lists the project\'s runs newest first and shows an earlier one as it was left: its steps and commits, no controls, no rewind; then back to the open run', async () => {
    const core = new FakeCore({
      'workflow.latest': () => ({ runId: 'r2' }),
      'workflow.status': ({ runId }) => (runId === 'r1' ? earlier : current),
      'workflow.list': () => ({ runs: [summary(current), summary(earlier)] }),
    });
    await core.services.run.attach('/p');
    core.render(<TimelineView onOpenSession={() => {}} />);
    const picker = (await screen.findByTestId('timeline-run-picker')) as HTMLSelectElement;
    expect(core.callsOf('workflow.list')).toContainEqual({ projectDir: '/p' });
    expect([...picker.options].map((o) => o.textContent)).toEqual([expect.stringMatching(/^Open run: Blocked — needs you · .* · subtract numbers$/), expect.stringMatching(/^Abandoned for a newer goal · .* · add numbers$/)]);
    expect(picker.value).toBe('r2');
    fireEvent.change(picker, { target: { value: 'r1' } });
    await waitFor(() => expect(screen.getByTestId('timeline').dataset.run).toBe('earlier'));
    expect(screen.getByTestId('timeline-earlier-run').textContent).toContain('add numbers');
    expect(screen.getByTestId('timeline-status').textContent).toBe('Abandoned for a newer goal');
    expect(screen.getAllByTestId('timeline-block').map((b) => `${b.dataset.state}:${b.dataset.status}`)).toEqual(['adder:development:done', 'adder:testing:interrupted']);
    expect(screen.queryByTestId('run-controls')).toBeNull();
    fireEvent.click(screen.getAllByTestId('timeline-block')[0]!);
    expect(screen.getByTestId('step-details').textContent).toContain('abc1234');
    expect(screen.queryByTestId('rewind')).toBeNull();
    fireEvent.click(screen.getByTestId('timeline-back'));
    expect(screen.getByTestId('timeline').dataset.run).toBe('open');
    expect(screen.getByTestId('run-controls').textContent).toContain('Retry step');
    expect(picker.value).toBe('r2');
  });

  it('with no run open (a new goal offered), the earlier runs stay a pick away; a project with one run shows no picker', async () => {
    const core = new FakeCore({ 'workflow.latest': () => ({ runId: 'r1' }), 'workflow.status': () => earlier, 'workflow.list': () => ({ runs: [summary(earlier)] }) });
    await core.services.run.attach('/p');
    const ui = core.render(<TimelineView onOpenSession={() => {}} />);
    await waitFor(() => expect(core.callsOf('workflow.list').length).toBeGreaterThan(0));
    expect(screen.queryByTestId('timeline-run-picker')).toBeNull();
    ui.unmount();
    core.services.run.newRun();
    core.render(<TimelineView onOpenSession={() => {}} />);
    const picker = await screen.findByTestId('timeline-run-picker');
    expect(screen.getByTestId('timeline-empty').textContent).toContain('pick an earlier run');
    fireEvent.change(picker, { target: { value: 'r1' } });
    await waitFor(() => expect(screen.getAllByTestId('timeline-block')).toHaveLength(2));
    expect(screen.queryByTestId('timeline-back')).toBeNull();
  });
});

describe("TimelineView: a durable run's worker steps", () => {
  const wt = (c: string) => `/w/.git/erasmus/worktrees/r1.1/${c}`;
  const durable: WorkflowRunView = {
    ...view,
    status: 'RUNNING',
    state: 'parallel:components',
    error: undefined,
    durable: { database: 'postgres://erasmus@127.0.0.1/runs' },
    timeline: [
      { state: 'pad:development', component: 'pad', enteredAt: '2026-01-01T00:00:00Z', worktree: wt('pad'), sessionLog: '/wh/sessions/s-pad.jsonl', worker: 'the worker on vm (pid 13407)' },
      { state: 'trim:development', component: 'trim', enteredAt: '2026-01-01T00:00:01Z', worktree: wt('trim'), sessionLog: '/wh/sessions/s-trim.jsonl', worker: 'the worker on vm (pid 13502)' },
      { state: 'cut:development', component: 'cut', enteredAt: '2026-01-01T00:00:02Z', worktree: wt('cut'), sessionLog: '/wh/sessions/s-cut.jsonl', worker: 'the worker on vm (pid 13502)' },
    ],
  };

  it("names the worker in a step's details, and a worker step held by a question (a server's, or its agent's approval) is waiting for you, not running", async () => {
    // pad's runner asks to run a command in its clone; cut's agent asks to approve a call; trim works on.
    const question = { id: 'e1', server: 'runners', message: 'pad · development: Run this command?', mode: 'form' as const, requestedSchema: { type: 'object', properties: {} }, approval: { tool: 'bash', action: 'Run rm -rf dist', change: 'command' as const, command: 'rm -rf dist', cwd: wt('pad') } };
    const core = new FakeCore({ 'workflow.latest': () => ({ runId: 'r1' }), 'workflow.status': () => durable, 'mcp.elicitation.pending': () => ({ requests: [question] }), 'workflow.docs.read': () => ({ path: '/h/a.md', exists: false, text: '' }) });
    await core.services.run.attach('/p');
    core.render(<><TimelineView onOpenSession={() => {}} /><RunPanel view={durable} onOpenTimeline={() => {}} /></>);
    core.emit('agent.event', { type: 'approval_required', sessionId: 's-cut', at: Date.now(), requestId: 'elsewhere-1', kind: 'tool', name: 'files__write_file', args: { path: 'a.js' }, reasons: [] });
    const status = () => screen.getAllByTestId('timeline-block').map((b) => `${b.dataset.state}:${b.dataset.status}`);
    await waitFor(() => expect(status()).toEqual(['pad:development:waiting', 'trim:development:current', 'cut:development:waiting']));
    // The Project view says so too, not "Working through the plan.".
    expect(screen.getByTestId('run-phase').textContent).toBe('Waiting for you: pad · development, cut · development ask for an approval.');
    fireEvent.click(screen.getAllByTestId('timeline-block')[0]!);
    expect(screen.getByTestId('step-outcome').textContent).toBe('waiting for you: it asks for an approval');
    expect(screen.getByTestId('step-worker').textContent).toBe('the worker on vm (pid 13407)');
    fireEvent.click(screen.getAllByTestId('timeline-block')[1]!);
    expect(screen.getByTestId('step-outcome').textContent).toBe('running');
    expect(screen.getByTestId('step-worker').textContent).toBe('the worker on vm (pid 13502)');
    // Answered: the step runs on.
    core.emit('mcp.elicitation.done', { id: 'e1', action: 'accept' });
    await waitFor(() => expect(status()[0]).toBe('pad:development:current'));
    expect(screen.getByTestId('run-phase').textContent).toBe('Waiting for you: cut · development asks for an approval.');
  });
});

describe('TimelineView: a window opened while a step waits', () => {
  it("reads the running step's session from its log, so a server's question its call waits on shows the step waiting for you", async () => {
    const running: WorkflowRunView = { ...view, status: 'RUNNING', state: 'adder:development', error: undefined, timeline: [{ state: 'adder:development', component: 'adder', enteredAt: '2026-01-01T00:00:00Z', sessionLog: '/h/sessions/s-dev.jsonl' }] };
    // The files server asks before it overwrites a file: in the project folder (no worktree), so only the session calling it says whose question it is.
    const question = { id: 'q1', server: 'files', message: 'Overwrite src/add.js?', mode: 'form' as const, requestedSchema: { type: 'object', properties: {} }, approval: { tool: 'write_file', action: 'Overwrite src/add.js', change: 'overwrite' as const, path: 'src/add.js', cwd: '/p' } };
    const core = new FakeCore({
      'workflow.latest': () => ({ runId: 'r1' }),
      'workflow.status': () => running,
      'mcp.elicitation.pending': () => ({ requests: [question] }),
      'agent.list': () => ({ sessions: [{ sessionId: 's-dev', logPath: '/h/sessions/s-dev.jsonl', running: true }] }),
      'sessions.replay': () => ({
        warnings: [],
        items: [
          { type: 'user', at: 1, text: '# Step of the development protocol' },
          { type: 'event', event: { type: 'session_started', sessionId: 's-dev', at: 2, logPath: '/h/sessions/s-dev.jsonl', provider: 'p', model: 'm', toolMode: 'native', resumed: false } },
          { type: 'event', event: { type: 'tool_running', sessionId: 's-dev', at: 3, callId: 'c1', name: 'files__write_file', args: { path: 'src/add.js' } } },
        ],
      }),
    });
    await core.services.run.attach('/p');
    core.render(<TimelineView onOpenSession={() => {}} />);
    await waitFor(() => expect(screen.getByTestId('timeline-block').dataset.status).toBe('waiting'));
    expect(core.callsOf('sessions.replay')).toEqual([{ sessionId: 's-dev' }]);
  });
});
