import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { bundleSize } from './scripts/bundle-size';

// Native modules and the MCP servers' packages stay external: they are loaded from node_modules at run time.
const external = ['keytar', 'node-pty', 'electron'];

export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      externalizeDeps: true,
      rollupOptions: {
        external,
        input: {
          index: resolve(__dirname, 'electron/main/index.ts'),
          cli: resolve(__dirname, 'electron/cli/index.ts'),
        },
        output: { format: 'es', entryFileNames: '[name].js' },
      },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      externalizeDeps: true,
      rollupOptions: {
        input: { index: resolve(__dirname, 'electron/preload/index.ts') },
        // A sandboxed preload cannot load ES modules.
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve(__dirname, 'renderer'),
    plugins: [react(), tailwindcss(), bundleSize({ budget: 300 * 1024 })],
    build: {
      outDir: resolve(__dirname, 'out/renderer'),
      rollupOptions: { input: { index: resolve(__dirname, 'renderer/index.html') } },
    },
  },
});
