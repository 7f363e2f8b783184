import { expect, it } from 'vitest';
import { commitTitle, goalOfOnly } from './execute';
import { commitSubject } from './git';

const component = (tasks: Array<[string, string]>) =>
  ({ id: 'convert', title: 'Conversion functions', testCommand: 'pytest', tasks: tasks.map(([id, title]) => ({ id, title, status: 'todo' })) }) as never;

it("names a component's one task, else its title", () => {
  expect(commitTitle(component([['C1', 'Convert Celsius (convert.py)']]))).toBe('Convert Celsius');
  expect(commitTitle(component([['C1', 'a'], ['C2', 'b']]))).toBe('Conversion functions');
  // A call's parentheses are part of its name, not an aside.
  expect(commitTitle({ ...(component([['C1', 'a'], ['C2', 'b']]) as object), title: 'count_words(text)' } as never)).toBe('count_words(text)');
});

it('a subject that begins with a name from the code keeps its case (not "Count_words")', () => {
  const plain = { conventional: false, lowerCase: false } as never;
  expect(commitSubject(plain, 'count_words(text)')).toBe('count_words(text)');
  expect(commitSubject(plain, 'slugify() for titles')).toBe('slugify() for titles');
  expect(commitSubject(plain, 'src/cli.js reads flags')).toBe('src/cli.js reads flags');
  expect(commitSubject(plain, 'add a flag')).toBe('Add a flag');
});

it("names what a later goal added to a component, not the component's title again", () => {
  const c = component([['C1', 'Convert Celsius'], ['C2', 'Reject below absolute zero'], ['C3', 'Convert to and from Kelvin']]);
  expect(commitTitle(c, ['C1', 'C2'])).toBe('Convert to and from Kelvin');
  // Two new tasks, and no goal (the goal changes other components too): the tasks, not what an earlier goal built.
  expect(commitTitle(c, ['C1'])).toBe('Reject below absolute zero; Convert to and from Kelvin');
  // Two new tasks of a later goal: that goal, not the title of what an earlier goal built.
  expect(commitTitle(c, ['C1'], 'Add Kelvin, and reject below absolute zero (convert.py)')).toBe('Add Kelvin, and reject below absolute zero');
  // A component new in this goal keeps its own title.
  expect(commitTitle(c, [], 'Add Kelvin')).toBe('Conversion functions');
});

it("a later goal's title names a component's commit only when the goal changes that component alone", () => {
  const plan = { components: [component([['C1', 'a'], ['C2', 'b'], ['C3', 'c']]), { id: 'trunc', title: 'Truncate', tasks: [{ id: 'T1', title: 't', status: 'todo' }] }] } as never;
  // The goal adds a new component and two tasks on convert: convert's commit must not be titled after the whole goal.
  expect(goalOfOnly(plan, 'convert', ['C1'], 'Add a truncate module and char counts')).toBeUndefined();
  expect(goalOfOnly(plan, 'convert', ['C1', 'T1'], 'Add char counts')).toBe('Add char counts');
});
