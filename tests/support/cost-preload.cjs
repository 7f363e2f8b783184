// `ERASMUS_TEST_COST=1 npm test` loads this into every Node process of the run (NODE_OPTIONS --require): what each
// test file costs, counted where it is spent. Each Node process appends one line at exit to ERASMUS_TEST_COST_LOG:
// its own CPU seconds, the test file it works for, and the processes it started, by command ("git add", "bwrap",
// "node …/erasmus.js chat"). A Vitest worker also splits its own CPU between the files it ran (sampled every 100 ms).
// Children learn the test file that started them (ERASMUS_TEST_COST_FILE), so a CLI's own git processes count for the
// file that ran the CLI. Processes that are not Node (git, bwrap, Chromium) are counted, not timed. A process in the
// runner's sandbox cannot write the log (the repository is read-only there): its line is lost, its parent's stays.
// scripts/test-cost.mjs prints the table.
'use strict';
/* eslint-disable @typescript-eslint/no-require-imports -- a --require preload is CommonJS */
const fs = require('node:fs');
const path = require('node:path');
const childProcess = require('node:child_process');

const log = process.env.ERASMUS_TEST_COST_LOG;
const root = path.resolve(__dirname, '..', '..') + path.sep;
const rel = (p) => String(p).replace(root, '');
const started = Date.now();
/** The test file a Vitest worker is running now (undefined outside a worker or between files). */
const workerFile = () => {
  const w = globalThis.__vitest_worker__;
  const f = w?.filepath ?? w?.current?.file?.filepath;
  return f ? rel(f) : undefined;
};
const inherited = process.env.ERASMUS_TEST_COST_FILE;
const fileNow = () => workerFile() ?? inherited ?? '(none)';

/** Per test file: CPU seconds of this process (workers only) and its children by command. */
const files = {};
const of = (f) => (files[f] ??= { cpu: 0, spawns: {} });
let sampled = { file: undefined, at: 0 };
const cpuNow = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};
const sample = () => {
  const now = cpuNow();
  if (sampled.file) of(sampled.file).cpu += now - sampled.at;
  sampled = { file: workerFile(), at: now };
};
/** A Vitest worker (its children inherit Vitest's variables, not its entry point). */
const worker = /[\\/]vitest[\\/]dist[\\/]workers[\\/]/.test(process.argv[1] ?? '');
if (worker) setInterval(sample, 100).unref();

/** "git add", "bwrap", "node tests/fixtures/x.mjs", "node bin/erasmus.js chat": what a spawn is, briefly. */
function kind(file, args) {
  const base = path.basename(String(file));
  const words = (args ?? []).map(String);
  if (base === 'git') {
    const sub = words.find((a, i) => !a.startsWith('-') && !['--git-dir', '--work-tree', '-C', '-c'].includes(words[i - 1] ?? ''));
    return `git ${sub ?? ''}`.trim();
  }
  if (base === 'node' || base === path.basename(process.execPath)) {
    const script = words.find((a, i) => !a.startsWith('-') && !['--import', '--require', '-r', '--conditions', '-C', '-e', '--eval', '-p', '--print'].includes(words[i - 1] ?? ''));
    if (!script) return words.some((a) => ['-e', '--eval', '-p', '--print'].includes(a)) ? 'node -e' : 'node';
    const name = rel(script).split(path.sep).slice(-2).join('/');
    const next = words[words.indexOf(script) + 1];
    return `node ${name}${name.endsWith('erasmus.js') && next ? ` ${next}` : ''}`;
  }
  if ((base === 'sh' || base === 'bash') && words[0] === '-c') return `${base} -c ${String(words[1] ?? '').split(/\s/)[0].slice(0, 30)}`;
  return base;
}
const count = (file, args) => {
  const spawns = of(fileNow()).spawns;
  const k = kind(file, args);
  spawns[k] = (spawns[k] ?? 0) + 1;
};

// Every asynchronous spawn (spawn, execFile, exec, fork) goes through ChildProcess#spawn: count it and tell the child
// which file it works for.
const { ChildProcess } = childProcess;
const spawnOriginal = ChildProcess.prototype.spawn;
ChildProcess.prototype.spawn = function (options) {
  try {
    count(options.file, options.args?.slice(1));
    if (Array.isArray(options.envPairs)) options.envPairs = [...options.envPairs.filter((p) => !p.startsWith('ERASMUS_TEST_COST_FILE=')), `ERASMUS_TEST_COST_FILE=${fileNow()}`];
  } catch {}
  return spawnOriginal.call(this, options);
};
// The synchronous ones, through the module's exports (what code calls): counted, and the child told its file.
for (const name of ['spawnSync', 'execFileSync', 'execSync']) {
  const original = childProcess[name];
  childProcess[name] = function (file, args, options) {
    const withArgs = Array.isArray(args);
    const opts = (withArgs ? options : args) ?? {};
    try {
      count(name === 'execSync' ? 'sh' : file, name === 'execSync' ? ['-c', String(file)] : withArgs ? args : []);
    } catch {}
    const tagged = { ...opts, env: { ...(opts.env ?? process.env), ERASMUS_TEST_COST_FILE: fileNow() } };
    return withArgs ? original.call(this, file, args, tagged) : original.call(this, file, tagged);
  };
}

let written = false;
function write() {
  if (written || !log) return;
  written = true;
  try {
    sample();
    const cpu = cpuNow();
    // Outside a worker the whole process counts for the file that started it.
    if (!worker) of(inherited ?? '(none)').cpu += cpu;
    const argv = process.argv.slice(1).map(rel).join(' ').slice(0, 200);
    fs.appendFileSync(log, `${JSON.stringify({ pid: process.pid, cpu, wall: (Date.now() - started) / 1000, argv, kind: kind(process.execPath, process.argv.slice(1)), worker, file: inherited, files })}\n`);
  } catch {}
}
process.on('exit', write);
// A process ended by a signal it does not handle writes its line first, then takes the signal again as it would have
// (killed by it, as its parent sees); one that handles the signal writes when it exits.
for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) {
  const onSignal = () => {
    if (process.listenerCount(signal) > 1) return;
    write();
    process.removeListener(signal, onSignal);
    process.kill(process.pid, signal);
  };
  process.prependListener(signal, onSignal);
}
