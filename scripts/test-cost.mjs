#!/usr/bin/env node
// What each test file cost in the last `ERASMUS_TEST_COST=1 npm test` (test-results/cost.jsonl, written by
// tests/support/cost-preload.cjs): `node scripts/test-cost.mjs [files] [log]`. Per file: the CPU seconds of the Node
// processes that worked for it (its share of a Vitest worker, and every CLI, server and fixture it started, theirs
// too) and how many processes it started, by command; then the totals by command over the run. Processes that are
// not Node (git, bwrap, Chromium) are counted, not timed: a git process costs about 3-6 ms of CPU, a sandboxed
// command (bwrap) 20-40 ms, besides what it runs.
import { existsSync, readFileSync } from 'node:fs';

const count = Number(process.argv[2] ?? 25);
const file = process.argv[3] ?? 'test-results/cost.jsonl';
if (!existsSync(file)) {
  console.log(`no ${file}: run ERASMUS_TEST_COST=1 npm test first`);
  process.exit(0);
}
const rows = readFileSync(file, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l));
const byFile = {};
const add = (o, k, n) => (o[k] = (o[k] ?? 0) + n);
for (const r of rows) {
  for (const [f, v] of Object.entries(r.files ?? {})) {
    const t = (byFile[f] ??= { cpu: 0, own: 0, spawns: {} });
    t.cpu += v.cpu;
    if (r.worker) t.own += v.cpu;
    for (const [k, n] of Object.entries(v.spawns)) add(t.spawns, k, n);
  }
}
const kinds = {};
for (const r of rows) {
  const k = r.worker ? 'vitest worker' : r.kind;
  kinds[k] ??= { n: 0, cpu: 0 };
  kinds[k].n++;
  kinds[k].cpu += r.cpu;
}
const total = rows.reduce((n, r) => n + r.cpu, 0);
const files = Object.entries(byFile).sort((a, b) => b[1].cpu - a[1].cpu);
const spawnsOf = (s) => Object.values(s).reduce((a, b) => a + b, 0);
const top = (s, n) =>
  Object.entries(s)
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([k, v]) => `${v} ${k}`)
    .join(', ');
console.log(`Node processes: ${rows.length}, ${total.toFixed(0)} CPU-s. Test files by the Node CPU spent for them (in the worker + in the processes they started):`);
console.log('  CPU-s  worker  processes  the most started');
for (const [f, t] of files.slice(0, count)) console.log(`${t.cpu.toFixed(1).padStart(7)} ${t.own.toFixed(1).padStart(7)} ${String(spawnsOf(t.spawns)).padStart(10)}  ${f}: ${top(t.spawns, 5)}`);
const all = {};
for (const [, t] of files) for (const [k, n] of Object.entries(t.spawns)) add(all, k, n);
console.log(`\nProcesses started, by command (${spawnsOf(all)} in all): ${top(all, 20)}`);
console.log('\nNode processes by kind: count, CPU-s');
for (const [k, v] of Object.entries(kinds).sort((a, b) => b[1].cpu - a[1].cpu).slice(0, 15)) console.log(`${v.cpu.toFixed(1).padStart(7)} ${String(v.n).padStart(5)}  ${k}`);
