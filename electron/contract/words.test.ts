import { describe, expect, it } from 'vitest';
import { humanError, humanOutcome, humanState, humanStatus, stepWords } from './words';

describe('human labels', () => {
  it('names statuses, states and errors in words', () => {
    expect(humanStatus('AWAITING_GOAL')).toBe('Waiting for your goal');
    expect(humanState('prepare:architecture')).toBe('Preparation · architecture');
    expect(humanState('prepare:progress_schedule')).toBe('Preparation · schedule');
    expect(humanState('parallel:components')).toBe('Components side by side');
    expect(humanState('core:merge')).toBe('core · merge into the run\'s branch');
    expect(humanState('adder:testing')).toBe('adder · testing');
    expect(humanState('final:review')).toBe('Final · review');
    expect(humanState('orchestration:adder')).toBe('Schedule update · after adder');
    expect(humanStatus('RUNNING', true)).toBe('Interrupted — nothing is driving it');
    expect(humanStatus('ABANDONED')).toBe('Abandoned for a newer goal');
    expect(humanError({ kind: 'RUNTIME_ERROR', message: '429 retry in 20 s' })).toBe('A step failed: 429 retry in 20 s');
  });

  it('has no internal name left: the schedule update between components, outcomes, the machine\'s end', () => {
    expect(humanState('orchestration:adder')).toBe('Schedule update · after adder');
    expect(humanState('adder:fixes')).toBe('adder · review fixes');
    expect(humanState('prepare:task_list')).toBe('Preparation · task list');
    expect(humanState('completed')).toBe('all steps done');
    expect(stepWords('progress_schedule')).toBe('schedule');
    expect(humanOutcome('tests-failed')).toBe('tests failed');
    expect(humanOutcome('nothing-to-commit')).toBe('nothing to commit');
    for (const s of ['prepare:progress_schedule', 'prepare:task_list', 'orchestration:x', 'final:fixes', 'a:redebugging']) expect(humanState(s)).not.toMatch(/\w:\w|_/);
  });
});
