import { describe, expect, it } from 'vitest';
import { parseTaskList, parseTaskListOrThrow, setTaskStatus } from './task-list';
import { WorkflowError } from './errors';

const good = `# Task list

## Component: adder — adds numbers
Test: node --test test/
Adds two numbers.
- [ ] T1: Implement add
- [x] T2: Export it

## Component: cli
- [~] C1: Print the sum
`;

describe('task list', () => {
  it('parses components, tasks, statuses and test commands', () => {
    const r = parseTaskList(good);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.list.components.map((c) => c.id)).toEqual(['adder', 'cli']);
    expect(r.list.components[0]).toMatchObject({ title: 'adds numbers', testCommand: 'node --test test/', description: 'Adds two numbers.' });
    expect(r.list.components[0]!.tasks.map((t) => [t.id, t.status, t.line])).toEqual([
      ['T1', 'todo', 6],
      ['T2', 'done', 7],
    ]);
    expect(r.list.components[1]!.tasks[0]!.status).toBe('in_progress');
  });

  it('reports every problem with its line, never guessing', () => {
    const bad = `## Component: a b c
- [ ] T1: ok
- [?] T2: weird
- [] T3 missing colon
## Tasks
## Component: empty
## Component: adder
- [ ] T1: duplicate id
`;
    const r = parseTaskList(bad);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    const lines = r.issues.map((i) => i.line);
    expect(lines).toEqual(expect.arrayContaining([1, 3, 4, 5, 6, 8]));
    expect(r.issues.find((i) => i.line === 8)!.message).toMatch(/T1 is already used on line 2/);
    expect(r.issues.find((i) => i.line === 6)!.message).toMatch(/no tasks/);
  });

  it("refuses the ids the workflow's own steps use (final, orchestration), in any case", () => {
    const r = parseTaskList('## Component: Final — the last part\n- [ ] F1: x\n\n## Component: orchestration\n- [ ] O1: y\n');
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.issues).toEqual([
      { line: 1, message: 'component id "Final": is reserved for the workflow\'s own steps (final:…, orchestration:…); choose another id' },
      { line: 4, message: 'component id "orchestration": is reserved for the workflow\'s own steps (final:…, orchestration:…); choose another id' },
    ]);
    expect(parseTaskList('## Component: finalize\n- [ ] F1: x\n').ok).toBe(true);
  });

  it('throws a PARSE_ERROR naming the file', () => {
    expect(() => parseTaskListOrThrow('just prose', '/x/task_list.md')).toThrowError(WorkflowError);
    try {
      parseTaskListOrThrow('just prose', '/x/task_list.md');
    } catch (e) {
      expect((e as WorkflowError).kind).toBe('PARSE_ERROR');
      expect((e as Error).message).toContain('/x/task_list.md');
    }
  });

  it('updates status marks in place', () => {
    const out = setTaskStatus(good, ['T1'], 'done');
    expect(out).toContain('- [x] T1: Implement add');
    expect(out.replace('- [x] T1', '- [ ] T1')).toBe(good);
  });
});
