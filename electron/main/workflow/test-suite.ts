import { readFile, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Plan } from './plan';

/**
 * The project's whole suite: its command, the test script it runs (npm), and what a pytest configuration
 * narrows: `testpaths` alone (the folders a bare run collects under), or anything else (then nothing is known).
 */
export interface WholeSuite {
  command: string;
  script?: string;
  narrowed?: boolean;
  testpaths?: string[];
}

const PYTEST_NARROWING = /\b(python_files|norecursedirs)\b|--ignore|--deselect|(^|\s)-[km]\s/m;

/** The folders `testpaths` names in a pytest configuration (TOML's list or ini's words), or undefined when none is set. */
export function pytestTestpaths(config: string): string[] | undefined {
  const m = /^\s*testpaths\s*=\s*(\[[^\]]*\]|.*(?:\n[ \t]+\S.*)*)/m.exec(config);
  if (!m) return undefined;
  const value = m[1]!;
  const paths = value.startsWith('[') ? [...value.matchAll(/["']([^"']+)["']/g)].map((q) => q[1]!) : value.split(/\s+/).filter(Boolean);
  return paths.map((p) => p.replace(/^\.\//, '').replace(/\/+$/, ''));
}

/**
 * The project's whole test suite: the one command its toolchain runs every test with, wherever a
 * step put them. package.json's test script (`npm test --silent`), pytest (a pytest config, conftest.py,
 * or Python tests under tests/), `cargo test` (Cargo.toml), `go test ./...` (go.mod). Undefined when
 * the folder shows none of them (yet: a fresh project gets them during development).
 */
export async function projectTestCommand(projectDir: string): Promise<WholeSuite | undefined> {
  const text = (f: string) => readFile(join(projectDir, f), 'utf8').catch(() => undefined);
  const exists = (f: string) => stat(join(projectDir, f)).then(() => true, () => false);
  const pkg = await text('package.json');
  if (pkg) {
    try {
      const scripts = (JSON.parse(pkg) as { scripts?: Record<string, unknown> }).scripts;
      if (typeof scripts?.test === 'string' && !/no test specified/.test(scripts.test)) return { command: 'npm test --silent', script: scripts.test };
    } catch {}
  }
  const pyproject = await text('pyproject.toml');
  const setupCfg = await text('setup.cfg');
  const pytestConfig = (await exists('pytest.ini')) || (await exists('conftest.py')) || /pytest/.test(pyproject ?? '') || /\[tool:pytest\]/.test(setupCfg ?? '');
  const pyTests = (await readdir(join(projectDir, 'tests')).catch(() => [] as string[])).some((f) => /^test_.*\.py$|_test\.py$/.test(f));
  if (pytestConfig || pyTests) {
    // A configuration that narrows what pytest collects: then a component's own pytest command is not known to be part of the whole run.
    const configs = [pyproject, setupCfg, await text('pytest.ini'), await text('tox.ini')].join('\n');
    const testpaths = pytestTestpaths(configs);
    // testpaths alone still lets a component's test file count as part of the whole run when it lies under one of them.
    const narrowed = PYTEST_NARROWING.test(configs) || (testpaths !== undefined && (!testpaths.length || testpaths.some((p) => /[*?[\]]|^\/|(^|\/)\.\.(\/|$)/.test(p))));
    return { command: 'python3 -m pytest', ...(narrowed ? { narrowed: true } : testpaths ? { testpaths } : {}) };
  }
  if (await exists('Cargo.toml')) return { command: 'cargo test' };
  if (await exists('go.mod')) return { command: 'go test ./...' };
  return undefined;
}

/** Commands that run the same tests: `npm test`, `npm run test`, `npm test --silent` are one. */
function sameKey(command: string): string {
  return command
    .trim()
    .replace(/\s+/g, ' ')
    .replace(/^(npm|pnpm|yarn) (?:run(?:-script)? )?(?:test|t)\b/, '$1 test')
    .replace(/ (?:--silent|-s)\b/g, '');
}

/** node's test runner, run bare, finds these files (Node 20's defaults): `*.test.js`, `*-test.js`, `*_test.js`, `test-*.js`, `test.js`, and any .js under a `test/` folder. */
const NODE_DEFAULT_TEST = /(^|\/)([^/]+[.\-_]test|test-[^/]+|test)\.[cm]?js$|(^|\/)test\/(.+\/)?[^/]+\.[cm]?js$/;
/** A folder (`test/`, `test/unit`, `lib/test`) in or under a `test` folder: node run bare finds every .js, .mjs and .cjs file there, and node given the folder runs no other. */
const inNodeTestFolder = (path: string) => !/\.[a-z0-9]+$/i.test(path) && path.replace(/\/+$/, '').split('/').includes('test');
/** pytest, run bare without a narrowing configuration, collects `test_*.py` and `*_test.py` under any folder but hidden ones and the usual build folders. */
const PYTEST_DEFAULT_FILE = /(^|\/)(test_[^/]*|[^/]*_test)\.py(::.*)?$/;
const PYTEST_SKIPPED_DIR = /(^|\/)(\.[^/]*|build|dist|node_modules|venv|\.venv|[^/]*\.egg[^/]*)(\/|$)/;
const PYTEST_QUIET_FLAGS = new Set(['-q', '-v', '-vv', '-x', '-s', '--quiet', '--verbose']);

/** The paths a simple command gives after its runner's words, or undefined when it has more than paths (flags, shell syntax). */
function pathArgs(command: string, runner: RegExp, flags: ReadonlySet<string> = new Set()): string[] | undefined {
  const m = runner.exec(command.trim().replace(/\s+/g, ' '));
  if (!m || /[|;&<>$`()*?{}"'\\]/.test(command)) return undefined;
  const args = (m[1] ?? '').split(' ').filter(Boolean).filter((a) => !flags.has(a));
  if (!args.length || args.some((a) => a.startsWith('-') || a.startsWith('/') || a.split('/').includes('..'))) return undefined;
  return args.map((a) => a.replace(/^\.\//, ''));
}

/**
 * Whether the whole suite already runs every test a component's command runs, so the final gate
 * need not run them twice: a bare `node --test` script and `node --test <files or test/ folders it finds anyway>`;
 * a bare pytest run (no narrowing configuration) and `pytest <test files or folders>`.
 */
export function runsWithin(whole: WholeSuite, command: string): boolean {
  if (whole.script?.trim().replace(/\s+/g, ' ') === 'node --test') {
    const files = pathArgs(command, /^node --test( .+)?$/);
    return !!files && files.every((f) => (NODE_DEFAULT_TEST.test(f) || inNodeTestFolder(f)) && !f.split('/').includes('node_modules'));
  }
  if (whole.command === 'python3 -m pytest' && !whole.narrowed) {
    const paths = pathArgs(command, /^(?:uv run )?(?:python3? -m pytest|pytest)( .+)?$/, PYTEST_QUIET_FLAGS);
    const under = (p: string) => !whole.testpaths || whole.testpaths.some((t) => t === '.' || p === t || p.startsWith(`${t}/`));
    return !!paths && paths.every((p) => !PYTEST_SKIPPED_DIR.test(p) && (PYTEST_DEFAULT_FILE.test(p) || !/\.[a-z]+$/i.test(p)) && under(p.replace(/::.*$/, '').replace(/\/+$/, '')));
  }
  return false;
}

/**
 * The final gate: the project's whole suite first, then each component's command it does not
 * already stand for (the same command, the test script itself, or tests the whole run finds anyway:
 * `runsWithin`) and the plan's default, each distinct command once, joined with &&.
 */
export function composeFinalCommand(plan: Pick<Plan, 'components' | 'defaultTestCommand'>, found: WholeSuite | undefined): string | undefined {
  const whole = found ?? nodeTestSuite(plan);
  const all = [whole?.command, plan.defaultTestCommand, ...plan.components.map((c) => c.testCommand)].filter((c): c is string => !!c?.trim());
  const seen = new Set<string>(whole?.script && whole.script !== whole.command ? [sameKey(whole.script)] : []);
  const commands: string[] = [];
  for (const c of all) {
    const key = sameKey(c);
    if (seen.has(key) || (whole && c !== whole.command && runsWithin(whole, c))) continue;
    seen.add(key);
    commands.push(c.trim());
  }
  if (!commands.length) return undefined;
  return commands.map((c) => (commands.length > 1 && /[|;&]/.test(c) ? `(${c})` : c)).join(' && ');
}

/**
 * A Node project without a test script whose components test with node's runner (`node --test <files>`): its
 * whole suite is `node --test` run bare, which finds every test file where node looks for them (an end-to-end
 * test added at the end too, which the components' own file lists never name).
 */
function nodeTestSuite(plan: Pick<Plan, 'components' | 'defaultTestCommand'>): WholeSuite | undefined {
  const commands = [plan.defaultTestCommand, ...plan.components.map((c) => c.testCommand)].filter((c): c is string => !!c?.trim());
  return commands.length && commands.every((c) => /^node --test(\s|$)/.test(c.trim())) ? { command: 'node --test', script: 'node --test' } : undefined;
}

/**
 * The final gate's command when it runs: the one the user set at plan review, else composed again
 * from the project as it is now (a test script or test folder added during development counts).
 */
export async function finalGateCommand(plan: Plan, projectDir: string): Promise<string | undefined> {
  if (plan.finalTestCommandByUser && plan.finalTestCommand?.trim()) return plan.finalTestCommand.trim();
  return composeFinalCommand(plan, await projectTestCommand(projectDir)) ?? plan.finalTestCommand;
}
