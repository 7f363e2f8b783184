import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { onTestFinished } from 'vitest';

export interface ServeHandle {
  url: string;
  wsUrl: string;
  port: number;
  home: string;
  child: ChildProcess;
  stderr: () => string;
  stop(): Promise<void>;
}

/**
 * Starts `erasmus serve --json` from the built CLI with a fresh ERASMUS_HOME (on `port`; without one, the port that
 * home served last when free, else a free one). A fresh home made in a test is removed after it.
 */
export async function startServe(env: Record<string, string> = {}, port?: number): Promise<ServeHandle> {
  const home = env.ERASMUS_HOME ?? mkdtempSync(join(tmpdir(), 'erasmus-e2e-home-'));
  const child = spawn(process.execPath, [join(process.cwd(), 'bin', 'erasmus.js'), 'serve', '--json', ...(port === undefined ? [] : ['--port', String(port)])], {
    env: { ...process.env, ERASMUS_HOME: home, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let err = '';
  child.stderr!.on('data', (d) => (err += d));
  const line = await new Promise<string>((resolve, reject) => {
    const rl = createInterface({ input: child.stdout! });
    const timer = setTimeout(() => reject(new Error(`serve did not start in time: ${err}`)), 30_000);
    rl.once('line', (l) => {
      clearTimeout(timer);
      resolve(l);
    });
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${err}`)));
  });
  const info = JSON.parse(line) as { url: string; wsUrl: string; port: number };
  const handle: ServeHandle = {
    ...info,
    home,
    child,
    stderr: () => err,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      try {
        process.kill(-child.pid!, 'SIGTERM');
      } catch {}
      const t = setTimeout(() => {
        try {
          process.kill(-child.pid!, 'SIGKILL');
        } catch {}
      }, 3000);
      await exited;
      clearTimeout(t);
    },
  };
  // A home made here goes once the test that made it has finished (its serve stopped first; a serve started again on
  // the same home within the test is the test's to stop). Made outside a test, its caller removes it (useServeAndBrowser).
  if (!env.ERASMUS_HOME) {
    try {
      onTestFinished(async () => {
        await handle.stop();
        rmSync(home, { recursive: true, force: true });
      });
    } catch {
      // Not in a test.
    }
  }
  return handle;
}
