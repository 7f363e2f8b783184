import { realpathSync, rmSync, statSync } from 'node:fs';
import { ownedTmpDir } from '../common/owned-tmp';
import { homedir, tmpdir } from 'node:os';
import { join, resolve, sep } from 'node:path';
import type { PtyManager, RunOptions, RunResult } from './pty/index';
import { bridgeNode, howToAllow, proxyEnv, startProxy, type ProxyHandle } from './pty/net-proxy';
import { gitPointers, guardGitPointers, holdGitPointers, restoreGitPointers } from './pty/git-guard';
import { hiddenPaths, laneOf, pyenvShims, sandboxStatus, type SandboxProfile, type SandboxStatus } from './pty/sandbox';

/**
 * What a step may do to the project: write it (development, testing, debugging), only read it
 * (design, review), or write Markdown files only (documentation). Commands of a step that does not
 * write run with the project mounted read-only (a reviewer runs the tests; nothing writes).
 */
export type ProjectAccess = 'write' | 'read' | 'markdown';

/** The `_meta` key of a tool call that carries the calling session's project access (Erasmus's own runners read it). */
export const PROJECT_ACCESS_META = 'erasmus/projectAccess';

/**
 * The `_meta` key of a tool call made by a parallel run's component step: the git worktree it works in
 * (under the project's `.git/erasmus/worktrees/`). Erasmus's files and runners servers work there instead of
 * the project folder (`worktreeOf` checks it); a command there writes only that worktree and what git needs (sandbox.ts `lane`).
 */
export const WORKTREE_META = 'erasmus/worktree';

/**
 * The worktree a call's `_meta` names, if it is a folder inside `<root>/.git/erasmus/worktrees/` (after symlinks);
 * undefined when the call names none; an Error (for the model) when it names another place.
 */
export function worktreeOf(root: string, meta: Record<string, unknown> | undefined): string | Error | undefined {
  const asked = meta?.[WORKTREE_META];
  if (asked === undefined) return undefined;
  const base = join(realpathSync(root), '.git', 'erasmus', 'worktrees');
  let real: string;
  try {
    real = typeof asked === 'string' ? realpathSync(asked) : '';
  } catch {
    real = '';
  }
  if (!real || !real.startsWith(`${base}${sep}`) || !statSync(real).isDirectory()) return new Error(`the worktree ${JSON.stringify(asked)} is not one of this project's (${base})`);
  return real;
}

export interface CommandRunOptions extends Omit<RunOptions, 'sandbox' | 'cwd'> {
  /** The project folder: the command runs there and may write only there (and in its session's TMPDIR). */
  root: string;
  /** Where it runs (default: the project folder). */
  cwd?: string;
  /** `read`/`markdown`: the project is mounted read-only too (default `write`). */
  access?: ProjectAccess;
  /**
   * Let the command reach the network (default: no network): in the sandbox, only the project's
   * `allowedHosts`, through the core's filtering proxy.
   */
  network?: boolean;
  /** The project's allowed hosts (runners settings `network.allowedHosts`). */
  allowedHosts?: readonly string[];
  /** Whose temporary folder (TMPDIR) it gets: commands of one session share one that lasts (default: one per project). */
  session?: string;
}

export interface CommandRunResult extends RunResult {
  /** Whether the OS sandbox confined it. */
  sandboxed: boolean;
  /** The session's temporary folder the command got as TMPDIR. */
  tmpDir: string;
  /** One line from Erasmus naming what the sandbox refused, when the output shows a refusal (else empty). */
  sandboxNote: string;
  /** For a networked command: the `host:port` targets its proxy refused. */
  refusedHosts?: string[];
}

export interface CommandRunnerOptions {
  /** The user's home (the credential folders hidden from commands; default os.homedir()). */
  home?: string;
  /** ERASMUS_HOME, hidden from commands. */
  erasmusHome?: string;
  /** Run in the OS sandbox where it is available (default true; `false` for a caller that never wants it). */
  sandbox?: boolean;
  /** Where the sessions' temporary folders are made (default os.tmpdir()). */
  tmpBase?: string;
}

/**
 * The one runner for everything that executes code on the model's behalf: the runner tools, `!`
 * lines, the workflow's test gates, hooks. Every command goes through the same OS sandbox profile
 * (sandbox.ts) in a PTY of the core (visible in the terminal view), with its session's TMPDIR.
 * Policy and approvals come before: the caller's (the runners' `executeTool`, the agent's policy).
 */
export class CommandRunner {
  private readonly tmpDirs = new Map<string, string>();
  /** Proxies of networked commands left running in the background. */
  private readonly proxies = new Set<ProxyHandle>();

  constructor(
    private readonly ptys: Pick<PtyManager, 'run'>,
    private readonly options: CommandRunnerOptions = {},
  ) {}

  /** Whether commands run sandboxed here, and by what (or why not). */
  get status(): SandboxStatus & { enabled: boolean } {
    const s = sandboxStatus();
    return { ...s, enabled: this.options.sandbox !== false && s.available };
  }

  /** The session's temporary folder, made on first use and kept until the runner is disposed. */
  tmpDir(session: string): string {
    let dir = this.tmpDirs.get(session);
    if (!dir) {
      // Named by this process: one a killed process left is removed by the next runner's first (ownedTmpDir).
      dir = ownedTmpDir(this.options.tmpBase ?? tmpdir(), 'session');
      this.tmpDirs.set(session, dir);
    }
    return dir;
  }

  /** The sandbox profile a command of these options gets (undefined: no sandbox here); the network is added by `run`. */
  profile(o: Pick<CommandRunOptions, 'root' | 'access' | 'session' | 'cwd'>): SandboxProfile | undefined {
    if (!this.status.enabled) return undefined;
    const home = this.options.home ?? homedir();
    const tmpDir = this.tmpDir(o.session ?? resolve(o.root));
    const shims = process.platform === 'linux' ? pyenvShims(home, tmpDir) : undefined; // a bwrap bind; Seatbelt cannot mount
    // A command in a component's worktree (a parallel run) writes that worktree only, not the project's tree nor another's.
    const lane = laneOf(o.root, o.cwd);
    return {
      root: resolve(o.root),
      ...(lane ? { lane } : {}),
      home,
      ...(this.options.erasmusHome ? { erasmusHome: this.options.erasmusHome } : {}),
      readOnly: o.access !== undefined && o.access !== 'write',
      tmpDir,
      ...(shims ? { pyenvShims: shims } : {}),
    };
  }

  /** Runs one command (never rejects for a failing command; a PTY that cannot start rejects). */
  async run(o: CommandRunOptions): Promise<CommandRunResult> {
    const { root, access, network, allowedHosts = [], session, cwd, env, ...rest } = o;
    const tmp = this.tmpDir(session ?? resolve(root));
    const sandbox = this.profile({ root, access, session, cwd });
    let proxy: ProxyHandle | undefined;
    let noBridge = '';
    if (sandbox && network && process.platform === 'darwin') {
      // Seatbelt lets the command reach the proxy's port on localhost, and nothing else.
      proxy = await startProxy(this.options.tmpBase ?? tmpdir(), allowedHosts, 'tcp');
      sandbox.network = { kind: 'tcp', port: proxy.port!, allowed: allowedHosts };
    } else if (sandbox && network) {
      const node = bridgeNode(env?.PATH ?? process.env.PATH);
      if (node) {
        proxy = await startProxy(this.options.tmpBase ?? tmpdir(), allowedHosts);
        sandbox.network = { kind: 'socket', dir: proxy.dir, socket: proxy.socket, node, allowed: allowedHosts };
      } else noBridge = '[sandbox] this command ran without network: the sandbox reaches the allowed hosts through a bridge that needs node on PATH, and none was found; install Node.js, or run the command outside Erasmus';
    }
    // What tells git where its configuration is, put back after the command (git-guard.ts): Erasmus's own git runs unconfined.
    // Read after what other running commands changed is put back (never a rewritten pointer as this one's "before"), and
    // held while the command runs, in the background too: Erasmus's git puts them back before it runs (guardGitPointers).
    if (sandbox) guardGitPointers();
    const pointers = sandbox ? gitPointers(sandbox) : undefined;
    const release = sandbox && pointers ? holdGitPointers(sandbox, pointers) : undefined;
    let background = false;
    try {
      const r = await this.ptys.run({
        ...rest,
        cwd: cwd ?? root,
        env: { ...env, TMPDIR: tmp, TMP: tmp, TEMP: tmp, ...(proxy ? proxyEnv(proxy.port) : {}) },
        ...(sandbox ? { sandbox } : {}),
        // Left running: its pointers stay held until it ends, then are put back once more.
        onBackgroundEnd: () => {
          if (sandbox && pointers) restoreGitPointers(sandbox, pointers);
          release?.();
        },
      });
      background = r.background;
      const restored = sandbox && pointers ? restoreGitPointers(sandbox, pointers) : [];
      const guard = restored.length
        ? `the command changed ${restored.join(', ')}, which would point git at another configuration and hooks; Erasmus put ${restored.length === 1 ? 'it' : 'them'} back as ${restored.length === 1 ? 'it was' : 'they were'} (the repository's configuration and hooks are the user's: leave them as they are)`
        : '';
      const base = noBridge || (sandbox ? sandboxNote(r, sandbox, proxy?.refused) : '');
      const note = guard ? (base ? `${base}; ${guard}` : `[sandbox] ${guard}`) : base;
      // A command left running in the background keeps its network until the runner is disposed.
      if (proxy && r.background) {
        this.proxies.add(proxy);
        proxy = undefined;
      }
      return { ...r, sandboxed: !!sandbox, tmpDir: tmp, sandboxNote: note, ...(proxy ? { refusedHosts: [...proxy.refused] } : {}) };
    } finally {
      if (!background) release?.();
      await proxy?.close();
    }
  }

  /** Removes the sessions' temporary folders. */
  dispose(): void {
    for (const proxy of this.proxies) void proxy.close();
    this.proxies.clear();
    for (const dir of this.tmpDirs.values()) rmSync(dir, { recursive: true, force: true });
    this.tmpDirs.clear();
  }
}

const WRITE_REFUSED = /read-only file system|EROFS/i;
/** Seatbelt refuses a write with EPERM. */
const WRITE_REFUSED_MAC = /read-only file system|EROFS|operation not permitted|EPERM/i;
/**
 * A program's own report that a write was refused (`bash: line 1: /tmp/x.txt: Read-only file system`, `touch: cannot touch
 * 'x': Read-only file system`): said even when the command line ended well, as one whose last part succeeded does
 * (`… > /tmp/x.txt && …; echo done`); a bare mention (a test's output) is not such a report.
 */
const WRITE_REFUSED_REPORT = /: (?:read-only file system|EROFS)[^\n]*$/im;
const GIT_MOUNT_BUSY = /\.git\b[^\n]*(?:device or resource busy|EBUSY)/i;
const NETWORK_REFUSED = /ENETUNREACH|network is unreachable|ECONNREFUSED|connection refused|EAI_AGAIN|could not resolve|temporary failure in name resolution|getaddrinfo|failed to (?:connect|fetch)|fetch failed/i;

/**
 * The line Erasmus adds to a sandboxed command's result when the sandbox refused something (a write
 * outside the writable places, the network, a hidden credential folder, a host the project does not
 * allow), so the model knows it was the sandbox and what to do instead; empty when nothing points to
 * a refusal. A host the proxy refused is named even when the command ended well.
 */
export function sandboxNote(r: Pick<RunResult, 'output' | 'exitCode'>, p: SandboxProfile, refusedHosts: readonly string[] = [], platform: NodeJS.Platform = process.platform): string {
  const notes: string[] = [];
  if (p.network && refusedHosts.length) {
    const allowed = p.network.allowed.length ? p.network.allowed.join(', ') : 'none';
    notes.push(`the network reaches only this project's allowed hosts (sandbox): ${refusedHosts.join(', ')} refused (allowed: ${allowed}). ${howToAllow(refusedHosts[0]!)} Ask the user, or do without it`);
  }
  // A refused write the command line went on past (its exit status is a later part's) is said too, from the program's report.
  if (r.exitCode !== 0 ? (platform === 'darwin' ? WRITE_REFUSED_MAC : WRITE_REFUSED).test(r.output) : WRITE_REFUSED_REPORT.test(r.output)) {
    notes.push(
      p.readOnly
        ? `writes are refused in this step (read-only file system (sandbox)): the project is mounted read-only; only $TMPDIR (${p.tmpDir ?? 'the session temporary folder'}) is writable`
        : p.lane
          ? `a write outside the writable places was refused (read-only file system (sandbox)): this step works in its component's worktree ${p.lane}, the only writable part of the project (with what git needs in ${join(p.root, '.git')}), and $TMPDIR (${p.tmpDir ?? 'the session temporary folder'}); the project's own tree and the other components' worktrees are read-only`
          : `a write outside the writable places was refused (read-only file system (sandbox)): only the project ${p.root} (not .git/hooks, .git/config) and $TMPDIR (${p.tmpDir ?? 'the session temporary folder'}) are writable`,
    );
  }
  if (r.exitCode !== 0) {
    // A mount point cannot be moved or removed (EBUSY): `.git` itself, and its read-only hooks and config.
    if (!p.readOnly && GIT_MOUNT_BUSY.test(r.output)) notes.push(`.git, .git/hooks and .git/config cannot be moved, replaced or written (sandbox): they are the user's, and git run outside the sandbox reads them`);
    if (!p.network && NETWORK_REFUSED.test(r.output)) notes.push("the network is off for this command (sandbox): nothing outside the sandbox can be reached, 127.0.0.1 included; a command that needs the network (a download, an install) asks the user and then reaches only the project's allowed hosts");
    else if (p.network && !refusedHosts.length && NETWORK_REFUSED.test(r.output))
      notes.push("this command's network goes only through Erasmus's proxy (HTTP_PROXY, HTTPS_PROXY), to this project's allowed hosts: a program that ignores those variables (node's fetch, a raw socket) reaches nothing, 127.0.0.1 included");
    const home = resolve(p.home ?? homedir());
    const named = hiddenPaths(p).filter((h) => r.output.includes(h) || (h.startsWith(`${home}/`) && r.output.includes(`~${h.slice(home.length)}`)));
    if (named.length) notes.push(`credential folders are hidden from commands (sandbox): ${named.join(', ')} shows empty`);
  }
  return notes.length ? `[sandbox] ${notes.join('; ')}` : '';
}
