import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { ProjectSummary, WorkflowRunView } from '../../../../electron/contract/index';
import { FakeCore } from '../../testing/fakeCore';
import { ProjectView } from './ProjectView';

afterEach(cleanup);

const project: ProjectSummary = { path: '/p/adder', key: 'k', name: 'adder', git: true, markers: [], runners: [] };
const run = (over: Partial<WorkflowRunView>): WorkflowRunView => ({
  runId: 'r1',
  projectDir: '/p/adder',
  status: 'AWAITING_GOAL',
  executor: 'agent',
  approved: false,
  timeline: [],
  totals: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
  ...over,
});
const plan = { maxDebugAttempts: 3, components: [{ id: 'adder', title: 'adds', tasks: [{ id: 'A1', title: 'Implement add', status: 'todo' as const }] }, { id: 'docs', title: 'docs', tasks: [] }] };

function world() {
  let view = run({});
  const core = new FakeCore({
    'workflow.latest': () => ({ runId: null }),
    'project.trust.list': ({ path }) => ({ project: path, files: [] }),
    'settings.providers.list': () => ({ defaultProvider: 'local', providers: [{ id: 'local', kind: 'ollama', model: 'qwen3' }], kinds: ['ollama'], file: '/h/config.yaml' }),
    'settings.providers.test': () => ({ ok: false, provider: 'local', model: 'qwen3', message: 'HTTP 429: Rate limit reached, retry in 20 s', ms: 12 }),
    'workflow.load': () => ({ runId: 'r1' }),
    'workflow.start': () => ({ status: 'AWAITING_GOAL' }),
    'workflow.status': () => view,
    'workflow.docs.read': ({ doc }) => ({ path: `/h/${doc}.md`, exists: doc === 'architecture', text: doc === 'architecture' ? '# Architecture\n\n**one** part' : '' }),
    'workflow.answerGoal': ({ goal }) => {
      view = run({ status: 'RUNNING', goal, state: 'prepare:architecture', updatedAt: '2026-01-01T00:00:01Z' });
      return { status: 'RUNNING' };
    },
    'workflow.approve': () => {
      view = run({ status: 'RUNNING', approved: true, plan, state: 'adder:development', updatedAt: '2026-01-01T00:00:03Z' });
      return { status: 'RUNNING' };
    },
  });
  return { core, set: (v: WorkflowRunView) => (view = v) };
}

/** The project view of a run blocked at adder · development (a step that ran and stopped) with `error`; a retry runs it again. */
function blockedAtDevelopment(error: NonNullable<WorkflowRunView['error']>) {
  const w = world();
  const ran = { state: 'adder:development', enteredAt: '2026-01-01T00:00:02Z', leftAt: '2026-01-01T00:00:03Z', outcome: 'not-done' as const };
  w.set(run({ status: 'BLOCKED', approved: true, plan, state: 'adder:development', goal: 'add', timeline: [ran], error }));
  w.core.on('workflow.latest', () => ({ runId: 'r1' }));
  w.core.on('workflow.retry', () => {
    w.set(run({ status: 'RUNNING', approved: true, plan, state: 'adder:development', goal: 'add', timeline: [ran], updatedAt: '2026-01-01T00:00:04Z' }));
    return { status: 'RUNNING' };
  });
  void w.core.services.run.attach(project.path);
  w.core.render(<ProjectView project={project} onClose={() => {}} onOpenTimeline={() => {}} />);
  return w;
}

describe('ProjectView and the run panel', () => {
  it('a blocked run says how to go on, and offers Retry step and Skip step (not a Resume that does the same as Retry)', async () => {
    const { core, set } = world();
    set(run({ status: 'BLOCKED', approved: true, plan, state: 'adder:debugging', goal: 'add', error: { kind: 'RUNTIME_ERROR', message: 'tests still fail after 3 debugging attempts in adder · debugging' } }));
    core.on('workflow.latest', () => ({ runId: 'r1' }));
    void core.services.run.attach(project.path);
    core.render(<ProjectView project={project} onClose={() => {}} onOpenTimeline={() => {}} />);
    expect((await screen.findByTestId('blocked-hint')).textContent).toBe('To go on: fix the cause in the project (or let the model try again), then Retry step; or Skip adder · debugging: component adder goes on to its review with its tests still failing (the review is told).');
    expect([...screen.getByTestId('run-controls').querySelectorAll('button')].map((b) => b.textContent)).toEqual(['Retry step', 'Skip adder · debugging', 'Stop']);
    // The heading names what the buttons offer (no Resume for a blocked run).
    expect(screen.getByTestId('run-phase').textContent).toBe('Blocked: the run needs you (retry or skip the step).');
  });

  it("a step that stopped to ask gets an answer box: Retry with this answer sends the user's words with the retry", async () => {
    const { core } = blockedAtDevelopment({ kind: 'RUNTIME_ERROR', message: 'The step adder · development cannot finish: which of --lower or --upper?' });
    const box = await screen.findByLabelText('Your answer to adder · development');
    // Empty: nothing is sent, and the user hears what to do instead.
    fireEvent.click(screen.getByTestId('retry-answer-submit'));
    expect((await within(screen.getByTestId('retry-answer')).findByRole('alert')).textContent).toBe('Write the answer first, or use Retry step to run it again without one.');
    expect(core.callsOf('workflow.retry')).toEqual([]);
    fireEvent.change(box, { target: { value: '  Only --lower.  ' } });
    fireEvent.click(screen.getByTestId('retry-answer-submit'));
    await waitFor(() => expect(core.callsOf('workflow.retry')).toEqual([{ runId: 'r1', answer: 'Only --lower.' }]));
    await waitFor(() => expect(screen.queryByTestId('retry-answer')).toBeNull()); // running again: no box
  });

  it('a step that stopped to ask: the banner says it needs your answer, the hint points at the box, and Retry step sends what was typed there', async () => {
    // Played as a user: the banner read "A step failed: …", the hint "fix the cause … then Retry step", and Retry step
    // after writing an answer in the box retried without it (the model heard no answer and asked again).
    const { core } = blockedAtDevelopment({ kind: 'RUNTIME_ERROR', message: 'The step adder · development cannot finish: which of --lower or --upper?', asks: true });
    const box = await screen.findByLabelText('Your answer to adder · development');
    expect(screen.getByRole('alert').textContent).toContain('The step needs your answer: The step adder · development cannot finish: which of --lower or --upper?');
    expect(screen.getByRole('alert').textContent).not.toContain('A step failed');
    expect(screen.getByTestId('blocked-hint').textContent).toContain('To go on: write your answer in the box below and press Retry with this answer; or settle it yourself in the project, then Retry step; or Skip');
    fireEvent.change(box, { target: { value: ' Only --lower. ' } });
    fireEvent.click(screen.getByTestId('run-retry'));
    await waitFor(() => expect(core.callsOf('workflow.retry')).toEqual([{ runId: 'r1', answer: 'Only --lower.' }]));
  });

  it('blocked for another reason: the banner says a step failed and Retry step with an empty box sends no answer', async () => {
    const { core } = blockedAtDevelopment({ kind: 'RUNTIME_ERROR', message: 'step adder:development ended without finishing' });
    await screen.findByTestId('retry-answer');
    expect(screen.getByRole('alert').textContent).toContain('A step failed: step adder:development ended without finishing');
    expect(screen.getByTestId('blocked-hint').textContent).toContain('To go on: fix the cause in the project (or let the model try again), then Retry step');
    fireEvent.click(screen.getByTestId('run-retry'));
    await waitFor(() => expect(core.callsOf('workflow.retry')).toEqual([{ runId: 'r1' }]));
  });

  it('a run blocked before its step ever ran (a toolset missing at setup) has no answer box: nothing was asked; Retry step stays', async () => {
    const { core, set } = world();
    set(run({ status: 'BLOCKED', approved: true, plan, state: 'adder:development', goal: 'add', error: { kind: 'RUNTIME_ERROR', message: 'toolset "web" is missing', setup: true } }));
    core.on('workflow.latest', () => ({ runId: 'r1' }));
    void core.services.run.attach(project.path);
    core.render(<ProjectView project={project} onClose={() => {}} onOpenTimeline={() => {}} />);
    await screen.findByTestId('blocked-hint');
    expect(screen.queryByTestId('retry-answer')).toBeNull();
    expect(screen.getByTestId('run-retry')).toBeTruthy();
  });

  it('blocked at a side-by-side merge git refused: the hint says Retry step merges again (no model runs there)', async () => {
    const { core, set } = world();
    set(run({ status: 'BLOCKED', approved: true, plan, state: 'parallel:components', goal: 'add', timeline: [], lanes: [{ component: 'count', status: 'merged', depends: [] }, { component: 'adder', status: 'ready', depends: [] }], error: { kind: 'RUNTIME_ERROR', message: "merging 0c45bd0d into the run's branch failed: error: Your local changes to the following files would be overwritten by merge" } }));
    core.on('workflow.latest', () => ({ runId: 'r1' }));
    void core.services.run.attach(project.path);
    core.render(<ProjectView project={project} onClose={() => {}} onOpenTimeline={() => {}} />);
    const hint = (await screen.findByTestId('blocked-hint')).textContent;
    expect(hint).toMatch(/^To go on: fix the cause in the project folder \(the error names what is in the way: commit, stash or move those files\), then Retry step: it merges component adder's commit into the run's branch again \(no model runs at a merge\)/);
    expect(hint).not.toContain('let the model try again');
  });

  it("a side-by-side run: the blocked hint names the component's worktree and shows its last test output; Skip only when a step can be skipped; Pause says at once it waits for the steps", async () => {
    const { core, set } = world();
    const worktree = '/p/adder/.git/erasmus/worktrees/r1/slugify';
    const timeline: WorkflowRunView['timeline'] = [
      { state: 'slugify:testing', component: 'slugify', worktree, enteredAt: '2026-01-01T00:00:00Z', leftAt: '2026-01-01T00:00:05Z', outcome: 'tests-failed', test: { command: 'python3 -m pytest -q tests/test_slugify.py', exitCode: 1, passed: false, output: 'FAILED tests/test_slugify.py::test_accents' } },
      { state: 'count:testing', component: 'count', enteredAt: '2026-01-01T00:00:01Z', leftAt: '2026-01-01T00:00:06Z', outcome: 'tests-passed', test: { command: 'python3 -m pytest -q tests/test_count.py', exitCode: 0, passed: true, output: '1 passed' } },
      { state: 'slugify:debugging', component: 'slugify', worktree, enteredAt: '2026-01-01T00:00:06Z', leftAt: '2026-01-01T00:00:09Z', outcome: 'not-done', sessionLog: '/h/sessions/s1.jsonl', lastWords: { text: '…accents: this needs a decision, keep them or strip them?', chars: 2345 } },
    ];
    const lanes: WorkflowRunView['lanes'] = [
      { component: 'slugify', status: 'blocked', depends: [], state: 'slugify:debugging', worktree },
      { component: 'count', status: 'merged', depends: [], commit: 'abc123' },
    ];
    set(run({ status: 'BLOCKED', approved: true, plan, state: 'parallel:components', goal: 'two modules', timeline, lanes, error: { kind: 'RUNTIME_ERROR', message: 'component slugify (slugify:debugging): tests still fail' } }));
    core.on('workflow.latest', () => ({ runId: 'r1' }));
    void core.services.run.attach(project.path);
    core.render(<ProjectView project={project} onClose={() => {}} onOpenTimeline={() => {}} />);
    const hint = await screen.findByTestId('blocked-hint');
    expect(hint.textContent).toContain(`fix the cause in the worktree of slugify, ${worktree} (its files are there, not in the project folder), or let the model try again; then Retry step. Or Skip slugify · debugging: component slugify goes on to its review with its tests still failing (the review is told).`);
    expect(screen.getByTestId('blocked-test-output').textContent).toContain('python3 -m pytest -q tests/test_slugify.py (exit 1)');
    expect(screen.getByTestId('blocked-test-output').textContent).toContain('FAILED tests/test_slugify.py::test_accents');
    // Beside the gate's reason, the model's own last words in the step that blocked, and where all of them are.
    const words = screen.getByTestId('blocked-last-words');
    expect(words.querySelector('figcaption')!.textContent).toBe('What the model said last, in slugify · debugging (the last 56 of 2345 characters):');
    expect(words.querySelector('blockquote')!.textContent).toBe('…accents: this needs a decision, keep them or strip them?');
    expect(words.textContent).toContain("All of it is in the step's session");
    // Its card has Retry step and Skip slugify · debugging; the run's controls keep Stop.
    expect([...screen.getByTestId('lane-blocked').querySelectorAll('button')].map((b) => b.textContent)).toEqual(['Retry with this answer', 'Retry step', 'Skip slugify · debugging']);
    expect([...screen.getByTestId('run-controls').querySelectorAll('button')].map((b) => b.textContent)).toEqual(['Stop']);

    // Components running side by side: no Skip (the core would refuse it), and Pause says at once that it waits.
    const running = run({ status: 'RUNNING', approved: true, plan, state: 'parallel:components', timeline: timeline.map((e) => (e.state === 'slugify:debugging' ? { ...e, leftAt: undefined, outcome: undefined } : e)).concat({ state: 'count:review', component: 'count', enteredAt: '2026-01-01T00:00:07Z' }), lanes: [{ ...lanes[0]!, status: 'running' }, { component: 'count', status: 'running', depends: [], state: 'count:review' }], updatedAt: '2026-01-01T00:00:10Z' });
    set(running);
    await core.services.run.refresh();
    await waitFor(() => expect(screen.getByTestId('run-panel').dataset.phase).toBe('running'));
    expect([...screen.getByTestId('run-controls').querySelectorAll('button')].map((b) => b.textContent)).toEqual(['Pause', 'Stop']);
    core.on('workflow.pause', () => {
      set({ ...running, pausing: true, updatedAt: '2026-01-01T00:00:11Z' });
      return { status: 'RUNNING' };
    });
    fireEvent.click(screen.getByTestId('run-pause'));
    await waitFor(() => expect(screen.getByTestId('run-phase').textContent).toBe('Pausing after the current steps…'));
    expect([...screen.getByTestId('run-controls').querySelectorAll('button')].map((b) => b.textContent)).toEqual(['Stop']);

    // A component blocked while the other still runs: said at once, with Retry and Skip for it alone (the run's controls stay Pause, Stop).
    const acted: unknown[] = [];
    core.on('workflow.retry', (p) => (acted.push(p), { status: 'RUNNING' }));
    core.on('workflow.skip', (p) => (acted.push(p), { status: 'RUNNING' }));
    set({ ...running, timeline, lanes: [{ ...lanes[0]!, status: 'blocked', error: 'tests still fail after 3 debugging attempts in slugify · debugging' }, { component: 'count', status: 'running', depends: [], state: 'count:review' }], updatedAt: '2026-01-01T00:00:11Z' });
    await core.services.run.refresh();
    const card = await screen.findByTestId('lane-blocked');
    expect(screen.getByTestId('run-phase').textContent).toBe('Working through the plan; component slugify is blocked and needs you.');
    expect(card.textContent).toContain('Component slugify is blocked at slugify · debugging: it needs you now. The components under way go on; no new one starts until you retry or skip it.');
    expect(card.textContent).toContain('tests still fail after 3 debugging attempts in slugify · debugging');
    expect(card.querySelector('[data-testid="blocked-worktree"]')?.textContent).toBe(worktree);
    expect(card.querySelector('[data-testid="blocked-test-output"]')?.textContent).toContain('FAILED tests/test_slugify.py::test_accents');
    expect([...screen.getByTestId('run-controls').querySelectorAll('button')].map((b) => b.textContent)).toEqual(['Pause', 'Stop']);
    fireEvent.click(screen.getByTestId('lane-retry'));
    await waitFor(() => expect(acted).toEqual([{ runId: 'r1', component: 'slugify' }]));
    fireEvent.click(screen.getByTestId('lane-skip'));
    await waitFor(() => expect(acted).toEqual([{ runId: 'r1', component: 'slugify' }, { runId: 'r1', component: 'slugify' }]));
    // Its step ran and stopped: the component has its own answer box, whose answer goes with its retry alone.
    fireEvent.change(within(card).getByLabelText('Your answer to slugify · debugging'), { target: { value: 'Strip the accents.' } });
    fireEvent.click(within(card).getByTestId('retry-answer-submit'));
    await waitFor(() => expect(acted.at(-1)).toEqual({ runId: 'r1', component: 'slugify', answer: 'Strip the accents.' }));
    expect(screen.getByTestId('lane-skip').textContent).toBe('Skip slugify · debugging');

    // Paused between steps with no component blocked: nothing to skip, so no Skip.
    set(run({ ...running, status: 'PAUSED', timeline, lanes: [{ ...lanes[0]!, status: 'waiting' }, lanes[1]!], updatedAt: '2026-01-01T00:00:12Z' }));
    await core.services.run.refresh();
    await waitFor(() => expect(screen.getByTestId('run-panel').dataset.phase).toBe('paused'));
    expect([...screen.getByTestId('run-controls').querySelectorAll('button')].map((b) => b.textContent)).toEqual(['Resume', 'Stop']);
  });

  it('a component that stopped to ask says so on its card, with its answer box first; blocked, the run shows a card per component, each answered alone', async () => {
    const { core, set } = world();
    const worktree = '/p/adder/.git/erasmus/worktrees/r1/slugify';
    const asked = { state: 'slugify:development', component: 'slugify', worktree, enteredAt: '2026-01-01T00:00:00Z', leftAt: '2026-01-01T00:00:05Z', outcome: 'not-done' as const, asked: true };
    const error = "The step slugify · development cannot finish: keep the accents or strip them? The rest of the step's work and its notes are kept.";
    const counting = { state: 'count:review', component: 'count', enteredAt: '2026-01-01T00:00:01Z' };
    set(run({ status: 'RUNNING', approved: true, plan, state: 'parallel:components', goal: 'two modules', timeline: [asked, counting], lanes: [{ component: 'slugify', status: 'blocked', depends: [], state: 'slugify:development', worktree, error, asks: true }, { component: 'count', status: 'running', depends: [], state: 'count:review' }] }));
    core.on('workflow.latest', () => ({ runId: 'r1' }));
    core.on('workflow.retry', () => ({ status: 'RUNNING' }));
    void core.services.run.attach(project.path);
    core.render(<ProjectView project={project} onClose={() => {}} onOpenTimeline={() => {}} />);
    const card = await screen.findByTestId('lane-blocked');
    expect(screen.getByTestId('run-phase').textContent).toBe('Working through the plan; component slugify stopped to ask you and needs your answer.');
    expect(card.getAttribute('aria-label')).toBe('Component slugify stopped to ask you');
    expect(card.textContent).toContain('Component slugify stopped to ask you at slugify · development: it needs your answer. The components under way go on; no new one starts until you answer it, or retry or skip it.');
    expect(within(card).getByTestId('blocked-hint').textContent).toContain(`To go on: write your answer in the box below and press Retry with this answer; or settle it yourself in the worktree of slugify, ${worktree} (its files are there, not in the project folder), then Retry step.`);
    expect(card.textContent).not.toContain('is blocked');

    // The run blocked once count finished, slugify and another asking: a card each (no run-wide answer box, whose
    // answer would go to the first alone), each answer with its own component.
    const other = { ...asked, state: 'title:development', component: 'title', worktree: `${worktree}-title` };
    set(run({ status: 'BLOCKED', approved: true, plan, state: 'parallel:components', goal: 'two modules', timeline: [asked, other, { ...counting, leftAt: '2026-01-01T00:00:06Z', outcome: 'done' as const }, { state: 'parallel:components', enteredAt: '2026-01-01T00:00:00Z', leftAt: '2026-01-01T00:00:07Z', outcome: 'done' as const }], lanes: [{ component: 'slugify', status: 'blocked', depends: [], state: 'slugify:development', worktree, error, asks: true }, { component: 'title', status: 'blocked', depends: [], state: 'title:development', worktree: other.worktree, error: 'The step title · development cannot finish: which case?', asks: true }, { component: 'count', status: 'merged', depends: [], commit: 'abc' }], error: { kind: 'RUNTIME_ERROR', message: `2 components blocked:\ncomponent slugify: ${error}\ncomponent title: which case?`, asks: true }, updatedAt: '2026-01-01T00:00:08Z' }));
    await core.services.run.refresh();
    await waitFor(() => expect(screen.getAllByTestId('lane-blocked')).toHaveLength(2));
    expect(screen.getByTestId('run-phase').textContent).toBe('Blocked: components stopped to ask you and need your answer.');
    const [first, second] = screen.getAllByTestId('lane-blocked');
    expect(first!.textContent).toContain("Component slugify stopped to ask you at slugify · development: it needs your answer. The run waits for it; going on here goes on with this component alone (the others stay blocked until you go on with them).");
    expect(screen.getAllByTestId('retry-answer')).toHaveLength(2);
    // Each card has its Retry step and Skip: the run's controls do not offer them a second time.
    expect([...screen.getByTestId('run-controls').querySelectorAll('button')].map((b) => b.textContent)).toEqual(['Stop']);
    expect(screen.queryByLabelText('Your answer to Components side by side')).toBeNull();
    fireEvent.change(within(second!).getByLabelText('Your answer to title · development'), { target: { value: 'Title Case.' } });
    fireEvent.click(within(second!).getByTestId('retry-answer-submit'));
    await waitFor(() => expect(core.callsOf('workflow.retry')).toEqual([{ runId: 'r1', component: 'title', answer: 'Title Case.' }]));
  });

  it("blocked at a merge step that stopped to ask: the answer box names that step (not the components' phase)", async () => {
    const { core, set } = world();
    const timeline: WorkflowRunView['timeline'] = [
      { state: 'parallel:components', enteredAt: '2026-01-01T00:00:00Z', leftAt: '2026-01-01T00:00:01Z', outcome: 'done' },
      { state: 'b:merge', component: 'b', enteredAt: '2026-01-01T00:00:05Z', leftAt: '2026-01-01T00:00:06Z', outcome: 'not-done', asked: true },
    ];
    set(run({ status: 'BLOCKED', approved: true, plan, state: 'parallel:components', goal: 'two', timeline, lanes: [{ component: 'a', status: 'merged', depends: [] }, { component: 'b', status: 'ready', depends: [] }], error: { kind: 'RUNTIME_ERROR', message: "The step b · merge into the run's branch cannot finish: which side wins?", asks: true } }));
    core.on('workflow.latest', () => ({ runId: 'r1' }));
    core.on('workflow.retry', () => ({ status: 'RUNNING' }));
    void core.services.run.attach(project.path);
    core.render(<ProjectView project={project} onClose={() => {}} onOpenTimeline={() => {}} />);
    fireEvent.change(await screen.findByLabelText("Your answer to b · merge into the run's branch"), { target: { value: 'Both.' } });
    fireEvent.click(screen.getByTestId('retry-answer-submit'));
    await waitFor(() => expect(core.callsOf('workflow.retry')).toEqual([{ runId: 'r1', answer: 'Both.' }]));
  });

  it('starts an unattended agent run, asks the goal, shows the documents, and confirms an edited plan', async () => {
    const { core, set } = world();
    void core.services.run.attach(project.path);
    core.render(<ProjectView project={project} onClose={() => {}} onOpenTimeline={() => {}} />);
    await screen.findByTestId('start-run');
    fireEvent.click(screen.getByTestId('unattended'));
    fireEvent.click(screen.getByTestId('start-workflow'));
    await screen.findByTestId('goal-question');
    expect(core.callsOf('workflow.load')).toEqual([{ projectDir: '/p/adder', executor: 'agent', autoApprove: true }]);

    fireEvent.click(screen.getByTestId('goal-submit'));
    expect((await screen.findByRole('alert')).textContent).toContain('Describe what to build first');
    fireEvent.change(screen.getByTestId('goal-input'), { target: { value: 'add numbers' } });
    fireEvent.click(screen.getByTestId('goal-submit'));
    await waitFor(() => expect(screen.getByTestId('run-panel').dataset.phase).toBe('preparing'));
    expect(core.callsOf('workflow.answerGoal')).toEqual([{ runId: 'r1', goal: 'add numbers' }]);
    expect((await screen.findByText('one')).tagName).toBe('STRONG');

    // The plan arrives as an event: the panel re-reads the run.
    set(run({ status: 'AWAITING_APPROVAL', plan, state: 'prepare:plan', updatedAt: '2026-01-01T00:00:02Z' }));
    core.emit('workflow.plan', { runId: 'r1', projectDir: '/p/adder', plan });
    await screen.findByTestId('plan-review');
    // A task is edited in place: saved in the task list, and the plan card shows the plan read from it again, rendered.
    let taskList = '## Component: adder — adds\n- [ ] A1: Implement add\n';
    core.on('workflow.docs.read', ({ doc }) => ({ path: `/h/${doc}.md`, exists: true, text: doc === 'task_list' ? taskList : '# Architecture' }));
    core.on('workflow.docs.write', ({ text }) => {
      taskList = text;
      const edited = { ...plan, components: [{ ...plan.components[0]!, tasks: [{ id: 'A1', title: 'Implement `add(a, b)`', status: 'todo' as const }] }, plan.components[1]!] };
      set(run({ status: 'AWAITING_APPROVAL', plan: edited, state: 'prepare:plan', updatedAt: '2026-01-01T00:00:02.5Z' }));
      return { path: '/h/task_list.md', exists: true, text };
    });
    fireEvent.click(screen.getByRole('button', { name: 'Edit task A1' }));
    fireEvent.change(screen.getByLabelText('Title of task A1'), { target: { value: 'Implement `add(a, b)`' } });
    fireEvent.click(screen.getByTestId('task-title-save'));
    await waitFor(() => expect(taskList).toBe('## Component: adder — adds\n- [ ] A1: Implement `add(a, b)`\n'));
    await waitFor(() => expect(screen.getByTestId('plan-task-title').innerHTML).toBe('Implement <code>add(a, b)</code>'));
    fireEvent.click(screen.getByLabelText('Move docs up'));
    expect(screen.getByTestId('confirm-plan').textContent).toBe('Confirm the edited plan');
    fireEvent.click(screen.getByTestId('confirm-plan'));
    await waitFor(() => expect(screen.getByTestId('run-panel').dataset.phase).toBe('running'));
    const sent = core.callsOf('workflow.approve')[0] as { plan: typeof plan };
    expect(sent.plan.components.map((c) => c.id)).toEqual(['docs', 'adder']);
  });

  it("offers the README's description as the goal, which one click puts in the box to edit", async () => {
    const { core, set } = world();
    set(run({ suggestedGoal: { file: 'README.md', goal: 'adder: Adds two numbers.' } }));
    core.on('workflow.latest', () => ({ runId: 'r1' }));
    void core.services.run.attach(project.path);
    core.render(<ProjectView project={project} onClose={() => {}} onOpenTimeline={() => {}} />);
    expect((await screen.findByTestId('goal-suggestion')).textContent).toContain('README.md describes this project:adder: Adds two numbers.');
    expect((screen.getByTestId('goal-input') as HTMLTextAreaElement).value).toBe('');
    fireEvent.click(screen.getByTestId('goal-use-suggestion'));
    expect((screen.getByTestId('goal-input') as HTMLTextAreaElement).value).toBe('adder: Adds two numbers.');
    expect(screen.queryByTestId('goal-suggestion')).toBeNull();
    fireEvent.change(screen.getByTestId('goal-input'), { target: { value: 'adder: Adds two numbers, with tests.' } });
    fireEvent.click(screen.getByTestId('goal-submit'));
    await waitFor(() => expect(core.callsOf('workflow.answerGoal')).toEqual([{ runId: 'r1', goal: 'adder: Adds two numbers, with tests.' }]));
  });

  it('edits a document and shows the core refusing it without losing the text', async () => {
    const { core } = world();
    core.on('workflow.latest', () => ({ runId: 'r1' })).on('workflow.docs.write', () => Promise.reject(new Error('line 3: a component needs a title')));
    void core.services.run.attach(project.path);
    core.render(<ProjectView project={project} onClose={() => {}} onOpenTimeline={() => {}} />);
    fireEvent.click(await screen.findByTestId('doc-edit'));
    const area = screen.getByLabelText('Edit architecture');
    fireEvent.change(area, { target: { value: '# Mine' } });
    fireEvent.click(screen.getByTestId('doc-save'));
    expect((await screen.findByText(/Not saved/)).textContent).toContain('a component needs a title');
    expect((screen.getByLabelText('Edit architecture') as HTMLTextAreaElement).value).toBe('# Mine');
  });

  it('offers no Stop before anything runs, asks before stopping, and after completion sums up and asks the next goal, whose plan review shows what it keeps done and what it adds', async () => {
    const { core, set } = world();
    core.on('workflow.latest', () => ({ runId: 'r1' })).on('workflow.stop', () => {
      set(run({ status: 'STOPPED', approved: true, plan, state: 'adder:development', updatedAt: '2026-01-01T00:00:05Z' }));
      return { status: 'STOPPED' };
    });
    void core.services.run.attach(project.path);
    core.render(<ProjectView project={project} onClose={() => {}} onOpenTimeline={() => {}} />);
    await screen.findByTestId('goal-question');
    expect(screen.queryByTestId('run-stop')).toBeNull();
    // The active model, and "Test connection" with the provider's own error verbatim.
    expect((await screen.findByTestId('active-model')).textContent).toContain('qwen3 via Ollama');
    fireEvent.click(screen.getByTestId('test-connection'));
    expect((await screen.findByTestId('connection-result')).textContent).toBe('Failed: HTTP 429: Rate limit reached, retry in 20 s');

    set(run({ status: 'RUNNING', approved: true, plan, state: 'adder:development', updatedAt: '2026-01-01T00:00:04Z' }));
    await core.services.run.refresh();
    expect((await screen.findByTestId('run-panel')).textContent).toContain('adder · development');
    fireEvent.click(await screen.findByTestId('run-stop'));
    expect(core.callsOf('workflow.stop')).toEqual([]);
    fireEvent.click(screen.getByTestId('stop-confirm-yes'));
    await waitFor(() => expect(core.callsOf('workflow.stop')).toEqual([{ runId: 'r1' }]));
    await waitFor(() => expect(screen.getByTestId('run-panel').dataset.phase).toBe('stopped'));

    set(run({
      status: 'COMPLETED', approved: true, plan, updatedAt: '2026-01-01T00:01:00Z',
      timeline: [
        { state: 'adder:testing', component: 'adder', enteredAt: '2026-01-01T00:00:00Z', leftAt: '2026-01-01T00:00:10Z', outcome: 'tests-failed', test: { command: 'npm test', exitCode: 1, passed: false } },
        { state: 'adder:retesting', component: 'adder', enteredAt: '2026-01-01T00:00:20Z', leftAt: '2026-01-01T00:00:30Z', outcome: 'tests-passed', test: { command: 'npm test', exitCode: 0, passed: true, traced: true, tests: [{ name: 'A1: adds', file: 'test/adder.test.mjs', passed: true }, { name: 'names no task', passed: true }] } },
        { state: 'adder:commit', component: 'adder', enteredAt: '2026-01-01T00:00:30Z', leftAt: '2026-01-01T00:00:31Z', outcome: 'committed', commit: 'abcdef0123456789' },
      ],
    }));
    await core.services.run.refresh();
    expect((await screen.findByTestId('summary-commits')).textContent).toContain('abcdef0123');
    expect(screen.getByTestId('summary-tests').textContent).toBe('Test runs: 1 passed of 2 (the failures were fixed in later runs)');
    expect(screen.getByRole('heading', { name: 'The run is complete' })).toBeTruthy();
    // The components this run built: the plan's other component (never reaching its commit here) is not counted.
    expect(screen.getByTestId('run-summary').textContent).toContain('1 component built in');
    // Its time ends with its last step (00:00:31), not at its last save (00:01:00: a finish, a tool mode set afterwards).
    expect(screen.getByTestId('run-summary').textContent).toContain('1 component built in 31.0 s');
    // What the runner's report says each task's tests did, from the run alone.
    expect(screen.getByTestId('summary-verified').textContent).toMatch(/^Verified: every task \(1\) has passing tests that Erasmus ran\./);
    expect(screen.getByTestId('summary-task-A1').textContent).toContain('pass — A1: adds (test/adder.test.mjs)');

    // A final review whose fixes left a point open: the completion says so and lists it, never a plain green.
    const done = { enteredAt: '2026-01-01T00:00:40Z', leftAt: '2026-01-01T00:00:41Z' };
    set(run({
      status: 'COMPLETED', approved: true, plan, updatedAt: '2026-01-01T00:01:01Z',
      timeline: [
        { state: 'final:review', ...done, outcome: 'done', note: '/p/adder/docs/reviews/final.md', verdict: 'Verdict: one small fix needed' },
        { state: 'final:fixes', ...done, outcome: 'tests-passed', openPoints: ['The CLI lacks --help: out of scope'] },
      ],
    }));
    await core.services.run.refresh();
    expect((await screen.findByRole('heading', { name: 'The run is complete, with review points left open' })).textContent).toBeTruthy();
    expect(screen.getByTestId('summary-review-final').textContent).toContain('The final review (Verdict: one small fix needed): fixed, 1 point left open');
    expect(screen.getAllByTestId('summary-open-point').map((e) => e.textContent)).toEqual(['The CLI lacks --help: out of scope']);

    // New goal: asked beside the completion as `start --goal` does; the plan review then shows what the goal keeps and adds.
    fireEvent.click(screen.getByTestId('new-goal-start'));
    expect((await screen.findByRole('alert')).textContent).toContain('Describe the new goal first');
    fireEvent.change(screen.getByRole('textbox', { name: 'New goal: what should this project do next?' }), { target: { value: 'subtract too' } });
    fireEvent.click(screen.getByTestId('new-goal-unattended'));
    const delta = { maxDebugAttempts: 3, components: [{ id: 'adder', title: 'adds', tasks: [{ id: 'A1', title: 'Implement add', status: 'done' as const }] }, { id: 'sub', title: 'subtracts', tasks: [{ id: 'S1', title: 'Implement sub', status: 'todo' as const }, { id: 'S2', title: 'Test sub', status: 'todo' as const }] }] };
    // The user has uncommitted changes: the refusal offers the same three choices as the first Start, not the CLI's words.
    core.on('workflow.load', (p) => {
      if (p.dirtyTree) return { runId: 'r1' };
      throw Object.assign(new Error('/p/adder has uncommitted changes (notes.md); … start again with dirtyTree commit, stash or include (erasmus workflow start --dirty commit|stash|include)'), { data: { kind: 'INVALID_STATE', dirty: ['notes.md'] } });
    });
    fireEvent.click(screen.getByTestId('new-goal-start'));
    const dirtyBox = await screen.findByTestId('dirty-tree');
    expect(dirtyBox.textContent).toContain('notes.md');
    expect(screen.getByTestId('new-goal').textContent).not.toContain('erasmus workflow start --dirty');
    set(run({ status: 'AWAITING_APPROVAL', goal: 'subtract too', newGoal: true, plan: delta, state: 'prepare:plan_review', updatedAt: '2026-01-01T00:02:00Z' }));
    fireEvent.click(screen.getByTestId('dirty-include'));
    await screen.findByTestId('plan-review');
    expect(core.callsOf('workflow.load').slice(-2)).toEqual([
      { projectDir: '/p/adder', executor: 'agent', goal: 'subtract too', autoApprove: true },
      { projectDir: '/p/adder', executor: 'agent', goal: 'subtract too', autoApprove: true, dirtyTree: 'include' },
    ]);
    expect(screen.getByTestId('plan-delta-added').textContent).toBe('New for this goal, to be developed: 2 tasks (S1, S2).');
    expect(screen.getByTestId('plan-delta-kept').textContent).toBe('Kept as done from earlier goals: 1 task (A1), not developed again.');
    expect(screen.getByTestId('plan-task-A1').textContent).toContain('done');
    expect(screen.getByTestId('plan-task-S1').textContent).not.toContain('done');
    expect(screen.getByTestId('plan-delta').textContent).toContain('A new goal for a project built for earlier goals');
    // A project that had code before Erasmus stays an existing one: the change is called so.
    set(run({ status: 'AWAITING_APPROVAL', goal: 'subtract too', newGoal: true, existing: true, plan: delta, state: 'prepare:plan_review', updatedAt: '2026-01-01T00:02:01Z' }));
    await core.services.run.refresh();
    await waitFor(() => expect(screen.getByTestId('plan-delta').textContent).toContain('A new change to an existing project, after earlier goals'));
  });

  it('with no provider configured, leads to Settings', async () => {
    const { core } = world();
    core.on('settings.providers.list', () => ({ defaultProvider: null, providers: [], kinds: ['ollama'], file: '/h/config.yaml' }));
    let opened = 0;
    void core.services.run.attach(project.path);
    core.render(<ProjectView project={project} onClose={() => {}} onOpenTimeline={() => {}} onOpenSettings={() => opened++} />);
    fireEvent.click(await screen.findByTestId('setup-provider'));
    expect(opened).toBe(1);
  });

  it('Start with something missing: says what, with a way to Settings or Servers, and creates no run; Start again once fixed', async () => {
    const { core } = world();
    let missing = true;
    core.on('workflow.load', () => {
      if (!missing) return { runId: 'r1' };
      throw Object.assign(new Error('the workflow cannot start: …'), {
        data: {
          kind: 'PREFLIGHT',
          problems: [
            { fix: 'providers', message: 'No model to run the steps: no provider is configured.', how: 'Add a provider (and its API key) in Settings → Providers, or in config.yaml.' },
            { fix: 'servers', message: 'The toolset "runners" (needed by the development protocol) is not available (available: files).', how: 'Add and enable a server named "runners" in the Servers view.' },
          ],
        },
      });
    });
    const opened: string[] = [];
    void core.services.run.attach(project.path);
    core.render(<ProjectView project={project} onClose={() => {}} onOpenTimeline={() => {}} onOpenSettings={() => opened.push('settings')} onOpenServers={() => opened.push('servers')} />);
    fireEvent.click(await screen.findByTestId('start-workflow'));
    const box = await screen.findByTestId('preflight-problems');
    expect(box.getAttribute('role')).toBe('alert');
    expect(box.textContent).toContain('The workflow cannot start yet: 2 things are missing.');
    expect(box.textContent).toContain('No model to run the steps: no provider is configured.');
    expect(box.textContent).toContain('The toolset "runners" (needed by the development protocol) is not available');
    expect(box.textContent).not.toContain('the workflow cannot start: …'); // the raw message gives way to the list
    fireEvent.click(screen.getByTestId('preflight-fix-providers'));
    fireEvent.click(screen.getByTestId('preflight-fix-servers'));
    expect(opened).toEqual(['settings', 'servers']);
    expect(core.callsOf('workflow.start')).toEqual([]);
    expect(screen.getByTestId('start-run')).toBeTruthy();

    missing = false;
    fireEvent.click(screen.getByTestId('start-workflow'));
    await screen.findByTestId('goal-question');
    expect(screen.queryByTestId('preflight-problems')).toBeNull();
  });

  it('a project with uncommitted changes: the refusal offers commit, stash or include as buttons, and the choice starts the run', async () => {
    const { core } = world();
    core.on('workflow.load', (p) => {
      if (p.dirtyTree) return { runId: 'r1' };
      throw Object.assign(new Error('/p/adder has uncommitted changes (notes.md); a run would mix them with its own work. Nothing was started.'), { data: { kind: 'INVALID_STATE', dirty: ['notes.md', 'src/wip.js'] } });
    });
    void core.services.run.attach(project.path);
    core.render(<ProjectView project={project} onClose={() => {}} onOpenTimeline={() => {}} />);
    fireEvent.click(await screen.findByTestId('start-workflow'));
    const box = await screen.findByTestId('dirty-tree');
    expect(box.textContent).toContain('notes.mdsrc/wip.js');
    expect(screen.getAllByRole('button').map((b) => b.textContent)).toEqual(expect.arrayContaining(['Commit them first', 'Stash them', 'Include them']));
    expect(core.callsOf('workflow.start')).toEqual([]);
    fireEvent.click(screen.getByTestId('dirty-stash'));
    await screen.findByTestId('goal-question');
    expect(core.callsOf('workflow.load')).toEqual([
      { projectDir: '/p/adder', executor: 'agent' },
      { projectDir: '/p/adder', executor: 'agent', dirtyTree: 'stash' },
    ]);
  });
});
