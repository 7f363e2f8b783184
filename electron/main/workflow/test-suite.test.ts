import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { composeFinalCommand, finalGateCommand, projectTestCommand, runsWithin } from './test-suite';

let root: string | undefined;
afterEach(async () => {
  if (root) await rm(root, { recursive: true, force: true });
  root = undefined;
});

const plan = (commands: Array<string | undefined>, defaultTestCommand?: string) => ({
  components: commands.map((testCommand, i) => ({ id: `c${i}`, title: '', tasks: [], ...(testCommand ? { testCommand } : {}) })),
  maxDebugAttempts: 3,
  ...(defaultTestCommand ? { defaultTestCommand } : {}),
});

describe('the final gate\'s command', () => {
  it('runs each distinct test command once: npm test and npm test --silent are one, and so is the test script itself', () => {
    expect(composeFinalCommand(plan(['npm test'], 'npm test --silent'), undefined)).toBe('npm test --silent');
    expect(composeFinalCommand(plan(['node --test', 'node --test checks/b.js']), { command: 'npm test --silent', script: 'node --test' })).toBe('npm test --silent && node --test checks/b.js');
    expect(composeFinalCommand(plan(['cd a && pytest', undefined]), { command: 'python3 -m pytest' })).toBe('python3 -m pytest && (cd a && pytest)');
    expect(composeFinalCommand(plan([undefined]), undefined)).toBeUndefined();
  });

  it('does not run again the tests the whole suite finds anyway: node --test run bare, pytest without a narrowing configuration', () => {
    const node = { command: 'npm test --silent', script: 'node --test' };
    expect(composeFinalCommand(plan(['node --test test/counter.test.js', 'node --test ./test/cli.test.js']), node)).toBe('npm test --silent');
    expect(runsWithin(node, 'node --test src/parse_test.mjs lib/test/x.js test.js')).toBe(true);
    // A test/ folder: every .js file under it is found by node run bare.
    for (const within of ['node --test test/', 'node --test test', 'node --test ./test/unit/', 'node --test lib/test']) expect(runsWithin(node, within), within).toBe(true);
    // Files node would not find on its own, flags, other folders, shell syntax, a script that is not bare: kept.
    for (const kept of ['node --test checks/b.js', 'node --test --test-name-pattern=x test/a.test.js', 'node --test ../other/a.test.js', 'node --test node_modules/x/a.test.js', 'node --test test/*.test.js', 'node --test', 'node --test tests/', 'node --test src', 'node --test test/node_modules/']) {
      expect(runsWithin(node, kept), kept).toBe(false);
    }
    expect(runsWithin({ command: 'npm test --silent', script: 'node --test test/' }, 'node --test test/a.test.js')).toBe(false);
    const py = { command: 'python3 -m pytest' };
    expect(composeFinalCommand(plan(['python -m pytest tests/test_core.py -q', 'pytest tests/cli', 'uv run pytest tests/test_x.py::test_a']), py)).toBe('python3 -m pytest');
    for (const kept of ['pytest tests/check_core.py', 'pytest -k slow tests', 'pytest build/test_x.py', 'pytest --runslow tests', 'pytest']) expect(runsWithin(py, kept), kept).toBe(false);
    expect(runsWithin({ ...py, narrowed: true }, 'pytest tests/test_core.py')).toBe(false);
    // testpaths alone: a test file under one of its folders is collected by the bare run; one elsewhere is not.
    const paths = { ...py, testpaths: ['tests', 'integration/api'] };
    expect(composeFinalCommand(plan(['python3 -m pytest -q tests/test_slugify.py', 'python3 -m pytest -q tests/test_count_words.py']), paths)).toBe('python3 -m pytest');
    for (const within of ['pytest integration/api/test_x.py', 'pytest tests', 'pytest tests/unit/']) expect(runsWithin(paths, within), within).toBe(true);
    for (const kept of ['pytest test_top.py', 'pytest integration/test_y.py', 'pytest testsuite/test_z.py']) expect(runsWithin(paths, kept), kept).toBe(false);
  });

  it("a Node project without a test script whose components run node --test: the whole suite is node --test, which finds an end-to-end test added at the end", () => {
    expect(composeFinalCommand(plan(['node --test test/slug.test.mjs', 'node --test test/count.test.mjs']), undefined)).toBe('node --test');
    // Components that each run the test folder: the suite runs once, not once more for the folder.
    expect(composeFinalCommand(plan(['node --test test/', 'node --test test/']), undefined)).toBe('node --test');
    // A file node would not find on its own still runs; another runner keeps the components' commands.
    expect(composeFinalCommand(plan(['node --test test/slug.test.mjs', 'node --test checks/b.js']), undefined)).toBe('node --test && node --test checks/b.js');
    expect(composeFinalCommand(plan(['node --test test/a.test.mjs', 'npx vitest run']), undefined)).toBe('node --test test/a.test.mjs && npx vitest run');
  });

  it('finds the project\'s whole suite from its files, and runs the command set at plan review as written', async () => {
    root = await mkdtemp(join(tmpdir(), 'erasmus-suite-'));
    expect(await projectTestCommand(root)).toBeUndefined();
    await mkdir(join(root, 'tests'));
    await writeFile(join(root, 'tests', 'test_x.py'), '');
    expect(await projectTestCommand(root)).toEqual({ command: 'python3 -m pytest' });
    await writeFile(join(root, 'pytest.ini'), '[pytest]\ntestpaths = tests/unit\n  ./tests/cli/\n');
    expect(await projectTestCommand(root)).toEqual({ command: 'python3 -m pytest', testpaths: ['tests/unit', 'tests/cli'] });
    await writeFile(join(root, 'pytest.ini'), '[pytest]\ntestpaths = tests\npython_files = check_*.py\n');
    expect(await projectTestCommand(root)).toEqual({ command: 'python3 -m pytest', narrowed: true });
    await writeFile(join(root, 'pytest.ini'), '');
    await writeFile(join(root, 'pyproject.toml'), '[tool.pytest.ini_options]\ntestpaths = ["tests"]\n');
    expect(await projectTestCommand(root)).toEqual({ command: 'python3 -m pytest', testpaths: ['tests'] });
    await writeFile(join(root, 'pyproject.toml'), '[tool.pytest.ini_options]\ntestpaths = ["tests/*"]\n');
    expect(await projectTestCommand(root)).toEqual({ command: 'python3 -m pytest', narrowed: true });
    await writeFile(join(root, 'package.json'), JSON.stringify({ scripts: { test: 'echo "Error: no test specified" && exit 1' } }));
    expect(await projectTestCommand(root)).toEqual({ command: 'python3 -m pytest', narrowed: true }); // npm init's placeholder is no suite
    await writeFile(join(root, 'package.json'), JSON.stringify({ scripts: { test: 'vitest run' } }));
    expect(await projectTestCommand(root)).toEqual({ command: 'npm test --silent', script: 'vitest run' });
    const p = plan(['node --test a.test.js']);
    expect(await finalGateCommand({ ...p, finalTestCommand: 'node --test a.test.js' }, root)).toBe('npm test --silent && node --test a.test.js');
    expect(await finalGateCommand({ ...p, finalTestCommand: 'make check', finalTestCommandByUser: true }, root)).toBe('make check');
  });
});
