import type { CommandRunner } from '../runners/runner';
import type { TestRun, TestRunOptions } from './verify';

/**
 * A test gate (a component's, the final one) runs the tests the model wrote through the one runner:
 * the same OS sandbox as the runner tools, the project's TMPDIR, a PTY in the terminal view. Only
 * the exit status and the output count; what the sandbox refused is named at the end of the output.
 */
export async function runGate(runner: Pick<CommandRunner, 'run'>, command: string, cwd: string, signal?: AbortSignal, options: TestRunOptions = {}): Promise<TestRun> {
  const r = await runner.run({ command, root: options.root ?? cwd, cwd, signal, title: options.title ?? `tests: ${command}`, env: { CI: '1', FORCE_COLOR: '0', ...options.env } });
  const output = r.sandboxNote ? `${r.output}\n${r.sandboxNote}` : r.output;
  return { command, passed: r.exitCode === 0 && !r.timedOut && !r.aborted, exitCode: r.exitCode, output, durationMs: r.durationMs, outputFile: r.outputFile };
}
