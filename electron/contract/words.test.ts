import { describe, expect, it } from 'vitest';
import { humanError, humanState, humanStatus } from './words';

describe('human labels', () => {
  it('names statuses, states and errors in words', () => {
    expect(humanStatus('AWAITING_GOAL')).toBe('Waiting for your goal');
    expect(humanState('prepare:architecture')).toBe('Preparation · architecture');
    expect(humanState('prepare:progress_schedule')).toBe('Preparation · schedule');
    expect(humanState('adder:testing')).toBe('adder · testing');
    expect(humanState('final:review')).toBe('Final · review');
    expect(humanState('orchestration:adder')).toBe('adder · schedule update');
    expect(humanStatus('RUNNING', true)).toBe('Interrupted — nothing is driving it');
    expect(humanStatus('ABANDONED')).toBe('Abandoned for a newer goal');
    expect(humanError({ kind: 'RUNTIME_ERROR', message: '429 retry in 20 s' })).toBe('A step failed: 429 retry in 20 s');
  });
});
