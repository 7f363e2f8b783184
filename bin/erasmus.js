#!/usr/bin/env node
// The `erasmus` command: runs the built CLI (out/main/cli.cjs), building it first if this is a fresh checkout.
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { useCompileCache } from './compile-cache.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cli = join(root, 'out', 'main', 'cli.cjs');
if (!existsSync(cli)) {
  process.stderr.write('erasmus: building the CLI (first run)…\n');
  const r = spawnSync(process.execPath, [join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build'], { cwd: root, stdio: ['ignore', 2, 2] });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
useCompileCache(join(root, 'out', 'main'), join(root, 'node_modules', '.cache', 'erasmus-compile-cache'));
const { main } = createRequire(import.meta.url)(cli);
await main(process.argv);
