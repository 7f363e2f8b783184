import { spawn } from 'node:child_process';
import { WorkflowStepResult } from '../../contract/methods/workflow';
import { stepView, StepAbortedError, type StepExecutor, type StepRequest, type StepResult } from './executor';

/** How long a step's output is read after its command exited, while a process it left holds the output open. */
export const OUTPUT_AFTER_EXIT_MS = 5_000;

/**
 * Runs each step with an external command (any program that can act as the model: a CLI agent,
 * a script): the step goes to its stdin as JSON ({step, prompt, protocolPrompt, budget}), the
 * result ({output, done, usage?, contextDoc?}) comes back as JSON on stdout. The process runs in
 * the project, in its own process group, killed on abort.
 */
export class CommandExecutor implements StepExecutor {
  readonly kind = 'command';

  constructor(
    readonly command: string,
    private readonly env: NodeJS.ProcessEnv = process.env,
    private readonly outputAfterExitMs = OUTPUT_AFTER_EXIT_MS,
  ) {}

  run(step: StepRequest): Promise<StepResult> {
    return new Promise((resolve, reject) => {
      if (step.signal.aborted) return reject(new StepAbortedError(step.state));
      const child = spawn(this.command, { cwd: step.projectDir, shell: true, detached: true, stdio: ['pipe', 'pipe', 'pipe'], env: { ...this.env } });
      let out = '';
      let err = '';
      child.stdout.on('data', (b: Buffer) => (out += b.toString('utf8')));
      child.stderr.on('data', (b: Buffer) => (err = (err + b.toString('utf8')).slice(-4000)));
      const onAbort = () => {
        try {
          if (child.pid) process.kill(-child.pid, 'SIGKILL');
        } catch {}
      };
      step.signal.addEventListener('abort', onAbort, { once: true });
      child.on('error', (e) => {
        step.signal.removeEventListener('abort', onAbort);
        reject(new Error(`step command failed to start: ${e.message}`));
      });
      // Its end is 'close' (its output read to the end); a process of its own session it left behind (a daemon) may hold
      // that output open for as long as it lives, so once the command itself has exited that wait is bounded: the step
      // ended (or the stop that killed it) was otherwise held up by it, for good with a daemon that stays.
      let ended = false;
      let lingering: NodeJS.Timeout | undefined;
      child.on('exit', () => {
        lingering = setTimeout(() => {
          child.stdout.destroy();
          child.stderr.destroy();
          end(child.exitCode);
        }, this.outputAfterExitMs);
      });
      const end = (code: number | null) => {
        if (ended) return;
        ended = true;
        clearTimeout(lingering);
        step.signal.removeEventListener('abort', onAbort);
        if (step.signal.aborted) return reject(new StepAbortedError(step.state));
        if (code !== 0) return reject(new Error(`step command exited with status ${code}: ${err.trim().slice(-1000)}`));
        let json: unknown;
        try {
          json = JSON.parse(out.trim().split('\n').filter(Boolean).pop() ?? '');
        } catch {
          return reject(new Error(`step command printed no JSON result on its last line: ${out.slice(-300)}`));
        }
        const r = WorkflowStepResult.safeParse(json);
        if (!r.success) return reject(new Error(`step command result is invalid: ${r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`));
        resolve(r.data);
      };
      child.on('close', end);
      child.stdin.on('error', () => undefined);
      child.stdin.end(JSON.stringify({ step: stepView(step), prompt: step.prompt, protocolPrompt: step.protocolPrompt, budget: step.budget }));
    });
  }
}
