import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { accessSync, constants, chmodSync, lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, delimiter, isAbsolute, join, resolve } from 'node:path';
import type { Redactor } from '../../secrets/redactor';

/**
 * A shell snapshot: the user's login environment read ONCE (`bash -l` run with a dump script) and
 * written as a bash file that each runner command sources instead of running the login profile again
 * (`BASH_ENV=<file> bash -c <command>` in place of `bash -lc <command>`). Profiles that run
 * `pyenv init`, nvm or conda cost 0.1–1 s per command; the snapshot costs one read of a small file.
 *
 * What it holds: what the profile printed (replayed, so a command's output reads as under `bash -l`),
 * the shell options (`shopt -p`, `set +o`) and `expand_aliases`, the functions (`declare -f`), the
 * aliases (`alias -p`), and the exported variables the profile added, changed or removed compared with
 * the environment it started from. Variables it did not touch are not written: each command keeps its
 * own (TMPDIR, ERASMUS_TERMINAL…). A snapshot that would hold one of Erasmus's secrets (a value the
 * core's redactor masks: the profile exports a provider's key) is never written nor used: commands
 * then run as a login shell, as before.
 *
 * Where: `$XDG_CACHE_HOME/erasmus/shell-snapshots` (default `~/.cache/…` of the commands' HOME), a 0700
 * folder, one 0600 file per key, shared by every Erasmus process of the user. The key is the shell's
 * path, the format version, every profile file bash -l reads (path, size, mtime: /etc/profile,
 * /etc/profile.d/*.sh, /etc/bash.bashrc, ~/.bash_profile, ~/.bash_login, ~/.profile, ~/.bashrc) and
 * the values of the variables a profile builds on: HOME, USER, PATH, LANG… (ALWAYS_READ), XDG_*, and
 * every name the profile files mention (`$NAME`), but never what differs per command (ERASMUS_*,
 * TMPDIR, the proxy variables…): a changed profile is read again. A file the profile sources itself
 * (~/.cargo/env) is not in the key, nor a variable only such a file reads: a file older than a day
 * is taken again.
 *
 * It is taken inside the command's own sandbox wrap (the caller passes the sandbox argv, without
 * network), never outside it. When taking it fails (the profile exits, hangs past the time-out, the
 * shell is not bash, the folder cannot be made) `get` answers undefined and commands run as a login
 * shell, as before: never a half-read PATH. `ERASMUS_SHELL_SNAPSHOT=off` turns it off.
 */

/** Bump when the file's format or the dump changes: old files are then never read. */
const FORMAT = 1;
const DEFAULT_TIMEOUT_MS = 15_000;
/**
 * A snapshot file older than this is taken again by the next process: what a profile reads outside the
 * key (nvm's default alias, a file it sources) is then at most a day old. A running process keeps its own.
 */
const MAX_AGE_MS = 24 * 3600_000;
/** Variables that differ per command (or per Erasmus process) and say nothing about the login profile. */
const PER_COMMAND = new Set([
  'TMPDIR', 'TMP', 'TEMP', 'TERM', 'COLORTERM', 'PAGER', 'GIT_PAGER', 'CI', 'NO_COLOR', 'FORCE_COLOR', 'BASH_ENV',
  'HTTP_PROXY', 'HTTPS_PROXY', 'http_proxy', 'https_proxy', 'NO_PROXY', 'no_proxy', 'ALL_PROXY', 'all_proxy',
  'npm_config_proxy', 'npm_config_https_proxy', 'PIP_PROXY', 'OLDPWD', 'PWD', 'SHLVL', '_',
]);
/** Set by bash itself in every shell: never written. */
const BASH_OWN = new Set(['SHLVL', 'PWD', 'OLDPWD', '_']);
/** shopt options bash refuses to set. */
const READ_ONLY_SHOPT = /^shopt -[su] (login_shell|restricted_shell)$/;
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export interface ShellSnapshotOptions {
  /** The folder snapshots are kept in (default: `$XDG_CACHE_HOME/erasmus/shell-snapshots` of the env's HOME). */
  dir?: string;
  /** Values never written into a snapshot (the core's secrets). */
  redactor?: Redactor;
  /** How long the login profile may take before commands fall back to `bash -l` (default 15 s). */
  timeoutMs?: number;
}

export interface SnapshotRequest {
  /** The shell commands run in (`bash` or a path); only bash is snapshotted. */
  shell: string;
  /** The environment the command gets (the snapshot is taken with it). */
  env: Record<string, string>;
  cwd: string;
  /** The sandbox argv the command runs under (without network), or []: the snapshot is taken inside it (asked only then). */
  prefix: () => string[];
}

/** Why the last snapshot could not be taken or used (for tests and diagnostics). */
export type SnapshotOutcome = { file: string; taken: boolean } | { file?: undefined; reason: string };

/** The default folder: `$XDG_CACHE_HOME/erasmus/shell-snapshots`, else `~/.cache/erasmus/shell-snapshots`. */
export function defaultSnapshotDir(env: Record<string, string | undefined>): string {
  const cache = env.XDG_CACHE_HOME && isAbsolute(env.XDG_CACHE_HOME) ? env.XDG_CACHE_HOME : join(env.HOME || homedir(), '.cache');
  return join(cache, 'erasmus', 'shell-snapshots');
}

/** The login profile files bash -l may read for this home, with their size and mtime (or absence). */
export function profileFiles(home: string): string[] {
  return profilePaths(home).map((f) => {
    try {
      const s = statSync(f);
      return `${f}:${s.size}:${s.mtimeMs}`;
    } catch {
      return `${f}:-`;
    }
  });
}

function profilePaths(home: string): string[] {
  const files = ['/etc/profile', '/etc/bash.bashrc'];
  try {
    for (const f of readdirSync('/etc/profile.d').sort()) if (f.endsWith('.sh')) files.push(join('/etc/profile.d', f));
  } catch {}
  files.push(...['.bash_profile', '.bash_login', '.profile', '.bashrc'].map((f) => join(home, f)));
  return files;
}

/** Variables a login profile builds on, whatever it names: they are in every key. */
const ALWAYS_READ = ['HOME', 'USER', 'LOGNAME', 'SHELL', 'PATH', 'LANG', 'LANGUAGE', 'LC_ALL', 'LC_CTYPE', 'DISPLAY', 'WAYLAND_DISPLAY', 'SSH_CONNECTION'];
const MENTIONED = /\$\{?([A-Za-z_][A-Za-z0-9_]*)/g;
/** The variable names the profile files mention (`$NAME`, `${NAME…}`), per state of the files (their size and mtime). */
const mentionedCache = new Map<string, Set<string>>();

function mentioned(home: string, state: string): Set<string> {
  let names = mentionedCache.get(state);
  if (!names) {
    names = new Set();
    for (const f of profilePaths(home)) {
      let text = '';
      try {
        text = readFileSync(f, 'utf8');
      } catch {}
      for (const m of text.matchAll(MENTIONED)) names.add(m[1]!);
    }
    if (mentionedCache.size > 20) mentionedCache.clear();
    mentionedCache.set(state, names);
  }
  return names;
}

/** The shell's absolute path, looked up on the env's PATH when it has no slash; undefined when not found. */
function resolveShell(shell: string, env: Record<string, string>): string | undefined {
  const candidates = shell.includes('/') ? [resolve(shell)] : (env.PATH ?? '').split(delimiter).filter(Boolean).map((d) => join(d, shell));
  for (const c of candidates) {
    try {
      accessSync(c, constants.X_OK);
      if (statSync(c).isFile()) return c;
    } catch {}
  }
  return undefined;
}

/**
 * The cache key of a snapshot for this shell and environment: the shell, the profile files' state, and
 * the values of the variables the profile can build on (ALWAYS_READ, XDG_*, and every name the profile
 * files mention), so a process whose environment differs elsewhere (a test's own variables) shares it.
 */
export function snapshotKey(shellPath: string, env: Record<string, string>): string {
  const home = env.HOME || homedir();
  const files = profileFiles(home);
  const h = createHash('sha256');
  h.update(`erasmus-shell-snapshot ${FORMAT}\0${shellPath}\0`);
  for (const f of files) h.update(`${f}\0`);
  const names = new Set([...ALWAYS_READ, ...mentioned(home, files.join('\0')), ...Object.keys(env).filter((k) => k.startsWith('XDG_'))]);
  for (const k of [...names].sort()) if (!PER_COMMAND.has(k) && !k.startsWith('ERASMUS_')) h.update(`${k}=${env[k] ?? '\u0000unset'}\0`);
  return h.digest('hex').slice(0, 32);
}

/** A value as one bash word: single-quoted. */
export function shQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** The script the login shell runs: each part after a line naming it (the nonce makes the lines unique). */
function dumpScript(nonce: string): string {
  const mark = (part: string) => `printf '\\n${nonce}:${part}\\n'`;
  return [
    mark('env'),
    `for __erasmus_v in $(compgen -e); do printf '%s\\0%s\\0' "$__erasmus_v" "\${!__erasmus_v}"; done`,
    mark('functions'),
    'declare -f',
    mark('aliases'),
    'alias -p',
    mark('options'),
    'shopt -p; set +o',
    mark('end'),
  ].join('\n');
}

interface Dump {
  printed: string;
  env: Map<string, string>;
  functions: string;
  aliases: string;
  options: string;
}

/** The parts of the dump's output; undefined when one is missing (the profile exited before the dump ended). */
export function parseDump(out: string, nonce: string): Dump | undefined {
  const parts: Record<string, string> = {};
  const re = new RegExp(`\\n${nonce}:(env|functions|aliases|options|end)\\n`, 'g');
  let last = 0;
  let name = 'printed';
  for (let m = re.exec(out); m; m = re.exec(out)) {
    parts[name] = out.slice(last, m.index);
    name = m[1]!;
    last = m.index + m[0].length;
  }
  if (name !== 'end' || parts.options === undefined) return undefined;
  const env = new Map<string, string>();
  const fields = parts.env!.split('\0');
  for (let i = 0; i + 1 < fields.length; i += 2) env.set(fields[i]!, fields[i + 1]!);
  return { printed: parts.printed ?? '', env, functions: parts.functions!, aliases: parts.aliases!, options: parts.options };
}

/** The snapshot file's text from a dump, against the environment the login shell started with. */
export function snapshotText(dump: Dump, start: Record<string, string>, stderr: string, header = ''): string {
  const lines = [`# Erasmus shell snapshot${header}: sourced (BASH_ENV) before each runner command instead of the login profile.`, 'unset BASH_ENV'];
  // What the profile printed, as bash -l would print it before each command.
  if (dump.printed) lines.push(`printf '%s' ${shQuote(dump.printed)}`);
  if (stderr) lines.push(`printf '%s' ${shQuote(stderr)} >&2`);
  for (const l of dump.options.split('\n')) if (l.trim() && !READ_ONLY_SHOPT.test(l.trim())) lines.push(l.trim());
  // Aliases from the profile work in commands as they would typed into the user's shell.
  lines.push('shopt -s expand_aliases');
  if (dump.functions.trim()) lines.push(dump.functions.trimEnd());
  if (dump.aliases.trim()) lines.push(dump.aliases.trimEnd());
  for (const [k, v] of dump.env) {
    if (!NAME.test(k) || BASH_OWN.has(k) || start[k] === v) continue;
    lines.push(`export ${k}=${shQuote(v)}`);
  }
  for (const k of Object.keys(start)) if (NAME.test(k) && !BASH_OWN.has(k) && !dump.env.has(k)) lines.push(`unset ${k}`);
  return `${lines.join('\n')}\n`;
}

/** The folder, made 0700 and checked to be ours and not reachable by others; false when it cannot be. */
function ownFolder(dir: string): boolean {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const s = lstatSync(dir);
    if (!s.isDirectory() || (process.getuid && s.uid !== process.getuid())) return false;
    if ((s.mode & 0o077) !== 0) chmodSync(dir, 0o700);
    return true;
  } catch {
    return false;
  }
}

/** A snapshot file fit to source: a regular file of ours that only we can read, taken less than MAX_AGE_MS ago. */
function ownFile(file: string): boolean {
  try {
    const s = lstatSync(file);
    return s.isFile() && (!process.getuid || s.uid === process.getuid()) && (s.mode & 0o077) === 0 && Date.now() - s.mtimeMs < MAX_AGE_MS;
  } catch {
    return false;
  }
}

/**
 * The snapshots of one PTY manager: one per key, taken once (shared by concurrent commands and, on
 * disk, by every process of the user), or the reason there is none.
 */
export class ShellSnapshots {
  private readonly known = new Map<string, Promise<SnapshotOutcome>>();
  /** The texts of snapshots in use, checked for secrets before each use (the redactor learns secrets late). */
  private readonly texts = new Map<string, string>();
  /** How many snapshots this process took (ran the login profile for). */
  taken = 0;
  lastOutcome: SnapshotOutcome | undefined;

  constructor(private readonly options: ShellSnapshotOptions = {}) {}

  /** The snapshot file for this command's shell and environment, or undefined: run it as a login shell. */
  async get(req: SnapshotRequest): Promise<string | undefined> {
    const outcome = await this.outcome(req);
    this.lastOutcome = outcome;
    if (!outcome.file) return undefined;
    const text = this.texts.get(outcome.file);
    if (text === undefined || (this.options.redactor && this.options.redactor.redact(text) !== text)) {
      this.lastOutcome = { reason: 'the snapshot holds a value Erasmus keeps as a secret' };
      return undefined;
    }
    return outcome.file;
  }

  private outcome(req: SnapshotRequest): Promise<SnapshotOutcome> {
    if (basename(req.shell) !== 'bash') return Promise.resolve({ reason: `the shell ${req.shell} is not bash` });
    if (req.env.BASH_ENV) return Promise.resolve({ reason: 'BASH_ENV is set in the environment' });
    const shellPath = resolveShell(req.shell, req.env);
    if (!shellPath) return Promise.resolve({ reason: `${req.shell} is not on PATH` });
    const key = snapshotKey(shellPath, req.env);
    let p = this.known.get(key);
    if (!p) {
      p = this.load(key, shellPath, req).catch((e: unknown) => ({ reason: e instanceof Error ? e.message : String(e) }));
      this.known.set(key, p);
    }
    return p;
  }

  private async load(key: string, shellPath: string, req: SnapshotRequest): Promise<SnapshotOutcome> {
    const dir = this.options.dir ?? defaultSnapshotDir(req.env);
    if (!ownFolder(dir)) return { reason: `cannot make a private folder ${dir}` };
    const file = join(dir, `bash-${key}.sh`);
    if (ownFile(file)) {
      this.texts.set(file, readFileSync(file, 'utf8'));
      return { file, taken: false };
    }
    const nonce = `__erasmus_snapshot_${randomBytes(8).toString('hex')}`;
    const r = await runDump([...req.prefix(), shellPath, '-lc', dumpScript(nonce)], req.env, req.cwd, this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    if (r.timedOut) return { reason: `the login profile took longer than ${this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS} ms` };
    const dump = r.code === 0 ? parseDump(r.stdout, nonce) : undefined;
    if (!dump) return { reason: `the login shell ended before its environment was read (exit ${r.code ?? r.signal}${r.stderr.trim() ? `: ${r.stderr.trim().slice(0, 300)}` : ''})` };
    const text = snapshotText(dump, req.env, r.stderr, ` of ${shellPath} -l, key ${key}`);
    if (this.options.redactor && this.options.redactor.redact(text) !== text) return { reason: 'the login profile prints or defines a value Erasmus keeps as a secret' };
    const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    writeFileSync(tmp, text, { mode: 0o600, flag: 'wx' });
    renameSync(tmp, file);
    this.taken++;
    this.texts.set(file, text);
    return { file, taken: true };
  }
}

/**
 * How long the login profile's processes get at the time-out to end on SIGTERM before SIGKILL: one that holds a lock
 * (`pyenv rehash`'s `.pyenv-shim`) removes it in its EXIT trap; killed outright it leaves it, and the next login shell's
 * rehash waits a minute for it, silently (a command, a shell tab).
 */
const DUMP_KILL_GRACE_MS = 1_000;

/** Runs the dump (no terminal, stdin empty), its whole process group stopped at the time-out (SIGTERM, then SIGKILL). */
function runDump(argv: string[], env: Record<string, string>, cwd: string, timeoutMs: number): Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string; timedOut: boolean }> {
  return new Promise((done, fail) => {
    const child = spawn(argv[0]!, argv.slice(1), { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let timedOut = false;
    const signal = (s: NodeJS.Signals) => {
      try {
        process.kill(-child.pid!, s);
      } catch {}
    };
    const timer = setTimeout(() => {
      timedOut = true;
      signal('SIGTERM');
      // Whatever of the group is left at the grace's end (even after the output closed) is killed outright.
      setTimeout(() => signal('SIGKILL'), DUMP_KILL_GRACE_MS).unref();
    }, timeoutMs);
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    child.once('error', (e) => {
      clearTimeout(timer);
      fail(e);
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      done({ code, signal, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8'), timedOut });
    });
  });
}
