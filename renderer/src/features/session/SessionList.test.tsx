import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentEvent, WorkflowRunSteps } from '../../../../electron/contract/index';
import { FakeCore } from '../../testing/fakeCore';
import { SessionView } from './SessionView';

afterEach(cleanup);

function Harness() {
  const [selected, setSelected] = useState<string | null>(null);
  return <SessionView selected={selected} onSelect={setSelected} project="/w/calc" />;
}

const at = (m: number) => new Date(Date.parse('2025-03-12T10:00:00Z') + m * 60_000).toISOString();
type Step = WorkflowRunSteps['steps'][number];
const step = (state: string, m: number, sessionId?: string, outcome: Step['outcome'] = 'done'): Step => ({ state, enteredAt: at(m), leftAt: at(m + 1), outcome, ...(sessionId ? { sessionId } : {}) });

const calcRuns = (extra: Step[] = []): WorkflowRunSteps[] => [
  {
    runId: 'r2',
    projectDir: '/w/calc',
    status: 'RUNNING',
    goal: 'Add numbers',
    createdAt: at(60),
    updatedAt: at(70),
    steps: [step('adder:development', 61, 'dev'), step('adder:testing', 62, 't1', 'tests-failed'), step('adder:debugging', 63, 'dbg'), { state: 'adder:testing', enteredAt: at(64), sessionId: 't2' }, ...extra],
  },
  { runId: 'r1', projectDir: '/w/calc', status: 'STOPPED', goal: 'First try', createdAt: at(0), updatedAt: at(5), steps: [step('prepare:architecture', 1, 'arch')] },
];

function start(core: FakeCore, sessionId: string, project: string) {
  core.emit('agent.event', { sessionId, at: Date.now(), type: 'session_started', logPath: `/h/sessions/${sessionId}.jsonl`, provider: 'p', model: 'm1', toolMode: 'native', resumed: false, project } as AgentEvent);
}

describe('SessionList', () => {
  it('groups sessions by project → run → step with attempt numbers, keeps the waiting badge and selection, and follows workflow events', async () => {
    let extra: Step[] = [];
    const core = new FakeCore({
      'workflow.runs': ({ projectDir }) => ({ runs: projectDir === '/w/calc' ? calcRuns(extra) : [] }),
      'sessions.replay': ({ sessionId }) => ({ warnings: [], items: [{ type: 'user', at: 1, text: `the task of ${sessionId}` }] }),
    });
    core.render(<Harness />);
    start(core, 'chat1', '/w/calc');
    core.emit('agent.event', { sessionId: 'chat1', at: Date.now(), type: 'session_ended', reason: 'complete', usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2, costUsd: null }, turns: 1 } as AgentEvent);
    start(core, 't2', '/w/calc');
    core.emit('agent.event', { sessionId: 't2', at: Date.now(), type: 'approval_required', requestId: 'q1', kind: 'tool', name: 'fs__write_file', args: { path: 'a' }, reasons: [] } as AgentEvent);
    start(core, 'other', '/w/notes');

    const calc = await screen.findByRole('region', { name: 'calc' });
    const projects = screen.getAllByTestId('session-project').map((p) => p.querySelector('h3')!.textContent);
    expect(projects).toEqual(['calc', 'notes']);
    await waitFor(() => expect(within(calc).getAllByTestId('session-run')).toHaveLength(2));
    // Both projects' runs were asked for.
    expect(core.callsOf('workflow.runs')).toEqual(expect.arrayContaining([{ projectDir: '/w/calc' }, { projectDir: '/w/notes' }]));

    // The newest run is open: its steps in run order, the second test run numbered; the running one waits for an approval.
    const newest = within(calc).getByRole('region', { name: 'Run: Add numbers' });
    expect(within(newest).getByRole('button', { name: /Add numbers/ }).getAttribute('aria-expanded')).toBe('true');
    const titles = () => within(newest).getAllByTestId('session-item-title').map((e) => e.textContent);
    expect(titles()).toEqual(['adder · development', 'adder · testing', 'adder · debugging', 'adder · testing (attempt 2)']);
    const running = within(newest).getAllByTestId('session-item')[3]!;
    expect(running.dataset.status).toBe('running');
    expect(running.textContent).toContain('1 waiting');
    expect(within(newest).getAllByTestId('session-item')[1]!.dataset.status).toBe('failed');
    // The chat of this project stays a chat; the other project's session is its own group.
    expect(within(within(calc).getByTestId('session-chats')).getAllByTestId('session-item-title').map((e) => e.textContent)).toEqual([expect.stringMatching(/^Chat of /)]);
    expect(within(screen.getByRole('region', { name: 'notes' })).getAllByTestId('session-item')).toHaveLength(1);

    // The older run is folded behind a disclosure button; opening it and picking a step shows that step's session.
    const older = within(calc).getByRole('region', { name: 'Run: First try' });
    const toggle = within(older).getByRole('button', { name: /First try/ });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(within(older).queryByTestId('session-item')).toBeNull();
    expect(within(older).getByText(/· Stopped$/)).toBeTruthy();
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    expect(document.getElementById(toggle.getAttribute('aria-controls')!)).not.toBeNull();
    fireEvent.click(within(older).getByRole('button', { name: /Preparation · architecture/ }));
    await waitFor(() => expect(screen.getByTestId('session-title').textContent).toBe('Preparation · architecture'));
    expect(within(older).getByRole('button', { name: /Preparation · architecture/ }).getAttribute('aria-current')).toBe('true');
    expect(core.callsOf('sessions.replay')).toContainEqual({ sessionId: 'arch' });

    // A new step of the run appears after a workflow event, numbered again.
    const before = core.callsOf('workflow.runs').length;
    extra = [step('adder:debugging', 65, 'dbg2'), step('adder:testing', 66, 't3', 'tests-passed')];
    core.emit('workflow.step', { runId: 'r2', projectDir: '/w/calc', entry: { state: 'adder:testing', enteredAt: at(66) } });
    await waitFor(() => expect(titles()).toEqual(['adder · development', 'adder · testing', 'adder · debugging', 'adder · testing (attempt 2)', 'adder · debugging (attempt 2)', 'adder · testing (attempt 3)']));
    expect(core.callsOf('workflow.runs').length).toBeGreaterThan(before);
    // Events of a project that is not listed read nothing again.
    const after = core.callsOf('workflow.runs').length;
    core.emit('workflow.step', { runId: 'x', projectDir: '/w/elsewhere', entry: { state: 'a:b', enteredAt: at(0) } });
    await new Promise((r) => setTimeout(r, 300));
    expect(core.callsOf('workflow.runs').length).toBe(after);
  });

  it('shows a session whose run cannot be read as a chat of its project, titled by its task', async () => {
    const core = new FakeCore({ 'agent.start': () => ({ sessionId: 's1', logPath: '/l/s1.jsonl' }) });
    core.render(<Harness />);
    fireEvent.change(screen.getByTestId('composer'), { target: { value: 'Rename the module\nand its tests' } });
    fireEvent.keyDown(screen.getByTestId('composer'), { key: 'Enter' });
    start(core, 's1', '/w/calc');
    const item = await screen.findByRole('button', { name: /Rename the module/ });
    expect(item.getAttribute('aria-current')).toBe('true');
    expect(within(screen.getByTestId('session-chats')).getAllByTestId('session-item')).toHaveLength(1);
    expect(screen.queryByTestId('session-run')).toBeNull();
  });
});
