import { randomBytes } from 'node:crypto';
import { lstat, mkdir, readdir, readFile, readlink, rm, stat, writeFile } from 'node:fs/promises';
import { delimiter, join, relative, resolve, sep } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import type { TestCaseResult } from '../../contract/methods/workflow';
import type { TestRun } from './verify';
import { WorkflowError } from './errors';

/**
 * Per-test results read from the test runner's own machine-readable report, never from its words:
 * JUnit XML (pytest `--junitxml`, node's `--test-reporter=junit`, vitest's junit reporter, jest's through
 * the project's own jest-junit) or `go test -json`. `prepareReport` turns the gate's command into one that
 * writes the report (env for pytest and node --test, so it reaches them through npm or make too; arguments
 * for vitest, jest and go, env for jest-junit's options), `readReport` reads it after the run. A run whose runner wrote no report is "not traced": its
 * exit status still gates.
 */
export type Toolchain = 'pytest' | 'node-test' | 'vitest' | 'jest' | 'go';

export interface ReportSetup {
  /** The command to run: the gate's command plus the arguments that make its runner write a report (vitest, go). */
  command: string;
  /** What the runners read from the environment to write a report (pytest, node --test), added to the command's environment. */
  env: Record<string, string>;
  /**
   * Where the runners write (`<id>-pytest-<pid>-<n>.xml`: one per pytest session, `<id>-vitest.xml`, `<id>-node-<pid>-<n>.xml`:
   * one per node --test process), and what makes them (`<id>-pytest/`: the pytest plugin, `<id>-reporter.mjs`: node's).
   */
  dir: string;
  /** The folder `dir` is made in (the git directory, or the project), and the project (for the error's paths): checked again before reading. */
  base?: string;
  projectDir?: string;
  id: string;
  /** `go test -json` was asked for: the report is the command's output. */
  goJson: boolean;
  /** Why no report can be had (a toolchain seen that writes none), for the "not traced" note. */
  untraceable?: string;
}

export interface TestReport {
  /** True when a runner's report was read: `tests` are what the runner says ran. */
  traced: boolean;
  toolchains: Toolchain[];
  tests: TestCaseResult[];
  /** Why the run is not traced (or only partly). */
  note?: string;
}

/** Reports kept per run at most (the record stays small; what is cut is said in the note). */
export const MAX_RESULTS = 2000;
const MAX_REPORT_BYTES = 32 * 1024 * 1024;

/**
 * Where reports are written: inside the project's git directory (never committed; a worktree's `.git` file
 * names it), else under .erasmus/ (a folder that is no repository commits nothing). `base`: the folder it is made in.
 */
async function reportDir(projectDir: string): Promise<{ dir: string; base: string }> {
  const dotGit = join(projectDir, '.git');
  const git = await stat(dotGit).catch(() => undefined);
  if (git?.isDirectory()) return { dir: join(dotGit, 'erasmus', 'test-reports'), base: dotGit };
  if (git?.isFile()) {
    const target = /^gitdir:\s*(.+)$/m.exec(await readFile(dotGit, 'utf8').catch(() => ''))?.[1]?.trim();
    if (target) return { dir: join(resolve(projectDir, target), 'erasmus', 'test-reports'), base: resolve(projectDir, target) };
  }
  return { dir: join(projectDir, '.erasmus', 'test-reports'), base: projectDir };
}

/**
 * The report folder is made, written, read and emptied by Erasmus itself, outside the sandbox, in a place a command run
 * for the model can write (`.git/erasmus/`, `.erasmus/`): a symbolic link put there (`.git/erasmus/test-reports` → a
 * folder elsewhere) would have Erasmus write the pytest plugin, read reports and remove files outside the project.
 * Before it writes and again before it reads, each part below `base` must be a real folder (or not there yet); else the
 * gate does not run (or its report is not read) and the error names the link and what to do.
 */
export async function refuseLinkedReportDir(projectDir: string, dir: string, base: string, notDone = 'the tests were not run'): Promise<void> {
  const parts = relative(base, dir).split(sep).filter(Boolean);
  let p = base;
  for (const part of parts) {
    p = join(p, part);
    const s = await lstat(p).catch(() => undefined);
    if (!s) return;
    if (s.isDirectory()) continue;
    const shown = relative(projectDir, p) || p;
    const to = s.isSymbolicLink() ? await readlink(p).catch(() => '?') : undefined;
    throw new WorkflowError(
      'RUNTIME_ERROR',
      `the test gate's report folder ${relative(projectDir, dir)} is not a plain folder: ${shown} is ${to !== undefined ? `a symbolic link (to ${to})` : 'not a folder'}. Erasmus writes and reads the test reports there itself, outside the sandbox, so it follows no link there: ${notDone}. Remove ${shown} (\`rm ${JSON.stringify(p)}\`; ${to !== undefined ? 'what it points to is not touched' : 'Erasmus makes the folder again'}), then retry the step, or skip it.`,
    );
  }
}

/** Removes what a run left (its reports and node's reporter), when the run did not get as far as readReport. */
export async function discardReport(setup: ReportSetup): Promise<void> {
  // A folder turned into a link meanwhile (by the tests themselves): nothing is removed through it.
  if (setup.base && (await refuseLinkedReportDir(setup.dir, setup.dir, setup.base).then(() => false, () => true))) return;
  for (const f of await readdir(setup.dir).catch(() => [] as string[])) if (f.startsWith(`${setup.id}-`)) await rm(join(setup.dir, f), { recursive: true, force: true });
}

/** The command line's simple commands (split on && || ; | and newlines; quotes are not parsed: a marker inside a quoted word counts). */
function segments(command: string): string[] {
  return command.split(/&&|\|\||[;|\n]/).map((s) => s.trim()).filter(Boolean);
}

const NPM_TEST = /^(npm|pnpm|yarn)\s+(?:run(?:-script)?\s+)?(test|t)\b(.*)$/;

/** The project's `test` script, when the command runs it through npm, pnpm or yarn. */
async function testScript(projectDir: string, command: string): Promise<string | undefined> {
  if (!segments(command).some((s) => NPM_TEST.test(s))) return undefined;
  try {
    const pkg = JSON.parse(await readFile(join(projectDir, 'package.json'), 'utf8')) as { scripts?: Record<string, unknown> };
    const t = pkg.scripts?.test;
    return typeof t === 'string' ? t : undefined;
  } catch {
    return undefined;
  }
}

/** Single-quotes a word for sh. */
function sq(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

const NODE_TEST = /\b(node|tsx)\b[^\n]*\s--test\b/;
const VITEST = /\bvitest\b/;
const GO_TEST = /^go\s+test\b/;
const JEST = /\bjest\b/;
const CARGO_TEST = /\bcargo\s+test\b/;

/** The project has jest-junit installed (jest writes JUnit only through it): its node_modules, or a folder above. */
async function hasJestJunit(projectDir: string): Promise<boolean> {
  for (let dir = resolve(projectDir); ; dir = resolve(dir, '..')) {
    if (await stat(join(dir, 'node_modules', 'jest-junit', 'package.json')).then(() => true, () => false)) return true;
    if (resolve(dir, '..') === dir) return false;
  }
}

/** Appends a runner's report arguments where it ends the line (or ends the npm test script the line runs). */
function withArgs(command: string, script: string | undefined, runner: RegExp, args: string): string {
  const last = segments(command).at(-1) ?? '';
  const npm = NPM_TEST.exec(last);
  const scriptEnds = script !== undefined && runner.test(segments(script).at(-1) ?? '');
  if (runner.test(last)) return `${command} ${args}`;
  if (npm && scriptEnds) return `${command}${npm[1] === 'npm' && !/\s--(\s|$)/.test(npm[3]!) ? ' --' : ''} ${args}`;
  return command;
}

/** The gate's command, made to write a report its runner knows how to write, and where it goes. */
export async function prepareReport(projectDir: string, command: string, options: { env?: NodeJS.ProcessEnv } = {}): Promise<ReportSetup> {
  const { dir, base: made } = await reportDir(projectDir);
  await refuseLinkedReportDir(projectDir, dir, made);
  await mkdir(dir, { recursive: true });
  await refuseLinkedReportDir(projectDir, dir, made);
  const id = `${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;
  const script = await testScript(projectDir, command);
  const text = `${command}\n${script ?? ''}`;
  const base = options.env ?? process.env;
  const join2 = (name: string, value: string) => (base[name]?.trim() ? `${base[name]} ${value}` : value);
  const env: Record<string, string> = {};

  // pytest reads PYTEST_ADDOPTS wherever it starts (npm, make, tox-less scripts); harmless to anything else. Our plugin (found
  // through PYTHONPATH) gives each pytest session a report file of its own, so several pytest commands in one gate (the final
  // gate's, for test files a bare run does not collect) each leave theirs instead of overwriting one.
  const pytest = join(dir, `${id}-pytest.xml`);
  const plugin = join(dir, `${id}-pytest`);
  const withPlugin = !dir.includes(delimiter) && !/["'\\\n]/.test(dir);
  if (withPlugin) {
    await mkdir(plugin, { recursive: true });
    await writeFile(join(plugin, `${PYTEST_PLUGIN}.py`), pytestPlugin(pytest));
    env.PYTHONPATH = base.PYTHONPATH?.trim() ? `${plugin}${delimiter}${base.PYTHONPATH}` : plugin;
  }
  env.PYTEST_ADDOPTS = join2('PYTEST_ADDOPTS', `${withPlugin ? `-p ${PYTEST_PLUGIN} ` : ''}--junitxml=${sq(pytest)} -o junit_family=xunit1`);

  // node --test takes reporters from NODE_OPTIONS. Ours writes node's own JUnit output to a file of its process, so several
  // node --test in one command (the final gate's) each leave theirs; the spec reporter still prints for people.
  if (NODE_TEST.test(text) && process.allowedNodeEnvironmentFlags.has('--test-reporter-destination') && !/["\\\n]/.test(dir)) {
    const reporter = join(dir, `${id}-reporter.mjs`);
    await writeFile(reporter, nodeReporter(`${id}-node-`));
    env.NODE_OPTIONS = join2('NODE_OPTIONS', `--test-reporter=spec --test-reporter-destination=stdout --test-reporter="${reporter}" --test-reporter-destination=stdout`);
  }

  let run = command;
  const parts = segments(command);
  const last = parts.at(-1) ?? '';
  let goJson = false;
  // vitest takes its reporters as arguments: appended when vitest (or the npm script that is vitest) ends the line.
  if (VITEST.test(text)) run = withArgs(command, script, VITEST, `--reporter=default --reporter=junit --outputFile.junit=${sq(join(dir, `${id}-vitest.xml`))}`);
  // jest writes JUnit through the jest-junit reporter, when the project has it: named as arguments, configured by env (one
  // file, each test's describe blocks as its classname and its own title as its name, the file as an attribute).
  let untraceable: string | undefined;
  if (JEST.test(text) && !VITEST.test(text)) {
    if (await hasJestJunit(projectDir)) {
      run = withArgs(command, script, JEST, '--reporters=default --reporters=jest-junit');
      Object.assign(env, { JEST_JUNIT_OUTPUT_DIR: dir, JEST_JUNIT_OUTPUT_NAME: `${id}-jest.xml`, JEST_JUNIT_UNIQUE_OUTPUT_NAME: 'false', JEST_JUNIT_CLASSNAME: '{classname}', JEST_JUNIT_TITLE: '{title}', JEST_JUNIT_ANCESTOR_SEPARATOR: ' > ', JEST_JUNIT_SUITE_NAME: '{filepath}', JEST_JUNIT_ADD_FILE_ATTRIBUTE: 'true' });
    } else untraceable = 'jest writes no JUnit report without the jest-junit reporter (a dev dependency: npm install --save-dev jest-junit)';
  }
  if (GO_TEST.test(last) && !/\s-json\b/.test(last)) {
    run = run.replace(/(^|[;&|\n]\s*)go\s+test\b(?![\s\S]*\bgo\s+test\b)/, '$1go test -json');
    goJson = true;
  } else if (GO_TEST.test(last)) goJson = true;

  if (CARGO_TEST.test(text)) untraceable = 'cargo test writes no machine-readable report on stable Rust (cargo nextest with a JUnit profile does)';
  return { command: run, env, dir, base: made, projectDir, id, goJson, ...(untraceable ? { untraceable } : {}) };
}

const PYTEST_PLUGIN = 'erasmus_junit';

/**
 * A pytest plugin that moves the report PYTEST_ADDOPTS names (`shared`) to a file of this session's own, beside it; a
 * `--junitxml` given after ours (the command's own) is left as it is. It runs before pytest's junitxml plugin reads the path.
 */
function pytestPlugin(shared: string): string {
  return `# Erasmus: each pytest session writes its JUnit report to a file of its own (several pytest runs in one test command).
import os
import uuid

import pytest

_SHARED = ${JSON.stringify(shared)}


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config):
    path = getattr(config.option, "xmlpath", None)
    if path and os.path.normpath(os.path.abspath(path)) == os.path.normpath(_SHARED):
        config.option.xmlpath = "%s-%d-%s.xml" % (_SHARED[: -len(".xml")], os.getpid(), uuid.uuid4().hex[:8])
`;
}

/** A node --test reporter that writes node's own JUnit output to a file of its own process, beside itself. */
function nodeReporter(prefix: string): string {
  return `import { junit } from 'node:test/reporters';
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { randomBytes } from 'node:crypto';
export default async function* erasmusJunit(source) {
  const out = createWriteStream(new URL(\`./${prefix}\${process.pid}-\${randomBytes(4).toString('hex')}.xml\`, import.meta.url));
  for await (const chunk of junit(source)) out.write(chunk);
  out.end();
  await once(out, 'finish');
}
`;
}

const TOOLCHAIN_OF: Array<[RegExp, Toolchain]> = [
  [/-pytest(-[^/]*)?\.xml$/, 'pytest'],
  [/-vitest\.xml$/, 'vitest'],
  [/-node-[^/]*\.xml$/, 'node-test'],
  [/-jest\.xml$/, 'jest'],
];

/** Reads what the runners wrote (and removes the files): per-test results, or "not traced" with why. */
export async function readReport(setup: ReportSetup, run: TestRun): Promise<TestReport> {
  // The tests ran model-written code, which can write `.git/erasmus`: nothing is read or removed through a link made meanwhile.
  if (setup.base) await refuseLinkedReportDir(setup.projectDir ?? setup.base, setup.dir, setup.base, 'the tests ran, and their report was not read');
  const tests: TestCaseResult[] = [];
  const toolchains: Toolchain[] = [];
  const problems: string[] = [];
  const mine = (await readdir(setup.dir).catch(() => [] as string[])).filter((f) => f.startsWith(`${setup.id}-`)).sort();
  for (const name of mine) {
    const path = join(setup.dir, name);
    const toolchain = TOOLCHAIN_OF.find(([re]) => re.test(name))?.[1];
    try {
      if (!toolchain) continue;
      const s = await stat(path);
      if (s.size > MAX_REPORT_BYTES) throw new Error(`${s.size} bytes, over ${MAX_REPORT_BYTES}`);
      const cases = parseJunit(await readFile(path, 'utf8'));
      tests.push(...(toolchain === 'node-test' ? cases.map(nodeQuotes) : cases));
      if (!toolchains.includes(toolchain)) toolchains.push(toolchain);
    } catch (err) {
      problems.push(`the ${toolchain} report could not be read (${(err as Error).message})`);
    } finally {
      await rm(path, { recursive: true, force: true });
    }
  }
  if (setup.goJson) {
    const text = run.outputFile ? await readFile(run.outputFile, 'utf8').catch(() => run.output) : run.output;
    const go = parseGoTestJson(text);
    if (go.length) {
      tests.push(...go);
      toolchains.push('go');
    }
  }
  const traced = toolchains.length > 0;
  const notes = [...problems];
  if (!traced) notes.push(setup.untraceable ?? 'the test command wrote no report Erasmus can read (it reads JUnit XML from pytest, node --test, vitest and jest with jest-junit, and go test -json)');
  else if (setup.untraceable) notes.push(`partly traced: ${setup.untraceable}`);
  if (tests.length > MAX_RESULTS) notes.push(`${tests.length} tests ran; the first ${MAX_RESULTS} are kept`);
  return { traced, toolchains, tests: tests.slice(0, MAX_RESULTS), ...(notes.length ? { note: notes.join('; ') } : {}) };
}

/**
 * node's JUnit reporter escapes `"` as `&quot;` and then the `&` of that again (`&amp;quot;`), so a name read
 * from its XML still holds `&quot;` where the test's name had `"`: that is undone here (node drops newlines too).
 */
function nodeQuotes(t: TestCaseResult): TestCaseResult {
  const q = (s: string) => s.replace(/&quot;/g, '"');
  return { ...t, name: q(t.name), ...(t.suite !== undefined ? { suite: q(t.suite) } : {}) };
}

// ── JUnit XML ────────────────────────────────────────────────────────────────────────────────

type XmlNode = Record<string, unknown>;
const xml = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  isArray: (name) => name === 'testsuite' || name === 'testcase' || name === 'testsuites',
  processEntities: true,
  htmlEntities: true,
});

function attr(node: XmlNode, name: string): string | undefined {
  const v = node[`@${name}`];
  return v === undefined || v === null ? undefined : String(v);
}

const SOURCE_FILE = /\.(m?[jt]sx?|c[jt]s|py|go|rs)$/;

/**
 * JUnit XML as pytest, node, vitest, jest-junit and nextest write it: nested `testsuite`s, each
 * `testcase` passed unless it holds `failure` or `error` (or node's `failure` attribute); `skipped`
 * is neither. A test's suites are its enclosing suites (node's describe blocks) and, for pytest,
 * the classes in its classname.
 */
export function parseJunit(text: string): TestCaseResult[] {
  const doc = xml.parse(text) as XmlNode;
  const out: TestCaseResult[] = [];
  const visit = (node: XmlNode, suites: string[], file: string | undefined) => {
    for (const tc of (node.testcase as XmlNode[] | undefined) ?? []) out.push(testCase(typeof tc === 'object' ? tc : {}, suites, file));
    for (const ts of (node.testsuite as XmlNode[] | undefined) ?? []) {
      if (typeof ts !== 'object') continue;
      const name = attr(ts, 'name');
      const isFile = !!name && SOURCE_FILE.test(name);
      // Runner-level suites (pytest's "pytest", vitest's "vitest tests") are no describe block: only nested or named suites count.
      const own = name && !isFile && name !== 'pytest' ? [name] : [];
      visit(ts, [...suites, ...own], attr(ts, 'file') ?? (isFile ? name : file));
    }
    for (const tss of (node.testsuites as XmlNode[] | undefined) ?? []) if (typeof tss === 'object') visit(tss, suites, file);
  };
  visit(doc, [], undefined);
  return out;
}

function testCase(tc: XmlNode, suites: string[], suiteFile: string | undefined): TestCaseResult {
  const name = attr(tc, 'name') ?? '';
  const classname = attr(tc, 'classname');
  let file = attr(tc, 'file') ?? suiteFile;
  const own = [...suites];
  if (classname && classname !== 'test' && classname !== 'suite') {
    if (SOURCE_FILE.test(classname)) file ??= classname; // vitest: the classname is the file
    else {
      // pytest: "tests.test_words.TestCORE_1" with file tests/test_words.py → the class chain after the module.
      const module = file?.replace(SOURCE_FILE, '').replace(/[\\/]/g, '.');
      const rest = module && classname.startsWith(`${module}.`) ? classname.slice(module.length + 1) : module === classname ? '' : classname;
      // (A classname with spaces is describe blocks, jest-junit's, never a dotted class chain.)
      if (rest && !suites.length) own.push(...(/\s/.test(rest) ? [rest] : rest.split('.')));
    }
  }
  const skipped = tc.skipped !== undefined;
  const failed = tc.failure !== undefined || tc.error !== undefined || attr(tc, 'failure') !== undefined;
  return { name, ...(own.length ? { suite: own.join(' > ') } : {}), ...(file ? { file } : {}), passed: !failed && !skipped, ...(skipped ? { skipped: true } : {}) };
}

// ── go test -json ────────────────────────────────────────────────────────────────────────────

/** `go test -json` events (one JSON object a line, among any other output): each test's final pass/fail/skip. */
export function parseGoTestJson(text: string): TestCaseResult[] {
  const byKey = new Map<string, TestCaseResult>();
  for (const line of text.split(/\r?\n/)) {
    const t = line.trim();
    if (!t.startsWith('{')) continue;
    let e: { Action?: unknown; Package?: unknown; Test?: unknown };
    try {
      e = JSON.parse(t) as typeof e;
    } catch {
      continue;
    }
    if (typeof e.Test !== 'string' || (e.Action !== 'pass' && e.Action !== 'fail' && e.Action !== 'skip')) continue;
    const pkg = typeof e.Package === 'string' ? e.Package : '';
    // Subtests: TestCORE_1/lowercases → suite TestCORE_1, name lowercases.
    const path = e.Test.split('/');
    const name = path.pop()!;
    byKey.set(`${pkg}\0${e.Test}`, { name, ...(path.length ? { suite: path.join(' > ') } : {}), ...(pkg ? { file: pkg } : {}), passed: e.Action === 'pass', ...(e.Action === 'skip' ? { skipped: true } : {}) });
  }
  return [...byKey.values()];
}
