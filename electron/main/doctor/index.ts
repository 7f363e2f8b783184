import { createRequire } from 'node:module';
import type { DoctorCheck } from '../../contract/index';
import { ptyHostFailure, spawnPty } from '../runners/pty/pty-host';
import { sandboxStatus } from '../runners/pty/sandbox';
import type { SecretStore } from '../secrets/index';
import { loadAgentConfig } from '../agent/providers/config';
import { listProviders } from '../settings/providers';

export interface DoctorDeps {
  secrets: Pick<SecretStore, 'list'>;
  configYaml: string;
  /** Loads node-pty (tests hand in a failing one). */
  loadPty?: () => { spawn: (file: string, args: string[], opts: Record<string, unknown>) => { onExit(cb: (e: { exitCode: number }) => void): unknown; kill(): void } };
  timeoutMs?: number;
}

const requireCjs = createRequire(import.meta.url);

function within<T>(ms: number, what: string, p: Promise<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms / 1000} s`)), ms);
    timer.unref?.();
    p.then(
      (v) => (clearTimeout(timer), resolve(v)),
      (e: unknown) => (clearTimeout(timer), reject(e instanceof Error ? e : new Error(String(e)))),
    );
  });
}

/** Whether runner commands run in an OS sandbox here; without one, every command that is not read-only asks. */
export function sandboxCheck(): DoctorCheck {
  const s = sandboxStatus();
  if (s.available) return { id: 'sandbox', status: 'ok', summary: process.platform === 'darwin' ? 'runner commands run in Seatbelt (macOS)' : 'runner commands run in bubblewrap (Linux)', detail: s.detail };
  const fix =
    process.env.ERASMUS_SANDBOX === 'off'
      ? 'unset ERASMUS_SANDBOX to use the sandbox again'
      : process.platform === 'linux'
        ? 'install bubblewrap (`sudo apt-get install bubblewrap`) and allow unprivileged user namespaces (`sysctl kernel.unprivileged_userns_clone=1`; on Ubuntu 24.04+ an AppArmor profile for bwrap)'
        : process.platform === 'darwin'
          ? 'Seatbelt (/usr/bin/sandbox-exec, part of macOS) did not confine the probe command (see the detail); until it does, approve commands one by one'
          : process.platform === 'win32'
            ? 'Erasmus has no sandbox on Windows: approve commands one by one, or run Erasmus in WSL 2 (Linux, with bubblewrap)'
            : 'no sandbox is supported on this system yet; approve commands one by one';
  const where = process.platform === 'win32' ? 'Windows' : process.platform === 'darwin' ? 'macOS' : process.platform === 'linux' ? 'Linux' : process.platform;
  return { id: 'sandbox', status: 'warn', summary: `runner commands are not sandboxed (${where}): every command that is not read-only asks first`, detail: s.detail, fix };
}

async function keychainCheck(deps: DoctorDeps, ms: number): Promise<DoctorCheck & { names?: string[] }> {
  try {
    const names = await within(ms, 'the keychain', deps.secrets.list());
    return { id: 'keychain', status: 'ok', summary: `the OS keychain answers (${names.length} Erasmus secret${names.length === 1 ? '' : 's'})`, names };
  } catch (err) {
    return { id: 'keychain', status: 'fail', summary: 'the OS keychain is not reachable: a provider or server whose key is a ${secret:NAME} cannot start (a ${env:NAME} key still works)', detail: (err as Error).message };
  }
}

async function ptyCheck(deps: DoctorDeps, ms: number): Promise<DoctorCheck> {
  try {
    const pty = (deps.loadPty ?? (() => requireCjs('node-pty')))();
    const code = await within(
      ms,
      'a test command in a pseudo-terminal',
      new Promise<number>((resolve, reject) => {
        try {
          const p = pty.spawn('/bin/sh', ['-c', 'exit 7'], { name: 'xterm', cols: 80, rows: 24, cwd: process.cwd(), env: { PATH: process.env.PATH ?? '' } });
          p.onExit((e: { exitCode: number }) => resolve(e.exitCode));
        } catch (err) {
          reject(err instanceof Error ? err : new Error(String(err)));
        }
      }),
    );
    if (code !== 7) throw new Error(`a test command reported exit ${code} instead of 7`);
    if (!deps.loadPty) {
      // Where terminals are read: the pty host's thread, or (when it cannot load node-pty) the main thread.
      const p = spawnPty({ file: '/bin/sh', args: ['-c', 'exit 0'], cwd: process.cwd(), env: { PATH: process.env.PATH ?? '' }, cols: 80, rows: 24, batchMs: 5 });
      await within(ms, 'a test command in the pty host', new Promise<void>((resolve) => p.onExit(() => resolve())));
      if (!p.batches) {
        return {
          id: 'pty',
          status: 'warn',
          summary: 'node-pty runs commands in pseudo-terminals, read on the main thread: a flood of output slows the app and the command',
          detail: ptyHostFailure(),
          fix: process.env.ERASMUS_PTY_HOST === '0' ? 'unset ERASMUS_PTY_HOST' : 'reinstall to rebuild the native module (`npm rebuild node-pty`) so a worker thread can load it',
        };
      }
    }
    return { id: 'pty', status: 'ok', summary: 'node-pty runs commands in pseudo-terminals, read on a thread of their own' };
  } catch (err) {
    return {
      id: 'pty',
      status: 'fail',
      summary: 'node-pty cannot run commands: the runners and the terminal view will not work',
      detail: (err as Error).message,
      fix: 'reinstall to rebuild the native module (`npm rebuild node-pty`; it needs python3, make and a C++ compiler)',
    };
  }
}

async function providersCheck(deps: DoctorDeps, secretNames: string[] | undefined): Promise<DoctorCheck> {
  let state;
  try {
    // As a chat or a workflow reads it: a file they refuse (an unknown key, a misspelt kind) fails here too.
    await loadAgentConfig(deps.configYaml);
  } catch (err) {
    return { id: 'providers', status: 'fail', summary: 'config.yaml is refused: no chat or workflow can start', detail: (err as Error).message, fix: `fix ${deps.configYaml} where the message says` };
  }
  try {
    state = await listProviders(deps.configYaml);
  } catch (err) {
    return { id: 'providers', status: 'fail', summary: 'config.yaml cannot be read', detail: (err as Error).message, fix: `fix ${deps.configYaml} by hand` };
  }
  if (!state.providers.length) {
    return { id: 'providers', status: 'warn', summary: 'no LLM provider is configured', fix: `add one in Settings → Providers, or under providers: in ${deps.configYaml}` };
  }
  const missing: string[] = [];
  for (const p of state.providers) {
    const m = /^\$\{secret:([^}]+)\}$/.exec(typeof p.apiKey === 'string' ? p.apiKey : '');
    if (m && secretNames && !secretNames.includes(m[1]!)) missing.push(`${p.id} (its key ${m[1]} is not in the keychain)`);
  }
  const def = state.defaultProvider ?? state.providers[0]!.id;
  const list = state.providers.map((p) => `${p.id}${p.id === def ? ' (default)' : ''}: ${p.kind} ${p.model}`).join(', ');
  if (missing.length) {
    return { id: 'providers', status: 'warn', summary: `${state.providers.length} provider${state.providers.length === 1 ? '' : 's'}: ${list}`, detail: `missing keys: ${missing.join('; ')}`, fix: 'set them with `erasmus secrets set NAME` or in Settings → Providers' };
  }
  return { id: 'providers', status: 'ok', summary: `${state.providers.length} provider${state.providers.length === 1 ? '' : 's'}: ${list}` };
}

/**
 * What this installation can do, in the order a new user meets it: the runner sandbox, the OS
 * keychain, pseudo-terminals, and the LLM providers. Each check says how to fix what fails.
 */
export async function runDoctor(deps: DoctorDeps): Promise<DoctorCheck[]> {
  const ms = deps.timeoutMs ?? 10_000;
  const [keychain, pty] = await Promise.all([keychainCheck(deps, ms), ptyCheck(deps, ms)]);
  const { names, ...keychainResult } = keychain;
  return [sandboxCheck(), keychainResult, pty, await providersCheck(deps, names)];
}
