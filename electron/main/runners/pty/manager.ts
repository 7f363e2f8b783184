import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import type { EventName, EventPayload, TerminalInfo } from '../../../contract/index';
import { writeFileAtomic } from '../../common/fs';
import type { Redactor } from '../../secrets/redactor';
import { DEFAULT_FLOW, type FlowControlOptions } from './flow';
import { cleanOutput, truncateHeadTail } from './output';
import { sandboxArgv, type SandboxProfile } from './sandbox';
import { ShellSnapshots, type ShellSnapshotOptions } from './shell-snapshot';
import { commandArgs, Terminal, type ExitStatus, type OutputPiece, type TerminalSpec } from './terminal';


/** Inherited variables a command run for the model does not get: the user's credentials for other services (the user's own shell keeps them). */
export const CREDENTIAL_NAME = /(?:^|_)(?:API_?KEY|ACCESS_?KEY|SECRET(?:_ACCESS)?(?:_KEY)?|(?:ACCESS|AUTH|API|BEARER|REFRESH|SESSION)?_?TOKEN|PASSWORD|PASSWD|CREDENTIALS?)$/i;
/** Where terminal events go: the core's EventBus, or nothing (standalone server). */
export interface EventSink {
  /** `masked`: the payload's text has been through the manager's redactor already (the core's own). */
  emit<E extends EventName>(event: E, payload: EventPayload<E>, options?: { masked?: boolean; bytes?: Uint8Array; headroom?: number }): void;
}

export interface PtyManagerOptions {
  /** Where full outputs are written (paths.outputsDir). */
  outputsDir: string;
  sink?: EventSink;
  /**
   * Flow control against a client that acknowledges (`terminal.ack`): on, off, or `auto` — on from
   * the first acknowledgement (a view that renders has connected), so a headless core never pauses.
   */
  flowControl?: boolean | 'auto' | Partial<FlowControlOptions>;
  /** Output batching window in ms (default 5). */
  batchMs?: number;
  /** Grace between SIGTERM and SIGKILL (default 2000 ms). */
  killGraceMs?: number;
  /**
   * Commands get the user's login environment (default) so the user's PATH applies: read once into a
   * shell snapshot (shell-snapshot.ts) that each command sources, or by `bash -lc` each time when the
   * snapshot is off or cannot be taken. `false`: a plain `bash -c`.
   */
  login?: boolean;
  /**
   * The shell snapshot's options, or false for `bash -lc` on every command (default on, unless
   * `ERASMUS_SHELL_SNAPSHOT=off` is in the environment).
   */
  shellSnapshot?: boolean | ShellSnapshotOptions;
  /** The shell for commands (default bash) and for shell tabs (default $SHELL or bash). */
  shell?: string;
  interactiveShell?: string;
  env?: NodeJS.ProcessEnv;
  /**
   * Masks secrets in every terminal's output (the core's redactor). Output events then tell the
   * sink they are masked, so the bus does not redact them again.
   */
  redactor?: Redactor;
  /** Exited terminals kept for `list` (default 50). */
  keepExited?: number;
}

export interface RunOptions {
  command: string;
  cwd: string;
  title?: string;
  /** Stop (or background) the command after this long; default 10 minutes. */
  timeoutMs?: number;
  /** On timeout: stop the whole process tree (default) or leave it running and return what it printed so far. */
  onTimeout?: 'kill' | 'background';
  env?: Record<string, string>;
  cols?: number;
  rows?: number;
  /** Most characters of output the result carries (head + tail); default 16 000. */
  maxOutputChars?: number;
  /** Aborting stops the command like a timeout does. */
  signal?: AbortSignal;
  /** Called once the PTY is running (its id is known). */
  onStart?: (info: TerminalInfo) => void;
  /** Called when a command left running in the background (`onTimeout: 'background'`) ends at last. */
  onBackgroundEnd?: () => void;
  /** Run inside the OS sandbox with this profile (sandbox.ts); the caller checks availability. */
  sandbox?: SandboxProfile;
}

export interface RunResult {
  terminalId: string;
  command: string;
  cwd: string;
  /** Exit code, or null when a signal ended it or it still runs in the background. */
  exitCode: number | null;
  signal: number | null;
  timedOut: boolean;
  /** True when it passed its timeout and was left running in the background. */
  background: boolean;
  aborted: boolean;
  /** Output for a model: ANSI stripped, head and tail kept when long. */
  output: string;
  truncated: boolean;
  /** The complete output, ANSI stripped (written once the command ends). */
  outputFile: string;
  /** The complete output as the terminal received it. */
  rawOutputFile: string;
  totalChars: number;
  durationMs: number;
}

/**
 * A `terminal.data` payload whose `data` is decoded from the piece's bytes when something first reads it
 * (an IPC or in-process pipe, the CLI's JSON): a WebSocket sends the bytes and never does.
 */
function terminalData(id: string, piece: OutputPiece): EventPayload<'terminal.data'> {
  return {
    id,
    at: piece.at,
    get data() {
      return piece.text();
    },
  };
}

const DEFAULT_TIMEOUT_MS = 10 * 60_000;
/** Above this much raw output the clean copy is not built in memory; the model is pointed at the raw file. */
const CLEAN_COPY_LIMIT = 64 * 1024 * 1024;

/**
 * Owns every PTY of a core (or of a standalone runners server): runner commands and shell tabs.
 * Emits `terminal.opened`, `terminal.data` (batched), `terminal.exited`, `terminal.closed`.
 */
export class PtyManager {
  private readonly terminals = new Map<string, Terminal>();
  private readonly flow: FlowControlOptions | undefined;
  private flowActive: boolean;
  private seq = 0;
  private disposed = false;
  /** The login environment read once (undefined: `bash -lc` each time, or no login shell). */
  readonly snapshots: ShellSnapshots | undefined;

  constructor(private readonly options: PtyManagerOptions) {
    const fc = options.flowControl;
    this.flow = fc ? { ...DEFAULT_FLOW, ...(fc === true || fc === 'auto' ? {} : fc) } : undefined;
    this.flowActive = fc !== 'auto';
    const snap = options.shellSnapshot ?? true;
    const off = (options.env ?? process.env).ERASMUS_SHELL_SNAPSHOT === 'off';
    if (options.login !== false && snap !== false && !off) this.snapshots = new ShellSnapshots({ redactor: options.redactor, ...(snap === true ? {} : snap) });
  }

  /** Runs a command in a fresh PTY in `cwd` and resolves with its result (never rejects for a failing command). */
  async run(opts: RunOptions): Promise<RunResult> {
    const started = Date.now();
    const cwd = resolve(opts.cwd);
    const shell = this.options.shell ?? 'bash';
    const nonce = randomBytes(8).toString('hex');
    // Output read by a model: no pagers, and tools told they run unattended without colour (no spinners, no colour codes).
    const env = { PAGER: 'cat', GIT_PAGER: 'cat', CI: '1', NO_COLOR: '1', FORCE_COLOR: '0', ...opts.env };
    // The login environment, read once inside the same sandbox (without its network) as the command.
    const snapshot = this.snapshots && (await this.snapshots.get({ shell, env: this.fullEnv('', env), cwd, prefix: () => (opts.sandbox ? sandboxArgv({ ...opts.sandbox, network: undefined }, cwd) : []) }));
    const sandbox = opts.sandbox && snapshot ? { ...opts.sandbox, shellSnapshot: snapshot } : opts.sandbox;
    const term = this.open({
      kind: 'command',
      title: opts.title ?? opts.command.split('\n')[0]!.slice(0, 80),
      command: opts.command,
      file: shell,
      args: commandArgs(shell, opts.command, snapshot || this.options.login !== false, nonce, sandbox ? sandboxArgv(sandbox, cwd) : []),
      exitMarker: nonce,
      cwd,
      env,
      cols: opts.cols,
      rows: opts.rows,
    });
    opts.onStart?.({ ...term.info });
    let timer: ReturnType<typeof setTimeout> | undefined;
    let aborted = false;
    let onAbort: (() => void) | undefined;
    const stop = new Promise<'timeout' | 'abort'>((resolveStop) => {
      timer = setTimeout(() => resolveStop('timeout'), opts.timeoutMs ?? DEFAULT_TIMEOUT_MS);
      if (opts.signal?.aborted) resolveStop('abort');
      onAbort = () => resolveStop('abort');
      opts.signal?.addEventListener('abort', onAbort, { once: true });
    });
    const first = await Promise.race([term.exited, stop]);
    clearTimeout(timer);
    // A run's signal outlives its commands: each one lets go of it (else a long workflow warns MaxListenersExceeded).
    if (onAbort) opts.signal?.removeEventListener('abort', onAbort);
    let status: ExitStatus;
    let background = false;
    if (first === 'timeout' || first === 'abort') {
      aborted = first === 'abort';
      if (first === 'timeout' && opts.onTimeout === 'background') {
        background = true;
        void term.exited.then(() => opts.onBackgroundEnd?.());
        status = { exitCode: null, signal: null, timedOut: true };
      } else {
        term.markTimedOut();
        await term.kill(this.options.killGraceMs);
        status = { ...(await term.exited), timedOut: !aborted };
      }
    } else {
      status = first;
    }
    return this.result(term, opts, status, { started, background, aborted });
  }

  /** Opens a plain interactive shell tab. */
  openShell(opts: { cwd?: string; cols?: number; rows?: number } = {}): TerminalInfo {
    const env = this.options.env ?? process.env;
    const shell = this.options.interactiveShell ?? env.SHELL ?? 'bash';
    const term = this.open({ kind: 'shell', title: 'shell', file: shell, args: ['-l'], cwd: resolve(opts.cwd ?? homedir()), env: {}, cols: opts.cols, rows: opts.rows });
    return { ...term.info };
  }

  list(): TerminalInfo[] {
    return [...this.terminals.values()].map((t) => ({ ...t.info }));
  }

  get(id: string): Terminal | undefined {
    return this.terminals.get(id);
  }

  input(id: string, data: string): void {
    this.need(id).write(data);
  }

  resize(id: string, cols: number, rows: number): void {
    this.need(id).resize(cols, rows);
  }

  ack(id: string, chars: number): void {
    if (!this.flowActive && this.flow) {
      this.flowActive = true;
      for (const t of this.terminals.values()) t.enableFlowControl();
    }
    this.terminals.get(id)?.ack(chars);
  }

  async kill(id: string): Promise<void> {
    await this.need(id).kill(this.options.killGraceMs);
  }

  /** Forgets a terminal (killing it first if it runs). */
  async close(id: string): Promise<void> {
    const term = this.need(id);
    if (term.running) await term.kill(this.options.killGraceMs);
    term.dispose();
    this.terminals.delete(id);
    this.options.sink?.emit('terminal.closed', { id });
  }

  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    await Promise.all([...this.terminals.values()].map((t) => t.kill(Math.min(this.options.killGraceMs ?? 2_000, 1_000))));
    for (const t of this.terminals.values()) t.dispose();
    this.terminals.clear();
  }

  private need(id: string): Terminal {
    const t = this.terminals.get(id);
    if (!t) throw new Error(`no terminal with id ${JSON.stringify(id)}`);
    return t;
  }

  /** What a caller says of a new terminal; the manager fills in id, files, size defaults and flow control. */
  private open(spec: Pick<TerminalSpec, 'kind' | 'title' | 'command' | 'file' | 'args' | 'cwd' | 'env' | 'exitMarker'> & Partial<Pick<TerminalSpec, 'cols' | 'rows'>>): Terminal {
    if (this.disposed) throw new Error('the PTY manager is disposed');
    mkdirSync(this.options.outputsDir, { recursive: true });
    const id = `t${++this.seq}-${randomBytes(3).toString('hex')}`;
    const env = this.fullEnv(id, spec.env, spec.kind);
    const sink = this.options.sink;
    const term = new Terminal(
      {
        ...spec,
        id,
        env,
        cols: spec.cols ?? 120,
        rows: spec.rows ?? 30,
        rawFile: join(this.options.outputsDir, `${id}.ansi.log`),
        batchMs: this.options.batchMs ?? 5,
        flow: this.flow,
        flowDeferred: !this.flowActive,
        redactor: this.options.redactor,
      },
      (piece) => sink?.emit('terminal.data', terminalData(id, piece), { masked: this.options.redactor !== undefined, bytes: piece.bytes, headroom: piece.headroom }),
    );
    this.terminals.set(id, term);
    sink?.emit('terminal.opened', { ...term.info });
    void term.exited.then((status) => {
      sink?.emit('terminal.exited', { id, exitCode: status.exitCode, signal: status.signal, timedOut: status.timedOut });
      this.prune();
    });
    return term;
  }

  /**
   * A terminal's whole environment (a command run for the model inherits no variable named as a credential is:
   * OPENAI_API_KEY, GITHUB_TOKEN, AWS_SECRET_ACCESS_KEY…, which the redactor cannot know and `env` would hand the model): this manager's (or this process's), the terminal's own, then `extra`. A variable
   * whose value the redactor masks (a provider's key read from the environment) is left out but in the user's own shell.
   */
  private fullEnv(id: string, extra: Record<string, string>, kind?: TerminalSpec['kind']): Record<string, string> {
    const env: Record<string, string> = {};
    const model = kind !== 'shell';
    const masked = model ? this.options.redactor : undefined;
    for (const [k, v] of Object.entries(this.options.env ?? process.env)) if (v !== undefined && !masked?.has(v) && !(model && CREDENTIAL_NAME.test(k))) env[k] = v;
    return Object.assign(env, { TERM: 'xterm-256color', COLORTERM: 'truecolor', ERASMUS_TERMINAL: id }, extra);
  }

  private prune(): void {
    const keep = this.options.keepExited ?? 50;
    const exited = [...this.terminals.values()].filter((t) => !t.running);
    for (const t of exited.slice(0, Math.max(0, exited.length - keep))) {
      t.dispose();
      this.terminals.delete(t.id);
    }
  }

  private async result(
    term: Terminal,
    opts: RunOptions,
    status: ExitStatus,
    extra: { started: number; background: boolean; aborted: boolean },
  ): Promise<RunResult> {
    const rawOutputFile = term.info.outputFile!;
    const outputFile = join(this.options.outputsDir, `${term.id}.log`);
    const maxChars = opts.maxOutputChars ?? 16_000;
    let clean: string;
    let fileForModel = outputFile;
    if (extra.background) {
      const { head, tail } = term.ends;
      clean = cleanOutput(term.fullOutput ?? `${head}\n[…]\n${tail}`);
      fileForModel = rawOutputFile;
    } else {
      await term.outputWritten;
      const size = (await stat(rawOutputFile)).size;
      if (size <= CLEAN_COPY_LIMIT) {
        clean = cleanOutput(term.fullOutput ?? (await readFile(rawOutputFile, 'utf8')));
        await writeFileAtomic(outputFile, clean);
      } else {
        const { head, tail } = term.ends;
        clean = cleanOutput(`${head}\n[…]\n${tail}`);
        fileForModel = rawOutputFile;
      }
    }
    const cut = truncateHeadTail(clean, { maxChars, file: fileForModel });
    return {
      terminalId: term.id,
      command: opts.command,
      cwd: term.info.cwd,
      exitCode: status.exitCode,
      signal: status.signal,
      timedOut: status.timedOut,
      background: extra.background,
      aborted: extra.aborted,
      output: cut.text,
      truncated: cut.truncated,
      outputFile: fileForModel,
      rawOutputFile,
      totalChars: term.outputChars,
      durationMs: Date.now() - extra.started,
    };
  }
}
