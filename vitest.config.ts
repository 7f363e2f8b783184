import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

export default defineConfig({
  test: {
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
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['tests/e2e/**/*.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          fileParallelism: false,
          // One Chromium for every end-to-end file (tests/support/browser.ts connects to it).
          globalSetup: ['tests/support/chromium-server.ts'],
        },
      },
    ],
  },
});
