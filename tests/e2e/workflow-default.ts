// The workflow on the default path a new user has: a fresh ERASMUS_HOME holding one provider (the
// scripted model) and nothing else, a fresh `git init` folder, Erasmus's built-in toolsets only.
// One script serves the CLI and the app; each step writes through the built-in `files` toolset and
// hands the context document back between the marker lines its prompt asks for.
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ScriptTurn } from '../fixtures/scripted-llm/index';

export const TASKS = '# Task list\n\n## Component: adder — adds two numbers\nTest: node --test test/\n- [ ] A1: Implement add(a, b) in src/adder.mjs\n- [ ] A2: Test add\n';

const ADDER_TEST = "import { test } from 'node:test';\nimport assert from 'node:assert/strict';\nimport { add } from '../src/adder.mjs';\ntest('A1: adds two numbers', () => assert.equal(add(2, 3), 5));\ntest('A2: adds a negative number', () => assert.equal(add(-1, 1), 0));\n";
const E2E_TEST = "import { test } from 'node:test';\nimport assert from 'node:assert/strict';\nimport { execFileSync } from 'node:child_process';\ntest('a user adds from the command line', () => {\n  const out = execFileSync(process.execPath, ['--input-type=module', '-e', \"import { add } from './src/adder.mjs'; process.stdout.write(String(add(40, 2)));\"], { encoding: 'utf8' });\n  assert.equal(out.trim(), '42');\n});\n";

/** What the final documentation hands back: the architecture brought up to date with the product as built. */
export const ARCH_AS_BUILT = '# Architecture\n\nOne component, **adder**: `add(a, b)` in src/adder.mjs.\n\nAs built: unit tests in test/adder.test.mjs, end-to-end in test/e2e.test.mjs, all run by `node --test test/`.';

const doc = (text: string) => `\n=== CONTEXT DOCUMENT ===\n${text}\n=== END CONTEXT DOCUMENT ===\n`;

/** A tool call in the model's own words: native tool calls, or the XML the xml tool mode parses. */
function calls(mode: 'native' | 'xml', writes: Array<[string, string]>): Pick<ScriptTurn, 'text' | 'toolCalls'> {
  if (mode === 'native') return { toolCalls: writes.map(([path, content]) => ({ name: 'files__write_file', arguments: { path, content } })) };
  return { text: `Writing the files.\n${writes.map(([path, content]) => `<files__write_file>\n<path>${path}</path>\n<content>\n${content}</content>\n</files__write_file>\n`).join('')}` };
}

/** One step: on its task, write these files (relative to the project), then give this final answer. */
function step(mode: 'native' | 'xml', task: string, label: string, writes: Array<[string, string]>, answer: string): ScriptTurn[] {
  if (!writes.length) return [{ label, match: { lastUser: task }, text: answer }];
  return [
    { label, match: { lastUser: task }, ...calls(mode, writes) },
    // The files server answers "created …" or "replaced …" (after the overwrite was confirmed).
    { label: `${label} done`, match: { last: { regex: `(created|replaced) [^\\n]*${writes.at(-1)![0].split('/').pop()!.replace('.', '\\.')}` } }, text: answer },
  ];
}

/** The whole run of a one-component project, from the goal to the final review. */
export function defaultPathScript(mode: 'native' | 'xml'): ScriptTurn[] {
  const s = (task: string, label: string, writes: Array<[string, string]>, answer: string) => step(mode, task, label, writes, answer);
  return [
    ...s('Write the architecture document', 'architecture', [], '# Architecture\n\nOne component, **adder**: `add(a, b)` in src/adder.mjs, tested with `node --test test/`.\n'),
    ...s('Break the architecture into a progress schedule', 'schedule', [], '# Schedule\n\n1. adder: next\n'),
    ...s('Turn the progress schedule into a task list', 'task list', [], TASKS),
    ...s('Implement the open tasks', 'development', [['src/adder.mjs', 'export function add(a, b) {\n  return a - b;\n}\n']], `Implemented add in src/adder.mjs.${doc('# Component: adder\n\n## Notes\n- development: add() in src/adder.mjs')}`),
    ...s('Write the tests of this component', 'testing', [['test/adder.test.mjs', ADDER_TEST]], 'Wrote test/adder.test.mjs.'),
    // Overwrites src/adder.mjs: the files server asks (an elicitation) before it replaces a file.
    ...s('The tests fail (output below)', 'debugging', [['src/adder.mjs', 'export function add(a, b) {\n  return a + b;\n}\n']], `Fixed the operator.${doc('# Component: adder\n\n## Notes\n- debugging: add used -, now +')}`),
    ...s('Review this component', 'review', [], '# Review: adder\n\nVerdict: good. Add a doc comment.\n'),
    ...s('Address every point of the review report', 'fixes', [['src/adder.mjs', '/** Sum of a and b. */\nexport function add(a, b) {\n  return a + b;\n}\n']], 'Added the doc comment.\n\n## Left open\n- none'),
    ...s('Document this component', 'documentation', [['README.md', '# adder\n\nadd(a, b) returns a + b.\n']], 'Documented.'),
    ...s('Run the component tests again', 'retesting', [], 'They pass.'),
    ...s('Bring the progress schedule', 'orchestration', [], `The schedule is up to date.${doc('# Schedule\n\n1. adder: finished\n\nNothing is left.')}`),
    ...s('All components are complete', 'e2e', [['test/e2e.test.mjs', E2E_TEST]], 'Wrote test/e2e.test.mjs.'),
    ...s('Write the final documentation', 'final docs', [['README.md', '# adder\n\nAdds two numbers: `add(a, b)` from src/adder.mjs.\n\nTests: `node --test test/`.\n']], `The README is complete.${doc(ARCH_AS_BUILT)}`),
    ...s('Review the whole product', 'final review', [], '# Final review\n\nVerdict: no changes needed\n\nGood.\n'),
  ];
}

/** The task list the second goal hands back: adder kept as finished, a new component for subtraction. */
export const TASKS_2 =
  '# Task list\n\n## Component: adder — adds two numbers\nTest: node --test test/\n- [x] A1: Implement add(a, b) in src/adder.mjs\n- [x] A2: Test add\n\n## Component: subtractor — subtracts two numbers\nTest: node --test test/\n- [ ] S1: Implement sub(a, b) in src/sub.mjs\n- [ ] S2: Test sub\n';

const SUB_TEST = "import { test } from 'node:test';\nimport assert from 'node:assert/strict';\nimport { sub } from '../src/sub.mjs';\ntest('S1: subtracts', () => assert.equal(sub(5, 3), 2));\ntest('S2: subtracts a larger number', () => assert.equal(sub(3, 5), -2));\n";

/** A second goal on the finished project: the documents are updated, only the new component is developed. */
export function secondGoalScript(mode: 'native' | 'xml'): ScriptTurn[] {
  const s = (task: string, label: string, writes: Array<[string, string]>, answer: string) => step(mode, task, label, writes, answer);
  return [
    ...s('The project already has an architecture', 'architecture update', [], `${ARCH_AS_BUILT}\n\nSecond component, **subtractor**: \`sub(a, b)\` in src/sub.mjs, tested by the same command.\n`),
    ...s('The progress schedule (your context document) records', 'schedule update', [], '# Schedule\n\n1. adder: finished\n2. subtractor: next\n'),
    ...s('The task list (your context document) holds', 'task list update', [], TASKS_2),
    ...s('Implement the open tasks', 'subtractor development', [['src/sub.mjs', 'export function sub(a, b) {\n  return a - b;\n}\n']], 'Implemented sub in src/sub.mjs.'),
    ...s('Write the tests of this component', 'subtractor testing', [['test/sub.test.mjs', SUB_TEST]], 'Wrote test/sub.test.mjs.'),
    ...s('Review this component', 'subtractor review', [], '# Review: subtractor\n\nVerdict: no changes needed\n'),
    ...s('Document this component', 'subtractor documentation', [], 'sub(a, b) has a doc line in the README already.'),
    // No retesting session for subtractor: nothing changed since its tests passed, so Erasmus runs them again itself.
    ...s('Bring the progress schedule', 'orchestration 2', [], `Up to date.${doc('# Schedule\n\n1. adder: finished\n2. subtractor: finished')}`),
    ...s('All components are complete', 'e2e 2', [], 'The end-to-end test still covers the product.'),
    ...s('Write the final documentation', 'final docs 2', [], `Nothing else to document.${doc(ARCH_AS_BUILT + '\n\nsubtractor: sub(a, b) in src/sub.mjs.')}`),
    ...s('Review the whole product', 'final review 2', [], '# Final review (second goal)\n\nVerdict: no changes needed\n\nGood.\n'),
  ];
}

/** `workflow drift --fix` after add() changed: the adder's document and the architecture are brought up to date. */
export function driftFixScript(mode: 'native' | 'xml'): ScriptTurn[] {
  const s = (task: string, label: string, writes: Array<[string, string]>, answer: string) => step(mode, task, label, writes, answer);
  return [
    ...s('The code of this component changed since its document', 'adder docs update', [['README.md', '# adder\n\nAdds two numbers: `add(a, b)` from src/adder.mjs; it rounds the sum.\n\nTests: `node --test test/`.\n']], `The README says add rounds.${doc('# Component: adder\n\n## Notes\n- add(a, b) rounds the sum (src/adder.mjs)')}`),
    ...s('The project changed since its architecture', 'architecture docs update', [], `Brought up to date.${doc(`${ARCH_AS_BUILT}\n\nadd rounds the sum.`)}`),
  ];
}

export interface DefaultWorld {
  root: string;
  home: string;
  project: string;
}

/** A fresh `git init` folder and an ERASMUS_HOME with one provider (no servers, no settings). */
export async function defaultWorld(baseUrl: string, opts: { nativeTools: boolean }): Promise<DefaultWorld> {
  const root = await mkdtemp(join(tmpdir(), 'erasmus-default-'));
  const home = join(root, 'home');
  const project = join(root, 'project');
  await mkdir(home, { recursive: true });
  await mkdir(project, { recursive: true });
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: project });
  await writeFile(
    join(home, 'config.yaml'),
    `defaultProvider: scripted\nproviders:\n  - id: scripted\n    kind: openai-compatible\n    model: scripted\n    baseUrl: ${baseUrl}\n    nativeTools: ${opts.nativeTools}\n`,
  );
  return { root, home, project };
}

/** Git's view of a finished run: subjects newest first, and what is left uncommitted. */
export function gitState(project: string): { log: string[]; dirty: string } {
  const log = execFileSync('git', ['log', '--format=%s'], { cwd: project, encoding: 'utf8' }).trim().split('\n');
  const dirty = execFileSync('git', ['status', '--porcelain'], { cwd: project, encoding: 'utf8' });
  return { log, dirty };
}
