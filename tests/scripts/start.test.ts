import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(__dirname, '../..');

describe('npm start without Electron', () => {
  it('says how to use browser mode instead of ending in a stack trace', () => {
    // An empty dist folder: Electron's package is there, its binary is not (as with ELECTRON_SKIP_BINARY_DOWNLOAD).
    const empty = mkdtempSync(join(tmpdir(), 'erasmus-no-electron-'));
    try {
      const r = spawnSync('npm', ['start', '--silent'], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, ELECTRON_OVERRIDE_DIST_PATH: empty } });
      expect(r.status).toBe(1);
      expect(r.stderr).toContain('Electron is not installed here');
      expect(r.stderr).toContain('npm run serve');
      expect(r.stderr).toContain('node bin/erasmus.js serve');
      expect(r.stderr).not.toMatch(/at .*\(.*:\d+:\d+\)/); // no stack
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
