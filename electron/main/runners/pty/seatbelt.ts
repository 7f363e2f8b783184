import { existsSync, realpathSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { hiddenPaths, laneGitDir, type SandboxProfile } from './sandbox';

/**
 * The macOS sandbox: a Seatbelt profile (SBPL, handed to `sandbox-exec -p`) made from the same
 * policy as the bubblewrap one (sandbox.ts). Seatbelt's last matching rule wins, so the profile
 * allows by default, then takes away: every write but the project (not `.git/hooks`,
 * `.git/config`; none for a step that only reads), the session's TMPDIR and the terminal devices;
 * reading the credential folders and ERASMUS_HOME; the network, but for the core's proxy port on
 * localhost when the user accepted a command that needs it (the proxy then reaches only the
 * project's allowed hosts). A write elsewhere fails with "Operation not permitted".
 * Unlike Linux there is no private network namespace: a test that serves on localhost and connects
 * to itself is refused too.
 */

/** Seatbelt matches real paths (/private/var, /private/tmp): resolve symlinks of the path or its nearest existing parent. */
export function realPath(p: string): string {
  const abs = resolve(p);
  if (existsSync(abs)) return realpathSync(abs);
  const parent = dirname(abs);
  return parent === abs ? abs : join(realPath(parent), abs.slice(parent.length + (parent.endsWith('/') ? 0 : 1)));
}

/** A string literal of SBPL. */
function str(s: string): string {
  return `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/** The profile for `sandbox-exec -p`. */
export function seatbeltProfile(p: SandboxProfile): string {
  const root = realPath(p.root);
  const lane = p.lane && !p.readOnly ? realPath(p.lane) : undefined;
  const laneGit = lane ? laneGitDir(lane) : undefined;
  const project = p.readOnly ? [] : lane ? [`(subpath ${str(join(root, '.git'))})`] : [`(subpath ${str(root)})`];
  const writable = [...project, ...(p.tmpDir ? [`(subpath ${str(realPath(p.tmpDir))})`] : [])];
  const hidden = hiddenPaths(p)
    .map(realPath)
    .filter((h) => !(root === h || root.startsWith(`${h}/`)));
  const lines = [
    '(version 1)',
    '(allow default)',
    ';; writes: only the project and the session TMPDIR (and the terminal devices)',
    '(deny file-write*)',
    '(allow file-write*',
    ...writable.map((w) => `  ${w}`),
    '  (literal "/dev/null") (literal "/dev/zero") (literal "/dev/dtracehelper") (literal "/dev/tty") (literal "/dev/ptmx")',
    '  (regex #"^/dev/ttys[0-9]+$") (regex #"^/dev/fd/"))',
  ];
  if (!p.readOnly) lines.push(';; hooks and config would run code outside the sandbox later; .git itself is not moved or replaced by a copy', `(deny file-write* (literal ${str(join(root, '.git'))}) (subpath ${str(join(root, '.git', 'hooks'))}) (literal ${str(join(root, '.git', 'config'))}))`);
  if (lane) {
    const g = (rel: string) => join(root, '.git', rel);
    lines.push(
      ";; a component's worktree: the project's HEAD and index and the other worktrees stay read-only",
      `(deny file-write* (literal ${str(g('HEAD'))}) (literal ${str(g('index'))}) (subpath ${str(g('worktrees'))}) (subpath ${str(g('erasmus/worktrees'))}))`,
      `(allow file-write* (subpath ${str(lane)})${laneGit ? ` (subpath ${str(realPath(laneGit))})` : ''})`,
    );
  }
  lines.push(';; credential folders and ERASMUS_HOME', '(deny file-read* file-write*', ...hidden.map((h) => `  (subpath ${str(h)})`), ')');
  lines.push(';; no network, but the proxy of the core (allowed hosts only)', '(deny network*)');
  if (p.network?.kind === 'tcp') lines.push(`(allow network-outbound (remote ip ${str(`localhost:${p.network.port}`)}))`);
  return `${lines.join('\n')}\n`;
}

/** `sandbox-exec`'s argv for a profile (the command follows). */
export function seatbeltArgv(p: SandboxProfile): string[] {
  return ['sandbox-exec', '-p', seatbeltProfile(p)];
}
