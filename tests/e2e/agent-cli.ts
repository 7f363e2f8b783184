// Helpers for e2e tests of `erasmus chat --json`: a temp ERASMUS_HOME and work folder, an MCP config
// with the real filesystem and memory servers, and the CLI as a child process in its own group.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach } from 'vitest';
import type { AgentEvent } from '../../electron/contract/index';
import { startScriptedLlm, type ScriptedLlm } from '../fixtures/scripted-llm/index';

export const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface Sandbox {
  dir: string;
  home: string;
  work: string;
  memoryFile: string;
  config: string;
  cleanup(): void;
}

export function sandbox(opts: { everything?: boolean } = {}): Sandbox {
  const dir = mkdtempSync(join(tmpdir(), 'erasmus-chat-e2e-'));
  const home = join(dir, 'home');
  const work = join(dir, 'work');
  const memoryFile = join(dir, 'memory.jsonl');
  mkdirSync(work, { recursive: true });
  mkdirSync(home, { recursive: true });
  const config = join(dir, 'erasmus.yaml');
  const server = (pkg: string) => join(root, 'node_modules', '@modelcontextprotocol', pkg, 'dist', 'index.js');
  writeFileSync(
    config,
    [
      'mcpServers:',
      '  fs:',
      `    command: ${JSON.stringify(process.execPath)}`,
      `    args: [${JSON.stringify(server('server-filesystem'))}, ${JSON.stringify(work)}]`,
      '  memory:',
      `    command: ${JSON.stringify(process.execPath)}`,
      `    args: [${JSON.stringify(server('server-memory'))}]`,
      `    env: { MEMORY_FILE_PATH: ${JSON.stringify(memoryFile)} }`,
      ...(opts.everything ? ['  everything:', `    command: ${JSON.stringify(process.execPath)}`, `    args: [${JSON.stringify(server('server-everything'))}, "stdio"]`] : []),
      '',
    ].join('\n'),
  );
  return {
    dir,
    home,
    work,
    memoryFile,
    config,
    cleanup: () => {
      killStragglers(dir);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Ends MCP servers left by a SIGKILLed CLI: processes whose command line names this sandbox. */
export function killStragglers(dir: string): void {
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(dir)) process.kill(Number(pid), 'SIGKILL');
    } catch {}
  }
}

export interface ChatRun {
  child: ChildProcess;
  events: AgentEvent[];
  stdoutLines: string[];
  stderr: () => string;
  exit: Promise<number | null>;
  waitFor(pred: (e: AgentEvent) => boolean, timeoutMs?: number): Promise<AgentEvent>;
  kill(signal?: NodeJS.Signals): void;
}

/** The default path: a fresh ERASMUS_HOME, a fresh `git init` folder, nothing but the built-in toolsets (no --config). */
export function defaultSandbox(): Sandbox {
  const sb = sandbox();
  spawnSync('git', ['init', '-q', sb.work]);
  return sb;
}

/** `erasmus chat --json` in the sandbox; `builtinOnly` leaves out the sandbox's --config (its extra servers). */
export function runChat(sb: Sandbox, args: string[], opts: { builtinOnly?: boolean; env?: Record<string, string> } = {}): ChatRun {
  const config = opts.builtinOnly ? [] : ['--config', sb.config];
  const child = spawn(process.execPath, [join(root, 'bin', 'erasmus.js'), 'chat', '--json', ...config, '--project', sb.work, ...args], {
    cwd: sb.work,
    env: { ...process.env, ERASMUS_HOME: sb.home, ...opts.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const events: AgentEvent[] = [];
  const stdoutLines: string[] = [];
  let err = '';
  let buf = '';
  const waiters: { pred: (e: AgentEvent) => boolean; resolve: (e: AgentEvent) => void }[] = [];
  child.stdout!.setEncoding('utf8').on('data', (d: string) => {
    buf += d;
    let i;
    while ((i = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, i);
      buf = buf.slice(i + 1);
      stdoutLines.push(line);
      const e = JSON.parse(line) as AgentEvent;
      events.push(e);
      for (const w of [...waiters]) {
        if (!w.pred(e)) continue;
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(e);
      }
    }
  });
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (err += d));
  const exit = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  return {
    child,
    events,
    stdoutLines,
    stderr: () => err,
    exit,
    waitFor: (pred, timeoutMs = 60_000) => {
      const found = events.find(pred);
      if (found) return Promise.resolve(found);
      return new Promise((res, rej) => {
        const t = setTimeout(() => rej(new Error(`timed out waiting for an event; got ${events.map((e) => e.type).join(',')}; stderr: ${err}`)), timeoutMs);
        waiters.push({ pred, resolve: (e) => (clearTimeout(t), res(e)) });
      });
    },
    kill: (signal = 'SIGKILL') => {
      try {
        process.kill(-child.pid!, signal);
      } catch {}
    },
  };
}

export interface ChatHarness {
  /** Cleans up this sandbox after the test. */
  sandbox<T extends Sandbox>(sb: T): T;
  /** Closes this scripted model after the test. */
  llm(llm: ScriptedLlm): ScriptedLlm;
  /** startScriptedLlm, closed after the test. */
  startLlm(...args: Parameters<typeof startScriptedLlm>): Promise<ScriptedLlm>;
  /** runChat, killed after the test. */
  chat(sb: Sandbox, args: string[], opts?: { builtinOnly?: boolean; env?: Record<string, string> }): ChatRun;
}

/**
 * The chat tests' shared setup (call once at the top of a test file): after each test its chat runs
 * are killed, then its scripted models closed, then its sandboxes removed.
 */
export function chatHarness(): ChatHarness {
  const sandboxes: Sandbox[] = [];
  const llms: ScriptedLlm[] = [];
  const runs: ChatRun[] = [];
  afterEach(async () => {
    for (const r of runs.splice(0)) r.kill();
    for (const l of llms.splice(0)) await l.close();
    for (const sb of sandboxes.splice(0)) sb.cleanup();
  });
  const llm = (l: ScriptedLlm) => (llms.push(l), l);
  return {
    sandbox: (sb) => (sandboxes.push(sb), sb),
    llm,
    startLlm: async (...args) => llm(await startScriptedLlm(...args)),
    chat: (sb, args, opts) => {
      const r = runChat(sb, args, opts);
      runs.push(r);
      return r;
    },
  };
}
