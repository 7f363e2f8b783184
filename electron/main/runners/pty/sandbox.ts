import { spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, linkSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, realpathSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { bridgeArgv } from './net-proxy';
import { seatbeltArgv } from './seatbelt';

/**
 * The OS sandbox runner commands run in. On Linux: bubblewrap (Debian `bubblewrap`), with this
 * profile: the whole file system read-only; the project folder writable (except `.git/hooks` and
 * `.git/config`, which would run code outside the sandbox later), or read-only too for a step that
 * only reads (design, review, documentation); `/tmp` empty and read-only except the session's own
 * temporary folder (`TMPDIR`, kept across the session's commands), so a write anywhere else fails
 * with "Read-only file system" instead of vanishing; the secrets folders of home (ssh, cloud and
 * package credentials, keyrings, browser profiles) and ERASMUS_HOME hidden behind empty folders;
 * its own PID namespace (no other process to see or reach through /proc; nothing it leaves runs on after it);
 * its own network namespace always: nothing outside is reachable, 127.0.0.1 included; a command the
 * user accepted as needing the network gets the core's filtering proxy (net-proxy.ts) bridged in,
 * which reaches only the project's allowed hosts.
 * On macOS: Seatbelt (`sandbox-exec -p`, seatbelt.ts) with a profile made from the same policy.
 * Elsewhere (or where bwrap cannot create namespaces, or the Seatbelt probe fails) there is no sandbox, `sandboxStatus` says so,
 * and the policy asks for every command that is not read-only.
 */
export interface SandboxProfile {
  /** The project folder: the only place commands may write. */
  root: string;
  /** The network through the core's filtering proxy (the user accepted a command that needs it): reaches only `allowed`. */
  network?: NetworkBridge;
  home?: string;
  /** ERASMUS_HOME, hidden from commands (sessions, logs, trust). */
  erasmusHome?: string;
  /** The PATH commands get (default: this process's). */
  path?: string;
  /**
   * A component's worktree of a parallel run (`<root>/.git/erasmus/worktrees/<run>/<component>`): the one
   * writable place of the project, with what git needs to commit there (the project's `.git`: objects, refs,
   * logs, the worktree's own metadata); the project's own tree, its HEAD and index, and the other worktrees
   * stay read-only.
   */
  lane?: string;
  /** Mount the project read-only as well (steps that only read: a reviewer runs the tests, nothing writes). */
  readOnly?: boolean;
  /** The session's temporary folder (TMPDIR): writable, and the one writable place outside the project. */
  tmpDir?: string;
  /**
   * pyenv's shims folder and the session's writable copy of it (in TMPDIR) mounted over it, so the
   * login shell's `pyenv rehash` (and pip's after an install) works instead of printing
   * "pyenv: cannot rehash: … isn't writable" into every result; the real shims are untouched.
   */
  pyenvShims?: { real: string; copy: string };
  /** The shell snapshot the command sources (shell-snapshot.ts): bound read-only, wherever it lives (a HOME under /tmp). */
  shellSnapshot?: string;
}

/**
 * How a networked command reaches the core's filtering proxy: on Linux a unix socket bound into the
 * sandbox and a node bridge inside (the sandbox has its own network namespace); on macOS the
 * proxy's port on localhost, the one address the Seatbelt profile lets it reach.
 */
export type NetworkBridge =
  | {
      kind: 'socket';
      /** The folder holding the proxy's socket (bound into the sandbox). */
      dir: string;
      socket: string;
      /** The node binary that runs the bridge inside the sandbox. */
      node: string;
      /** The project's allowed hosts (net-proxy.ts `hostAllowed`). */
      allowed: readonly string[];
    }
  | { kind: 'tcp'; port: number; allowed: readonly string[] };

export interface SandboxStatus {
  available: boolean;
  /** What runs the sandbox, or why there is none (shown in the UI and `erasmus doctor`). */
  detail: string;
}

/** Folders and files under home that hold credentials or browsing data. */
export const HIDDEN_IN_HOME = [
  '.ssh', '.aws', '.gnupg', '.azure', '.kube', '.docker', '.config/gcloud', '.config/gh', '.config/hub', '.netrc', '.npmrc',
  '.pypirc', '.git-credentials', '.local/share/keyrings', '.password-store', '.mozilla', '.config/google-chrome',
  '.config/chromium', '.config/BraveSoftware', '.config/microsoft-edge', '.cargo/credentials', '.cargo/credentials.toml',
  'Library/Keychains', '.erasmus', '.bash_history', '.zsh_history',
];

let cached: SandboxStatus | undefined;

/** Whether commands can run sandboxed here (probed once: bwrap must start a namespace; sandbox-exec must confine a write). */
export function sandboxStatus(): SandboxStatus {
  if (cached) return cached;
  return (cached = sandboxStatusFor(process.platform, process.env.ERASMUS_SANDBOX === 'off', process.platform === 'darwin' ? probeSeatbelt : probeBwrap));
}

/** The argv that wraps a command in this OS's sandbox: bubblewrap on Linux, sandbox-exec on macOS. */
export function sandboxArgv(p: SandboxProfile, cwd: string, platform: NodeJS.Platform = process.platform): string[] {
  return platform === 'darwin' ? seatbeltArgv(p) : ['bwrap', ...bwrapArgs(p, cwd)];
}

/** What protects commands on a platform, said plainly per OS (the UI's status bar and `erasmus doctor` show it). */
export function sandboxStatusFor(platform: NodeJS.Platform, off: boolean, probe: () => SandboxStatus): SandboxStatus {
  if (off) return { available: false, detail: 'switched off (ERASMUS_SANDBOX=off): commands are not sandboxed; every command that is not read-only asks' };
  if (platform === 'win32') return { available: false, detail: 'Windows: commands are not sandboxed (Erasmus has no sandbox on Windows); every command that is not read-only asks' };
  if (platform !== 'linux' && platform !== 'darwin') return { available: false, detail: `${platform}: commands are not sandboxed (no sandbox on this system); every command that is not read-only asks` };
  return probe();
}

function probeBwrap(): SandboxStatus {
  const r = spawnSync('bwrap', ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--unshare-pid', '--unshare-net', '--die-with-parent', 'true'], { stdio: 'pipe', timeout: 10_000 });
  if (r.error) return { available: false, detail: `Linux: commands are not sandboxed: bubblewrap is not installed (apt-get install bubblewrap); every command that is not read-only asks` };
  if (r.status !== 0) return { available: false, detail: `Linux: commands are not sandboxed: bubblewrap cannot create a sandbox here (${r.stderr.toString().trim() || `exit ${r.status}`}; user namespaces may be off); every command that is not read-only asks` };
  return { available: true, detail: "Linux: commands run in bubblewrap: the project writable, the rest read-only, secrets hidden, no network but the project's allowed hosts for a command you accept" };
}

/**
 * macOS: the generated profile must run a command, let it write the project, and refuse a write
 * outside (else it does not confine, and commands are said not to be sandboxed).
 */
function probeSeatbelt(): SandboxStatus {
  const no = (why: string): SandboxStatus => ({ available: false, detail: `macOS: commands are not sandboxed: ${why}; every command that is not read-only asks` });
  const root = mkdtempSync(join(tmpdir(), 'erasmus-seatbelt-'));
  const outside = join(homedir(), `.erasmus-seatbelt-probe-${process.pid}`);
  try {
    const r = spawnSync('sandbox-exec', [...seatbeltArgv({ root, tmpDir: root }).slice(1), '/bin/sh', '-c', 'touch "$1/inside" && ! touch "$2" 2>/dev/null', 'sh', root, outside], { stdio: 'pipe', timeout: 10_000 });
    if (r.error) return no(`sandbox-exec could not start (${r.error.message})`);
    if (existsSync(outside)) return no('the Seatbelt profile did not refuse a write outside the project');
    if (r.status !== 0 || !existsSync(join(root, 'inside'))) return no(`sandbox-exec refused the profile (${r.stderr.toString().trim() || `exit ${r.status}`})`);
    return { available: true, detail: "macOS: commands run in Seatbelt (sandbox-exec): the project writable, the rest read-only, secrets hidden, no network but the project's allowed hosts for a command you accept" };
  } finally {
    rmSync(root, { recursive: true, force: true });
    rmSync(outside, { force: true });
  }
}

/**
 * pyenv rehash's lock (`<shims>/.pyenv-shim`): a rehash creates it as it starts and removes it when done; while it
 * exists, every other rehash waits for it, 60 s by default. The real folder holds one whenever a shell outside rehashes.
 */
const PYENV_LOCK = '.pyenv-shim';
/** A rehash takes well under a second: a lock older than this was left by one that was killed. */
export const PYENV_LOCK_STALE_MS = 10_000;

/**
 * pyenv's shims folder for commands of this home (PYENV_ROOT, else ~/.pyenv) copied once into the
 * session's TMPDIR; undefined without pyenv. The copy never holds rehash's lock: one left in the real folder
 * (a rehash killed mid-way) is not copied, and one a command of this session left when it was stopped is
 * removed once stale, so no command waits a minute in its login shell for a rehash that is gone.
 */
export function pyenvShims(home: string, tmpDir: string, env: NodeJS.ProcessEnv = process.env): SandboxProfile['pyenvShims'] {
  const real = join(env.PYENV_ROOT ?? join(home, '.pyenv'), 'shims');
  if (exists(real) !== 'dir') return undefined;
  const copy = join(tmpDir, '.erasmus-pyenv-shims');
  if (exists(copy) !== 'dir') {
    const part = `${copy}.${process.pid}.part`;
    try {
      copyShims(real, part);
      renameSync(part, copy);
    } catch {
      rmSync(part, { recursive: true, force: true });
      return undefined;
    }
  } else {
    const lock = join(copy, PYENV_LOCK);
    try {
      if (Date.now() - statSync(lock).mtimeMs > PYENV_LOCK_STALE_MS) rmSync(lock, { force: true });
    } catch {}
  }
  return { real: resolve(real), copy };
}

/** A shim at most this big is compared with the ones copied before it (pyenv's are all one ~300-byte script). */
const SHIM_COMPARED_BYTES = 64 * 1024;

/**
 * Copies the shims folder `real` to `dest` (made here), leaving out rehash's lock. pyenv's shims are one script
 * under a hundred or more names: the first of each content (and mode) is copied and the others are hard links to
 * it inside the copy, never to the real files, so a write to the copy cannot reach them. Sessions make and
 * remove a copy each: about 6 ms of CPU for 136 shims instead of 60 (a file's data written and freed per name).
 */
function copyShims(real: string, dest: string): void {
  mkdirSync(dest);
  const firsts = new Map<string, string>();
  for (const entry of readdirSync(real, { withFileTypes: true })) {
    if (entry.name === PYENV_LOCK) continue;
    const from = join(real, entry.name);
    const to = join(dest, entry.name);
    if (entry.isSymbolicLink()) symlinkSync(readlinkSync(from), to);
    else if (entry.isDirectory()) cpSync(from, to, { recursive: true, verbatimSymlinks: true });
    else {
      const st = lstatSync(from);
      const key = st.isFile() && st.size <= SHIM_COMPARED_BYTES ? `${st.mode}:${readFileSync(from, 'latin1')}` : undefined;
      const first = key === undefined ? undefined : firsts.get(key);
      if (first) linkSync(first, to);
      else {
        copyFileSync(from, to);
        if (key !== undefined) firsts.set(key, to);
      }
    }
  }
}

/** For tests: forget the probe. */
export function resetSandboxProbe(): void {
  cached = undefined;
}

function exists(p: string): 'dir' | 'file' | null {
  try {
    return statSync(p).isDirectory() ? 'dir' : 'file';
  } catch {
    return null;
  }
}

/**
 * What the sandbox hides: the credential folders of the commands' home and of this process's home
 * (they differ when the core runs commands with another HOME), and ERASMUS_HOME.
 */
export function hiddenPaths(p: Pick<SandboxProfile, 'home' | 'erasmusHome'>): string[] {
  const homes = [...new Set([resolve(p.home ?? homedir()), resolve(homedir())])];
  const hidden = homes.flatMap((home) => HIDDEN_IN_HOME.map((rel) => join(home, rel)));
  if (p.erasmusHome) hidden.push(resolve(p.erasmusHome));
  return hidden;
}

/** The worktree a command runs in when `cwd` is inside one of the project's lane worktrees (`.git/erasmus/worktrees/<run>/<component>`). */
export function laneOf(root: string, cwd: string | undefined): string | undefined {
  if (!cwd) return undefined;
  const real = (p: string) => {
    try {
      return realpathSync(p);
    } catch {
      return resolve(p);
    }
  };
  const base = join(real(root), '.git', 'erasmus', 'worktrees');
  const at = real(cwd);
  if (!at.startsWith(`${base}/`)) return undefined;
  const [run, component] = at.slice(base.length + 1).split('/');
  return run && component ? join(base, run, component) : undefined;
}

/** A worktree's own git folder (`<git dir>/worktrees/<name>`), from its `.git` file. */
export function laneGitDir(lane: string): string | undefined {
  try {
    const m = /^gitdir: (.+)$/m.exec(readFileSync(join(lane, '.git'), 'utf8'));
    return m ? resolve(lane, m[1]!.trim()) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A lane's mounts: the project's `.git` writable (objects, refs, logs) but its hooks, config, HEAD and index,
 * the other worktrees and their metadata read-only, then the lane's worktree and its metadata writable.
 */
function laneBinds(root: string, lane: string): string[] {
  const gitDir = join(root, '.git');
  const args = ['--bind', gitDir, gitDir];
  for (const rel of ['hooks', 'config', 'HEAD', 'index', 'worktrees', 'erasmus/worktrees']) {
    const f = join(gitDir, rel);
    if (exists(f)) args.push('--ro-bind', f, f);
  }
  const own = laneGitDir(lane);
  if (own && exists(own) === 'dir') args.push('--bind', own, own);
  args.push('--bind', lane, lane);
  return args;
}

/** A repository's `.git/hooks` and `.git/config`, made empty where missing (`git init --template=` makes no hooks folder). */
function ensureGitGuarded(gitDir: string): void {
  try {
    mkdirSync(join(gitDir, 'hooks'), { recursive: true });
    if (!exists(join(gitDir, 'config'))) writeFileSync(join(gitDir, 'config'), '', { flag: 'a' });
  } catch {
    // A .git this process cannot write: the command cannot either.
  }
}

/**
 * The bwrap argument vector for a profile: up to and including `--`, then (for a networked
 * command) the bridge to the proxy, which runs the command that follows.
 */
export function bwrapArgs(p: SandboxProfile, cwd: string = p.root): string[] {
  const root = resolve(p.root);
  const args = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp', '--die-with-parent'];
  if (existsSync('/run/user')) args.push('--tmpfs', '/run/user'); // the keyring's and D-Bus's sockets
  // Programs the user put on PATH under /tmp stay visible (read-only) in the private /tmp.
  for (const dir of (p.path ?? process.env.PATH ?? '').split(':')) {
    if (dir.startsWith('/tmp/') && exists(dir) === 'dir') args.push('--ro-bind', dir, dir);
  }
  const hidden = hiddenPaths(p);
  for (const h of hidden) {
    if (root === h || root.startsWith(`${h}/`)) continue; // never hide the project itself
    const kind = exists(h);
    if (kind === 'dir') args.push('--tmpfs', h);
    else if (kind === 'file') args.push('--ro-bind', '/dev/null', h);
  }
  if (p.readOnly) args.push('--ro-bind', root, root);
  else if (p.lane) args.push(...laneBinds(root, resolve(p.lane)));
  else {
    args.push('--bind', root, root);
    const gitDir = join(root, '.git');
    if (exists(gitDir) === 'dir') {
      // `.git` a mount point of its own: it cannot be renamed, removed or replaced by a copy whose hooks and config are
      // writable (the binds below would move with the renamed folder). Hooks and config made if missing, so that they
      // are bound read-only too rather than left for the command to create.
      args.push('--bind', gitDir, gitDir);
      ensureGitGuarded(gitDir);
      for (const f of [join(gitDir, 'hooks'), join(gitDir, 'config')]) if (exists(f)) args.push('--ro-bind', f, f);
    }
  }
  if (p.tmpDir && exists(p.tmpDir) === 'dir') args.push('--bind', resolve(p.tmpDir), resolve(p.tmpDir));
  if (p.network?.kind === 'socket') args.push('--ro-bind', p.network.dir, p.network.dir);
  if (p.shellSnapshot && exists(p.shellSnapshot) === 'file') args.push('--ro-bind', p.shellSnapshot, p.shellSnapshot);
  if (p.pyenvShims && exists(p.pyenvShims.copy) === 'dir' && exists(p.pyenvShims.real) === 'dir') args.push('--bind', p.pyenvShims.copy, p.pyenvShims.real);
  // The private /tmp holds only the mount points above: read-only, so a stray write fails loudly
  // instead of landing in a folder that is gone after the command.
  if (root !== '/tmp') args.push('--remount-ro', '/tmp');
  // Its own PID namespace: without it /proc shows every process of the user, and /proc/<pid>/root of one outside
  // is that process's whole file system, writable, secrets and all (a way around every bind above); and a process a
  // command leaves behind (`cmd &`, nohup) would outlive the command and Erasmus. With it, the command sees only its
  // own processes, and when the command ends bwrap's init ends and the kernel stops whatever it left.
  args.push('--unshare-pid', '--unshare-net', '--chdir', resolve(cwd), '--');
  if (p.network?.kind === 'socket') args.push(...bridgeArgv(p.network.node, p.network.socket));
  return args;
}
