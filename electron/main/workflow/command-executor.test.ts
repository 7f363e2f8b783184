import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { CommandExecutor } from './command-executor';
import { StepAbortedError, type StepRequest } from './executor';

/**
 * A step command that leaves a process of its own session behind (a daemon it started, holding the step's output open):
 * the step ends, or is stopped, once the command itself has exited and a short wait for its output is over, not when the
 * daemon goes (before, a stop or a step waited for as long as it lived).
 */
let dir: string | undefined;
afterEach(() => {
  if (!dir) return;
  try {
    process.kill(Number(readFileSync(join(dir, 'daemon.pid'), 'utf8')), 'SIGKILL');
  } catch {}
  rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

function step(signal: AbortSignal): StepRequest {
  return { runId: 'r', state: 'adder:development', protocol: 'development', prompt: 'p', protocolPrompt: 'pp', toolsets: [], contextDocPath: join(dir!, 'doc.md'), projectDir: dir!, budget: { maxTurns: 1 }, signal };
}

/** The command's prefix: a daemon in a session of its own, holding stdout for 60 s, its pid in daemon.pid once it runs. */
const daemon = () => `setsid sh -c 'echo $$ > ${dir}/daemon.pid; exec sleep 60' & while [ ! -s ${dir}/daemon.pid ]; do sleep 0.05; done;`;

it('a step answered at once ends after the short wait for its output, though a daemon it left holds the output open', async () => {
  dir = mkdtempSync(join(tmpdir(), 'erasmus-command-executor-'));
  const started = Date.now();
  const r = await new CommandExecutor(`${daemon()} echo '{"output":"Done.","done":true}'`, process.env, 300).run(step(new AbortController().signal));
  expect(r).toMatchObject({ output: 'Done.', done: true });
  expect(Date.now() - started).toBeLessThan(5_000);
});

it('a stop ends the step once its command is killed and the short wait is over, not when the daemon goes', async () => {
  dir = mkdtempSync(join(tmpdir(), 'erasmus-command-executor-'));
  const abort = new AbortController();
  const running = new CommandExecutor(`${daemon()} sleep 60`, process.env, 300).run(step(abort.signal));
  while (!readFileSafe(join(dir, 'daemon.pid'))) await new Promise((r) => setTimeout(r, 25));
  const stopped = Date.now();
  abort.abort();
  await expect(running).rejects.toBeInstanceOf(StepAbortedError);
  expect(Date.now() - stopped).toBeLessThan(5_000);
});

function readFileSafe(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}
