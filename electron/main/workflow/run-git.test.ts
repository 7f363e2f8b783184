import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { entryLine } from '../../cli/commands/workflow-print';
import { reportText } from '../../contract/report-text';
import { Paths } from '../paths/index';
import { WorkflowEngine } from './engine';
import { keptReviewFile } from './kept-reviews';
import { branchName, commitMessage, commitStyle, commitSubject } from './git';
import { StepAbortedError } from './executor';
import type { RunRecord } from './run-record';
import { removeDeadLocks } from './git-locks';
import { commitRunWork, filesToCommit, finalCommitWhat, heldBackNote } from './run-git';
import type { TestRunner } from './verify';
import { driveToCompletion, git, goodAnswer, repositoryIn, TASKS } from './testing-repo';

let root: string | undefined;
const engines: WorkflowEngine[] = [];
afterEach(async () => {
  for (const e of engines.splice(0)) await e.dispose();
  if (root) rmSync(root, { recursive: true, force: true });
  root = undefined;
});

/** A repository with history in Conventional Commits and a file of the user's. */
function repository(): { dir: string; home: string } {
  root = mkdtempSync(join(tmpdir(), 'erasmus-run-git-'));
  return { dir: repositoryIn(root), home: join(root, 'home') };
}

function engine(home: string): WorkflowEngine {
  const e = new WorkflowEngine({ paths: new Paths(home), emit: () => undefined });
  engines.push(e);
  return e;
}

const drive = driveToCompletion;

describe('a run in an existing repository', () => {
  it('refuses a dirty tree and starts nothing; with "include", works on its own branch and never commits the user\'s changes', async () => {
    const { dir, home } = repository();
    writeFileSync(join(dir, 'notes.md'), 'mine, half written\n');
    writeFileSync(join(dir, 'scratch.txt'), 'an untracked idea\n');
    const e = engine(home);
    await expect(e.load({ projectDir: dir, goal: 'Add a greeting' })).rejects.toThrow(
      /has uncommitted changes \(notes\.md, scratch\.txt\); a run would mix them with its own work\. Nothing was started\. Choose .*commit them first, stash them .*or include them .*start again with dirtyTree commit, stash or include, or commit or stash them yourself\./,
    );
    // The files go with the refusal (error data `dirty`), so the app can offer the three choices as buttons.
    await expect(e.load({ projectDir: dir, goal: 'Add a greeting' })).rejects.toMatchObject({ details: { dirty: ['notes.md', 'scratch.txt'] } });
    expect(git(dir, 'symbolic-ref', '--short', 'HEAD')).toBe('main');

    const { runId } = await e.load({ projectDir: dir, goal: 'Add a greeting', dirtyTree: 'include' });
    // Every step is told to leave the user's files alone: a change there would stay out of the run's commits.
    const task = await e.getTask(runId);
    expect(task.status === 'AWAITING_COGNITIVE_RESULT' && task.prompt).toContain("## The user's uncommitted changes\n\nWhen this run started, these files held changes of the user's that are not committed: `notes.md`, `scratch.txt`.");
    expect(task.status === 'AWAITING_COGNITIVE_RESULT' && task.prompt).toContain('Do not change these files; put the work in other files.');
    await drive(e, runId);
    expect(git(dir, 'symbolic-ref', '--short', 'HEAD')).toBe('erasmus/add-a-greeting');
    // Conventional Commits, learned from the log; no run id, no trailer.
    expect(git(dir, 'log', '--format=%B%x00', 'main..HEAD').split('\0').map((m) => m.trim()).filter(Boolean)).toEqual(['feat: add the greeting']);
    // The commit holds the file the steps wrote, and nothing of the user's; the review reports stay out of the
    // tree (the repository has no docs folder): with the context documents.
    expect(git(dir, 'show', '--name-only', '--format=', 'HEAD').split('\n')).toEqual(['src/greet.js']);
    expect(readFileSync(new Paths(home).reviewReport(dir, runId, 'core'), 'utf8')).toBe('Verdict: no changes needed\n');
    expect(readFileSync(new Paths(home).reviewReport(dir, runId, 'final'), 'utf8')).toBe('Verdict: no changes needed\n');
    expect(readFileSync(join(dir, 'notes.md'), 'utf8')).toBe('mine, half written\n');
    expect(git(dir, 'status', '--porcelain')).toBe('M notes.md\n?? scratch.txt'); // (trimmed: ' M')
    expect(git(dir, 'log', '--format=%s', 'main')).toBe('fix(core): the number\nfeat: first version');

    // At completion: the pull request, ready to copy; then squashed into main, the user's work still theirs and uncommitted.
    expect((await e.status(runId)).git).toEqual({ mode: 'branch', branch: 'erasmus/add-a-greeting', base: 'main' });
    const report = await e.report(runId);
    const { pullRequest } = report;
    // The review reports kept out of the tree are where the user reads the run's report.
    expect(report.reviews?.map((r) => [r.scope, r.verdict, r.text])).toEqual([
      ['core', 'Verdict: no changes needed', 'Verdict: no changes needed\n'],
      ['final', 'Verdict: no changes needed', 'Verdict: no changes needed\n'],
    ]);
    expect(reportText(report)).toContain(`Review of core (kept with the run's documents, not in the project: ${new Paths(home).reviewReport(dir, runId, 'core')}):\n\nVerdict: no changes needed\n`);
    // Kept per run, so a later run's review replaces none of this one's; a run from before that reads the shared file.
    const shared = new Paths(home).sharedReviewReport(dir, 'final');
    mkdirSync(dirname(shared), { recursive: true });
    writeFileSync(shared, 'Verdict: an older run\n');
    expect(await keptReviewFile(new Paths(home), dir, runId, 'final')).toBe(new Paths(home).reviewReport(dir, runId, 'final'));
    expect(await keptReviewFile(new Paths(home), dir, 'an-older-run', 'final')).toBe(shared);
    expect(pullRequest?.title).toBe('feat: add a greeting');
    expect(pullRequest?.body).toMatch(/^## Goal\n\nAdd a greeting\n\n## What changed\n\n- \*\*the core\*\* \(`core`\): `src\/greet\.js` — [0-9a-f]{10}\n/);
    expect(pullRequest?.body).toContain('- [ ] C1 Add the greeting (no test names it)');
    expect(readFileSync(pullRequest!.file, 'utf8')).toBe(`# feat: add a greeting\n\n${pullRequest!.body}`);
    const out = await e.finish(runId, 'squash');
    expect(out.message).toMatch(/^Squashed 1 commit of erasmus\/add-a-greeting into main as [0-9a-f]{10} "feat: add a greeting"; main is checked out\. Branch erasmus\/add-a-greeting keeps the run's own commits \(delete it: git branch -D erasmus\/add-a-greeting\)\.$/);
    expect(git(dir, 'symbolic-ref', '--short', 'HEAD')).toBe('main');
    expect(git(dir, 'log', '--format=%s', 'main')).toBe('feat: add a greeting\nfix(core): the number\nfeat: first version');
    expect(git(dir, 'log', '-1', '--format=%b', 'main')).toBe('Squashed from erasmus/add-a-greeting:\n- feat: add the greeting');
    expect(git(dir, 'diff', '--name-only', 'main', 'erasmus/add-a-greeting')).toBe('');
    expect(git(dir, 'status', '--porcelain')).toBe('M notes.md\n?? scratch.txt');
    expect(readFileSync(join(dir, 'notes.md'), 'utf8')).toBe('mine, half written\n');
    expect((await e.status(runId)).git?.finished).toMatchObject({ choice: 'squash', commit: out.commit });
    await expect(e.finish(runId, 'keep')).rejects.toThrow(/was finished already: squashed into main as [0-9a-f]{10}/);
    // A squashed run is not rewound (its work is in main; a finish after would squash nothing): a new goal changes it.
    const [first] = await e.checkpoints(runId);
    const refusal = /^run .* was finished already \(squashed into main as [0-9a-f]{10}, where its work stays\): it is not rewound, nothing was changed\. To change or undo what it did, start a new goal: erasmus workflow start .* --goal "<what to change>" \(or revert the squash commit yourself: git revert [0-9a-f]{10}\)\.$/;
    await expect(e.rewindPreview(runId, first!.id)).rejects.toThrow(refusal);
    const heads = git(dir, 'show-ref', '--heads');
    await expect(e.rewind(runId, first!.id)).rejects.toThrow(refusal);
    expect(git(dir, 'show-ref', '--heads')).toBe(heads);
    expect((await e.status(runId)).git?.finished).toMatchObject({ choice: 'squash', commit: out.commit });
  });

  it('"stash" sets the user\'s changes aside (git stash pop brings them back); "commit" commits them first, in one commit of their own', async () => {
    const { dir, home } = repository();
    writeFileSync(join(dir, 'notes.md'), 'mine, half written\n');
    const e = engine(home);
    await e.load({ projectDir: dir, goal: 'Add a greeting', dirtyTree: 'stash' });
    expect(git(dir, 'status', '--porcelain')).toBe('');
    expect(git(dir, 'stash', 'list')).toMatch(/erasmus: set aside before the run "Add a greeting"/);
    git(dir, 'stash', 'pop', '-q');
    await e.load({ projectDir: dir, goal: 'Add a greeting', dirtyTree: 'commit' });
    expect(git(dir, 'log', '-1', '--format=%s')).toBe('chore: save work in progress');
    expect(git(dir, 'status', '--porcelain')).toBe('');
  });

  it('runs the repository\'s pre-commit hook; a refusal goes to the debugging step with the hook\'s output, then the commit is made', async () => {
    const { dir, home } = repository();
    // The hook refuses a commit whose src/greet.js still says "development" (a lint rule, say).
    const hook = join(dir, '.git', 'hooks', 'pre-commit');
    writeFileSync(hook, '#!/bin/sh\nif git show :src/greet.js 2>/dev/null | grep -q "core:development"; then echo "lint: greet.js is not finished" >&2; exit 1; fi\necho hook ran >> .git/hook-runs\n');
    chmodSync(hook, 0o755);
    const e = engine(home);
    const { runId } = await e.load({ projectDir: dir, goal: 'Add a greeting', branch: 'current' });
    const steps = await drive(e, runId);
    expect(steps).toContain('core:redebugging');
    const view = await e.status(runId);
    const refused = view.timeline.find((t) => t.state === 'core:commit' && t.outcome === 'tests-failed');
    expect(refused?.test?.output).toContain('lint: greet.js is not finished');
    // The step's note (and the CLI's line under it) says the hooks' words, not only their exit code.
    expect(refused?.note).toMatch(/^the repository's hooks refused the commit: .*lint: greet\.js is not finished/);
    expect(entryLine(refused!)).toContain("\n    note: the repository's hooks refused the commit: ");
    expect(view.timeline.filter((t) => t.state === 'core:commit').map((t) => t.outcome)).toEqual(['tests-failed', 'committed']);
    // The debugging step was told it was the hooks, not the tests.
    const prompt = await e.stepPrompt(runId, view.timeline.findIndex((t) => t.state === 'core:redebugging'));
    expect(prompt).toContain("The repository's commit hooks refused the commit");
    // Mode "current": on main; the hook ran for the commit that passed.
    expect(git(dir, 'symbolic-ref', '--short', 'HEAD')).toBe('main');
    expect(git(dir, 'log', '-1', '--format=%s')).toBe('feat: add the greeting');
    expect(readFileSync(join(dir, '.git', 'hook-runs'), 'utf8')).toContain('hook ran');
    // Nothing to merge at completion: the commits are on main already.
    await expect(e.finish(runId, 'squash')).rejects.toThrow('the run worked on the branch that was checked out (main): its commits are there already, with nothing to merge');
  });
});

describe('a commit git itself refuses', () => {
  it("blocks with git's own words (not sent to debugging as the hooks' refusal), and the CLI's line says them", async () => {
    const { dir, home } = repository();
    const e = engine(home);
    const { runId } = await e.load({ projectDir: dir, goal: 'Add a greeting', branch: 'current' });
    // What a git killed after it moved HEAD in a cherry-pick, before it removed CHERRY_PICK_HEAD, leaves behind.
    git(dir, 'update-ref', 'CHERRY_PICK_HEAD', 'HEAD');
    await expect(drive(e, runId)).rejects.toThrow(
      /^blocked: git could not make the commit \(exit 128\): fatal: cannot do a partial commit during a cherry-pick\. This is the repository's state, not the tests or the hooks: set it right as git says \(in .+\), then retry\.$/,
    );
    const view = await e.status(runId);
    const commit = view.timeline.filter((t) => t.state.endsWith(':commit'));
    expect(commit.map((t) => t.outcome)).toEqual(['error']);
    expect(commit[0]!.test).toMatchObject({ command: 'git commit', exitCode: 128 });
    expect(view.timeline.some((t) => /debugging/.test(t.state))).toBe(false);
    expect(entryLine(commit[0]!)).toMatch(/: failed in \d+\.\d s \(`git commit` exit 128\)\n {4}note: git could not make the commit \(exit 128\): fatal: cannot do a partial commit during a cherry-pick\./);
  });
});

describe('the prompts of a run in an existing project', () => {
  it('frame the goal as a change, give the design step the project as it is, and pass over new end-to-end tests', async () => {
    const { dir, home } = repository();
    const e = engine(home);
    const { runId } = await e.load({ projectDir: dir, goal: 'Export a greeting from index.js' });
    const steps = await drive(e, runId);
    expect(steps).not.toContain('final:testing');
    const view = await e.status(runId);
    const prompt = async (state: string) => (await e.stepPrompt(runId, view.timeline.findIndex((t) => t.state === state)))!;
    const design = await prompt('prepare:architecture');
    expect(design).toContain('## An existing project\n\nThis project existed before this run: the goal is a change to it that its maintainers would merge.');
    expect(design).toContain('## The change asked for\n\nExport a greeting from index.js');
    // A read-only step is not told to change files with a tool it may not call.
    expect(design).not.toContain('files__edit_file');
    expect(await prompt('core:review')).not.toContain('files__edit_file');
    expect(await prompt('core:development')).toContain('(change files with `files__edit_file`)');
    expect(design).not.toContain('Goal of the project');
    expect(design).toContain('Write the architecture document for the change asked for below: first what exists');
    expect(design).toMatch(/## The project as it is\n[\s\S]*### Layout \(\.gitignore respected\)[\s\S]*index\.js[\s\S]*### index\.js \(named in the goal\)\n\n`+\nmodule\.exports = 2;/);
    expect(await prompt('core:documentation')).toContain('Document what this component adds or changes, where and how the project already documents such things');
    expect(await prompt('final:documentation')).not.toContain('complete, easy README');
    // The final gate still runs the project's tests, without an agent step.
    expect(view.timeline.find((t) => t.state === 'final:testing')).toMatchObject({ outcome: 'tests-passed', note: 'an existing project: no new end-to-end tests; its own tests ran' });
  });
});

describe('the final phase of a run in an existing project', () => {
  it("speaks of the project's own tests, not end-to-end ones, where its gate fails and after the final review's fixes", async () => {
    // Played as the model: an existing project's gate runs its own tests (no end-to-end suite is written), yet the final
    // review's fixes step was told "The end-to-end test command below runs after you", and a failing gate "The end-to-end tests fail".
    const { dir, home } = repository();
    const e = engine(home);
    const { runId } = await e.load({ projectDir: dir, goal: 'Export a greeting from index.js' });
    const prompts = new Map<string, string>();
    for (let task = await e.getTask(runId); task.status !== 'COMPLETED'; task = await e.getTask(runId)) {
      if (task.status === 'AWAITING_APPROVAL') {
        // The user's final gate: it fails until the debugging step writes fixed.txt.
        await e.approve(runId, { ...task.plan, finalTestCommand: 'test -f fixed.txt' });
        continue;
      }
      if (task.status !== 'AWAITING_COGNITIVE_RESULT') throw new Error(`unexpected ${task.status}: ${JSON.stringify(task)}`);
      const { state } = task.step;
      prompts.set(state, task.prompt);
      if (state === 'final:debugging') writeFileSync(join(dir, 'fixed.txt'), 'fixed\n');
      const out = state === 'prepare:task_list' ? TASKS : state === 'final:review' ? '# Final review\n\nVerdict: changes needed\n\n1. `index.js` — name the export.\n' : state.endsWith(':review') ? 'Verdict: no changes needed' : state === 'final:fixes' ? 'Named it.\n\n## Left open\n\n- none' : `${state} output`;
      await e.submitTask(runId, goodAnswer(task.step, out));
    }
    expect(prompts.get('final:debugging')).toContain("The project's own tests fail at the final gate, run over the whole project after its components (output below).");
    expect(prompts.get('final:fixes')).toContain("The project's own test command below runs after you.");
    for (const state of ['final:debugging', 'final:fixes']) expect(prompts.get(state)).not.toMatch(/end-to-end test/);
  });
});

describe('commit style', () => {
  it('learns Conventional Commits and case from the log, and names branches after the goal', async () => {
    const { dir } = repository();
    expect(await commitStyle(dir)).toEqual({ conventional: true, lowerCase: true });
    expect(commitSubject({ conventional: true, lowerCase: true }, 'Support Set and Map.')).toBe('feat: support Set and Map');
    expect(commitSubject({ conventional: false, lowerCase: false }, 'support Set and Map')).toBe('Support Set and Map');
    // A first word cased on purpose keeps its case in either style.
    expect(commitSubject({ conventional: false, lowerCase: true }, 'JSON output for the textstats command')).toBe('JSON output for the textstats command');
    expect(commitSubject({ conventional: true, lowerCase: true }, 'CLI flag for JSON')).toBe('feat: CLI flag for JSON');
    expect(commitSubject({ conventional: false, lowerCase: false }, 'iOS build script')).toBe('iOS build script');
    // A component's id is a name from the code: a title beginning with it keeps its case.
    expect(commitSubject({ conventional: false, lowerCase: false }, 'upper uppercases the input', 'feat', ['upper'])).toBe('upper uppercases the input');
    expect(commitSubject({ conventional: false, lowerCase: false }, 'upper uppercases the input')).toBe('Upper uppercases the input');
    expect(commitSubject({ conventional: false, lowerCase: true }, 'A flag for JSON')).toBe('a flag for JSON');
    // A long subject ends where a clause ends (never mid-sentence), and the message keeps the whole text as its body.
    expect(commitSubject({ conventional: false, lowerCase: true }, 'Add a --json option to the textstats CLI that prints the counts as a JSON object')).toBe('add a --json option to the textstats CLI');
    const conventional = { conventional: true, lowerCase: true };
    expect(commitMessage(conventional, 'capitalize uppercases the first letter of each word and leaves the rest unchanged')).toBe(
      'feat: capitalize uppercases the first letter of each word\n\ncapitalize uppercases the first letter of each word and leaves the rest unchanged',
    );
    expect(commitSubject(conventional, 'Add a reverseWords(text) helper that reverses the order of the words in the text')).toBe('feat: add a reverseWords(text) helper');
    expect(commitMessage(conventional, 'Support Set and Map.')).toBe('feat: support Set and Map');
    // A title naming several things names each of them, without what it says about them; the body has the whole.
    const two = 'add truncate(s, n) that shortens a string with an ellipsis, and wordCount(s) that counts words';
    expect(commitMessage(conventional, two)).toBe(`feat: add truncate(s, n) and wordCount(s)\n\n${two}`);
    // A later goal's tasks joined (commitTitle): a part that begins as a clause names no thing, so no list of fragments is
    // made of them (played as the model, the subject was "feat: with separator, words are joined and a separator").
    const tasks = 'with separator, words are joined by it (and maxLength cuts at it); a separator that is empty or holds letters or digits throws a RangeError naming separator';
    expect(commitMessage(conventional, tasks)).toBe(`feat: with separator, words are joined by it (and maxLength cuts at it)\n\n${tasks}`);
    expect(commitSubject(conventional, 'Add a slug helper that lowercases and joins words with dashes; a `count(a, b)` helper that sums; and a CLI')).toBe(
      'feat: add a slug helper, a `count(a, b)` helper and a CLI',
    );
    // Without a clause that fits, it is cut at a word's end and marked cut; the body has the whole.
    const long = 'Rename the parseConfigurationFileContents helper everywhere in the loader module of the config package';
    expect(commitMessage(conventional, long)).toBe(`feat: rename the parseConfigurationFileContents helper everywhere in…\n\n${long}`);
    expect(branchName('Support Set & Map in toVal (src/index.js), please!')).toBe('erasmus/support-set-map-in-toval-src');
    expect(branchName(undefined)).toBe('erasmus/run');
  });
  it("follows the scope most recent subjects begin with (`textkit: add …`), the one whose commits touched the commit's folders", async () => {
    const lib = repository().dir;
    const dir = join(root!, 'py');
    mkdirSync(join(dir, 'textkit'), { recursive: true });
    mkdirSync(join(dir, 'cli'));
    git(dir, 'init', '-q', '-b', 'main');
    const commit = (file: string, subject: string) => {
      writeFileSync(join(dir, file), `${subject}\n`);
      git(dir, 'add', '-A');
      git(dir, 'commit', '-q', '-m', subject);
    };
    commit('README.md', 'Initial layout');
    commit('textkit/slug.py', 'textkit: add slugify');
    commit('textkit/count.py', 'textkit: count words');
    commit('cli/main.py', 'cli: add the stats command');
    commit('textkit/slug.py', 'textkit: strip accents in slugify');
    const style = await commitStyle(dir, ['textkit/truncate.py', 'tests/test_truncate.py']);
    expect(style).toEqual({ conventional: false, lowerCase: true, scope: 'textkit' });
    expect(commitSubject(style, 'Add truncate')).toBe('textkit: add truncate');
    expect((await commitStyle(dir, ['cli/flags.py'])).scope).toBe('cli');
    // Files no scope's commits came near: the scope used most.
    expect((await commitStyle(dir, ['setup.py'])).scope).toBe('textkit');
    // Conventional Commits with scopes: the type, then the scope.
    commit('cli/main.py', 'feat(cli): json output');
    commit('textkit/count.py', 'fix(textkit): count hyphenated words once');
    commit('textkit/slug.py', 'feat(textkit): keep digits');
    commit('textkit/slug.py', 'feat(textkit): keep digits again');
    commit('textkit/slug.py', 'feat(textkit): keep digits once more');
    const conventional = await commitStyle(dir, ['cli/main.py']);
    expect(conventional).toEqual({ conventional: true, lowerCase: true, scope: 'cli' });
    expect(commitSubject(conventional, 'Add a --csv flag', 'feat')).toBe('feat(cli): add a --csv flag');
    // Half or fewer name a scope: none (the repository above: `fix(core): …` once in two).
    expect(await commitStyle(lib)).toEqual({ conventional: true, lowerCase: true });
  });
});

describe("the final phase's commit title", () => {
  const code = (state: string) => ({ state, files: [{ path: 'src/slug.js', change: 'modified' as const }] });
  const files = ['src/slug.js', 'test/e2e.test.js', 'docs/reviews/final.md'];
  it('says which step changed the code: the end-to-end debugging, the final review, or both', () => {
    // Only the review's fixes changed code: the commit said 'fix what the end-to-end tests found' though every test passed.
    expect(finalCommitWhat(files, [{ state: 'final:testing', files: [{ path: 'test/e2e.test.js', change: 'added' }] }, code('final:fixes')])).toEqual({ title: "add end-to-end tests and apply the final review's fixes", type: 'fix' });
    expect(finalCommitWhat(['src/slug.js'], [code('final:fixes')]).title).toBe("apply the final review's fixes");
    expect(finalCommitWhat(files, [code('final:debugging')]).title).toBe('fix what the end-to-end tests found');
    expect(finalCommitWhat(files, [code('final:debugging'), code('final:fixes')]).title).toBe('fix what the end-to-end tests and the final review found');
    expect(finalCommitWhat(files).title).toBe('fix what the end-to-end tests found');
    expect(finalCommitWhat(['test/e2e.test.js', 'README.md'])).toEqual({ title: 'add end-to-end tests and update the documentation', type: 'test' });
  });

  it("after the fixes step was cut short (killed after its edit, run again), the review's fixes are what it commits", () => {
    // The attempt cut short records no files, and its retry, told the edit is made, changes none: no entry names the code.
    const cut = [{ state: 'final:testing', outcome: 'tests-passed' as const }, { state: 'final:review', outcome: 'done' as const }, { state: 'final:fixes', outcome: 'interrupted' as const }, { state: 'final:fixes', outcome: 'tests-passed' as const, files: [] }];
    expect(finalCommitWhat(['bin/slug.js'], cut).title).toBe("apply the final review's fixes");
    // The end-to-end tests failed and were debugged, then the review's fixes were cut short: both.
    expect(finalCommitWhat(['bin/slug.js'], [{ state: 'final:debugging', outcome: 'tests-passed' }, ...cut]).title).toBe('fix what the end-to-end tests and the final review found');
    // A fixes step passed over (no changes asked) or undone by a rewind is not one that ran.
    expect(finalCommitWhat(['bin/slug.js'], [{ state: 'final:fixes', outcome: 'skipped' }]).title).toBe('fix what the end-to-end tests found');
    expect(finalCommitWhat(['bin/slug.js'], [{ state: 'final:fixes', outcome: 'interrupted', rewound: true }, { state: 'final:debugging', outcome: 'interrupted' }]).title).toBe('fix what the end-to-end tests found');
  });
});

describe('a commit step run again', () => {
  // The runner as the gate's: a shell in the folder (no sandbox needed for git here).
  const shell: TestRunner = async (command, cwd) => {
    const r = spawnSync('bash', ['-c', command], { cwd, encoding: 'utf8' });
    return { command, passed: r.status === 0, exitCode: r.status, output: `${r.stdout}${r.stderr}`, durationMs: 0 };
  };
  const at = '2026-01-01T00:00:00.000Z';
  const entry = (state: string, extra: Partial<RunRecord['timeline'][number]> = {}) => ({ state, enteredAt: at, ...extra });
  const record = (dir: string, timeline: RunRecord['timeline']) => ({ projectDir: dir, git: { mode: 'current' }, timeline }) as unknown as RunRecord;
  const what = () => ({ title: 'add the greeting', type: 'feat' as const });

  it("a step that changed a file of the user's included changes: left out of the commit, and named (heldBack), not dropped in silence", async () => {
    const { dir } = repository();
    writeFileSync(join(dir, 'notes.md'), 'mine, half written\n'); // the user's, included when the run started
    const r = record(dir, [entry('core:development', { leftAt: at, outcome: 'done', files: [{ path: 'notes.md', change: 'modified' }, { path: 'greet.js', change: 'added' }] }), entry('core:commit')]);
    r.git!.userFiles = ['notes.md', '.erasmus/settings.json'];
    writeFileSync(join(dir, 'notes.md'), 'mine, half written\nand the step\'s line\n');
    writeFileSync(join(dir, 'greet.js'), 'hi\n');
    await expect(commitRunWork(r, 'core:commit', what, shell, async () => undefined)).resolves.toMatchObject({ kind: 'committed', files: [{ path: 'greet.js', change: 'added' }], heldBack: ['notes.md'] });
    expect(git(dir, 'status', '--porcelain')).toBe('M notes.md');
    expect(heldBackNote(['notes.md'])).toBe("not committed: `notes.md` — it holds your uncommitted changes (the run started with them included), which Erasmus never commits; the steps' changes to it are in the project folder beside yours, uncommitted: commit it yourself");
  });

  it("a host the user allowed during a step (.erasmus/settings.json written by their answer) is not committed as the component's work", async () => {
    const { dir } = repository();
    const r = record(dir, [entry('core:development', { leftAt: at, outcome: 'done', files: [{ path: '.erasmus/settings.json', change: 'added' }, { path: 'greet.js', change: 'added' }] }), entry('core:commit')]);
    mkdirSync(join(dir, '.erasmus'), { recursive: true });
    writeFileSync(join(dir, '.erasmus', 'settings.json'), '{"runners":{"network":{"allowedHosts":["registry.npmjs.org"]}}}\n');
    writeFileSync(join(dir, 'greet.js'), 'hi\n');
    await expect(filesToCommit(r)).resolves.toEqual(['greet.js']);
    await expect(commitRunWork(r, 'core:commit', what, shell, async () => undefined)).resolves.toMatchObject({ kind: 'committed', files: [{ path: 'greet.js', change: 'added' }] });
    expect(git(dir, 'status', '--porcelain')).toBe('?? .erasmus/');
  });

  it('killed while git committed (its hooks running: its index.lock left, HEAD where it was), the commit is made on the next try', async () => {
    const { dir } = repository();
    writeFileSync(join(dir, 'greet.js'), 'hi\n');
    const r = record(dir, [entry('core:development', { leftAt: at, outcome: 'done', files: [{ path: 'greet.js', change: 'added' }] }), entry('core:commit')]);
    r.git!.pendingCommit = { state: 'core:commit', head: git(dir, 'rev-parse', 'HEAD') };
    const lock = join(dir, '.git', 'index.lock');
    writeFileSync(lock, '');
    utimesSync(lock, new Date(Date.now() - 3_600_000), new Date(Date.now() - 3_600_000));
    await expect(commitRunWork(r, 'core:commit', what, shell, async () => undefined)).resolves.toMatchObject({ kind: 'committed', files: [{ path: 'greet.js', change: 'added' }] });
    expect(git(dir, 'log', '-1', '--format=%s')).toBe('feat: add the greeting');
    expect(existsSync(lock)).toBe(false);
  });

  it("a HEAD.lock an earlier Erasmus process's git left (killed while it moved HEAD) is gone before the commit: the final commit is made, not refused three times", async () => {
    const { dir } = repository();
    writeFileSync(join(dir, 'greet.js'), 'hi\n');
    const r = record(dir, [entry('core:development', { leftAt: at, outcome: 'done', files: [{ path: 'greet.js', change: 'added' }] }), entry('core:commit')]);
    const lock = join(dir, '.git', 'HEAD.lock');
    writeFileSync(lock, '');
    utimesSync(lock, new Date(Date.now() - 3_600_000), new Date(Date.now() - 3_600_000));
    await expect(commitRunWork(r, 'core:commit', what, shell, async () => undefined)).resolves.toMatchObject({ kind: 'committed' });
    expect(existsSync(lock)).toBe(false);
  });

  it('inside a long-running process (serve for days), a git killed mid-commit leaves its index.lock younger than the process: left alone while that git lives, removed before the next commit once it is dead', async () => {
    const { dir } = repository();
    writeFileSync(join(dir, 'greet.js'), 'hi\n');
    const r = record(dir, [entry('core:development', { leftAt: at, outcome: 'done', files: [{ path: 'greet.js', change: 'added' }] }), entry('core:commit')]);
    // A commit made before in this process: the locks were looked for then.
    writeFileSync(join(dir, 'notes.md'), 'mine, changed\n');
    await expect(commitRunWork(record(dir, [entry('core:development', { leftAt: at, outcome: 'done', files: [{ path: 'notes.md', change: 'modified' }] }), entry('core:commit')]), 'core:commit', what, shell, async () => undefined)).resolves.toMatchObject({ kind: 'committed' });
    // A real git commit of some paths (as Erasmus commits) holds index.lock while its pre-commit hook runs.
    const mark = join(root!, 'hook-running');
    writeFileSync(join(dir, '.git', 'hooks', 'pre-commit'), `#!/bin/sh\ntouch ${mark}\nsleep 60\n`, { mode: 0o755 });
    git(dir, 'add', 'greet.js');
    const child = spawn('git', ['-c', 'user.email=me@example.com', '-c', 'user.name=Me', 'commit', '-qm', 'theirs', '--only', '--', 'greet.js'], { cwd: dir, detached: true, stdio: 'ignore' });
    try {
      for (let i = 0; !existsSync(mark); i++) {
        if (i > 600) throw new Error('the hook never ran');
        await new Promise((res) => setTimeout(res, 20));
      }
      const lock = join(dir, '.git', 'index.lock');
      expect(existsSync(lock)).toBe(true);
      // That git lives: its lock stays, however old.
      expect(await removeDeadLocks([lock], [dir, join(dir, '.git')], { minAgeMs: 0 })).toEqual([]);
      expect(existsSync(lock)).toBe(true);
      // Also when the lock is older than this process (a user's own `git commit` left open in an editor, then a resume).
      expect(await removeDeadLocks([lock], [dir, join(dir, '.git')], { minAgeMs: 0, since: Date.now() + 60_000 })).toEqual([]);
      expect(existsSync(lock)).toBe(true);
      // Killed (the OOM killer, a user's kill): its lock stays behind, younger than this process.
      const exited = new Promise((res) => child.once('exit', res));
      process.kill(-child.pid!, 'SIGKILL');
      await exited;
      expect(existsSync(lock)).toBe(true);
      expect(statSync(lock).mtimeMs).toBeGreaterThan(performance.timeOrigin);
      rmSync(join(dir, '.git', 'hooks', 'pre-commit'));
      await expect(commitRunWork(r, 'core:commit', what, shell, async () => undefined)).resolves.toMatchObject({ kind: 'committed', files: [{ path: 'greet.js', change: 'added' }] });
      expect(existsSync(lock)).toBe(false);
      expect(git(dir, 'log', '-1', '--format=%s')).toBe('feat: add the greeting');
    } finally {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {}
    }
  });

  it("after a refusal or an interruption still commits the steps' work from before it; stopped while git runs, it is told apart by HEAD on the next try", async () => {
    const { dir } = repository();
    writeFileSync(join(dir, 'greet.js'), 'hi\n');
    // The development step wrote greet.js; the commit was refused by the hooks (or interrupted); the debugging step after it changed nothing.
    const timeline = [entry('core:development', { leftAt: at, outcome: 'done', files: [{ path: 'greet.js', change: 'added' }] }), entry('core:commit', { leftAt: at, outcome: 'tests-failed' }), entry('core:commit', { leftAt: at, outcome: 'interrupted' }), entry('core:redebugging', { leftAt: at, outcome: 'tests-passed', files: [] }), entry('core:commit')];
    const r = record(dir, timeline);
    expect(await filesToCommit(r)).toEqual(['greet.js']);
    // Stopped while git committed: not a refusal; the commit is pending, and the step run again takes HEAD as its commit.
    const stop = new AbortController();
    const stopped: TestRunner = async (command, cwd) => {
      const done = await shell(command, cwd);
      stop.abort();
      return { ...done, passed: false };
    };
    await expect(commitRunWork(r, 'core:commit', what, stopped, async () => undefined, stop.signal)).rejects.toThrow(StepAbortedError);
    expect(r.git?.pendingCommit).toMatchObject({ state: 'core:commit' });
    const head = git(dir, 'rev-parse', 'HEAD');
    expect(git(dir, 'log', '-1', '--format=%s')).toBe('feat: add the greeting');
    await expect(commitRunWork(r, 'core:commit', what, shell, async () => undefined)).resolves.toMatchObject({ kind: 'committed', sha: head });
    expect(git(dir, 'log', '--format=%s')).toBe('feat: add the greeting\nfix(core): the number\nfeat: first version');
  });

  it("the final commit's title comes from what it holds: code a side-by-side run's merge step resolved (and committed) is not in it", async () => {
    const { dir } = repository();
    writeFileSync(join(dir, 'index.js'), 'module.exports = 3;\n');
    git(dir, 'commit', '-qam', 'feat: merged component'); // the merge step's resolution, committed by the merge
    mkdirSync(join(dir, 'test'));
    writeFileSync(join(dir, 'test', 'e2e.test.js'), 'ok\n');
    const timeline = [
      entry('b:merge', { leftAt: at, outcome: 'committed', commit: 'x', files: [{ path: 'index.js', change: 'modified' }] }),
      entry('final:testing', { leftAt: at, outcome: 'tests-passed', files: [{ path: 'test/e2e.test.js', change: 'added' }] }),
      entry('final:commit'),
    ];
    const r = record(dir, timeline);
    const done = await commitRunWork(r, 'final:commit', (files) => finalCommitWhat(files, timeline), shell, async () => undefined);
    expect(done).toMatchObject({ kind: 'committed', files: [{ path: 'test/e2e.test.js', change: 'added' }] });
    expect(git(dir, 'log', '-1', '--format=%s')).toBe('test: add end-to-end tests');
  });
});
