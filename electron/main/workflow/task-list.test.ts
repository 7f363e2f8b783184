import { describe, expect, it } from 'vitest';
import { goalUpdateIssues, parseTaskList, parseTaskListOrThrow, resolvedDepends, setTaskStatus, syncComponentHeading, syncTaskLines } from './task-list';
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

  it('reads Depends: lines; without one a component depends on the one before it', () => {
    const r = parseTaskList(`## Component: core\nDepends: none\n- [ ] A1: a\n\n## Component: cli\nDepends: Core, api\n- [ ] B1: b\n\n## Component: api\nDepends: none\n- [ ] C1: c\n\n## Component: docs\n- [ ] D1: d\n`);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.list.components.map((c) => c.depends)).toEqual([[], ['Core', 'api'], [], undefined]);
    expect([...resolvedDepends(r.list.components)]).toEqual([['core', []], ['cli', ['core', 'api']], ['api', []], ['docs', ['api']]]);
  });

  it('reports unknown, self and circular dependencies with their lines', () => {
    const bad = (text: string) => {
      const r = parseTaskList(text);
      return r.ok ? [] : r.issues;
    };
    expect(bad(`## Component: a\nDepends: nope\n- [ ] A1: a\n`)).toEqual([{ line: 2, message: 'component a depends on "nope", which is not a component of this list (components: a)' }]);
    expect(bad(`## Component: a\nDepends: a\n- [ ] A1: a\n`)).toEqual([{ line: 2, message: 'component a cannot depend on itself' }]);
    expect(bad(`## Component: a\nDepends: b\n- [ ] A1: a\n## Component: b\n- [ ] B1: b\n`)).toEqual([
      { line: 2, message: 'the Depends: lines go round in a circle (a → b → a): a component cannot wait for itself' },
    ]);
    expect(bad(`## Component: a\nDepends: none\nDepends: none\n- [ ] A1: a\n`)).toEqual([{ line: 3, message: 'component a has a second Depends: line' }]);
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
      { line: 1, message: 'component id "Final": is reserved for the workflow\'s own steps (final:…, orchestration:…, parallel:…); choose another id' },
      { line: 4, message: 'component id "orchestration": is reserved for the workflow\'s own steps (final:…, orchestration:…, parallel:…); choose another id' },
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

  it('a new goal keeps every finished task done and adds an open one', () => {
    const list = (text: string) => {
      const r = parseTaskList(text);
      if (!r.ok) throw new Error('bad list');
      return r.list;
    };
    const kept = list('## Component: a\n- [x] A1: one\n\n## Component: b\n- [ ] B1: two\n');
    expect(goalUpdateIssues(['A1'], kept)).toEqual([]);
    expect(goalUpdateIssues(['A1', 'A2'], kept)).toEqual([{ message: 'task A2 was finished and is missing: keep every finished task, marked [x]' }]);
    expect(goalUpdateIssues(['A1'], list('## Component: a\n- [ ] A1: one\n'))).toEqual([
      { line: 2, message: 'task A1 is finished: keep it marked [x] (give new work a new task id)' },
    ]);
    expect(goalUpdateIssues(['A1'], list('## Component: a\n- [x] A1: one\n'))).toEqual([
      { message: 'the list has no open task ("- [ ] ID: title"): add the components or tasks the new goal needs' },
    ]);
  });

  it("a component's document takes the task list's marks, and tasks a later goal added", () => {
    const tasks = [
      { id: 'T1', title: 'first', status: 'done' as const },
      { id: 'T2', title: 'second', status: 'todo' as const },
    ];
    expect(syncTaskLines('# C\n\n## Tasks\n- [ ] T1: first\n\n## Notes\n- kept\n', tasks)).toBe('# C\n\n## Tasks\n- [x] T1: first\n- [ ] T2: second\n\n## Notes\n- kept\n');
    expect(syncTaskLines('# C\n\n## Tasks\n\n## Notes\n', tasks)).toBe('# C\n\n## Tasks\n- [x] T1: first\n- [ ] T2: second\n\n## Notes\n');
    // A document the model handed back without its task lines gets them again, at the end.
    expect(syncTaskLines('# C\n\n## Notes\n- built\n', tasks)).toBe('# C\n\n## Notes\n- built\n\n## Tasks\n- [x] T1: first\n- [ ] T2: second\n');
  });

  it("a component's document takes the title the task list gives it now (a later goal retitled it); another heading is left alone", () => {
    const doc = '# Component: cli — the --top N option\n\n## Tasks\n- [x] CLI-1: top\n\n## Notes\n- built\n';
    expect(syncComponentHeading(doc, { id: 'cli', title: 'the --top N and --json options' })).toBe('# Component: cli — the --top N and --json options\n\n## Tasks\n- [x] CLI-1: top\n\n## Notes\n- built\n');
    expect(syncComponentHeading(doc, { id: 'cli', title: '' })).toBe('# Component: cli\n\n## Tasks\n- [x] CLI-1: top\n\n## Notes\n- built\n');
    expect(syncComponentHeading('# Component: cli\n', { id: 'cli', title: 'the options' })).toBe('# Component: cli — the options\n');
    expect(syncComponentHeading(doc, { id: 'cli', title: 'the --top N option' })).toBe(doc);
    // Another component's heading, or one in the model's own words, stays.
    expect(syncComponentHeading(doc, { id: 'core', title: 'counting' })).toBe(doc);
    expect(syncComponentHeading('# The cli component\n\n## Notes\n', { id: 'cli', title: 'x' })).toBe('# The cli component\n\n## Notes\n');
  });
});
