#!/usr/bin/env node
// The `erasmus` command: runs the built CLI (out/main/cli.js), building it first if this is a fresh checkout.
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { dirname, join } from 'node:path';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cli = join(root, 'out', 'main', 'cli.js');
if (!existsSync(cli)) {
  process.stderr.write('erasmus: building the CLI (first run)…\n');
  const r = spawnSync(process.execPath, [join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build'], { cwd: root, stdio: ['ignore', 2, 2] });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
const { main } = await import(pathToFileURL(cli).href);
await main(process.argv);
