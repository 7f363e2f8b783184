import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

/** End-to-end files that drive Chromium: they run one at a time, after the rest (timing-sensitive UI). */
const UI_E2E = ['tests/e2e/ui-*.test.ts', 'tests/e2e/*-ui.test.ts', 'tests/e2e/foundation.test.ts', 'tests/e2e/terminal.test.ts'];

export default defineConfig({
  test: {
    // One worker per core (Vitest's default, cores - 1, is a single worker on 2 cores): most tests wait on
    // child processes, servers and sockets, so two files overlap well. More than the cores starved the
    // CLI tests' 30 s budgets under load.
    maxWorkers: Math.max(2, availableParallelism()),
    projects: [
      {
        test: {
          name: 'node',
          environment: 'node',
          include: ['electron/**/*.test.ts', 'tests/**/*.test.ts'],
          exclude: ['tests/e2e/**', '**/node_modules/**'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        plugins: [react()],
        test: {
          name: 'renderer',
          environment: 'happy-dom',
          include: ['renderer/**/*.test.ts', 'renderer/**/*.test.tsx'],
          testTimeout: 15_000,
        },
      },
      {
        // CLI and MCP end-to-end files (real processes, temp homes, random ports): beside the unit tests.
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['tests/e2e/**/*.test.ts'],
          exclude: [...UI_E2E, '**/node_modules/**'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'e2e-ui',
          environment: 'node',
          include: UI_E2E,
          testTimeout: 120_000,
          hookTimeout: 120_000,
          fileParallelism: false,
          // A group of its own, after the others (Vitest runs a project with other worker limits in its own group).
          sequence: { groupOrder: 1 },
          // One worker runs them all (no fresh worker and imports per file; each file still starts its own serve).
          isolate: false,
          // One Chromium for every UI file (tests/support/browser.ts connects to it).
          globalSetup: ['tests/support/chromium-server.ts'],
        },
      },
    ],
  },
});
