import { describe, expect, it } from 'vitest';
import type { WorkflowRunView, WorkflowTimelineEntry } from '../../../../electron/contract/index';
import { layout } from './lanes';
import { machineOf } from './machine';

const t = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s)).toISOString();
const e = (state: string, from: number, to?: number, outcome?: WorkflowTimelineEntry['outcome'], component?: string): WorkflowTimelineEntry => ({
  state,
  component,
  enteredAt: t(from),
  ...(to !== undefined ? { leftAt: t(to), durationMs: (to - from) * 1000 } : {}),
  ...(outcome ? { outcome } : {}),
});
const plan: WorkflowRunView['plan'] = {
  components: [
    { id: 'adder', title: 'adds', tasks: [] },
    { id: 'cli', title: 'command line', tasks: [] },
  ],
  maxDebugAttempts: 3,
};

describe('the plan as a state machine', () => {
  it('has a row per component between preparation and the final phase, each protocol state a cell, the current one alive', () => {
    const view = {
      plan,
      state: 'adder:debugging',
      status: 'RUNNING' as const,
      timeline: [
        e('prepare:architecture', 0, 1, 'written'),
        e('prepare:progress_schedule', 1, 2, 'written'),
        e('prepare:task_list', 2, 3, 'written'),
        e('adder:development', 4, 5, 'done', 'adder'),
        e('adder:testing', 5, 6, 'tests-failed', 'adder'),
        e('adder:debugging', 6, 7, 'tests-failed', 'adder'),
        e('adder:debugging', 7, undefined, undefined, 'adder'),
      ],
    };
    const rows = machineOf(view, layout(view, Date.parse(t(10))));
    expect(rows.map((r) => r.id)).toEqual(['prepare', 'adder', 'cli', 'final']);
    const adder = Object.fromEntries(rows[1]!.cells.map((c) => [c.state, `${c.status}/${c.runs}`]));
    expect(adder).toMatchObject({ 'adder:development': 'done/1', 'adder:testing': 'failed/1', 'adder:debugging': 'current/2', 'adder:review': 'pending/0', 'orchestration:adder': 'pending/0' });
    expect(rows[2]!.cells.every((c) => c.status === 'pending')).toBe(true);
    expect(rows[3]!.cells.map((c) => c.state)).toEqual(['final:testing', 'final:debugging', 'final:documentation', 'final:review', 'final:fixes', 'final:redebugging', 'final:commit']);
    // The latest run of a state is the one its cell opens.
    expect(rows[1]!.cells.find((c) => c.step === 'debugging')!.last!.attempt).toBe(2);
  });
  it('shows the plan review as the current state while the plan waits, and nothing alive once stopped', () => {
    const waiting = { plan, state: 'prepare:plan', status: 'AWAITING_APPROVAL' as const, timeline: [e('prepare:task_list', 0, 1, 'written')] };
    expect(machineOf(waiting, layout(waiting, 0))[0]!.cells.find((c) => c.step === 'plan')!.status).toBe('current');
    const stopped = { ...waiting, status: 'STOPPED' as const };
    expect(machineOf(stopped, layout(stopped, 0))[0]!.cells.find((c) => c.step === 'plan')!.status).toBe('pending');
  });
  it('draws a documentation run as its states only: a documentation step per drifted document, then the commit', () => {
    const view = {
      plan: { ...plan!, documents: { components: ['cli'], architecture: true } },
      state: 'final:documentation',
      status: 'RUNNING' as const,
      timeline: [e('cli:documentation', 0, 1, 'done', 'cli'), e('final:documentation', 1)],
    };
    const rows = machineOf(view, layout(view, Date.parse(t(5))));
    expect(rows.map((r) => [r.id, r.title, r.cells.map((c) => `${c.state}=${c.status}`)])).toEqual([
      ['cli', 'command line', ['cli:documentation=done']],
      ['final', 'Final phase', ['final:documentation=current', 'final:commit=pending']],
    ]);
  });
});
