import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { WorkflowTask } from '../../contract/index';
import { Paths } from '../paths/index';
import { WorkflowEngine } from './engine';
import { goodAnswer } from './testing-repo';
import { entryLine } from '../../cli/commands/workflow-print';

/** Issue 23: done means verified, every task traced to tests Erasmus ran (node --test's own JUnit report) and to its commit. */
const TASKS = `# Task list

## Component: words — text utilities
Test: node --test test/words.test.js
- [ ] W-1: Lowercase words
- [ ] W-2: Split on spaces

## Component: count — counting
Test: node --test test/count.test.js
- [ ] C-1: Count words
`;

const FILES: Record<string, Record<string, string>> = {
  'words:development': {
    'package.json': JSON.stringify({ type: 'module', scripts: { test: 'node --test' } }),
    'src/words.js': "export const lower = (s) => s.toLowerCase();\nexport const split = (s) => s.split(' ').filter(Boolean);\n",
  },
  'words:testing': {
    'test/words.test.js': `import { test, describe } from 'node:test';
import assert from 'node:assert';
import { lower, split } from '../src/words.js';
describe('W-1: lowercases words', () => { test('keeps digits', () => assert.equal(lower('A1'), 'a1')); });
test('W-2: splits on spaces', () => assert.deepEqual(split('a  b'), ['a', 'b']));
`,
  },
  'count:development': { 'src/count.js': "import { split } from './words.js';\nexport const count = (s) => split(s).length;\n" },
  'count:testing': {
    'test/count.test.js': `import { test } from 'node:test';
import assert from 'node:assert';
import { count } from '../src/count.js';
test('C-1: counts words', () => assert.equal(count('a b c'), 3));
`,
  },
  // The end-to-end tests go in a new file that no component's command runs: only the whole suite does.
  'final:testing': {
    'test/e2e.test.js': `import { test } from 'node:test';
import assert from 'node:assert';
import { count } from '../src/count.js';
test('end to end: counts a sentence', () => assert.equal(count('The Quick  Brown fox'), 4));
`,
  },
};

const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();

let root: string | undefined;
const engines: WorkflowEngine[] = [];
afterEach(async () => {
  for (const e of engines.splice(0)) await e.dispose();
  if (root) await rm(root, { recursive: true, force: true });
  root = undefined;
});

async function setup(): Promise<{ dir: string; e: WorkflowEngine; runId: string }> {
  root = await mkdtemp(join(tmpdir(), 'erasmus-verified-'));
  const dir = join(root, 'project');
  await mkdir(dir, { recursive: true });
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: dir });
  const e = new WorkflowEngine({ paths: new Paths(join(root, 'home')), emit: () => undefined });
  engines.push(e);
  const { runId } = await e.load({ projectDir: dir, goal: 'word tools' });
  return { dir, e, runId };
}

/** The model: writes each step's files; `files` overrides what a state writes. */
async function answer(e: WorkflowEngine, runId: string, task: WorkflowTask, files = FILES): Promise<void> {
  if (task.status !== 'AWAITING_COGNITIVE_RESULT') throw new Error(`expected a step, got ${task.status}`);
  const { step } = task;
  for (const [path, text] of Object.entries(files[step.state] ?? {})) {
    await mkdir(dirname(join(step.projectDir, path)), { recursive: true });
    await writeFile(join(step.projectDir, path), text);
  }
  const out = step.state === 'prepare:task_list' ? TASKS : step.state.endsWith(':review') ? 'Verdict: no changes needed' : `${step.state} done`;
  await e.submitTask(runId, goodAnswer(step, out));
}

describe('done means verified', () => {
  it('a run whose tests name every task: the report lists each task with its passing tests and its commit; the final gate runs the whole suite', async () => {
    const { dir, e, runId } = await setup();
    const prompts = new Map<string, string>();
    let task = await e.getTask(runId);
    for (; task.status !== 'COMPLETED'; task = await e.getTask(runId)) {
      if (task.status === 'AWAITING_APPROVAL') {
        // The plan shows the final gate's command: no package.json yet, and both components run node's runner, so
        // node --test run bare (it finds every test file, an end-to-end one added at the end too).
        expect(task.plan.finalTestCommand).toBe('node --test');
        await e.approve(runId);
        continue;
      }
      if (task.status === 'AWAITING_COGNITIVE_RESULT') prompts.set(task.step.state, task.prompt);
      await answer(e, runId, task);
    }
    // The testing steps are taught the convention.
    expect(prompts.get('words:testing')).toContain("begins with the task's id, for example `CORE-1: lowercases words`");
    // The final gate is the project's whole suite as it is when the gate runs (package.json came during development), then each
    // component's command it does not already run (none here: a bare `node --test` finds test/*.test.js); its prompt names it.
    const view = await e.status(runId);
    const final = view.timeline.find((x) => x.state === 'final:testing')!;
    expect(final.test!.command).toBe('npm test --silent');
    expect(prompts.get('final:testing')).toContain('Erasmus runs `npm test --silent` in your working directory (where your tools work)');
    // ...and it ran the end-to-end file the final testing step added, which no component command runs.
    expect(final.test).toMatchObject({ passed: true, traced: true });
    expect(final.test!.tests).toContainEqual(expect.objectContaining({ name: 'end to end: counts a sentence', passed: true }));

    const report = await e.report(runId);
    // Each commit the run made, by the state that made it (its subject follows the repository's style).
    const commits = execFileSync('git', ['log', '--format=%H'], { cwd: dir, encoding: 'utf8' }).trim().split('\n');
    const shaOf = (lane: string) => {
      const sha = view.timeline.find((x) => x.state === `${lane}:commit` && x.commit)!.commit!;
      expect(commits).toContain(sha);
      return sha;
    };
    expect(report).toMatchObject({ goal: 'word tools', verified: true, status: 'COMPLETED', untraced: [] });
    expect(report.tasks).toEqual([
      { id: 'W-1', component: 'words', title: 'Lowercase words', tests: [{ name: 'W-1: lowercases words > keeps digits', file: null, passed: true }], commit: shaOf('words') },
      { id: 'W-2', component: 'words', title: 'Split on spaces', tests: [{ name: 'W-2: splits on spaces', file: null, passed: true }], commit: shaOf('words') },
      { id: 'C-1', component: 'count', title: 'Count words', tests: [{ name: 'C-1: counts words', file: null, passed: true }], commit: shaOf('count') },
    ]);
    // The reports Erasmus read are not left in the project, and nothing of them was committed.
    expect(execFileSync('git', ['status', '--porcelain'], { cwd: dir, encoding: 'utf8' })).toBe('');

    // Documents record the commit they describe; drift lists those whose subject changed since.
    const wordsDoc = await e.readDoc(dir, { doc: 'component', component: 'words' });
    expect(wordsDoc.text.trimEnd().split('\n').at(-1)).toBe(`<!-- erasmus: describes commit ${shaOf('words')} -->`);
    expect(await e.drift(dir)).toEqual([]);
    await writeFile(join(dir, 'src', 'words.js'), "export const lower = (s) => s.toLocaleLowerCase();\nexport const split = (s) => s.split(/\\s+/);\n");
    expect(await e.drift(dir)).toEqual([]); // uncommitted: the user's edit, not yet what the documents describe
    git(dir, 'commit', '-qam', 'words: split on any whitespace');
    const userCommit = git(dir, 'rev-parse', 'HEAD');
    const drifted = await e.drift(dir);
    expect(drifted).toEqual([
      expect.objectContaining({ doc: 'architecture', commit: shaOf('final'), changed: ['src/words.js'] }),
      expect.objectContaining({ doc: 'component', component: 'words', commit: shaOf('words'), changed: ['src/words.js'], path: wordsDoc.path }),
    ]); // count's document describes files that did not change

    // The documentation run brings exactly those documents up to date: one documentation step each, no plan review, no task list check.
    const docsRun = (await e.load({ projectDir: dir, documents: 'drifted' })).runId;
    const steps: string[] = [];
    for (task = await e.getTask(docsRun); task.status === 'AWAITING_COGNITIVE_RESULT'; task = await e.getTask(docsRun)) {
      steps.push(task.step.state);
      expect(task.prompt).toContain('## Changed since the document was written');
      expect(task.prompt).toContain('- src/words.js');
      expect(task.prompt).toContain('+export const split = (s) => s.split(/\\s+/);'); // the diff since the document's commit
      if (task.step.state === 'words:documentation') {
        expect(task.prompt).toContain(`The code of this component changed since its document (your context document) was written at commit ${shaOf('words').slice(0, 12)}`);
        await writeFile(join(dir, 'README.md'), '# words\n\nWords are split on any whitespace.\n');
        await e.submitTask(docsRun, { output: 'documented', done: true, contextDoc: '# words\n\nSplits on any whitespace (src/words.js).\n' });
      } else {
        expect(task.prompt).toContain('The project changed since its architecture (your context document) was written');
        await e.submitTask(docsRun, { output: 'documented', done: true, contextDoc: '# Architecture\n\nwords splits on any whitespace; count counts.\n' });
      }
    }
    expect(steps).toEqual(['words:documentation', 'final:documentation']);
    expect(task.status).toBe('COMPLETED');
    expect(await e.report(docsRun)).toMatchObject({ documentation: true, tasks: [], verified: false }); // nothing developed: nothing to verify
    // What the steps wrote is committed on the branch checked out, and each document now describes that commit.
    const docsCommit = git(dir, 'rev-parse', 'HEAD');
    expect(git(dir, 'log', '-1', '--format=%s%n%P')).toBe(`Update the documentation\n${userCommit}`); // in the log's style (the user's subject is not Conventional)
    expect(git(dir, 'show', '--name-only', '--format=', 'HEAD')).toBe('README.md');
    expect((await e.readDoc(dir, { doc: 'component', component: 'words' })).text).toBe(`# words\n\nSplits on any whitespace (src/words.js).\n\n<!-- erasmus: describes commit ${docsCommit}, files of commit ${shaOf('words')} -->\n`);
    expect((await e.readDoc(dir, { doc: 'architecture' })).text).toContain(`words splits on any whitespace; count counts.\n\n<!-- erasmus: describes commit ${docsCommit} -->`);
    expect(await e.drift(dir)).toEqual([]);
    // The component's document keeps its subject (its component's files), not the documentation commit's.
    await writeFile(join(dir, 'src', 'words.js'), "export const lower = (s) => s.toLowerCase();\nexport const split = (s) => s.split(' ');\n");
    git(dir, 'commit', '-qam', 'words: split on single spaces again');
    expect((await e.drift(dir)).map((d) => [d.doc, d.component, d.commit, d.changed])).toEqual([
      ['architecture', undefined, docsCommit, ['src/words.js']],
      ['component', 'words', docsCommit, ['src/words.js']],
    ]);
    // A documentation run whose steps change no file of the project commits nothing: the documents then describe HEAD.
    const again = (await e.load({ projectDir: dir, documents: 'drifted' })).runId;
    for (task = await e.getTask(again); task.status === 'AWAITING_COGNITIVE_RESULT'; task = await e.getTask(again)) await e.submitTask(again, goodAnswer(task.step, 'the documents still hold'));
    expect(task.status).toBe('COMPLETED');
    expect((await e.status(again)).timeline.at(-1)).toMatchObject({ state: 'final:commit', outcome: 'nothing-to-commit' });
    expect((await e.readDoc(dir, { doc: 'component', component: 'words' })).text).toMatch(new RegExp(`<!-- erasmus: describes commit ${git(dir, 'rev-parse', 'HEAD')}, files of commit ${shaOf('words')} -->\n$`));
    // Nothing drifted: a documentation run is refused, saying so.
    await expect(e.load({ projectDir: dir, documents: 'drifted' })).rejects.toThrow(/no document of .* drifted: each describes its subject as committed/);
  }, 60_000); // a whole run, then a documentation run, on a shared machine (30 s was reached under load)

  it('a task no test names: the testing step is asked again naming it, twice; then the run blocks naming it, and the component is not committed', async () => {
    const { dir, e, runId } = await setup();
    const files = { ...FILES, 'words:testing': { 'test/words.test.js': FILES['words:testing']!['test/words.test.js']!.replace("test('W-2: splits on spaces'", "test('splits on spaces'") } };
    const asked: string[] = [];
    let task = await e.getTask(runId);
    for (; task.status === 'AWAITING_COGNITIVE_RESULT' || task.status === 'AWAITING_APPROVAL'; task = await e.getTask(runId)) {
      if (task.status === 'AWAITING_APPROVAL') await e.approve(runId);
      else {
        if (task.step.state === 'words:testing') asked.push(task.prompt);
        await answer(e, runId, task, files);
      }
    }
    expect(asked).toHaveLength(3);
    expect(asked[0]).not.toContain('have no passing test');
    for (const p of asked.slice(1)) {
      expect(p).toContain('these tasks of the component have no passing test that names them, so the component cannot be committed: W-2.');
      expect(p).toContain('## Done when\n\nEach task named above has at least one passing test that names it');
      // The model sees the names the runner reported, and how many tries it has before the run stops.
      expect(p).toContain('These passing tests the test runner reported name no task: `splits on spaces`.');
    }
    expect(asked[1]).toContain('the step is asked again (once more at most), then the run stops for the user.');
    expect(asked[2]).toContain('This is the last try: if a task still has no passing test that names it when this step ends, the run stops here for the user.');
    expect(task).toMatchObject({ status: 'BLOCKED' });
    expect((await e.status(runId)).error!.message).toMatch(/^component words is not committed: task W-2 has no passing test that names it after 3 test runs of words:testing\./);
    // Both forms a name can take: with the id as written, and as Python's names can hold it.
    expect((await e.status(runId)).error!.message).toContain("begins with the task's id (`W-2: …`, or `test_W_2_…` where names cannot hold '-' or ':', as in Python).");
    const view = await e.status(runId);
    expect(view.timeline.filter((x) => x.state === 'words:testing').map((x) => x.outcome)).toEqual(['tests-untraced', 'tests-untraced', 'tests-untraced']);
    expect(execFileSync('git', ['log', '--all', '--format=%s'], { cwd: dir, encoding: 'utf8' }).trim()).toBe('');
    const report = await e.report(runId);
    expect(report.verified).toBe(false);
    expect(report.tasks.find((t) => t.id === 'W-2')).toMatchObject({ tests: [], commit: null });
    expect(report.tasks.find((t) => t.id === 'W-1')!.tests).toEqual([{ name: 'W-1: lowercases words > keeps digits', file: null, passed: true }]);

    // A test named after W-2, and retry: the step runs again and the run goes on to the review.
    await e.retry(runId);
    task = await e.getTask(runId);
    expect(task).toMatchObject({ step: { state: 'words:testing' } });
    await answer(e, runId, task); // the original files: W-2 named
    task = await e.getTask(runId);
    expect(task).toMatchObject({ step: { state: 'words:review' } });
    expect(task.status === 'AWAITING_COGNITIVE_RESULT' && task.prompt).not.toContain('No passing test names');
    await e.stop(runId);
  }, 60_000);

  it('a testing step skipped with a task no test names: the review is told to check that task by reading, and to say it is not verified', async () => {
    const { e, runId } = await setup();
    const files = { ...FILES, 'words:testing': { 'test/words.test.js': FILES['words:testing']!['test/words.test.js']!.replace("test('W-2: splits on spaces'", "test('splits on spaces'") } };
    let task = await e.getTask(runId);
    for (; task.status === 'AWAITING_COGNITIVE_RESULT' || task.status === 'AWAITING_APPROVAL'; task = await e.getTask(runId)) {
      if (task.status === 'AWAITING_APPROVAL') await e.approve(runId);
      else await answer(e, runId, task, files);
    }
    expect(task).toMatchObject({ status: 'BLOCKED' });
    await e.skip(runId);
    task = await e.getTask(runId);
    expect(task).toMatchObject({ step: { state: 'words:review' } });
    expect(task.status === 'AWAITING_COGNITIVE_RESULT' && task.prompt).toContain('No passing test names W-2 (the step that asked for such tests was skipped): check that task by reading the code, and say in the report that it is not verified by a test.');
    await e.stop(runId);
  }, 60_000);

  it('a debugging step skipped with the tests failing: the skip is recorded with what it does, and the review is told the tests fail, with their output', async () => {
    const { e, runId } = await setup();
    const files = { ...FILES, 'words:development': { ...FILES['words:development']!, 'src/words.js': "export const lower = (s) => s.toUpperCase();\nexport const split = (s) => s.split(' ').filter(Boolean);\n" } };
    let task = await e.getTask(runId);
    for (; task.status === 'AWAITING_COGNITIVE_RESULT' || task.status === 'AWAITING_APPROVAL'; task = await e.getTask(runId)) {
      if (task.status === 'AWAITING_APPROVAL') await e.approve(runId);
      else await answer(e, runId, task, files);
    }
    expect(task).toMatchObject({ status: 'BLOCKED', error: { message: expect.stringContaining('tests still fail after 3 debugging attempts') } });
    await e.skip(runId);
    const skipped = (await e.status(runId)).timeline.at(-1)!;
    expect(skipped).toMatchObject({ state: 'words:debugging', outcome: 'skipped', note: 'by the user: component words goes on to its review with its tests still failing (the review is told)' });
    task = await e.getTask(runId);
    expect(task).toMatchObject({ step: { state: 'words:review' } });
    const prompt = task.status === 'AWAITING_COGNITIVE_RESULT' ? task.prompt : '';
    expect(prompt).toContain('The user skipped words · debugging while the tests still failed (`node --test test/words.test.js` exited 1; its last output is below): they fail now. Do not report the tests as passing');
    expect(prompt).toContain('The last test run (failed): node --test test/words.test.js');
    expect(prompt).toContain("AssertionError [ERR_ASSERTION]: 'A1' == 'a1'");
    await e.stop(runId);
  }, 60_000);

  it('a final testing step that adds no test file is flagged, not read as a plain "tests passed"', async () => {
    const { e, runId } = await setup();
    const files = { ...FILES, 'final:testing': {} };
    for (let task = await e.getTask(runId); task.status === 'AWAITING_COGNITIVE_RESULT' || task.status === 'AWAITING_APPROVAL'; task = await e.getTask(runId)) {
      if (task.status === 'AWAITING_APPROVAL') await e.approve(runId);
      else await answer(e, runId, task, files);
    }
    const final = (await e.status(runId)).timeline.find((x) => x.state === 'final:testing')!;
    expect(final).toMatchObject({ outcome: 'tests-passed', note: expect.stringContaining('this step added or changed no test file: the gate ran only the tests the components wrote') });
    expect(entryLine(final)).toMatch(/^ {2}Final · testing: tests passed in .* — this step added or changed no test file/);
  }, 60_000);

  it('a gate whose runner writes no report still gates on its exit status, and the report says the run is not traced', async () => {
    const { e, runId } = await setup();
    const list = TASKS.replace('Test: node --test test/words.test.js', 'Test: sh -c "exit 0"');
    const files = { ...FILES, 'prepare:task_list': {} };
    let task = await e.getTask(runId);
    for (; task.status === 'AWAITING_COGNITIVE_RESULT'; task = await e.getTask(runId)) {
      if (task.step.state === 'prepare:task_list') await e.submitTask(runId, { output: list, done: true });
      else await answer(e, runId, task, files);
    }
    await e.approve(runId);
    for (task = await e.getTask(runId); task.status === 'AWAITING_COGNITIVE_RESULT' && !task.step.state.startsWith('count:'); task = await e.getTask(runId)) await answer(e, runId, task, files);
    const report = await e.report(runId);
    expect(report.tasks.find((t) => t.id === 'W-1')).toMatchObject({ tests: [], commit: expect.stringMatching(/^[0-9a-f]{40}$/) });
    expect(report.untraced[0]).toMatchObject({ state: 'words:testing', command: 'sh -c "exit 0"', note: expect.stringContaining('wrote no report Erasmus can read') });
    expect(report.verified).toBe(false);
    await e.stop(runId);
  }, 60_000);
});
