// `erasmus workflow start` on an existing repository: a copy of a small library (tests/fixtures/projects/
// tinyclass: src/, node:test tests, a README, a pre-commit hook, history in Conventional Commits), a goal
// that adds a feature, a scripted model that edits (never rewrites) the files. The run must end on its own
// branch with a commit in the repository's style, no file of Erasmus's in the tree, the original tests
// unchanged and passing, the hook run, and the README changed only where the feature needs it — within
// the request and character budget of issue #28 (≤ 20 requests, ≤ 250k characters sent).
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, copyFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedLlm, type ScriptTurn, type ScriptedLlm } from '../fixtures/scripted-llm/index';
import { CLI, ensureBuilt, killGroup } from './workflow-helpers';

const FIXTURE = resolve(__dirname, '../fixtures/projects/tinyclass');
const GOAL = 'Support Set values in cx (src/index.js): the members of a Set count like the items of an array.';

let llm: ScriptedLlm | undefined;
let root: string | undefined;
let child: ChildProcess | undefined;
afterEach(async () => {
  killGroup(child);
  child = undefined;
  await llm?.close();
  llm = undefined;
  if (root) rmSync(root, { recursive: true, force: true });
  root = undefined;
});
beforeAll(() => ensureBuilt(), 180_000);

const git = (dir: string, ...args: string[]) => execFileSync('git', args, { cwd: dir, encoding: 'utf8' }).trim();

/** The library as its maintainer has it: two commits in Conventional Commits, its pre-commit hook installed. */
function library(): { project: string; home: string } {
  root = mkdtempSync(join(tmpdir(), 'erasmus-existing-'));
  const project = join(root, 'tinyclass');
  cpSync(FIXTURE, project, { recursive: true });
  git(project, 'init', '-q', '-b', 'main');
  git(project, 'config', 'user.email', 'maintainer@example.com');
  git(project, 'config', 'user.name', 'Maintainer');
  git(project, 'add', 'package.json', 'src', 'test', 'hooks');
  git(project, 'commit', '-q', '-m', 'feat: cx joins class names');
  git(project, 'add', 'README.md');
  git(project, 'commit', '-q', '-m', 'docs: usage');
  copyFileSync(join(project, 'hooks', 'pre-commit'), join(project, '.git', 'hooks', 'pre-commit'));
  chmodSync(join(project, '.git', 'hooks', 'pre-commit'), 0o755);
  const home = join(root, 'home');
  mkdirSync(home);
  return { project, home };
}

const doc = (text: string) => `\n=== CONTEXT DOCUMENT ===\n${text}\n=== END CONTEXT DOCUMENT ===\n`;
const TASKS = '# Task list\n\n## Component: sets — Set values in cx\nTest: npm test\n- [ ] S1: Support Set values in cx\n';

/** One step: on its task, these edits (through files__edit_file), then this answer. */
function step(task: string, label: string, edit: { path: string; oldText: string; newText: string } | undefined, answer: string): ScriptTurn[] {
  if (!edit) return [{ label, match: { lastUser: task }, text: answer }];
  return [
    { label, match: { lastUser: task }, toolCalls: [{ name: 'files__edit_file', arguments: edit }] },
    { label: `${label} done`, match: { last: { regex: `edited ${edit.path.replace(/\./g, '\\.')}` } }, text: answer },
  ];
}

function script(): ScriptTurn[] {
  return [
    ...step('Write the architecture document for the change asked for', 'architecture', undefined, '# Architecture\n\ntinyclass: `cx(...args)` in src/index.js joins class names; `toVal` reads each value. Tests: node:test in test/, run by `npm test`.\n\n## The change\n\nOne component, **sets**: `toVal` reads a Set as it reads an array.\n'),
    ...step('Break the change in the architecture into a progress schedule', 'schedule', undefined, '# Schedule\n\n1. sets: next\n'),
    ...step('Turn the progress schedule into a task list', 'task list', undefined, TASKS),
    ...step('Implement the open tasks', 'development', { path: 'src/index.js', oldText: '  } else if (Array.isArray(mix)) {', newText: '  } else if (Array.isArray(mix) || mix instanceof Set) {' }, `toVal reads a Set like an array.${doc('# Component: sets\n\n## Notes\n- development: src/index.js, toVal: `mix instanceof Set` joins the array branch')}`),
    ...step('Write the tests of this component', 'testing', { path: 'test/index.test.js', oldText: "test('a mix of everything', () => {", newText: "test('sets, like arrays', () => {\n  assert.equal(cx(new Set(['a', 'b']), 'c'), 'a b c');\n});\n\ntest('a mix of everything', () => {" }, 'Added a test for Sets to test/index.test.js.'),
    ...step('Review this component', 'review', undefined, '# Review: sets\n\nVerdict: no changes needed\n'),
    ...step('Document what this component adds or changes', 'documentation', { path: 'README.md', oldText: '- an array, whose items', newText: '- an array or a `Set`, whose items' }, 'The README says that a Set is read like an array.'),
    ...step('Run the component tests again', 'retesting', undefined, 'They pass.'),
    ...step('Bring the progress schedule', 'orchestration', undefined, `Up to date.${doc('# Schedule\n\n1. sets: finished')}`),
    ...step("Bring the project's documentation up to date with the change", 'final docs', undefined, `Nothing else to document.${doc('# Architecture\n\ntinyclass: `cx(...args)` in src/index.js; `toVal` reads strings, numbers, arrays, Sets and objects. Tests: `npm test`.')}`),
    ...step('Review the whole product', 'final review', undefined, '# Final review\n\nVerdict: no changes needed\n'),
  ];
}

function runCli(args: string[], home: string): Promise<{ code: number | null; stderr: string }> {
  return new Promise((res) => {
    const c = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, ERASMUS_HOME: home }, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    child = c;
    let stderr = '';
    c.stdout!.resume();
    c.stderr!.on('data', (b: Buffer) => (stderr += b.toString()));
    c.on('close', (code) => res({ code, stderr }));
  });
}

describe('erasmus workflow on an existing repository', () => {
  it('adds a feature a maintainer would merge: own branch, the repository\'s commit style and hook, its tests kept, no file of Erasmus\'s', async () => {
    llm = await startScriptedLlm(script());
    const { project, home } = library();
    writeFileSync(join(home, 'config.yaml'), `defaultProvider: scripted\nproviders:\n  - id: scripted\n    kind: openai-compatible\n    model: scripted\n    baseUrl: ${llm.baseUrl}\n    nativeTools: true\n`);
    const originalTests = readFileSync(join(project, 'test', 'index.test.js'), 'utf8');
    const r = await runCli(['workflow', 'start', project, '--goal', GOAL, '--yes'], home);
    expect(r.stderr).toContain('[COMPLETED]');
    expect(r.code, r.stderr).toBe(0);
    expect(llm.remaining()).toBe(0);

    // Its own branch, one commit in the repository's style (no run id, no trailer), the hook run for it.
    expect(git(project, 'symbolic-ref', '--short', 'HEAD')).toBe('erasmus/support-set-values-in-cx-src');
    expect(git(project, 'log', '--format=%B', 'main..HEAD')).toBe('feat: support Set values in cx');
    expect(readFileSync(join(project, '.git', 'hook-runs'), 'utf8')).toBe('pre-commit ran\n');
    // The commit holds the three files the steps changed; nothing of Erasmus's is in the tree.
    expect(git(project, 'show', '--name-only', '--format=', 'HEAD').split('\n').sort()).toEqual(['README.md', 'src/index.js', 'test/index.test.js']);
    expect(git(project, 'status', '--porcelain')).toBe('');
    expect(git(project, 'ls-files').split('\n').filter((f) => /(^|\/)(docs|\.erasmus)\//.test(f))).toEqual([]);
    // The original tests are all there, unchanged, and pass with the new one.
    const tests = readFileSync(join(project, 'test', 'index.test.js'), 'utf8');
    for (const block of originalTests.split('\n\n')) expect(tests).toContain(block.trim());
    const run = execFileSync(process.execPath, ['--test', 'test/'], { cwd: project, encoding: 'utf8' });
    expect(run).toMatch(/# pass 7\n# fail 0/);
    // The README changed in the one line the feature needs.
    expect(git(project, 'diff', '--unified=0', 'main', 'HEAD', '--', 'README.md').split('\n').filter((l) => /^[-+]/.test(l) && !/^(---|\+\+\+) /.test(l))).toEqual([
      '-- an array, whose items are read the same way, at any depth;',
      '+- an array or a `Set`, whose items are read the same way, at any depth;',
    ]);
    // A small change costs little: requests and characters sent (issue #28: ≤ 20 and ≤ 250k).
    const sent = llm.requests.reduce((n, q) => n + JSON.stringify(q.body).length, 0);
    process.stderr.write(`existing-repository change: ${llm.requests.length} requests, ${sent} characters sent\n`);
    expect(llm.requests.length).toBeLessThanOrEqual(20);
    expect(sent).toBeLessThanOrEqual(250_000);
  });
});
