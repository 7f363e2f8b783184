#!/usr/bin/env node
// Prints the slowest test files of the last run from Vitest's JSON report (test-results/vitest.json):
// `node scripts/slowest-tests.mjs [count] [report]`. Prints nothing when there is no report.
// `node scripts/slowest-tests.mjs --save [report]` writes every file's duration to tests/durations.json instead
// (seconds; the test sequencer starts the longest files first on a checkout without Vitest's own cache).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';

const save = process.argv[2] === '--save';
const count = save ? 0 : Number(process.argv[2] ?? 10);
const file = process.argv[3] ?? 'test-results/vitest.json';
if (save) {
  if (!existsSync(file)) throw new Error(`no report at ${file}: run npm test first`);
  const report = JSON.parse(readFileSync(file, 'utf8'));
  const durations = Object.fromEntries(
    (report.testResults ?? [])
      .map((t) => [relative(process.cwd(), t.name), Math.round(((t.endTime ?? 0) - (t.startTime ?? 0)) / 100) / 10])
      .sort(([a], [b]) => (a < b ? -1 : 1)),
  );
  writeFileSync('tests/durations.json', JSON.stringify(durations, null, 2) + '\n');
  console.log(`tests/durations.json: ${Object.keys(durations).length} files`);
} else if (existsSync(file)) {
  const report = JSON.parse(readFileSync(file, 'utf8'));
  const files = (report.testResults ?? [])
    .map((t) => ({ name: relative(process.cwd(), t.name), ms: (t.endTime ?? 0) - (t.startTime ?? 0), tests: (t.assertionResults ?? []).length }))
    .sort((a, b) => b.ms - a.ms);
  const total = files.reduce((n, f) => n + f.ms, 0);
  console.log(`slowest ${Math.min(count, files.length)} of ${files.length} test files (${(total / 1000).toFixed(0)} s summed over files):`);
  for (const f of files.slice(0, count)) console.log(`${(f.ms / 1000).toFixed(1).padStart(7)} s  ${String(f.tests).padStart(3)} tests  ${f.name}`);
}
