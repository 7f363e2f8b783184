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


/** Runs a test command in the project: the core's goes through the one runner and its sandbox (workflow/gate.ts), in the terminal view. */
export type TestRunner = (command: string, cwd: string, signal?: AbortSignal, options?: TestRunOptions) => Promise<TestRun>;

export interface TestRunOptions {
  /** What it is for (a terminal's title); default "tests: <command>". */
  title?: string;
  /** More environment for the command (a test runner's report options). */
  env?: Record<string, string>;
  /** The folder the sandbox lets the command write (default: cwd); a parallel run's worktree lives inside the project's. */
  root?: string;
}
