import { expect, it } from 'vitest';
import { commitTitle, goalOfOnly } from './execute';
import { asChange } from './commit-phrase';
import { commitSubject } from './git';

const component = (tasks: Array<[string, string]>) =>
  ({ id: 'convert', title: 'Conversion functions', testCommand: 'pytest', tasks: tasks.map(([id, title]) => ({ id, title, status: 'todo' })) }) as never;

it("names a component's one task, else its title", () => {
  expect(commitTitle(component([['C1', 'Convert Celsius (convert.py)']]))).toBe('Convert Celsius');
  // The component's title is a label: its commit adds what it names.
  expect(commitTitle(component([['C1', 'a'], ['C2', 'b']]))).toBe('add conversion functions');
  // A call's parentheses are part of its name, not an aside.
  expect(commitTitle({ ...(component([['C1', 'a'], ['C2', 'b']]) as object), title: 'count_words(text)' } as never)).toBe('add count_words(text)');
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
  expect(commitTitle(c, [], 'Add Kelvin')).toBe('add conversion functions');
});

it("a later goal's title names a component's commit only when the goal changes that component alone", () => {
  const plan = { components: [component([['C1', 'a'], ['C2', 'b'], ['C3', 'c']]), { id: 'trunc', title: 'Truncate', tasks: [{ id: 'T1', title: 't', status: 'todo' }] }] } as never;
  // The goal adds a new component and two tasks on convert: convert's commit must not be titled after the whole goal.
  expect(goalOfOnly(plan, 'convert', ['C1'], 'Add a truncate module and char counts')).toBeUndefined();
  expect(goalOfOnly(plan, 'convert', ['C1', 'T1'], 'Add char counts')).toBe('Add char counts');
});

it("a component's commit says what it changes, not what is true once it is made (a task list states behaviours)", () => {
  const slug = (tasks: Array<[string, string]>, title = 'Slug helpers') => ({ id: 'slugify', title, testCommand: 'pytest', tasks: tasks.map(([id, t]) => ({ id, title: t, status: 'todo' })) }) as never;
  // A behaviour of the component's code: made true, or the new code added with it.
  expect(commitTitle(slug([['S1', 'slugify strips accents']]))).toBe('make slugify strip accents');
  expect(commitTitle(slug([['S1', 'slugify strips accents']]), [], undefined, true)).toBe('add slugify, which strips accents');
  // A behaviour stated without its subject: the component's.
  expect(commitTitle(slug([['S1', 'a'], ['S2', 'b']], 'adds two numbers'), [], undefined, true)).toBe('add slugify, which adds two numbers');
  expect(commitTitle(slug([['S1', 'Returns an empty string for empty input']]))).toBe('make slugify return an empty string for empty input');
  // A behaviour of something else; tasks already phrased as a change stay as they are.
  expect(commitTitle(slug([['S1', 'Empty input returns an empty string']]))).toBe('make empty input return an empty string');
  expect(commitTitle(slug([['S1', 'Handle empty input']]))).toBe('Handle empty input');
  expect(commitTitle(slug([['S1', 'Dedupe the dashes']]))).toBe('Dedupe the dashes');
  expect(commitTitle(slug([['S1', 'Process input files']]))).toBe('Process input files');
  // Several new tasks of a later goal: each as a change.
  expect(commitTitle(slug([['S1', 'x'], ['S2', 'slugify lowercases the text'], ['S3', 'slugify matches ASCII only']]), ['S1'])).toBe('make slugify lowercase the text; make slugify match ASCII only');
  // Labels get what adds them; plural nouns before a link are not verbs.
  expect(asChange('Unit conversions for temperatures', { name: 'convert', added: true })).toBe('add unit conversions for temperatures');
  expect(asChange('Tests for slugify', { name: 'convert', added: true })).toBe('add tests for slugify');
  expect(asChange('JSON output for the textstats command', { name: 'textstats', added: false })).toBe('add JSON output for the textstats command');
  expect(asChange('Dates parse ISO strings', { name: 'dates', added: false })).toBe('make dates parse ISO strings');
  expect(asChange('The CLI prints counts as JSON', { name: 'cli', added: false })).toBe('make the CLI print counts as JSON');
  expect(asChange('Status command passes flags through', { name: 'cli', added: false })).toBe('make status command pass flags through');
  // In the repository's style, the subject starts with the change.
  expect(commitSubject({ conventional: false, lowerCase: false }, commitTitle(slug([['S1', 'slugify strips accents']])), 'feat', ['slugify'])).toBe('Make slugify strip accents');
});
