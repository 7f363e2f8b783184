// `erasmus workflow start` on an existing repository: a copy of a small library (tests/fixtures/projects/
// tinyclass: src/, node:test tests, a README, a pre-commit hook, history in Conventional Commits), a goal
// that adds a feature, a scripted model that edits (never rewrites) the files. The run must end on its own
// branch with a commit in the repository's style, no file of Erasmus's in the tree, the original tests
// unchanged and passing, the hook run, and the README changed only where the feature needs it — within
// the request and character budget of issue #28 (≤ 20 requests, ≤ 250k characters sent).
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { GOAL, git, library, script } from '../fixtures/existing-change/index';
import { startScriptedLlm, type ScriptedLlm } from '../fixtures/scripted-llm/index';
import { CLI, ensureBuilt, killGroup } from './workflow-helpers';

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
    root = mkdtempSync(join(tmpdir(), 'erasmus-existing-'));
    const { project, home } = library(root);
    writeFileSync(join(home, 'config.yaml'), `defaultProvider: scripted\nproviders:\n  - id: scripted\n    kind: openai-compatible\n    model: scripted\n    baseUrl: ${llm.baseUrl}\n    nativeTools: true\n`);
    const originalTests = readFileSync(join(project, 'test', 'index.test.js'), 'utf8');
    const r = await runCli(['workflow', 'start', project, '--goal', GOAL, '--yes'], home);
    expect(r.stderr).toContain('■ Completed');
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
    // The final review judges the change, shown the files the run changed, not "the whole product" (played as the model on an
    // existing project: told to review everything, a literal reviewer's points on code that was there before would go to the
    // fixes step, which acts on every point, contrary to "change only what the goal needs").
    const textOf = (body: unknown) => JSON.stringify((body as { messages: unknown[] }).messages);
    const review = llm.requests.find((q) => textOf(q.body).includes('Review the change against the architecture'));
    expect(review).toBeDefined();
    expect(textOf(review!.body)).not.toContain('Review the whole product');
    expect(/## What this goal changed\\n\\n`+markdown\\n(.*?)\\n`+/.exec(textOf(review!.body))?.[1]).toBe('- modified: README.md\\n- modified: src/index.js\\n- modified: test/index.test.js');
    // A small change costs little: requests and characters sent (issue #28: ≤ 20 and ≤ 250k).
    const sent = llm.requests.reduce((n, q) => n + JSON.stringify(q.body).length, 0);
    process.stderr.write(`existing-repository change: ${llm.requests.length} requests, ${sent} characters sent\n`);
    expect(llm.requests.length).toBeLessThanOrEqual(20);
    expect(sent).toBeLessThanOrEqual(250_000);

    // At completion, without a terminal: the pull request's title and where its summary is, and the command for each choice.
    expect(r.stderr).toContain('Pull request: feat: support Set values in cx\n  summary (title and body, to copy): ');
    expect(r.stderr).toContain(
      `The run's work is on branch erasmus/support-set-values-in-cx-src. To squash and merge it into main: erasmus workflow finish ${project} --squash. To keep the branch for a pull request: erasmus workflow finish ${project} --keep.`,
    );
    const finished = await runCli(['workflow', 'finish', project, '--squash'], home);
    expect(finished.code, finished.stderr).toBe(0);
    expect(git(project, 'symbolic-ref', '--short', 'HEAD')).toBe('main');
    expect(git(project, 'log', '-1', '--format=%s', 'main')).toBe('feat: support Set values in cx');
    expect(git(project, 'diff', '--name-only', 'main', 'erasmus/support-set-values-in-cx-src')).toBe('');
    // Finished already: without a flag, it says so (not "say what to do with the run's branch").
    const again = await runCli(['workflow', 'finish', project], home);
    expect(again.code).not.toBe(0);
    expect(again.stderr).toMatch(/was finished already: squashed into main as [0-9a-f]{10}/);
  });
});
