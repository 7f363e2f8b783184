// Builds the app after install so `npx erasmus` works from a fresh clone.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
if (process.env.ERASMUS_SKIP_POSTINSTALL_BUILD) process.exit(0);
if (!existsSync('electron.vite.config.ts')) process.exit(0);
const r = spawnSync(process.execPath, ['node_modules/electron-vite/bin/electron-vite.js', 'build'], { stdio: 'inherit' });
process.exit(r.status ?? 1);
