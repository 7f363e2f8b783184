import { expect, it } from 'vitest';
import { commitTitle } from './execute';

const component = (tasks: Array<[string, string]>) =>
  ({ id: 'convert', title: 'Conversion functions', testCommand: 'pytest', tasks: tasks.map(([id, title]) => ({ id, title, status: 'todo' })) }) as never;

it("names a component's one task, else its title", () => {
  expect(commitTitle(component([['C1', 'Convert Celsius (convert.py)']]))).toBe('Convert Celsius');
  expect(commitTitle(component([['C1', 'a'], ['C2', 'b']]))).toBe('Conversion functions');
});

it("names what a later goal added to a component, not the component's title again", () => {
  const c = component([['C1', 'Convert Celsius'], ['C2', 'Reject below absolute zero'], ['C3', 'Convert to and from Kelvin']]);
  expect(commitTitle(c, ['C1', 'C2'])).toBe('Convert to and from Kelvin');
  expect(commitTitle(c, ['C1'])).toBe('Conversion functions'); // two new tasks, and no goal: the component's title
  // Two new tasks of a later goal: that goal, not the title of what an earlier goal built.
  expect(commitTitle(c, ['C1'], 'Add Kelvin, and reject below absolute zero (convert.py)')).toBe('Add Kelvin, and reject below absolute zero');
  // A component new in this goal keeps its own title.
  expect(commitTitle(c, [], 'Add Kelvin')).toBe('Conversion functions');
});
