import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { globSync } from 'tinyglobby';
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { LongestFirstSequencer } from './tests/support/sequencer';

/** End-to-end files that drive Chromium (timing-sensitive UI). */
const UI_E2E = ['tests/e2e/ui-*.test.ts', 'tests/e2e/*-ui.test.ts', 'tests/e2e/foundation.test.ts', 'tests/e2e/terminal.test.ts'];
/**
 * End-to-end files that mostly wait: a durable run's components go through Postgres to `erasmus worker` processes
 * that poll it (workflow-durable-lifecycle: about 11 CPU-s in 58 s). Beside the CPU-bound files they would hold a
 * worker slot while a core sits idle.
 */
const WAITING_E2E = ['tests/e2e/workflow-durable*.test.ts', 'tests/e2e/worker-stop.test.ts'];
/**
 * CLI and MCP end-to-end files (a CLI or server process driven by a scripted model) moved beside only so both Vitest
 * runs end together: in a quiet whole run the beside run ended about 100 s before the main one, whose two workers
 * then left part of the two cores idle. About 60 s of files (tests/durations.json) moved; then, with the main run at
 * 294 s and the beside one at 242 s, the two CLI workflow files that mostly wait on their CLI (about 6 CPU-s in 20 s
 * each) followed: the main run's two workers are always busy, so a file that leaves them ends it about half its length
 * sooner, and the beside run takes it whole (X s moved: main - X/2, beside + X; 37 s here). None changes process-wide
 * state (the beside project shares one worker). Rebalance here when the two runs' ends drift apart again (`npm test`
 * prints both).
 */
const BALANCE_E2E = [
  'tests/e2e/workflow-rewind.test.ts',
  'tests/e2e/erasmus-mcp.test.ts',
  'tests/e2e/secret-leak-cli.test.ts',
  'tests/e2e/erasmus-mcp-rewind.test.ts',
  'tests/e2e/workflow-default-cli.test.ts',
  'tests/e2e/workflow-goals-cli.test.ts',
  'tests/e2e/workflow-unfinished-cli.test.ts',
];
/** Run one at a time, in a Vitest of their own beside the other files (scripts/test.mjs): project e2e-beside. */
const BESIDE = [...UI_E2E, ...WAITING_E2E, ...BALANCE_E2E];
const NODE_UNIT = ['electron/**/*.test.ts', 'tests/**/*.test.ts'];
const RENDERER = ['renderer/**/*.test.ts', 'renderer/**/*.test.tsx'];
const IGNORED = ['**/node_modules/**', '**/out/**', '**/dist/**'];

/**
 * Node test files share a worker (isolate: false): a fresh worker and fresh imports per file cost
 * about 0.6 CPU-seconds each (71 small unit files: 61.6 -> 18.8 CPU-s). The rule for every group: a file
 * that mocks a module (vi.mock / vi.doMock), changes the process's environment or folder
 * (process.env.X = …, delete process.env.X, vi.stubEnv, process.chdir) or stubs a global runs
 * isolated instead, in a fresh worker of its own group ("…-isolated"). The files are read here, so a
 * new file lands in the right group without a list to keep.
 */
const PROCESS_WIDE = /\bvi\.(mock|doMock|stubEnv|stubGlobal|resetModules)\(|process\.chdir\(|delete process\.env\b|process\.env(\.\w+|\[[^\]]+\])\s*=[^=]|process\.env\s*=[^=]/;
/**
 * In the renderer's shared document, focus is state too: a view's late work (a lazy chunk, a focus) can outlive
 * its file under load and take the focus in the next file's DOM (seen once, in ServersEdit). A renderer file that
 * asserts where the focus is runs isolated.
 */
const DOCUMENT_WIDE = /document\.activeElement|toHaveFocus\(/;
const isolated = (include: string[], exclude: string[] = [], also?: RegExp): string[] =>
  globSync(include, { ignore: [...exclude, ...IGNORED] }).filter((f) => {
    const text = readFileSync(f, 'utf8');
    return PROCESS_WIDE.test(text) || (also?.test(text) ?? false);
  });

/** One shared-worker group and, for the files that change process-wide state, its isolated twin. */
function groups(
  name: string,
  include: string[],
  exclude: string[],
  rest: NonNullable<TestProjectInlineConfiguration['test']>,
  options: { also?: RegExp; plugins?: TestProjectInlineConfiguration['plugins'] } = {},
): TestProjectInlineConfiguration[] {
  const alone = isolated(include, exclude, options.also);
  const plugins = options.plugins ? { plugins: options.plugins } : {};
  return [
    { ...plugins, test: { name, include, exclude: [...exclude, ...alone, ...IGNORED], isolate: false, ...rest } },
    ...(alone.length ? [{ ...plugins, test: { name: `${name}-isolated`, include: alone, exclude: IGNORED, isolate: true, ...rest } }] : []),
  ];
}

export default defineConfig({
  test: {
    // One worker per core (Vitest's default, cores - 1, is a single worker on 2 cores): most tests wait on
    // child processes, servers and sockets, so two files overlap well. More than the cores starved the
    // CLI tests' 30 s budgets under load.
    maxWorkers: Math.max(2, availableParallelism()),
    // The longest files first within each project (tests/durations.json on a fresh checkout).
    sequence: { sequencer: LongestFirstSequencer },
    projects: [
      ...groups('node', NODE_UNIT, ['tests/e2e/**'], { environment: 'node', testTimeout: 30_000, hookTimeout: 60_000 }),
      // Renderer files share a worker and its document too (35 files, one fresh worker each: 38 -> 9 CPU-s, 117 -> 30 s
      // under load); a file that asserts the focus runs isolated (DOCUMENT_WIDE).
      // Each test's render is unmounted after it (renderer/src/testing/setup.ts), whether or not its file says so.
      ...groups('renderer', RENDERER, [], { environment: 'happy-dom', testTimeout: 15_000, setupFiles: ['renderer/src/testing/setup.ts'] }, { also: DOCUMENT_WIDE, plugins: [react()] }),
      // CLI and MCP end-to-end files (real processes, temp homes, random ports): beside the unit tests.
      ...groups('e2e', ['tests/e2e/**/*.test.ts'], BESIDE, { environment: 'node', testTimeout: 120_000, hookTimeout: 120_000 }),
      {
        test: {
          name: 'e2e-beside',
          environment: 'node',
          include: BESIDE,
          testTimeout: 120_000,
          hookTimeout: 120_000,
          fileParallelism: false,
          // `npm test` (scripts/test.mjs) runs this project in a Vitest of its own, beside a second one for every
          // other project: a project added here runs in that second one, beside the Chromium files, with no change
          // to the script. Run by Vitest alone it is a group of its own, after the others (Vitest runs a project with
          // other worker limits in its own group).
          sequence: { groupOrder: 1 },
          // One worker runs them all (no fresh worker and imports per file; each file still starts its own serve or Postgres).
          isolate: false,
          // One Chromium for every UI file (tests/support/browser.ts connects to it).
          globalSetup: ['tests/support/chromium-server.ts'],
        },
      },
    ],
  },
});
