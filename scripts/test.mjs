#!/usr/bin/env node
// `npm test`: builds, then runs every test (unit, integration, e2e) with Vitest.
// On Linux without a D-Bus session it first starts a private one with an unlocked gnome-keyring,
// so the keychain tests use a real Secret Service for a developer and for CI alike.
// Extra arguments go to Vitest (e.g. `npm test -- electron/main/mcp`).
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

const args = process.argv.slice(2);
const onPath = (cmd) => spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;

if (process.platform === 'linux' && !process.env.DBUS_SESSION_BUS_ADDRESS && !process.env.ERASMUS_TEST_SESSION) {
  if (onPath('dbus-run-session') && onPath('gnome-keyring-daemon')) {
    const r = spawnSync('dbus-run-session', ['--', process.execPath, ...process.execArgv, process.argv[1], ...args], {
      stdio: 'inherit',
      env: { ...process.env, ERASMUS_TEST_SESSION: '1' },
    });
    process.exit(r.status ?? 1);
  }
  console.warn('warning: dbus-run-session or gnome-keyring-daemon not found; keychain tests will fail (apt-get install dbus gnome-keyring)');
}

/** The throwaway keyring's data home, removed when the tests are done. */
let keyringData;
if (process.env.ERASMUS_TEST_SESSION === '1' && onPath('gnome-keyring-daemon')) {
  // A throwaway keyring in a temp data home, unlocked with a throwaway password.
  const data = (keyringData = mkdtempSync(join(tmpdir(), 'erasmus-keyring-')));
  process.env.XDG_DATA_HOME = data;
  const r = spawnSync('gnome-keyring-daemon', ['--replace', '--unlock', '--components=secrets', '-d'], {
    input: 'erasmus-test',
    env: process.env,
    encoding: 'utf8',
  });
  for (const line of (r.stdout ?? '').split('\n')) {
    const m = /^([A-Z_]+)=(.*)$/.exec(line.trim());
    if (m) process.env[m[1]] = m[2];
  }
  if (r.status !== 0) console.warn(`warning: gnome-keyring-daemon exited with ${r.status}: ${r.stderr}`);
}

const run = (cmd, cmdArgs) =>
  new Promise((resolve) => {
    const child = spawn(cmd, cmdArgs, { stdio: 'inherit', env: process.env });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });

if (!process.env.ERASMUS_TEST_SKIP_BUILD) {
  const code = await run(process.execPath, ['node_modules/electron-vite/bin/electron-vite.js', 'build']);
  if (code !== 0) {
    if (keyringData) rmSync(keyringData, { recursive: true, force: true });
    process.exit(code);
  }
}

/** CPU seconds (user + system) of this process's finished children, on Linux (/proc/self/stat, 100 ticks a second). */
const childCpu = () => {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return undefined;
  }
};

mkdirSync('test-results', { recursive: true });
const jsonFile = join('test-results', 'vitest.json');
const vitest = (project, json, extra = []) => [
  'node_modules/vitest/vitest.mjs',
  'run',
  ...(project ? [`--project=${project}`] : []),
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${json}`,
  ...extra,
  ...args,
];
/** A Vitest run whose output goes to a file (printed after the run in the foreground). */
const runToFile = (cmdArgs, file) =>
  new Promise((resolve) => {
    const out = openSync(file, 'w');
    const child = spawn(process.execPath, cmdArgs, { stdio: ['ignore', out, out], env: process.env });
    child.on('exit', (code, signal) => {
      closeSync(out);
      resolve(code ?? (signal ? 1 : 0));
    });
  });
const readJson = (file) => (existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : undefined);
/** Two of Vitest's JSON reports as one (the counts added, the files side by side). */
const mergeReports = (a, b) => {
  if (!a || !b) return a ?? b;
  const merged = { ...a, testResults: [...(a.testResults ?? []), ...(b.testResults ?? [])], startTime: Math.min(a.startTime, b.startTime), success: a.success && b.success };
  for (const [k, v] of Object.entries(b)) if (k.startsWith('num') && typeof v === 'number') merged[k] = (a[k] ?? 0) + v;
  return merged;
};

// ERASMUS_TEST_COST=1: every Node process of the run notes what it cost and started, for which test file
// (tests/support/cost-preload.cjs); scripts/test-cost.mjs prints the table after the run.
const costLog = join(process.cwd(), 'test-results', 'cost.jsonl');
if (process.env.ERASMUS_TEST_COST) {
  rmSync(costLog, { force: true });
  const preload = join(process.cwd(), 'tests', 'support', 'cost-preload.cjs');
  process.env.NODE_OPTIONS = `${process.env.NODE_OPTIONS ?? ''} --require ${JSON.stringify(preload)}`.trim();
  process.env.ERASMUS_TEST_COST_LOG = costLog;
}

const cpu0 = childCpu();
const t0 = Date.now();
let code;
if (args.some((a) => a === '--project' || a.startsWith('--project='))) {
  code = await run(process.execPath, vitest(undefined, jsonFile));
} else {
  // The files that run one at a time (project e2e-beside: the Chromium files, and the durable ones that mostly wait on
  // Postgres and worker processes) run in a Vitest of their own beside the other files: that group mostly waits on a
  // browser, a server or a worker, and at the end it left a core idle for about 100 s. Its output is printed after
  // the others' (test-results/beside.log). A group added to vitest.config.ts runs in the first run.
  rmSync(jsonFile, { force: true });
  const besideJson = join('test-results', 'vitest-beside.json');
  const restJson = join('test-results', 'vitest-rest.json');
  const besideLog = join('test-results', 'beside.log');
  rmSync(besideJson, { force: true });
  rmSync(restJson, { force: true });
  console.log(`The Chromium, durable and some CLI end-to-end files (project e2e-beside) run one at a time beside the others; their output follows at the end (${besideLog}).`);
  // When each run ended: the two should end together (vitest.config.ts moves files between them).
  const ended = {};
  const since = () => `${((Date.now() - t0) / 1000).toFixed(0)} s`;
  const beside = runToFile(vitest('e2e-beside', besideJson, ['--passWithNoTests']), besideLog).then((c) => ((ended.beside = since()), c));
  const rest = await run(process.execPath, vitest('!e2e-beside', restJson, ['--passWithNoTests']));
  ended.rest = since();
  const besideCode = await beside;
  console.log(`\n--- project e2e-beside (${besideLog}) ---`);
  process.stdout.write(readFileSync(besideLog, 'utf8'));
  console.log(`the main run ended after ${ended.rest}, the e2e-beside run after ${ended.beside}`);
  code = rest || besideCode;
  const merged = mergeReports(readJson(restJson), readJson(besideJson));
  if (merged) writeFileSync(jsonFile, JSON.stringify(merged));
}

/** The first line of a failure message, shortened: the place to start reading. */
const firstLine = (m) => String(m ?? '(no message)').split('\n').find((l) => l.trim() !== '')?.trim().slice(0, 300) ?? '(no message)';
let summary = `0 passed, 1 failed (vitest produced no report; exit code ${code})`;
if (existsSync(jsonFile)) {
  const r = JSON.parse(readFileSync(jsonFile, 'utf8'));
  const failedSuites = (r.testResults ?? []).filter((t) => t.status === 'failed' && (t.assertionResults ?? []).length === 0).length;
  const skipped = (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
  summary = `${r.numPassedTests} passed, ${r.numFailedTests + failedSuites} failed${skipped ? `, ${skipped} skipped` : ''}`;
  // What failed, again at the end: a CI log is often read from its tail, far below the failure's own report.
  const failures = [];
  for (const t of r.testResults ?? []) {
    const file = relative(process.cwd(), t.name);
    const tests = (t.assertionResults ?? []).filter((a) => a.status === 'failed');
    if (t.status === 'failed' && tests.length === 0) failures.push(`${file}: ${firstLine(t.message)}`);
    for (const a of tests) failures.push(`${file} > ${a.fullName}: ${firstLine((a.failureMessages ?? [])[0])}`);
  }
  if (failures.length > 0) console.log(`failed (${failures.length}):\n${failures.map((f) => `  ${f}`).join('\n')}`);
}
// The suite is CPU-bound on 2 cores: its CPU seconds say more than its wall time on a shared machine.
const cpu1 = childCpu();
if (cpu0 !== undefined && cpu1 !== undefined) console.log(`tests: ${((Date.now() - t0) / 1000).toFixed(0)} s wall, ${(cpu1 - cpu0).toFixed(0)} CPU-s (user + system, every process the run waited for)`);
if (process.env.ERASMUS_TEST_COST) await run(process.execPath, ['scripts/test-cost.mjs', '25', costLog]);
writeFileSync(join('test-results', 'summary.txt'), summary + '\n');
console.log(summary);
if (keyringData) rmSync(keyringData, { recursive: true, force: true });
process.exit(code);
