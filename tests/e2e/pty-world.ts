// The world of a CLI test in a real terminal: the CLI built once before the file, and per test a sandbox (the sample
// project, a fresh ERASMUS_HOME) and a PTY, both cleaned up after it (the PTY's whole process group killed).
import type { IPty } from 'node-pty';
import { afterEach, beforeAll } from 'vitest';
import { ensureBuilt, type Sandbox } from './workflow-helpers';

export interface PtyWorld {
  sb?: Sandbox;
  pty?: IPty;
}

export function usePtyWorld(): PtyWorld {
  const w: PtyWorld = {};
  beforeAll(() => {
    ensureBuilt();
  }, 120_000);
  afterEach(async () => {
    try {
      if (w.pty) process.kill(-w.pty.pid, 'SIGKILL');
    } catch {}
    w.pty = undefined;
    await w.sb?.cleanup();
    w.sb = undefined;
  });
  return w;
}
