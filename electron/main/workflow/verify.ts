import { spawn } from 'node:child_process';

export interface TestRun {
  command: string;
  passed: boolean;
  exitCode: number | null;
  /** The end of stdout+stderr (what a debugging step needs to see). */
  output: string;
  durationMs: number;
  /** The complete output, when the runner keeps it in a file (the PTY runner does). */
  outputFile?: string;
}

const TAIL = 12_000;

/** Runs a test command in the project; the core passes one that uses the runners' PTYs (visible in the terminal view). */
export type TestRunner = (command: string, cwd: string, signal?: AbortSignal, options?: TestRunOptions) => Promise<TestRun>;

export interface TestRunOptions {
  /** What it is for (a terminal's title); default "tests: <command>". */
  title?: string;
  /** More environment for the command (a test runner's report options). */
  env?: Record<string, string>;
}

/**
 * Runs the project's test command for real (shell, in the project, own process group) and reports
 * whether it passed. `env` is added to the environment (what makes a runner write its report).
 * Abort or timeout kills the whole group.
 */
export function runTests(command: string, cwd: string, signal?: AbortSignal, env: Record<string, string> = {}, timeoutMs = 300_000): Promise<TestRun> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(command, { cwd, shell: true, detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, CI: '1', FORCE_COLOR: '0', ...env } });
    let out = '';
    const add = (b: Buffer) => {
      out += b.toString('utf8');
      if (out.length > TAIL * 2) out = out.slice(-TAIL);
    };
    child.stdout.on('data', add);
    child.stderr.on('data', add);
    const kill = () => {
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {}
    };
    const timer = setTimeout(() => {
      out += `\n[erasmus] test command timed out after ${timeoutMs} ms\n`;
      kill();
    }, timeoutMs);
    const onAbort = () => kill();
    signal?.addEventListener('abort', onAbort, { once: true });
    child.on('error', (err) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      reject(err);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      resolve({ command, passed: code === 0, exitCode: code, output: out.slice(-TAIL), durationMs: Date.now() - started });
    });
  });
}
