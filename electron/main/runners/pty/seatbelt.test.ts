import { homedir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HIDDEN_IN_HOME, sandboxArgv } from './sandbox';
import { seatbeltProfile } from './seatbelt';

// Paths that do not exist resolve to themselves (Seatbelt matches real paths: /private/var…).
const root = '/nonexistent-erasmus/work/my "app"';
const tmpDir = '/nonexistent-erasmus/tmp/erasmus-session-1';
const home = '/nonexistent-erasmus/home/u';
const erasmusHome = '/nonexistent-erasmus/home/u/.erasmus-home';
const q = (s: string) => `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;

/** The rules of the profile, one s-expression per entry (comments dropped). */
function rules(text: string): string[] {
  return text.replace(/^;;.*$/gm, '').split(/\n(?=\()/).map((r) => r.trim().replace(/\s+/g, ' ')).filter(Boolean);
}

describe('the macOS Seatbelt profile handed to sandbox-exec (same policy as bubblewrap)', () => {
  it('allows by default, then refuses every write but the project and TMPDIR, .git/hooks and .git/config, the credential folders, and the network', () => {
    const text = seatbeltProfile({ root, tmpDir, home, erasmusHome });
    const r = rules(text);
    expect(r.slice(0, 3)).toEqual(['(version 1)', '(allow default)', '(deny file-write*)']);
    expect(r[3]).toBe(
      `(allow file-write* (subpath ${q(root)}) (subpath ${q(tmpDir)}) (literal "/dev/null") (literal "/dev/zero") (literal "/dev/dtracehelper") (literal "/dev/tty") (literal "/dev/ptmx") (regex #"^/dev/ttys[0-9]+$") (regex #"^/dev/fd/"))`,
    );
    // Later rules win in Seatbelt: .git itself (no rename, no copy in its place), hooks and config are taken back after the project is allowed.
    expect(r[4]).toBe(`(deny file-write* (literal ${q(join(root, '.git'))}) (subpath ${q(join(root, '.git', 'hooks'))}) (literal ${q(join(root, '.git', 'config'))}))`);
    const hidden = r[5]!;
    expect(hidden.startsWith('(deny file-read* file-write* ')).toBe(true);
    for (const rel of HIDDEN_IN_HOME) {
      expect(hidden).toContain(`(subpath ${q(join(home, rel))})`);
      expect(hidden).toContain(`(subpath ${q(join(homedir(), rel))})`); // this process's home too
    }
    expect(hidden).toContain(`(subpath ${q(erasmusHome)})`);
    expect(r.slice(6)).toEqual(['(deny network*)']);
    expect(text).toContain('(subpath "/nonexistent-erasmus/work/my \\"app\\"")');
  });

  it("a parallel run's lane: only its worktree (and what git needs in .git) is writable, not the project's tree, HEAD, index nor the other worktrees", () => {
    const lane = join(root, '.git', 'erasmus', 'worktrees', 'run1', 'a');
    const r = rules(seatbeltProfile({ root, tmpDir, home, lane }));
    expect(r[3]).toContain(`(allow file-write* (subpath ${q(join(root, '.git'))}) (subpath ${q(tmpDir)})`);
    expect(r[3]).not.toContain(`(subpath ${q(root)})`);
    const deny = r.findIndex((x) => x.startsWith(`(deny file-write* (literal ${q(join(root, '.git', 'HEAD'))})`));
    expect(r[deny]).toContain(`(subpath ${q(join(root, '.git', 'erasmus', 'worktrees'))})`);
    expect(r[deny]).toContain(`(subpath ${q(join(root, '.git', 'worktrees'))})`);
    // Later rules win: the lane's own worktree is given back after the other worktrees are taken away.
    expect(r[deny + 1]).toBe(`(allow file-write* (subpath ${q(lane)}))`);
  });

  it('a step that only reads: the project is not writable (TMPDIR is); a networked command reaches only the proxy port', () => {
    const ro = rules(seatbeltProfile({ root, tmpDir, home, readOnly: true }));
    expect(ro[3]).toMatch(new RegExp(`^\\(allow file-write\\* \\(subpath ${q(tmpDir).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\) \\(literal "/dev/null"\\)`));
    expect(ro.join('\n')).not.toContain(`(subpath ${q(root)})`);
    expect(ro.join('\n')).not.toContain('.git/hooks');
    const net = rules(seatbeltProfile({ root, tmpDir, home, network: { kind: 'tcp', port: 43117, allowed: ['registry.npmjs.org'] } }));
    expect(net.slice(-2)).toEqual(['(deny network*)', '(allow network-outbound (remote ip "localhost:43117"))']);
  });

  it('never hides the project itself, and wraps the command as sandbox-exec -p <profile>', () => {
    const inside = join(home, '.ssh', 'proj');
    expect(seatbeltProfile({ root: inside, home })).not.toContain(`(subpath ${q(join(home, '.ssh'))})`);
    const argv = sandboxArgv({ root, tmpDir, home }, root, 'darwin');
    expect(argv.slice(0, 2)).toEqual(['sandbox-exec', '-p']);
    expect(argv[2]).toBe(seatbeltProfile({ root, tmpDir, home }));
    expect(argv).toHaveLength(3);
    expect(sandboxArgv({ root, tmpDir, home }, root, 'linux')[0]).toBe('bwrap');
  });
});
