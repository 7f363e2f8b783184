/**
 * Ctrl-C on a command that drives a run, as git, npm and cargo take it: the first stops the run and saves it (the
 * command then ends with 130), a second while it saves says it still saves and how to quit at once, a third quits at
 * once (the run file is written whole or not at all, so it stays the last one saved: the run reads interrupted and
 * resume takes it up). `erasmus workflow stop` (SIGTERM) stops it the same way; a SIGTERM again changes nothing.
 */
export interface StopOnSignals {
  /** Set once a signal asked the run to stop: SIGINT (Ctrl-C) or SIGTERM (`erasmus workflow stop`). */
  readonly by: 'SIGINT' | 'SIGTERM' | undefined;
  /** Waits for the stop a signal asked for (nothing to wait for without one). */
  stopped(): Promise<void>;
  /** Stops listening (after the command's work, or at once when no signal came). */
  dispose(): void;
}

export interface StopOnSignalsOptions {
  /** Stops the run and resolves once it is saved. */
  stop(): Promise<unknown>;
  /** Says a line to the user (stderr, above an open question); `afterCtrlC`: the terminal may have echoed ^C on the line. */
  say(line: string, afterCtrlC: boolean): void;
  /** The command that takes the run up again, to copy. */
  resume: string;
  /** Quits at once (process.exit). */
  exit(code: number): void;
}

export function stopOnSignals(o: StopOnSignalsOptions): StopOnSignals {
  let by: StopOnSignals['by'];
  let presses = 0;
  let rest = false;
  let stopping: Promise<void> = Promise.resolve();
  const begin = (signal: 'SIGINT' | 'SIGTERM') => {
    by = signal;
    stopping = o.stop().then(
      () => void (rest = true),
      (err: Error) => o.say(`The run could not be stopped: ${err.message}`, false),
    );
  };
  const onInt = () => {
    presses++;
    if (!by) {
      o.say('Stopping the run: the step under way is stopped and the run saved…', true);
      return begin('SIGINT');
    }
    if (presses >= 3 || (presses >= 2 && by === 'SIGTERM')) {
      o.say(rest ? 'Quit: the run was saved before.' : `Quit without waiting: the run file is as last saved; the run reads interrupted and ${o.resume} takes it up (its step runs again).`, true);
      return o.exit(130);
    }
    o.say(rest ? 'The run is saved; closing its tools (Ctrl-C again to quit at once).' : 'Still saving the run, a moment. Ctrl-C once more quits at once (the run is then left interrupted, to resume).', true);
  };
  const onTerm = () => {
    // While it saves, a SIGTERM again changes nothing; once saved (its tools closing), it ends the process as SIGTERM does.
    if (by) return rest ? o.exit(143) : undefined;
    o.say('Asked to stop (SIGTERM: erasmus workflow stop, or the system): the step under way is stopped and the run saved…', false);
    begin('SIGTERM');
  };
  process.on('SIGINT', onInt);
  process.on('SIGTERM', onTerm);
  return {
    get by() {
      return by;
    },
    stopped: () => stopping,
    dispose() {
      process.off('SIGINT', onInt);
      process.off('SIGTERM', onTerm);
    },
  };
}

export interface ShutdownOnSignalsOptions {
  /** Said at the first signal: what is being stopped, and that Ctrl-C again quits at once. */
  stopping: string;
  /** Stops everything cleanly. */
  stop(): Promise<unknown>;
  /** Said when a second Ctrl-C quits before the stop ended: what is left as it was and how it is taken up. */
  quitting: string;
  /** Said when the stop outlived `boundMs`; the process then ends as if it had stopped. */
  late?: string;
  boundMs?: number;
  say(line: string): void;
  exit(code: number): void;
  /** Where the signals come from (the process; a test's emitter). */
  signals?: Pick<NodeJS.EventEmitter, 'on' | 'off'>;
}

/**
 * A long-running command (`serve`, `worker`) on Ctrl-C or SIGTERM: the first says what it stops and stops it cleanly
 * (exit 0); a second Ctrl-C while that goes on quits at once (exit 130), saying what is left; a SIGTERM again changes
 * nothing (a supervisor's SIGKILL follows on its own). Before, a second Ctrl-C hit Node's default and killed the
 * process in silence mid-shutdown.
 */
export function shutdownOnSignals(o: ShutdownOnSignalsOptions): { dispose(): void } {
  let stopping = false;
  const begin = () => {
    stopping = true;
    o.say(o.stopping);
    const bound =
      o.boundMs === undefined
        ? undefined
        : new Promise<void>((r) =>
            setTimeout(() => {
              if (o.late) o.say(o.late);
              r();
            }, o.boundMs).unref(),
          );
    void Promise.race([o.stop().catch((err: Error) => o.say(`The stop failed: ${err.message}`)), ...(bound ? [bound] : [])]).finally(() => o.exit(0));
  };
  const onInt = () => {
    if (!stopping) return begin();
    o.say(o.quitting);
    o.exit(130);
  };
  const onTerm = () => {
    if (!stopping) begin();
  };
  const signals = o.signals ?? process;
  signals.on('SIGINT', onInt);
  signals.on('SIGTERM', onTerm);
  return {
    dispose() {
      signals.off('SIGINT', onInt);
      signals.off('SIGTERM', onTerm);
    },
  };
}
