import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Paths } from '../paths/index';
import { ContextDocs } from './documents';
import { finishRun, titleOfGoal } from './finish';
import { componentsStatus, scheduleWithStatus } from './schedule-status';
import type { RunRecord } from './run-record';
import { git, repositoryIn } from './testing-repo';

let root: string | undefined;
afterEach(() => {
  if (root) rmSync(root, { recursive: true, force: true });
  root = undefined;
});

/** A completed run as its record says, without driving one: erasmus/add-a-greeting holds one commit on main. */
function branchedRun(): { dir: string; paths: Paths; record: RunRecord } {
  root = mkdtempSync(join(tmpdir(), 'erasmus-finish-'));
  const dir = repositoryIn(root);
  git(dir, 'checkout', '-q', '-b', 'erasmus/add-a-greeting');
  mkdirSync(join(dir, 'src'));
  writeFileSync(join(dir, 'src', 'greet.js'), "exports.greet = (n) => 'hi ' + n;\n");
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'feat: add the greeting');
  const now = new Date().toISOString();
  const record: RunRecord = {
    version: 1,
    runId: 'r1',
    projectDir: dir,
    goal: 'Add a greeting',
    executor: { kind: 'external' },
    status: 'COMPLETED',
    phase: 'execute',
    approved: true,
    plan: { components: [{ id: 'core', title: 'the core', tasks: [{ id: 'C1', title: 'Add the greeting', status: 'done' }] }], maxDebugAttempts: 3 },
    git: { mode: 'branch', branch: 'erasmus/add-a-greeting', base: 'main' },
    timeline: [{ state: 'core:commit', component: 'core', enteredAt: now, leftAt: now, outcome: 'committed', commit: git(dir, 'rev-parse', 'HEAD'), files: [{ path: 'src/greet.js', change: 'added' }] }],
    totals: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
    createdAt: now,
    updatedAt: now,
  };
  return { dir, paths: new Paths(join(root, 'home')), record };
}

describe('finishing a completed run', () => {
  it('refuses, changing nothing, when the start branch moved in a conflicting way; merges a move that does not conflict', async () => {
    const { dir, record, paths } = branchedRun();
    const e = { finish: (_: string, choice: 'squash' | 'keep') => finishRun(paths, record, choice), status: async (_: string) => ({ git: record.git }) };
    const runId = record.runId;
    const onMain = (file: string, text: string, subject: string) => {
      git(dir, 'checkout', '-q', 'main');
      writeFileSync(join(dir, file), text);
      git(dir, 'add', file);
      git(dir, 'commit', '-q', '-m', subject);
      git(dir, 'checkout', '-q', 'erasmus/add-a-greeting');
    };
    const before = git(dir, 'rev-parse', 'main');
    git(dir, 'checkout', '-q', 'main');
    git(dir, 'checkout', '-q', 'erasmus/add-a-greeting', '--', 'src'); // main gets a src/greet.js of its own
    writeFileSync(join(dir, 'src', 'greet.js'), 'exports.greet = () => "hello";\n');
    git(dir, 'commit', '-q', '-am', 'feat: a greeting of my own');
    git(dir, 'checkout', '-q', 'erasmus/add-a-greeting');
    const moved = git(dir, 'show-ref', '--heads');
    await expect(e.finish(runId, 'squash')).rejects.toThrow(
      /^main moved since the run started \(1 new commit\), and it conflicts with the run's changes in src\/greet\.js\. Nothing was changed: the run's work stays on erasmus\/add-a-greeting\. Bring main in and resolve the conflicts \(git checkout erasmus\/add-a-greeting && git merge main\), then finish again; or keep the branch \(erasmus workflow finish .* --keep\)\.$/,
    );
    expect(git(dir, 'show-ref', '--heads')).toBe(moved);
    expect(git(dir, 'symbolic-ref', '--short', 'HEAD')).toBe('erasmus/add-a-greeting');
    expect(git(dir, 'status', '--porcelain')).toBe('');
    expect((await e.status(runId)).git?.finished).toBeUndefined();

    // main without the conflict, moved by a commit elsewhere: both end up on main.
    git(dir, 'branch', '-f', 'main', before);
    onMain('CHANGELOG.md', '# Changes\n', 'docs: a changelog');
    // The project has a remote that holds main as it was: the squash is not pushed, and the message says so.
    git(dir, 'init', '-q', '--bare', join(root!, 'origin.git'));
    git(dir, 'remote', 'add', 'origin', join(root!, 'origin.git'));
    git(dir, 'push', '-q', 'origin', 'main');
    const out = await e.finish(runId, 'squash');
    expect(out.message).toContain('. Nothing was pushed: main is 1 commit ahead of origin/main (git push origin main when you choose).');
    expect(git(dir, 'log', '--format=%s', 'main')).toBe('feat: add a greeting\ndocs: a changelog\nfix(core): the number\nfeat: first version');
    expect(git(dir, 'ls-tree', '-r', '--name-only', out.commit!)).toBe('CHANGELOG.md\nindex.js\nnotes.md\nsrc/greet.js');
    expect(readFileSync(join(dir, 'CHANGELOG.md'), 'utf8')).toBe('# Changes\n');
    expect(existsSync(join(dir, 'src', 'greet.js'))).toBe(true);
  });

  it('keeps the branch for a pull request when asked, and says where the summary is', async () => {
    const { dir, record, paths } = branchedRun();
    const main = git(dir, 'rev-parse', 'main');
    const out = await finishRun(paths, record, 'keep');
    const file = paths.runPullRequest(dir, record.runId);
    expect(out.message).toBe(`Kept branch erasmus/add-a-greeting (branched from main). Open a pull request from it with the summary in ${file}, or merge it later: git checkout main && git merge --squash erasmus/add-a-greeting && git commit. It stays checked out: a new goal starts from it and is finished into it (git checkout main first to start from main).`);
    expect(git(dir, 'rev-parse', 'main')).toBe(main);
    expect(git(dir, 'symbolic-ref', '--short', 'HEAD')).toBe('erasmus/add-a-greeting');
    expect(readFileSync(file, 'utf8')).toMatch(/^# feat: add a greeting\n\n## Goal\n/);
    await expect(finishRun(paths, record, 'squash')).rejects.toThrow(/was finished already: its branch erasmus\/add-a-greeting was kept/);
    // main holding the branch's work already (merged by hand): no empty squash commit is made.
    git(dir, 'checkout', '-q', 'main');
    git(dir, 'merge', '-q', '--ff-only', 'erasmus/add-a-greeting');
    git(dir, 'checkout', '-q', '-b', 'erasmus/add-a-greeting-2');
    git(dir, 'commit', '-q', '--allow-empty', '-m', 'feat: nothing new');
    const empty = { ...record, git: { mode: 'branch' as const, branch: 'erasmus/add-a-greeting-2', base: 'main' } };
    const mainBefore = git(dir, 'rev-parse', 'main');
    await expect(finishRun(paths, empty, 'squash')).rejects.toThrow(/^main holds everything erasmus\/add-a-greeting-2 changes already: nothing to squash, nothing was changed\. Keep the branch/);
    expect(git(dir, 'rev-parse', 'main')).toBe(mainBefore);
    git(dir, 'checkout', '-q', 'erasmus/add-a-greeting');
    // With a remote, the branch kept is not on it yet: the push command comes first.
    git(dir, 'init', '-q', '--bare', join(root!, 'origin.git'));
    git(dir, 'remote', 'add', 'origin', join(root!, 'origin.git'));
    const again = await finishRun(paths, { ...record, git: { ...record.git!, finished: undefined } }, 'keep');
    expect(again.message).toBe(`Kept branch erasmus/add-a-greeting (branched from main). It is not on origin yet: git push -u origin erasmus/add-a-greeting, then open a pull request from it with the summary in ${file}, or merge it later: git checkout main && git merge --squash erasmus/add-a-greeting && git commit. It stays checked out: a new goal starts from it and is finished into it (git checkout main first to start from main).`);
    // On origin already (a durable run pushes its branch at completion, with no upstream setting): no push is asked for.
    // main holds a commit origin lacks, and so does the branch: a pull request from it carries that commit, which is said.
    git(dir, 'push', '-q', 'origin', 'erasmus/add-a-greeting:refs/heads/erasmus/add-a-greeting', 'main~1:refs/heads/main');
    const kept = () => ({ ...record, git: { ...record.git!, finished: undefined } });
    const pushed = await finishRun(paths, kept(), 'keep');
    expect(pushed.message).toBe(`Kept branch erasmus/add-a-greeting (branched from main). Open a pull request from it with the summary in ${file}, or merge it later: git checkout main && git merge --squash erasmus/add-a-greeting && git commit. main has 1 commit not on origin/main yet, which erasmus/add-a-greeting holds too: push main first (git push origin main), or the pull request carries it. It stays checked out: a new goal starts from it and is finished into it (git checkout main first to start from main).`);
    // The branch moved on since it was pushed: origin's is older, and the push command says so.
    git(dir, 'commit', '-q', '--allow-empty', '-m', 'docs: one more');
    git(dir, 'push', '-q', 'origin', 'main');
    expect((await finishRun(paths, kept(), 'keep')).message).toBe(`Kept branch erasmus/add-a-greeting (branched from main). origin has an older erasmus/add-a-greeting: git push origin erasmus/add-a-greeting, then open a pull request from it with the summary in ${file}, or merge it later: git checkout main && git merge --squash erasmus/add-a-greeting && git commit. It stays checked out: a new goal starts from it and is finished into it (git checkout main first to start from main).`);
  });
});

describe("a squashed run's branch on origin", () => {
  it('is deleted there when the run pushed it (a durable run, for its workers) and origin still holds what it pushed; kept, saying why, otherwise', async () => {
    const { dir, record, paths } = branchedRun();
    git(dir, 'init', '-q', '--bare', join(root!, 'origin.git'));
    git(dir, 'remote', 'add', 'origin', join(root!, 'origin.git'));
    git(dir, 'push', '-q', 'origin', 'main', 'erasmus/add-a-greeting');
    const onOrigin = () => git(dir, 'ls-remote', '--heads', 'origin');
    const durable = { ...record, durable: { database: 'postgres://erasmus@127.0.0.1/runs' } };
    const out = await finishRun(paths, durable, 'squash');
    expect(out.message).toContain(
      "Branch erasmus/add-a-greeting keeps the run's own commits (delete it: git branch -D erasmus/add-a-greeting). Its copy on origin, which the run pushed for its workers, was deleted, as a merged branch is (git push origin erasmus/add-a-greeting puts it back). Nothing else was pushed: main is 1 commit ahead of origin/main (git push origin main when you choose).",
    );
    expect(onOrigin()).not.toContain('erasmus/add-a-greeting');
    expect(git(dir, 'branch', '--list', '-r')).not.toContain('erasmus/add-a-greeting');
    expect(git(dir, 'rev-parse', '--verify', '-q', 'erasmus/add-a-greeting')).toMatch(/^[0-9a-f]{40}$/);

    // Someone pushed to it since the run did: origin's branch stays, and the message says why.
    git(dir, 'checkout', '-q', 'erasmus/add-a-greeting');
    git(dir, 'branch', '-f', 'main', 'erasmus/add-a-greeting~1');
    git(dir, 'push', '-q', 'origin', 'erasmus/add-a-greeting~1:refs/heads/erasmus/add-a-greeting');
    const again = await finishRun(paths, { ...durable, git: { ...record.git!, finished: undefined } }, 'squash');
    expect(again.message).toContain("origin's erasmus/add-a-greeting is not the one the run pushed (someone pushed to it since), so it was kept: delete it there once you no longer need it (git push origin --delete erasmus/add-a-greeting).");
    expect(onOrigin()).toContain('refs/heads/erasmus/add-a-greeting');

    // A run of this process (not durable) whose branch the user pushed: kept, as theirs.
    git(dir, 'checkout', '-q', 'erasmus/add-a-greeting');
    git(dir, 'branch', '-f', 'main', 'erasmus/add-a-greeting~1');
    git(dir, 'push', '-q', '-f', 'origin', 'erasmus/add-a-greeting');
    const local = await finishRun(paths, { ...record, git: { ...record.git!, finished: undefined } }, 'squash');
    expect(local.message).toContain('origin has erasmus/add-a-greeting too (pushed from here, not by the run), so it was kept: delete it there once you no longer need it (git push origin --delete erasmus/add-a-greeting). Nothing was pushed: main is 1 commit ahead of origin/main');
    expect(onOrigin()).toContain('refs/heads/erasmus/add-a-greeting');
  });
});

describe('the progress schedule after a squash', () => {
  it("names the squash commit on the user's branch, not the run's commits the squash left behind", async () => {
    const { dir, record, paths } = branchedRun();
    const run = git(dir, 'rev-parse', 'HEAD');
    const other = git(dir, 'rev-parse', 'main'); // a commit of the user's, not the run's: stays as it is
    const docs = new ContextDocs(paths, dir);
    const lanes = [{ component: 'core', status: 'merged', commit: run }] as never;
    const planned = `# Progress schedule\n\n1. core: the greeting (commit ${run.slice(0, 7)}). Built on ${other.slice(0, 10)}.\n\n<!-- erasmus: describes commit ${run} -->\n`;
    await docs.write({ doc: 'progress_schedule' }, scheduleWithStatus(planned, componentsStatus(record.plan!, lanes), ['core']));
    expect(await docs.text({ doc: 'progress_schedule' })).toContain(`finished; committed and merged into the run's branch as ${run.slice(0, 8)}.`);
    const out = await finishRun(paths, record, 'squash');
    const squash = out.commit!;
    const text = (await docs.text({ doc: 'progress_schedule' }))!;
    expect(text).toContain(`- core — the core (tasks C1): finished; committed, then squashed into main as ${squash.slice(0, 8)}.`);
    expect(text).toContain(`1. core: the greeting (commit ${squash.slice(0, 8)}). Built on ${other.slice(0, 10)}.`);
    // Erasmus's bookkeeping line keeps the commit it describes (drift reads the run's branch for it).
    expect(text).toContain(`<!-- erasmus: describes commit ${run} -->`);
    expect(text.replace(`describes commit ${run}`, '')).not.toContain(run.slice(0, 7));
  });
});

describe('a squash commit of a long goal', () => {
  it('is titled by the goal\'s first clause, not cut mid-sentence, and holds the whole goal in its body', async () => {
    const { dir, record, paths } = branchedRun();
    record.goal = 'Add a reverseWords(text) helper that reverses the order of the words in the text';
    const out = await finishRun(paths, record, 'squash');
    expect(git(dir, 'log', '-1', '--format=%B', out.commit!)).toBe(`feat: add a reverseWords(text) helper\n\n${record.goal}\n\nSquashed from erasmus/add-a-greeting:\n- feat: add the greeting`);
  });
});

describe('finishing a run begun in a repository without commits', () => {
  it('squashes it into the branch that was never born: its first commit', async () => {
    root = mkdtempSync(join(tmpdir(), 'erasmus-finish-'));
    const dir = join(root, 'fresh');
    mkdirSync(dir);
    git(dir, 'init', '-q', '-b', 'main');
    git(dir, 'checkout', '-q', '-b', 'erasmus/add-a-greeting');
    writeFileSync(join(dir, 'greet.js'), 'exports.greet = 1;\n');
    git(dir, 'add', '-A');
    git(dir, 'commit', '-q', '-m', 'Add the greeting');
    const now = new Date().toISOString();
    const record: RunRecord = {
      version: 1, runId: 'r2', projectDir: dir, goal: 'Add a greeting', executor: { kind: 'external' }, status: 'COMPLETED', phase: 'execute', approved: true,
      git: { mode: 'branch', branch: 'erasmus/add-a-greeting', base: 'main' },
      timeline: [{ state: 'core:commit', component: 'core', enteredAt: now, leftAt: now, outcome: 'committed', commit: git(dir, 'rev-parse', 'HEAD') }],
      totals: { inputTokens: 0, outputTokens: 0, totalTokens: 0 }, createdAt: now, updatedAt: now,
    };
    const out = await finishRun(new Paths(join(root, 'home')), record, 'squash');
    expect(out.message).toMatch(/^Squashed 1 commit of erasmus\/add-a-greeting into main as [0-9a-f]{10} "Add a greeting"; main is checked out\./);
    expect(git(dir, 'log', '--format=%s', 'main')).toBe('Add a greeting');
    expect(git(dir, 'symbolic-ref', '--short', 'HEAD')).toBe('main');
    // A base the user deleted is not taken for one never born: refused, nothing changed.
    git(dir, 'checkout', '-q', 'erasmus/add-a-greeting');
    git(dir, 'branch', '-q', '-D', 'main');
    const other = { ...record, git: { mode: 'branch' as const, branch: 'erasmus/add-a-greeting', base: 'main' }, timeline: [] };
    await expect(finishRun(new Paths(join(root, 'home')), other, 'squash')).rejects.toThrow(/branch main, where the run started, no longer exists\. Nothing was changed/);
  });
});

describe('a pull request title', () => {
  it('is the goal\'s first clause, without a parenthesis of file names', () => {
    expect(titleOfGoal('Support Set values in cx (src/index.js): the members of a Set count. More.')).toBe('Support Set values in cx');
    expect(titleOfGoal('Add a greeting.')).toBe('Add a greeting');
    expect(titleOfGoal('Fix: x\nsecond line')).toBe('Fix: x');
  });
});
