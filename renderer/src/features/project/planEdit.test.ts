import { describe, expect, it } from 'vitest';
import type { WorkflowPlan } from '../../../../electron/contract/index';
import { applyDraft, draftOf, isEdited, move, setFinalTest, setTaskTitle, toggle } from './planEdit';

const plan: WorkflowPlan = {
  maxDebugAttempts: 3,
  components: ['a', 'b', 'c'].map((id) => ({ id, title: id.toUpperCase(), tasks: [] })),
};

describe('plan edits', () => {
  it('reorders and leaves out components, and says when it was edited', () => {
    let d = draftOf(plan);
    expect(isEdited(plan, d)).toBe(false);
    d = move(d, 'c', -1);
    expect(d.order).toEqual(['a', 'c', 'b']);
    expect(move(d, 'a', -1)).toBe(d); // already first
    d = toggle(d, 'a');
    expect(isEdited(plan, d)).toBe(true);
    const r = applyDraft(plan, d);
    expect('plan' in r && r.plan.components.map((c) => c.id)).toEqual(['c', 'b']);
    expect(toggle(d, 'a').excluded.has('a')).toBe(false);
  });
  it('edits the final gate\'s command: shown as planned, sent when changed', () => {
    const withGate = { ...plan, finalTestCommand: 'npm test --silent' };
    let d = draftOf(withGate);
    expect(d.finalTest).toBe('npm test --silent');
    expect(isEdited(withGate, setFinalTest(d, ' npm test --silent '))).toBe(false);
    d = setFinalTest(d, 'npm test --silent && pytest');
    expect(isEdited(withGate, d)).toBe(true);
    const r = applyDraft(withGate, d);
    expect('plan' in r && r.plan.finalTestCommand).toBe('npm test --silent && pytest');
  });
  it('refuses an empty plan with a clear message', () => {
    let d = draftOf(plan);
    for (const id of ['a', 'b', 'c']) d = toggle(d, id);
    expect(applyDraft(plan, d)).toEqual({ error: expect.stringContaining('at least one component') });
  });

  it('edits one task\'s title in the task list, keeping its status and the rest as written', () => {
    const list = '# Task list\n\n## Component: a — A\nTest: true\n- [x] A1: Old one\n- [ ] A10: Keep me\n';
    // Spaces inside the title stay as written (`"a b  c"` means what it says); a line break becomes a space.
    expect(setTaskTitle(list, 'A1', '  New `title`  $1 ')).toEqual({ text: '# Task list\n\n## Component: a — A\nTest: true\n- [x] A1: New `title`  $1\n- [ ] A10: Keep me\n' });
    expect(setTaskTitle(list, 'A1', 'two\n lines')).toEqual({ text: '# Task list\n\n## Component: a — A\nTest: true\n- [x] A1: two lines\n- [ ] A10: Keep me\n' });
    expect(setTaskTitle(list, 'A2', 'x')).toEqual({ error: 'Task A2 is not in the task list as saved; reload the documents.' });
    expect(setTaskTitle(list, 'A1', '  ')).toEqual({ error: 'A task needs a title.' });
  });
});
