import { describe, expect, it } from 'vitest';
import type { WorkflowRunSteps, WorkflowRunView } from '../../../../electron/contract/index';
import { groupSessions, runStepsOfView, stepTitles } from './sessionGroups';
import type { SessionState } from './sessionState';

const T0 = Date.parse('2025-03-12T10:00:00Z');
const iso = (minutes: number) => new Date(T0 + minutes * 60_000).toISOString();

function session(id: string, minutes: number, extra: Partial<SessionState> = {}): SessionState {
  return { id, running: false, startedAt: T0 + minutes * 60_000, items: [], turns: 1, ...extra };
}

type Step = WorkflowRunSteps['steps'][number];
const step = (state: string, minutes: number, sessionId?: string, extra: Partial<Step> = {}): Step => ({
  state,
  enteredAt: iso(minutes),
  leftAt: iso(minutes + 1),
  outcome: 'done',
  ...(state.includes(':') && !state.startsWith('prepare') ? { component: state.split(':')[0] } : {}),
  ...(sessionId ? { sessionId } : {}),
  ...extra,
});

function run(runId: string, projectDir: string, minutes: number, steps: Step[], extra: Partial<WorkflowRunSteps> = {}): WorkflowRunSteps {
  return { runId, projectDir, status: 'COMPLETED', createdAt: iso(minutes), updatedAt: iso(minutes + 30), steps, ...extra };
}

describe('groupSessions', () => {
  it('a step whose model stopped to ask is listed as asking you, not failed; a step not done for another reason stays failed', () => {
    // Played as a user: the sessions list drew the step that asked with a red dot, while the timeline drew it amber "asked you".
    const runs = [run('r1', '/w/kit', 0, [step('wordcount:development', 1, 'w1', { outcome: 'not-done', asked: true }), step('slugify:review', 2, 's1', { outcome: 'not-done' }), step('wordcount:development', 3, 'w2')], { status: 'RUNNING' })];
    const [kit] = groupSessions({ sessions: [], runs, project: '/w/kit' });
    expect(kit!.runs[0]!.steps.map((s) => [s.id, s.status])).toEqual([['w1', 'asked'], ['s1', 'failed'], ['w2', 'done']]);
  });

  it('numbers a state run again by attempt, within its run only', () => {
    const runs = [
      run('r1', '/w/calc', 0, [step('adder:development', 1, 'd1'), step('adder:testing', 2, 't1', { outcome: 'tests-failed' }), step('adder:debugging', 3, 'g1'), step('adder:testing', 4, 't2', { outcome: 'tests-passed' }), step('adder:testing', 5)]),
      run('r2', '/w/calc', 60, [step('adder:testing', 61, 't3')]),
    ];
    const titles = stepTitles(runs);
    expect(titles.get('t1')).toBe('adder · testing');
    expect(titles.get('t2')).toBe('adder · testing (attempt 2)');
    // A later run starts counting again.
    expect(titles.get('t3')).toBe('adder · testing');
    // Tests that failed and then passed in a later step of the component read as fixed (done), as on the timeline.
    const [calc] = groupSessions({ sessions: [], runs, project: '/w/calc' });
    const r1 = calc!.runs.find((r) => r.runId === 'r1')!;
    expect(r1.steps.map((x) => [x.id, x.status])).toEqual([['d1', 'done'], ['t1', 'done'], ['g1', 'done'], ['t2', 'done']]);
  });

  it('an interrupted run (nothing drives it) says so, and its cut-off step is not running', () => {
    const runs = [run('r1', '/w/calc', 0, [step('adder:development', 1, 'd1'), step('adder:testing', 2, 't1', { leftAt: undefined, outcome: undefined })], { status: 'RUNNING', interrupted: true })];
    const [calc] = groupSessions({ sessions: [], runs, project: '/w/calc' });
    expect(calc!.runs[0]!.detail).toMatch(/ · Interrupted — nothing is driving it$/);
    expect(calc!.runs[0]!.steps.map((x) => [x.id, x.status])).toEqual([['d1', 'done'], ['t1', 'idle']]);
  });

  it('groups project → runs (newest first) → steps in run order, and keeps each project’s chats apart', () => {
    const sessions = [
      session('chat1', 5, { project: '/w/calc', items: [{ kind: 'user', id: 'u', text: 'Explain the adder\nplease' }] }),
      session('t2', 4, { project: '/w/calc', running: true }),
      session('g1', 3, { project: '/w/calc', endReason: 'error' }),
      session('chat-other', 100, { project: '/w/notes' }),
      session('ostep', 90, { project: '/w/notes' }),
    ];
    const runs = [
      run('old', '/w/calc', 0, [
        step('prepare:architecture', 0, 'a1', { outcome: 'written' }),
        step('adder:testing', 2, 't1', { outcome: 'tests-failed' }),
        step('adder:debugging', 3, 'g1', { outcome: 'error' }),
        step('adder:testing', 4, 't2', { leftAt: undefined, outcome: undefined }),
      ], { goal: 'Add numbers', status: 'RUNNING' }),
      run('new', '/w/calc', 50, [step('adder:review', 51, 'rv1', { outcome: 'not-done' }), step('final:commit', 52)], { status: 'BLOCKED' }),
      run('notes-run', '/w/notes', 80, [step('notes:development', 90, 'ostep')]),
    ];
    const groups = groupSessions({ sessions, runs, project: '/w/calc' });
    expect(groups.map((g) => [g.name, g.open])).toEqual([['calc', true], ['notes', false]]);
    const [calc, notes] = groups;
    expect(calc!.runs.map((r) => r.runId)).toEqual(['new', 'old']);
    expect(calc!.runs[0]!.title).toMatch(/^Run of /);
    expect(calc!.runs[0]!.detail).toMatch(/^started .* · Blocked — needs you$/);
    const old = calc!.runs[1]!;
    expect(old.title).toBe('Add numbers');
    expect(old.steps.map((s) => [s.id, s.title, s.status])).toEqual([
      ['a1', 'Preparation · architecture', 'done'],
      ['t1', 'adder · testing', 'failed'],
      ['g1', 'adder · debugging', 'failed'],
      ['t2', 'adder · testing (attempt 2)', 'running'],
    ]);
    // Steps this window has not seen are listed from the record; those it saw carry their session.
    expect(old.steps[0]!.session).toBeUndefined();
    // A session that finished in a step whose tests then failed shows the step's outcome.
    const [again] = groupSessions({ sessions: [session('t1', 2, { project: '/w/calc', endReason: 'complete' })], runs, project: '/w/calc' });
    expect(again!.runs[1]!.steps[1]).toMatchObject({ id: 't1', status: 'failed', session: { id: 't1' } });
    expect(old.steps[3]!.session?.id).toBe('t2');
    expect(calc!.runs[0]!.steps.map((s) => [s.title, s.status])).toEqual([['adder · review', 'failed']]);
    expect(calc!.chats.map((c) => [c.id, c.title])).toEqual([['chat1', 'Explain the adder']]);
    expect(notes!.runs.map((r) => r.steps.map((s) => s.title))).toEqual([['notes · development']]);
    expect(notes!.chats.map((c) => c.id)).toEqual(['chat-other']);
  });

  it('makes a session of an unknown run a chat, puts sessions naming no project under the open one, and leaves out runs without sessions', () => {
    const sessions = [session('orphan', 10, { project: '/w/calc' }), session('loose', 20)];
    const runs = [run('external', '/w/calc', 0, [step('prepare:architecture', 1)])];
    const [calc, ...rest] = groupSessions({ sessions, runs, project: '/w/calc' });
    expect(rest).toEqual([]);
    expect(calc!.runs).toEqual([]);
    expect(calc!.chats.map((c) => [c.id, c.status])).toEqual([['loose', 'idle'], ['orphan', 'idle']]);
    expect(calc!.chats[0]!.title).toMatch(/^Chat of /);
    // With no project open, they are grouped under their folder or as "No project"; an empty open project is still listed.
    expect(groupSessions({ sessions, runs: [] }).map((g) => g.name).sort()).toEqual(['No project', 'calc']);
    expect(groupSessions({ sessions: [], runs: [], project: '/w/empty' })).toMatchObject([{ name: 'empty', open: true, runs: [], chats: [] }]);
  });

  it('reads the open run’s live view the same way (session ids from log paths)', () => {
    const view: WorkflowRunView = {
      runId: 'live',
      projectDir: '/w/calc',
      status: 'RUNNING',
      goal: '  Build a calculator\nwith tests',
      executor: 'agent',
      approved: true,
      timeline: [
        { state: 'adder:testing', enteredAt: iso(1), leftAt: iso(2), outcome: 'tests-failed', sessionLog: '/h/sessions/x1.jsonl' },
        { state: 'adder:testing', enteredAt: iso(3), sessionLog: '/h/sessions/x2.jsonl' },
        { state: 'adder:commit', enteredAt: iso(4) },
      ],
      totals: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
      createdAt: iso(0),
      updatedAt: iso(4),
    };
    const rec = runStepsOfView(view);
    expect(rec.goal).toBe('Build a calculator');
    expect(rec.steps.map((s) => s.sessionId)).toEqual(['x1', 'x2', undefined]);
    const [g] = groupSessions({ sessions: [], runs: [rec], project: '/w/calc' });
    expect(g!.runs[0]!.steps.map((s) => [s.title, s.status])).toEqual([['adder · testing', 'failed'], ['adder · testing (attempt 2)', 'running']]);
  });

  it('lists the chats of earlier windows from the logs, newest first, never a step\'s session or one this window knows', () => {
    const runs = [run('r1', '/p/a', 0, [step('a:development', 1, 's-step')])];
    const logged = [
      { sessionId: 's-chat-old', project: '/p/a', task: 'Explain the parser', startedAt: T0 + 5 * 60_000, modified: 0 },
      { sessionId: 's-step', project: '/p/a', task: '# Step of the development protocol', startedAt: T0, modified: 0 },
      { sessionId: 's-orphan-step', project: '/p/a', task: '# Step of the testing protocol (the protocol is in your system prompt)', startedAt: T0, modified: 0 },
      { sessionId: 's-live', project: '/p/a', task: 'Live one', startedAt: T0, modified: 0 },
      { sessionId: 's-untitled', project: '/p/a', startedAt: T0 + 20 * 60_000, modified: 0 },
    ];
    const [a] = groupSessions({ sessions: [session('s-live', 30, { project: '/p/a' })], runs, project: '/p/a', logged });
    expect(a!.chats.map((c) => c.id)).toEqual(['s-live', 's-untitled', 's-chat-old']);
    expect(a!.chats[1]!.title).toMatch(/^Chat of /);
    expect(a!.chats[2]!.title).toBe('Explain the parser');
    expect(a!.runs[0]!.steps.map((x) => x.id)).toEqual(['s-step']);
  });
});
