import { describe, expect, it } from 'vitest';
import { currentState, startWorkflowActor } from './machine';
import type { Plan } from './plan';

const plan: Plan = {
  components: [
    { id: 'a', title: 'A', testCommand: 'true', tasks: [{ id: 'T1', title: 'x', status: 'todo' }] },
    { id: 'b', title: 'B', tasks: [{ id: 'T2', title: 'y', status: 'todo' }] },
  ],
  defaultTestCommand: 'npm test',
  maxDebugAttempts: 2,
};

describe('workflow machine', () => {
  it('walks development → testing → debugging → review → … → commit → orchestration → next → final', () => {
    const actor = startWorkflowActor(plan);
    const seen = [currentState(actor)];
    const send = (e: Parameters<typeof actor.send>[0]) => {
      actor.send(e);
      seen.push(currentState(actor));
    };
    send({ type: 'STEP_DONE' }); // development → testing
    send({ type: 'STEP_DONE', testsPassed: false }); // → debugging
    send({ type: 'STEP_DONE', testsPassed: true }); // → review
    for (let i = 0; i < 4; i++) send({ type: 'STEP_DONE', testsPassed: true }); // fixes, documentation, retesting, commit
    send({ type: 'STEP_DONE' }); // → orchestration:a
    send({ type: 'STEP_DONE' }); // → b:development
    expect(seen).toEqual([
      'a:development', 'a:testing', 'a:debugging', 'a:review', 'a:fixes', 'a:documentation', 'a:retesting', 'a:commit', 'orchestration:a', 'b:development',
    ]);
    for (let i = 0; i < 7; i++) actor.send({ type: 'STEP_DONE', testsPassed: true });
    // The orchestrator runs after the last component too, and the final phase ends in a commit.
    expect(currentState(actor)).toBe('orchestration:b');
    actor.send({ type: 'STEP_DONE' });
    expect(currentState(actor)).toBe('final:testing');
    for (let i = 0; i < 3; i++) actor.send({ type: 'STEP_DONE', testsPassed: true });
    // The final review is acted on: its fixes step, whose end-to-end gate failing leads to a bounded debugging.
    expect(currentState(actor)).toBe('final:fixes');
    actor.send({ type: 'STEP_DONE', testsPassed: false });
    expect(currentState(actor)).toBe('final:redebugging');
    actor.send({ type: 'STEP_DONE', testsPassed: true });
    expect(currentState(actor)).toBe('final:commit');
    actor.send({ type: 'STEP_DONE' });
    expect(actor.getSnapshot().status).toBe('done');
  });

  it('blocks after the bounded debugging attempts; RETRY resets, SKIP moves on', () => {
    const actor = startWorkflowActor(plan);
    actor.send({ type: 'STEP_DONE' });
    actor.send({ type: 'STEP_DONE', testsPassed: false });
    actor.send({ type: 'STEP_DONE', testsPassed: false });
    expect(currentState(actor)).toBe('a:debugging');
    expect(actor.getSnapshot().context.blocked).toBeNull();
    actor.send({ type: 'STEP_DONE', testsPassed: false });
    expect(actor.getSnapshot().context.blocked).toMatch(/after 2 debugging attempt/);
    actor.send({ type: 'RETRY' });
    expect(actor.getSnapshot().context).toMatchObject({ blocked: null, attempts: { 'a:debugging': 0 } });
    actor.send({ type: 'SKIP' });
    expect(currentState(actor)).toBe('a:review');
  });

  it('restores from a persisted snapshot', () => {
    const a = startWorkflowActor(plan);
    a.send({ type: 'STEP_DONE' });
    a.send({ type: 'STEP_DONE', testsPassed: false });
    const persisted = JSON.parse(JSON.stringify(a.getPersistedSnapshot()));
    a.stop();
    const b = startWorkflowActor(plan, persisted);
    expect(currentState(b)).toBe('a:debugging');
    b.send({ type: 'STEP_DONE', testsPassed: true });
    expect(currentState(b)).toBe('a:review');
  });
});
