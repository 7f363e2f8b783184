import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { PtyManager } from '../runners/pty/index';
import { CommandRunner } from '../runners/runner';
import { runGate } from './gate';
import { afterEach, describe, expect, it } from 'vitest';
import { parseGoTestJson, parseJunit, prepareReport, readReport } from './test-report';
import { namesTask, tasksWithoutPassingTest } from '../../contract/trace';
import type { TestRun } from './verify';

let root: string | undefined;
afterEach(async () => {
  if (root) await rm(root, { recursive: true, force: true });
  root = undefined;
});

async function project(files: Record<string, string>, git = true): Promise<string> {
  root = await mkdtemp(join(tmpdir(), 'erasmus-report-'));
  for (const [path, text] of Object.entries(files)) {
    await mkdir(join(root, path, '..'), { recursive: true });
    await writeFile(join(root, path), text);
  }
  if (git) execFileSync('git', ['init', '-q'], { cwd: root });
  return root;
}

/**
 * Runs the gate's command as the workflow does: with the report asked for, then read. The report is read with the
 * run's printed output withheld, so every result below comes from the report file the runner wrote, never from stdout.
 */
async function gate(dir: string, command: string) {
  const setup = await prepareReport(dir, command);
  const run = await runTests(setup.command, dir, undefined, setup.env, 120_000);
  const report = await readReport(setup, { ...run, output: '' });
  return { run, report, setup };
}

const hasPytest = (() => {
  try {
    execFileSync('python3', ['-m', 'pytest', '--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

describe('per-test results come from the runner\'s report', () => {
  it('node --test (through npm test): describe blocks and tests, pass and fail, with the human output unchanged', async () => {
    const dir = await project({
      'package.json': JSON.stringify({ type: 'module', scripts: { test: 'node --test' } }),
      'test/words.test.js': `import { test, describe } from 'node:test';
import assert from 'node:assert';
describe('CORE-1: lowercases words', () => {
  test('keeps digits', () => assert.equal('A1'.toLowerCase(), 'a1'));
  test('is wrong on purpose', () => assert.equal(1, 2));
});
test('CORE-2: splits on spaces', () => assert.deepEqual('a b'.split(' '), ['a', 'b']));
test('a test that names no task', () => console.log('✔ CORE-3: printed like a passing test (1ms)'));
describe('CORE-4: "quotes"', () => test('keeps "-" & <x> as written', () => {}));
`,
    });
    const { run, report } = await gate(dir, 'npm test --silent');
    expect(run.passed).toBe(false);
    expect(run.output).toContain('CORE-2: splits on spaces'); // the spec reporter still prints for people
    expect(run.output).toContain('✔ CORE-3: printed like a passing test'); // ...and a line that only looks like a result: not one
    expect(report.traced).toBe(true);
    expect(report.toolchains).toEqual(['node-test']);
    expect(report.tests).toEqual(
      expect.arrayContaining([
        { name: 'keeps digits', suite: 'CORE-1: lowercases words', passed: true },
        expect.objectContaining({ name: 'is wrong on purpose', suite: 'CORE-1: lowercases words', passed: false }),
        expect.objectContaining({ name: 'CORE-2: splits on spaces', passed: true }),
        expect.objectContaining({ name: 'a test that names no task', passed: true }),
        // node's reporter escapes a quote twice (&amp;quot;): the name reads as the test has it.
        expect.objectContaining({ name: 'keeps "-" & <x> as written', suite: 'CORE-4: "quotes"', passed: true }),
      ]),
    );
    expect(report.tests).toHaveLength(5);
    expect(tasksWithoutPassingTest(['CORE-1', 'CORE-2', 'CORE-3'], report.tests)).toEqual(['CORE-3']);
    // The report is read once and removed: nothing is left in the project's .git for a later run to mistake for its own.
    expect(await readdir(join(dir, '.git', 'erasmus', 'test-reports'))).toEqual([]);
  });

  // CI installs pytest (.ci/run: python3-pytest): there it must run, never skip. The final gate runs pytest again for test
  // files a bare run does not collect (outside testpaths): each session leaves a report of its own, and all are read.
  it.skipIf(!hasPytest && !process.env.CI)('pytest (quiet, so the names are only in the report), twice in one gate through the runner and its sandbox: test classes and functions of both sessions', async () => {
    const dir = await project({
      'pytest.ini': '[pytest]\ntestpaths = tests\n',
      'tests/test_words.py': `class TestCORE_1:
    def test_keeps_digits(self):
        assert 'A1'.lower() == 'a1'

    def test_wrong_on_purpose(self):
        assert 1 == 2

def test_CORE_2_splits_on_spaces():
    assert 'a b'.split() == ['a', 'b']
`,
      'extra/test_count.py': 'def test_CORE_3_counts():\n    assert len("a b".split()) == 2\n',
    });
    const setup = await prepareReport(dir, 'python3 -m pytest -q -p no:cacheprovider; python3 -m pytest -q -p no:cacheprovider extra/test_count.py');
    const outputs = `${dir}-outputs`;
    const ptys = new PtyManager({ outputsDir: outputs, killGraceMs: 500, login: false });
    const runner = new CommandRunner(ptys, { erasmusHome: join(dir, '.git', 'erasmus-home') });
    try {
      // (No third-party plugin is needed here: not loading them saves about a CPU-second per session. Ours is loaded by -p.)
      const run = await runGate(runner, setup.command, dir, undefined, { env: { ...setup.env, PYTEST_DISABLE_PLUGIN_AUTOLOAD: '1' } });
      expect(run.passed).toBe(true); // the exit status is the last command's
      expect(run.output).toMatch(/1 failed, 2 passed/);
      expect(run.output).not.toContain('test_keeps_digits'); // -q prints dots: the names came from the JUnit reports
      const report = await readReport(setup, { ...run, output: '' });
      expect(report).toMatchObject({ traced: true, toolchains: ['pytest'] });
      expect([...report.tests].sort((x, y) => x.name.localeCompare(y.name))).toEqual([
        { name: 'test_CORE_2_splits_on_spaces', file: 'tests/test_words.py', passed: true },
        { name: 'test_CORE_3_counts', file: 'extra/test_count.py', passed: true },
        { name: 'test_keeps_digits', suite: 'TestCORE_1', file: 'tests/test_words.py', passed: true },
        { name: 'test_wrong_on_purpose', suite: 'TestCORE_1', file: 'tests/test_words.py', passed: false },
      ]);
      expect(tasksWithoutPassingTest(['CORE-1', 'CORE-2', 'CORE-3'], report.tests)).toEqual([]);
      // Read once and removed, the plugin with them.
      expect(await readdir(setup.dir)).toEqual([]);
    } finally {
      await ptys.dispose();
      runner.dispose();
      await rm(outputs, { recursive: true, force: true });
    }
  });

  it('vitest (its JUnit reporter, through npm test): describe blocks joined in the name, the file from the report', async () => {
    const dir = await project({
      'package.json': JSON.stringify({ type: 'module', scripts: { test: 'vitest run' } }),
      'test/words.test.js': `import { describe, it, expect } from 'vitest';
describe('CORE-1: lowercases words', () => {
  it('keeps digits', () => expect('A1'.toLowerCase()).toBe('a1'));
});
it('CORE-2: splits on spaces', () => expect(1).toBe(2));
`,
    });
    await symlink(resolve('node_modules'), join(dir, 'node_modules'));
    const { run, report } = await gate(dir, 'npm test');
    expect(run.passed).toBe(false);
    expect(report.traced).toBe(true);
    expect(report.toolchains).toEqual(['vitest']);
    expect(report.tests).toEqual([
      { name: 'CORE-1: lowercases words > keeps digits', file: 'test/words.test.js', passed: true },
      { name: 'CORE-2: splits on spaces', file: 'test/words.test.js', passed: false },
    ]);
    expect(tasksWithoutPassingTest(['CORE-1', 'CORE-2'], report.tests)).toEqual(['CORE-2']);
  });

  it('a runner that writes no report: the exit status still gates, and the run says it is not traced and why', async () => {
    const dir = await project({ 'check.sh': 'echo "CORE-1: ok"\nexit 0\n' }, false);
    const { run, report } = await gate(dir, 'sh check.sh');
    expect(run.passed).toBe(true);
    expect(report).toMatchObject({ traced: false, tests: [] });
    expect(report.note).toMatch(/wrote no report Erasmus can read/);
    // Outside a repository the reports go under .erasmus/ (and are gone after reading).
    expect(existsSync(join(dir, '.erasmus', 'test-reports'))).toBe(true);
    const cargo = await prepareReport(dir, 'cargo test');
    expect((await readReport(cargo, run)).note).toMatch(/cargo test writes no machine-readable report/);
  });

  it('jest: through the project\'s jest-junit (reporters as arguments, its options by env), read back with describe blocks as the suite; without jest-junit, not traced and how to get it', async () => {
    const dir = await project({ 'package.json': JSON.stringify({ scripts: { test: 'jest --ci' } }), 'node_modules/jest-junit/package.json': '{"name":"jest-junit"}' });
    const setup = await prepareReport(dir, 'npm test');
    expect(setup.command).toBe('npm test -- --reporters=default --reporters=jest-junit');
    expect(setup.env).toMatchObject({ JEST_JUNIT_OUTPUT_DIR: setup.dir, JEST_JUNIT_OUTPUT_NAME: `${setup.id}-jest.xml`, JEST_JUNIT_CLASSNAME: '{classname}', JEST_JUNIT_TITLE: '{title}', JEST_JUNIT_ANCESTOR_SEPARATOR: ' > ', JEST_JUNIT_SUITE_NAME: '{filepath}', JEST_JUNIT_ADD_FILE_ATTRIBUTE: 'true' });
    expect((await prepareReport(dir, 'npx jest')).command).toBe('npx jest --reporters=default --reporters=jest-junit');
    // What jest-junit writes with those options (its documented shape: testsuites > testsuite per file > testcase).
    await writeFile(join(setup.dir, `${setup.id}-jest.xml`), `<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="jest tests" tests="3" failures="1" errors="0" time="0.5">
  <testsuite name="test/words.test.js" errors="0" failures="1" skipped="0" timestamp="2026-01-01T00:00:00" time="0.4" tests="3">
    <testcase classname="CORE-1: lowercases words &gt; in v1.2" name="keeps digits" time="0.001" file="test/words.test.js"></testcase>
    <testcase classname="" name="CORE-2: splits on spaces" time="0.002" file="test/words.test.js"><failure>Error: expected 2</failure></testcase>
    <testcase classname="words" name="CORE-3: trims" time="0" file="test/words.test.js"><skipped/></testcase>
  </testsuite>
</testsuites>`);
    const run: TestRun = { command: setup.command, exitCode: 1, passed: false, output: '', durationMs: 1 };
    const report = await readReport(setup, run);
    expect(report).toMatchObject({ traced: true, toolchains: ['jest'] });
    expect(report.tests).toEqual([
      { name: 'keeps digits', suite: 'CORE-1: lowercases words > in v1.2', file: 'test/words.test.js', passed: true },
      { name: 'CORE-2: splits on spaces', file: 'test/words.test.js', passed: false },
      { name: 'CORE-3: trims', suite: 'words', file: 'test/words.test.js', passed: false, skipped: true },
    ]);
    expect(tasksWithoutPassingTest(['CORE-1', 'CORE-2', 'CORE-3'], report.tests)).toEqual(['CORE-2', 'CORE-3']);
    await rm(join(dir, 'node_modules'), { recursive: true });
    const bare = await prepareReport(dir, 'npm test');
    expect(bare.command).toBe('npm test');
    expect((await readReport(bare, run)).note).toBe('jest writes no JUnit report without the jest-junit reporter (a dev dependency: npm install --save-dev jest-junit)');
  });

  it('several node --test in one command (the final gate\'s) each leave their report: all are read', async () => {
    const dir = await project({
      'a.test.js': "require('node:test')('CORE-1: a', () => {});\n",
      'b.test.js': "require('node:test')('CORE-2: b', () => {});\n",
    });
    const { run, report } = await gate(dir, 'node --test a.test.js && node --test b.test.js');
    expect(run.passed).toBe(true);
    expect(report.tests.map((t) => t.name).sort()).toEqual(['CORE-1: a', 'CORE-2: b']);
  });

  it('in a git worktree (.git is a file) the reports go to the worktree\'s git directory, never into the tree', async () => {
    const main = await project({ 'README.md': 'x\n' });
    execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', 'commit', '-qm', 'x', '--allow-empty'], { cwd: main });
    const wt = join(main, 'wt');
    execFileSync('git', ['worktree', 'add', '-q', wt], { cwd: main });
    await writeFile(join(wt, 'a.test.js'), "require('node:test')('CORE-1: a', () => {});\n");
    const setup = await prepareReport(wt, 'node --test a.test.js');
    expect(setup.dir).toBe(join(main, '.git', 'worktrees', 'wt', 'erasmus', 'test-reports'));
    const run = await runTests(setup.command, wt, undefined, setup.env, 120_000);
    expect((await readReport(setup, run)).tests.map((t) => t.name)).toEqual(['CORE-1: a']);
    expect(execFileSync('git', ['status', '--porcelain'], { cwd: wt, encoding: 'utf8' })).toBe('?? a.test.js\n');
  });

  it('a report folder a command made a symbolic link (.git/erasmus/test-reports → elsewhere): nothing is written, read or removed through it, and the error names the link', async () => {
    const dir = await project({ 'test_a.py': 'def test_CORE_1_a():\n    pass\n' });
    const outside = await mkdtemp(join(tmpdir(), 'erasmus-outside-'));
    try {
      await mkdir(join(dir, '.git', 'erasmus'), { recursive: true });
      await symlink(outside, join(dir, '.git', 'erasmus', 'test-reports'));
      await expect(prepareReport(dir, 'python -m pytest')).rejects.toThrow(
        `the test gate's report folder .git/erasmus/test-reports is not a plain folder: .git/erasmus/test-reports is a symbolic link (to ${outside}). Erasmus writes and reads the test reports there itself, outside the sandbox, so it follows no link there: the tests were not run. Remove .git/erasmus/test-reports`,
      );
      expect(await readdir(outside)).toEqual([]);
      // The link one level up (.git/erasmus → elsewhere) too.
      await rm(join(dir, '.git', 'erasmus'), { recursive: true });
      await symlink(outside, join(dir, '.git', 'erasmus'));
      await expect(prepareReport(dir, 'python -m pytest')).rejects.toThrow(/\.git\/erasmus is a symbolic link/);
      expect(await readdir(outside)).toEqual([]);
      // Made while the tests ran (they are the model's code): the report is not read, and nothing there is removed.
      await rm(join(dir, '.git', 'erasmus'));
      const setup = await prepareReport(dir, 'python -m pytest');
      await rm(join(dir, '.git', 'erasmus'), { recursive: true });
      await mkdir(join(dir, '.git', 'erasmus'));
      await symlink(outside, join(dir, '.git', 'erasmus', 'test-reports'));
      await writeFile(join(outside, `${setup.id}-pytest.xml`), '<testsuite><testcase name="test_CORE_1_a"/></testsuite>');
      await expect(readReport(setup, { command: 'python -m pytest', exitCode: 0, passed: true, output: '' } as TestRun)).rejects.toThrow(/the tests ran, and their report was not read/);
      expect(await readdir(outside)).toEqual([`${setup.id}-pytest.xml`]);
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });

  it('a stale report of an earlier run is never read as this run\'s', async () => {
    const dir = await project({ 'package.json': JSON.stringify({ scripts: { test: 'node --test' } }), 'test/a.test.js': "require('node:test')('CORE-1: a', () => {});\n" });
    const first = await gate(dir, 'npm test');
    expect(first.report.tests.map((t) => t.name)).toEqual(['CORE-1: a']);
    await rm(join(dir, 'test', 'a.test.js'));
    await writeFile(join(dir, 'run.sh'), 'exit 0\n');
    const second = await gate(dir, 'sh run.sh');
    expect(second.report).toMatchObject({ traced: false, tests: [] });
  });
});

describe('report formats', () => {
  it('reads nested suites, errors and skips from JUnit XML, and go test -json events', () => {
    const xml = `<?xml version="1.0"?><testsuites><testsuite name="outer"><testsuite name="CORE-3: inner">
      <testcase name="errs"><error message="boom"/></testcase><testcase name="skips"><skipped/></testcase></testsuite></testsuite></testsuites>`;
    expect(parseJunit(xml)).toEqual([
      { name: 'errs', suite: 'outer > CORE-3: inner', passed: false },
      { name: 'skips', suite: 'outer > CORE-3: inner', passed: false, skipped: true },
    ]);
    const go = [
      '{"Action":"run","Package":"ex/words","Test":"TestCORE_1_Lowercases"}',
      'some plain output',
      '{"Action":"fail","Package":"ex/words","Test":"TestCORE_2/splits"}',
      '{"Action":"pass","Package":"ex/words","Test":"TestCORE_1_Lowercases"}',
      '{"Action":"pass","Package":"ex/words"}',
    ].join('\n');
    expect(parseGoTestJson(go)).toEqual([
      { name: 'splits', suite: 'TestCORE_2', file: 'ex/words', passed: false },
      { name: 'TestCORE_1_Lowercases', file: 'ex/words', passed: true },
    ]);
  });

  it('asks go test for -json and vitest for its JUnit reporter only where the line ends in them', async () => {
    const dir = await project({ 'package.json': JSON.stringify({ scripts: { test: 'vitest run && echo done' } }) });
    expect((await prepareReport(dir, 'go vet ./... && go test ./...')).command).toBe('go vet ./... && go test -json ./...');
    expect((await prepareReport(dir, 'npx vitest run')).command).toMatch(/^npx vitest run --reporter=default --reporter=junit --outputFile\.junit='[^']+vitest\.xml'$/);
    // The script does not end in vitest: arguments would go to echo, so none are added.
    expect((await prepareReport(dir, 'npm test')).command).toBe('npm test');
    // pytest and node --test are asked through the environment, after what is there already.
    const viaEnv = await prepareReport(dir, 'node --test', { env: { NODE_OPTIONS: '--max-old-space-size=512' } });
    expect(viaEnv.command).toBe('node --test');
    expect(viaEnv.env.NODE_OPTIONS).toMatch(/^--max-old-space-size=512 --test-reporter=spec --test-reporter-destination=stdout --test-reporter="[^"]+reporter\.mjs" --test-reporter-destination=stdout$/);
    expect(viaEnv.env.PYTEST_ADDOPTS).toMatch(/^-p erasmus_junit --junitxml='[^']+-pytest\.xml' -o junit_family=xunit1$/);
    expect(viaEnv.env.PYTHONPATH).toBe(join(viaEnv.dir, `${viaEnv.id}-pytest`));
    expect((await prepareReport(dir, 'pytest', { env: { PYTHONPATH: 'src' } })).env.PYTHONPATH).toMatch(/-pytest:src$/);
  });
});

describe('the naming convention', () => {
  it('a test names a task by its name or a suite around it, across languages, and CORE-1 is not CORE-10', () => {
    expect(namesTask({ name: 'CORE-1: lowercases words' }, 'CORE-1')).toBe(true);
    expect(namesTask({ name: 'works', suite: 'outer > CORE-1 lowercases' }, 'CORE-1')).toBe(true);
    expect(namesTask({ name: 'test_core_1_lowercases' }, 'CORE-1')).toBe(true);
    expect(namesTask({ name: 'TestCORE_1_Lowercases' }, 'CORE-1')).toBe(true);
    expect(namesTask({ name: 'CORE-10: something' }, 'CORE-1')).toBe(false);
    expect(namesTask({ name: 'lowercases CORE-1' }, 'CORE-1')).toBe(false);
    expect(namesTask({ name: 'T1' }, 'T1')).toBe(true);
  });
});

const TAIL = 12_000;

/**
 * (Test only: the workflow runs tests through the one runner and its sandbox, runGate.) Runs the command for real (shell, in the project, own process group) and reports
 * whether it passed. `env` is added to the environment (what makes a runner write its report).
 * Abort or timeout kills the whole group.
 */
function runTests(command: string, cwd: string, signal?: AbortSignal, env: Record<string, string> = {}, timeoutMs = 300_000): Promise<TestRun> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(command, { cwd, shell: true, detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, CI: '1', FORCE_COLOR: '0', ...env } });
    let out = '';
    const add = (b: Buffer) => {
      out += b.toString('utf8');
      if (out.length > TAIL * 2) out = out.slice(-TAIL);
    };
    child.stdout.on('data', add);
    child.stderr.on('data', add);
    const kill = () => {
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {}
    };
    const timer = setTimeout(() => {
      out += `\n[erasmus] test command timed out after ${timeoutMs} ms\n`;
      kill();
    }, timeoutMs);
    const onAbort = () => kill();
    signal?.addEventListener('abort', onAbort, { once: true });
    child.on('error', (err) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      reject(err);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      resolve({ command, passed: code === 0, exitCode: code, output: out.slice(-TAIL), durationMs: Date.now() - started });
    });
  });
}
