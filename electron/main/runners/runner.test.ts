import { execFile, spawnSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, realpathSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { PtyManager } from './pty/index';
import { bwrapArgs, pyenvShims, sandboxStatus, sandboxStatusFor } from './pty/sandbox';
import { BRIDGE_PORT, hostAllowed, howToAllow, startProxy } from './pty/net-proxy';
import { CommandRunner, sandboxNote } from './runner';
import { runGate } from '../workflow/gate';
import { buildStepPrompt } from '../workflow/prompt';

/**
 * The one runner with the real sandbox (bubblewrap): a project inside the system temp folder, a
 * fake home with a credential folder, a capture server on 127.0.0.1. Nothing may escape, and what
 * the sandbox refused is said in words the model reads.
 */
const KEY = 'erasmus-runner-probe-key';
let base: string;
let project: string;
let home: string;
let erasmusHome: string;
let ptys: PtyManager;
let runner: CommandRunner;
let capture: Server;
let port: number;
const received: string[] = [];

beforeAll(async () => {
  capture = createServer((req, res) => {
    received.push(req.url ?? '');
    res.end('reached');
  });
  await new Promise<void>((r) => capture.listen(0, '127.0.0.1', r));
  port = (capture.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((r) => capture.close(() => r())));

beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'erasmus-runner-')));
  project = join(base, 'project');
  // Home outside the system temp folder: hiding its credentials is the profile's work, not the empty /tmp's.
  home = realpathSync(mkdtempSync(join(existsSync('/var/tmp') ? '/var/tmp' : tmpdir(), 'erasmus-runner-home-')));
  erasmusHome = join(home, '.erasmus');
  mkdirSync(project, { recursive: true });
  mkdirSync(join(home, '.ssh'), { recursive: true });
  mkdirSync(erasmusHome, { recursive: true });
  writeFileSync(join(home, '.ssh', 'id_ed25519'), KEY);
  writeFileSync(join(project, 'README.md'), 'hello\n');
  ptys = new PtyManager({ outputsDir: join(base, 'outputs'), killGraceMs: 500, login: false });
  runner = new CommandRunner(ptys, { home, erasmusHome, tmpBase: base });
  received.length = 0;
});

afterEach(async () => {
  await ptys.dispose();
  runner.dispose();
  rmSync(base, { recursive: true, force: true });
  rmSync(home, { recursive: true, force: true });
});

describe.runIf(sandboxStatus().available)('the one runner, sandboxed', () => {
  it('a write outside the project fails with a readable refusal, even with the project inside the temp folder, and leaves nothing', async () => {
    const r = await runner.run({ command: 'echo x > ../outside.txt', root: project });
    expect(r.sandboxed).toBe(true);
    expect(r.exitCode).not.toBe(0);
    expect(r.output).toMatch(/Read-only file system/);
    expect(r.sandboxNote).toMatch(/^\[sandbox\] a write outside the writable places was refused \(read-only file system \(sandbox\)\)/);
    expect(r.sandboxNote).toContain(project);
    expect(existsSync(join(base, 'outside.txt'))).toBe(false);
    // /tmp itself refuses too (no private folder where writes vanish).
    const t = await runner.run({ command: 'echo x > /tmp/erasmus-runner-stray.txt', root: project });
    expect(t.exitCode).not.toBe(0);
    expect(t.output).toMatch(/Read-only file system/);
    // Inside the project it writes.
    const w = await runner.run({ command: 'echo inside > made.txt', root: project });
    expect(w.exitCode).toBe(0);
    expect(w.sandboxNote).toBe('');
    expect(readFileSync(join(project, 'made.txt'), 'utf8')).toBe('inside\n');
  });

  it('sees no process outside the sandbox: no way through /proc/<pid>/root to the real files, and nothing it leaves runs on after it', async () => {
    writeFileSync(join(base, 'outside.txt'), 'outside\n');
    // This test's own process is outside: its /proc/<pid>/root is the real file system (secrets and /tmp included).
    const through = `/proc/${process.pid}/root`;
    const r = await runner.run({ command: `ls /proc | grep -c '^[0-9]'; cat ${through}${join(home, '.ssh', 'id_ed25519')}; echo escaped >> ${through}${join(base, 'outside.txt')}; (exec -a erasmus-left-behind-${process.pid} sleep 600) & echo started`, root: project });
    expect(r.output).toContain('started');
    expect(r.output).not.toContain(KEY);
    expect(readFileSync(join(base, 'outside.txt'), 'utf8')).toBe('outside\n');
    // Only the sandbox's own few processes are there to see.
    expect(Number(/^(\d+)\s*$/m.exec(r.output)?.[1])).toBeLessThan(10);
    // The background sleep ended with the command (bwrap's init is gone, and the kernel stopped what it left).
    const left = () => readdirSync('/proc').filter((p) => /^\d+$/.test(p) && (() => { try { return readFileSync(`/proc/${p}/cmdline`, 'utf8').startsWith(`erasmus-left-behind-${process.pid}`); } catch { return false; } })());
    try {
      await vi.waitFor(() => expect(left()).toEqual([]), { timeout: 5_000, interval: 50 });
    } finally {
      for (const p of left()) process.kill(Number(p), 'SIGKILL');
    }
  });

  it("the repository's git folder stays the user's: .git cannot be moved or replaced by a copy, missing hooks are not left to make, a .git/commondir is put back", async () => {
    const git = (cwd: string, ...args: string[]) => spawnSync('git', args, { cwd, encoding: 'utf8' });
    expect(git(project, 'init', '-q', '--template=').status).toBe(0); // no hooks folder
    const config = readFileSync(join(project, '.git', 'config'), 'utf8');
    const swap = await runner.run({ command: `mv .git .git-orig && cp -r .git-orig .git && printf '[core]\\n\\tfsmonitor = touch ${base}/ran\\n' >> .git/config`, root: project });
    expect(swap.exitCode).not.toBe(0);
    expect(swap.sandboxNote).toContain('.git, .git/hooks and .git/config cannot be moved, replaced or written');
    expect(existsSync(join(project, '.git-orig'))).toBe(false);
    const hook = await runner.run({ command: "mkdir -p .git/hooks && printf 'touch ran' > .git/hooks/post-checkout", root: project });
    expect(hook.exitCode).not.toBe(0);
    expect(existsSync(join(project, '.git', 'hooks', 'post-checkout'))).toBe(false);
    // git reads the config and hooks of the folder .git/commondir names: one the command made.
    const redirect = await runner.run({ command: `mkdir -p evil && printf '[core]\\n\\tfsmonitor = touch ${base}/ran\\n' > evil/config && echo ../../evil > .git/commondir && echo made`, root: project });
    expect(redirect.output).toContain('made');
    expect(existsSync(join(project, '.git', 'commondir'))).toBe(false);
    expect(redirect.sandboxNote).toContain('[sandbox] the command changed .git/commondir, which would point git at another configuration and hooks; Erasmus put it back as it was');
    expect(readFileSync(join(project, '.git', 'config'), 'utf8')).toBe(config);
    expect(git(project, 'status', '--porcelain').status).toBe(0);
    expect(existsSync(join(base, 'ran'))).toBe(false);
  });

  it("a command left running in the background that rewrites .git/commondir after the check: Erasmus's own git puts it back before it runs", async () => {
    const sh = (cwd: string, ...args: string[]) => spawnSync('git', args, { cwd, encoding: 'utf8' });
    expect(sh(project, 'init', '-q').status).toBe(0);
    const commondir = join(project, '.git', 'commondir');
    // Past its timeout it goes on in the background (the check after the command has run), then points git at its own config.
    const r = await runner.run({
      command: `sleep 1; mkdir -p evil/objects evil/refs && printf 'ref: refs/heads/main\\n' > evil/HEAD && printf '[core]\\n\\tfsmonitor = touch ${base}/ran\\n' > evil/config && echo ../evil > .git/commondir; sleep 60`,
      root: project,
      timeoutMs: 300,
      onTimeout: 'background',
    });
    expect(r.background).toBe(true);
    for (let i = 0; i < 200 && !existsSync(commondir); i++) await new Promise((res) => setTimeout(res, 50));
    expect(readFileSync(commondir, 'utf8')).toBe('../evil\n');
    // Erasmus's git (the workflow's, the checkpoints'): the pointer is put back first, and git reads the user's configuration.
    const { git } = await import('../workflow/git');
    const status = await git(project, ['status', '--porcelain']);
    expect(existsSync(commondir)).toBe(false);
    expect(status.code).toBe(0);
    expect(existsSync(join(base, 'ran'))).toBe(false);
    // Written again while the command still runs: put back again, by the checkpoints' git too.
    writeFileSync(commondir, '../evil\n');
    const { git: checkpointGit } = await import('../checkpoints/shadow');
    await checkpointGit(project, ['rev-parse', '--git-common-dir']);
    expect(existsSync(commondir)).toBe(false);
    // And by the git that lists the project for a session's prompt (git ls-files).
    writeFileSync(commondir, '../evil\n');
    const { listProject } = await import('../agent/prompt/dynamic');
    listProject(project);
    expect(existsSync(commondir)).toBe(false);
    expect(existsSync(join(base, 'ran'))).toBe(false);
  }, 30_000);

  it("a parallel run's lane: a command in a component's worktree writes and commits there, never the project's tree nor another component's worktree", async () => {
    const git = (cwd: string, ...args: string[]) => spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd, encoding: 'utf8' });
    git(project, 'init', '-q', '-b', 'main');
    git(project, 'add', '-A');
    git(project, 'commit', '-q', '-m', 'first');
    const lanes = join(project, '.git', 'erasmus', 'worktrees', 'run1');
    const [a, b] = [join(lanes, 'a'), join(lanes, 'b')];
    for (const [dir, id] of [[a, 'a'], [b, 'b']] as const) expect(git(project, 'worktree', 'add', '-q', '-b', `erasmus-lane/run1/${id}`, dir).status).toBe(0);
    const env = { GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' };
    // Its own worktree: written and committed on its branch (objects, refs and logs are what git needs in .git).
    const own = await runner.run({ command: 'echo a > a.txt && git add a.txt && git commit -q -m "Write a.txt" && git log -1 --format=%s', root: project, cwd: a, env });
    expect(own.output).toContain('Write a.txt');
    expect(own.exitCode).toBe(0);
    expect(git(project, 'log', '-1', '--format=%s', 'erasmus-lane/run1/a').stdout.trim()).toBe('Write a.txt');
    // The project's tree, its HEAD and index, and the other component's worktree refuse, saying where it may write.
    for (const command of [`echo x > ${join(project, 'main.txt')}`, `echo x > ${join(b, 'b.txt')}`, `echo x > ${join(project, 'README.md')}`]) {
      const r = await runner.run({ command, root: project, cwd: a });
      expect(r.exitCode, command).not.toBe(0);
      expect(r.sandboxNote, command).toContain(`this step works in its component's worktree ${a}`);
    }
    // The project's HEAD cannot be moved from there (git's rename over it is refused).
    const moved = await runner.run({ command: `git -C ${project} checkout -q --detach`, root: project, cwd: a });
    expect(moved.exitCode, moved.output).not.toBe(0);
    expect(existsSync(join(project, 'main.txt'))).toBe(false);
    expect(existsSync(join(b, 'b.txt'))).toBe(false);
    expect(readFileSync(join(project, 'README.md'), 'utf8')).toBe('hello\n');
    expect(git(project, 'branch', '--show-current').stdout.trim()).toBe('main');
    expect(git(project, 'status', '--porcelain').stdout).toBe('');
    // The hooks stay read-only from a lane too.
    const hook = await runner.run({ command: `echo x > ${join(project, '.git', 'hooks', 'pre-commit')}`, root: project, cwd: a });
    expect(hook.exitCode).not.toBe(0);
    // What tells git where its configuration is (the lane's .git file, its commondir, the project's .git/commondir) is put back.
    const pointer = readFileSync(join(a, '.git'), 'utf8');
    const repointed = await runner.run({ command: `mkdir -p evil && echo "gitdir: $PWD/evil" > .git && echo ../../evil > ${join(project, '.git', 'commondir')}`, root: project, cwd: a });
    expect(repointed.exitCode, repointed.output).toBe(0);
    expect(readFileSync(join(a, '.git'), 'utf8')).toBe(pointer);
    expect(existsSync(join(project, '.git', 'commondir'))).toBe(false);
    expect(repointed.sandboxNote).toContain('the command changed .git/commondir, .git/erasmus/worktrees/run1/a/.git, which would point git at another configuration');
    // A command in the project itself still writes the project (no lane).
    expect((await runner.run({ command: 'echo m > main.txt', root: project })).exitCode).toBe(0);
  });

  it('TMPDIR is the session\'s own folder and lasts across its commands; another session has another', async () => {
    const a = await runner.run({ command: 'echo kept > "$TMPDIR/note" && echo "$TMPDIR"', root: project, session: 's1' });
    expect(a.exitCode).toBe(0);
    expect(a.output).toContain(a.tmpDir);
    const b = await runner.run({ command: 'cat "$TMPDIR/note"', root: project, session: 's1' });
    expect(b.output).toContain('kept');
    const c = await runner.run({ command: 'cat "$TMPDIR/note"', root: project, session: 's2' });
    expect(c.exitCode).not.toBe(0);
    expect(c.tmpDir).not.toBe(a.tmpDir);
  });

  it('reaches no server on 127.0.0.1, and says the network is off', async () => {
    const r = await runner.run({ command: `node -e "fetch('http://127.0.0.1:${port}/leak').then(r => r.text()).then(console.log)"`, root: project });
    expect(r.exitCode).not.toBe(0);
    expect(received).toEqual([]);
    expect(r.sandboxNote).toMatch(/the network is off for this command \(sandbox\)/);
    const curl = await runner.run({ command: `exec 3<>/dev/tcp/127.0.0.1/${port} && printf 'GET /tcp HTTP/1.0\\r\\n\\r\\n' >&3 && cat <&3`, root: project });
    expect(curl.exitCode).not.toBe(0);
    expect(received).toEqual([]);
  });

  it('a networked command reaches an allowed host:port through the proxy, and nothing else: another port is refused naming it and how to allow it', async () => {
    const allowedHosts = [`127.0.0.1:${port}`];
    const http = await runner.run({ command: `curl -sS http://127.0.0.1:${port}/plain`, root: project, network: true, allowedHosts });
    expect(http.output).toContain('reached');
    expect(http.exitCode).toBe(0);
    expect(http.sandboxNote).toBe('');
    // CONNECT (how https goes) to the same allowed host:port.
    const tunnel = await runner.run({ command: `curl -sS -p http://127.0.0.1:${port}/tunnel`, root: project, network: true, allowedHosts });
    expect(tunnel.output).toContain('reached');
    expect(received).toEqual(['/plain', '/tunnel']);
    // Another port of the same host: refused by the proxy, in words the model can act on.
    const other = `127.0.0.1:${port === 65535 ? port - 1 : port + 1}`;
    const refused = await runner.run({ command: `curl -sS -p http://${other}/other`, root: project, network: true, allowedHosts });
    expect(refused.exitCode).not.toBe(0);
    expect(refused.refusedHosts).toEqual([other]);
    expect(refused.sandboxNote).toContain(`[sandbox] the network reaches only this project's allowed hosts (sandbox): ${other} refused (allowed: 127.0.0.1:${port})`);
    // How to allow it, true on each face: the app's card and Settings, the terminal's h answers, the settings file.
    expect(refused.sandboxNote).toContain(`Only the user can allow it: when approving a command that names it ("Allow ${other}" on the app's approval card; on a terminal, the answer h or h1, h2…), in the app's Settings → Allowed hosts, or with "runners": {"network": {"allowedHosts": ["${other}"]}} in the project's .erasmus/settings.json.`);
    // Plain http to a host not allowed: the proxy's answer names it too.
    const plain = await runner.run({ command: 'curl -sS http://example.invalid/x', root: project, network: true, allowedHosts });
    expect(plain.output).toContain('Erasmus sandbox: example.invalid:80 is not an allowed host of this project');
    expect(plain.sandboxNote).toContain('example.invalid:80 refused');
    // Around the proxy there is still no network at all.
    const direct = await runner.run({ command: `exec 3<>/dev/tcp/127.0.0.1/${port} && printf 'GET /direct HTTP/1.0\\r\\n\\r\\n' >&3 && cat <&3`, root: project, network: true, allowedHosts });
    expect(direct.exitCode).not.toBe(0);
    expect(received).toEqual(['/plain', '/tunnel']);
    // A program that ignores the proxy variables reaches nothing either, and is told why.
    const fetchy = await runner.run({ command: `node -e "fetch('http://127.0.0.1:${port}/fetch').then(r => r.text()).then(console.log)"`, root: project, network: true, allowedHosts });
    expect(fetchy.exitCode).not.toBe(0);
    expect(fetchy.sandboxNote).toContain("[sandbox] this command's network goes only through Erasmus's proxy (HTTP_PROXY, HTTPS_PROXY)");
    expect(received).toEqual(['/plain', '/tunnel']);
  });

  it('a networked command left running in the background keeps its proxy until the runner is disposed', async () => {
    const allowedHosts = [`127.0.0.1:${port}`];
    const r = await runner.run({ command: `sleep 1.5; curl -sS http://127.0.0.1:${port}/bg`, root: project, network: true, allowedHosts, timeoutMs: 300, onTimeout: 'background' });
    expect(r.background).toBe(true);
    await vi.waitFor(() => expect(received).toEqual(['/bg']), { timeout: 15_000, interval: 100 });
  });

    it('a test gate that fails on the sandbox: nothing escapes, and the debugging step\'s prompt says what the sandbox refused', async () => {
    writeFileSync(
      join(project, 'escape.test.mjs'),
      [
        "import { readFileSync, writeFileSync } from 'node:fs';",
        "const tries = [() => writeFileSync('../outside-gate.txt', 'x'), () => readFileSync(process.env.HOME + '/.ssh/id_ed25519', 'utf8'), () => fetch('http://127.0.0.1:" + port + "/gate')];",
        'for (const t of tries) { try { const r = await t(); console.log("escaped", String(r)); } catch (e) { console.log(e.code ?? e.cause?.code ?? e.message, e.message); } }',
        'process.exit(1);',
      ].join('\n'),
    );
    const gate = await runGate(runner, 'node escape.test.mjs', project, undefined, { env: { HOME: home } });
    expect(gate.passed).toBe(false);
    expect(existsSync(join(base, 'outside-gate.txt'))).toBe(false);
    expect(received).toEqual([]);
    expect(gate.output).not.toContain(KEY);
    const note = gate.output.split('\n').at(-1)!;
    expect(note).toMatch(/^\[sandbox\] a write outside the writable places was refused \(read-only file system \(sandbox\)\)/);
    expect(note).toContain('the network is off for this command (sandbox)');
    expect(note).toContain(`credential folders are hidden from commands (sandbox): ${join(home, '.ssh')}`);
    const prompt = buildStepPrompt({ protocol: { name: 'debugging', description: 'd', toolsets: [], done: 'Passes.', prompt: 'Debug.', budget: { maxTurns: 5 }, source: 'builtin' } as unknown as Parameters<typeof buildStepPrompt>[0]['protocol'], instruction: 'Fix it.', contextDocPath: join(base, 'c.md'), testOutput: gate });
    expect(prompt).toContain(note);
  });

  it('reads no hidden credential folder nor ERASMUS_HOME, and names what was hidden', async () => {
    writeFileSync(join(erasmusHome, 'config.yaml'), 'secret: x\n');
    const r = await runner.run({ command: `ls -A ${join(home, '.ssh')} ${erasmusHome}; cat ${join(home, '.ssh', 'id_ed25519')}`, root: project });
    expect(r.exitCode).not.toBe(0);
    expect(r.output).not.toContain(KEY);
    expect(r.output).not.toContain('config.yaml');
    expect(r.sandboxNote).toContain(`credential folders are hidden from commands (sandbox): ${join(home, '.ssh')}`);
  });

  it('with read access the project is read-only: the tests run, nothing is written', async () => {
    writeFileSync(join(project, 'test.sh'), 'grep -q hello README.md && echo tests-passed\n');
    const ok = await runner.run({ command: 'bash test.sh', root: project, access: 'read' });
    expect(ok.exitCode).toBe(0);
    expect(ok.output).toContain('tests-passed');
    const w = await runner.run({ command: 'echo changed > README.md', root: project, access: 'read' });
    expect(w.exitCode).not.toBe(0);
    expect(w.sandboxNote).toMatch(/writes are refused in this step \(read-only file system \(sandbox\)\)/);
    expect(readFileSync(join(project, 'README.md'), 'utf8')).toBe('hello\n');
    const tmp = await runner.run({ command: 'echo scratch > "$TMPDIR/x" && cat "$TMPDIR/x"', root: project, access: 'read' });
    expect(tmp.output).toContain('scratch');
  });
});

describe('the sandbox profile', () => {
  it('keeps .git/hooks and .git/config read-only, the project writable, /tmp read-only but for TMPDIR', () => {
    mkdirSync(join(project, '.git', 'hooks'), { recursive: true });
    writeFileSync(join(project, '.git', 'config'), '');
    const tmp = runner.tmpDir('s');
    const args = bwrapArgs({ root: project, home, erasmusHome, tmpDir: tmp });
    const at = (...xs: string[]) => args.findIndex((_, i) => xs.every((x, j) => args[i + j] === x));
    expect(at('--bind', project, project)).toBeGreaterThan(-1);
    expect(at('--ro-bind', join(project, '.git', 'hooks'), join(project, '.git', 'hooks'))).toBeGreaterThan(at('--bind', project, project));
    expect(at('--bind', tmp, tmp)).toBeGreaterThan(-1);
    expect(at('--remount-ro', '/tmp')).toBeGreaterThan(at('--bind', tmp, tmp));
    expect(at('--tmpfs', join(home, '.ssh'))).toBeGreaterThan(-1);
    expect(at('--tmpfs', erasmusHome)).toBeGreaterThan(-1);
    expect(args).toContain('--unshare-net');
    const ro = bwrapArgs({ root: project, home, readOnly: true });
    expect(ro.join(' ')).toContain(`--ro-bind ${project} ${project}`);
    expect(ro).not.toContain('--bind');
  });

  it('a networked profile keeps its own network namespace, binds the proxy socket in, and runs the command under the bridge', () => {
    const network = { kind: 'socket' as const, dir: join(base, 'net'), socket: join(base, 'net', 'proxy.sock'), node: '/usr/bin/node', allowed: [] };
    mkdirSync(network.dir);
    const args = bwrapArgs({ root: project, home, network });
    expect(args).toContain('--unshare-net');
    expect(args.join(' ')).toContain(`--ro-bind ${network.dir} ${network.dir}`);
    expect(args.slice(args.indexOf('--') + 1)).toEqual(['/usr/bin/node', '-e', expect.stringContaining('net.createServer'), network.socket, String(BRIDGE_PORT)]);
  });

  it.runIf(sandboxStatus().available)('pyenv\'s shims: the session\'s copy is mounted writable over them, so a rehash works and the real ones stay untouched', () => {
    const real = join(home, '.pyenv', 'shims');
    mkdirSync(real, { recursive: true });
    writeFileSync(join(real, 'python'), '#!/bin/sh\n');
    // A stale lock of a rehash that was killed stays behind in the real folder, not in the copy (every rehash would wait for it).
    writeFileSync(join(real, '.pyenv-shim'), '#!/bin/sh\n');
    const tmp = runner.tmpDir('s');
    const shims = pyenvShims(home, tmp, {});
    expect(shims).toEqual({ real, copy: join(tmp, '.erasmus-pyenv-shims') });
    expect(existsSync(join(shims!.copy, '.pyenv-shim'))).toBe(false);
    const r = spawnSync('bwrap', [...bwrapArgs({ root: project, home, tmpDir: tmp, pyenvShims: shims }), 'sh', '-c', `set -o noclobber; : > ${real}/.pyenv-shim && ls ${real}`], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('python\n');
    expect(readFileSync(join(real, '.pyenv-shim'), 'utf8')).toBe('#!/bin/sh\n');
    expect(existsSync(join(shims!.copy, '.pyenv-shim'))).toBe(true);
    expect(pyenvShims(join(home, 'none'), tmp, {})).toBeUndefined();
  });

  it.runIf(sandboxStatus().available)("pyenv's shims: the copy links its identical shims to each other, never to the real ones, so a write in the sandbox leaves them as they were", () => {
    const real = join(home, '.pyenv', 'shims');
    mkdirSync(real, { recursive: true });
    const shim = '#!/usr/bin/env bash\nexec pyenv exec "$0" "$@"\n';
    for (const name of ['python', 'python3', 'pip']) writeFileSync(join(real, name), shim, { mode: 0o755 });
    writeFileSync(join(real, 'odd'), '#!/bin/sh\necho odd\n', { mode: 0o755 });
    writeFileSync(join(real, 'plain'), shim, { mode: 0o644 }); // same text, another mode: a file of its own
    symlinkSync('python', join(real, 'py'));
    const tmp = runner.tmpDir('linked');
    const { copy } = pyenvShims(home, tmp, {})!;
    expect(readdirSync(copy).sort()).toEqual(['odd', 'pip', 'plain', 'py', 'python', 'python3']);
    const ino = (name: string) => lstatSync(join(copy, name)).ino;
    expect(ino('python3')).toBe(ino('python'));
    expect(ino('pip')).toBe(ino('python'));
    expect(new Set([ino('python'), ino('odd'), ino('plain')]).size).toBe(3);
    for (const name of ['python', 'python3', 'pip', 'odd', 'plain']) {
      expect(lstatSync(join(copy, name)).ino).not.toBe(lstatSync(join(real, name)).ino);
      expect(readFileSync(join(copy, name), 'utf8')).toBe(readFileSync(join(real, name), 'utf8'));
      expect(lstatSync(join(copy, name)).mode).toBe(lstatSync(join(real, name)).mode);
    }
    expect(readlinkSync(join(copy, 'py'))).toBe('python');
    // A command writes into a shim in place: the copy changes, the real shims do not.
    const r = spawnSync('bwrap', [...bwrapArgs({ root: project, home, tmpDir: tmp, pyenvShims: { real, copy } }), 'sh', '-c', `echo hijacked > ${real}/python3`], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(readFileSync(join(copy, 'python3'), 'utf8')).toBe('hijacked\n');
    for (const name of ['python', 'python3', 'pip', 'plain']) expect(readFileSync(join(real, name), 'utf8')).toBe(shim);
  });

  it("pyenv's shims: a rehash lock that a killed rehash left is never copied, and a stale one in the session's copy is removed", () => {
    const real = join(home, '.pyenv', 'shims');
    mkdirSync(real, { recursive: true });
    writeFileSync(join(real, 'python'), '#!/bin/sh\n');
    // In the real folder (a shell outside rehashing now, or one killed mid-way): a copy of it would never be released.
    writeFileSync(join(real, '.pyenv-shim'), 'lock');
    const tmp = runner.tmpDir('stale-lock');
    const shims = pyenvShims(home, tmp, {})!;
    expect(readdirSync(shims.copy)).toEqual(['python']);
    expect(existsSync(join(real, '.pyenv-shim'))).toBe(true); // the real folder's, left alone
    // A rehash under way in this session (a fresh lock) is left alone; one left by a command stopped mid-rehash goes.
    const lock = join(shims.copy, '.pyenv-shim');
    writeFileSync(lock, 'lock');
    pyenvShims(home, tmp, {});
    expect(existsSync(lock)).toBe(true);
    const old = (Date.now() - 60_000) / 1000;
    utimesSync(lock, old, old);
    pyenvShims(home, tmp, {});
    expect(existsSync(lock)).toBe(false);
  });

  it('the proxy on a loopback port (how macOS reaches it): an allowed host:port is reached, another is refused with a 403 naming it', async () => {
    const proxy = await startProxy(base, [`127.0.0.1:${port}`], 'tcp');
    try {
      const curl = (...args: string[]) => new Promise<{ code: number; out: string }>((res) => execFile('curl', ['-sS', '-x', `http://127.0.0.1:${proxy.port}`, ...args], (err, out, errOut) => res({ code: err ? Number(err.code) : 0, out: out + errOut })));
      expect((await curl(`http://127.0.0.1:${port}/via-tcp`)).out).toBe('reached');
      const other = `127.0.0.1:${port === 65535 ? port - 1 : port + 1}`;
      const refused = await curl('-f', '-p', `http://${other}/x`);
      expect(refused.code).not.toBe(0);
      expect(refused.out).toContain('403');
      expect(proxy.refused).toEqual([other]);
      expect(received).toEqual(['/via-tcp']);
    } finally {
      await proxy.close();
    }
  });

  it('allowed hosts: a name allows ports 80 and 443, host:port that port only, *.domain its subdomains', () => {
    const rules = ['registry.npmjs.org', '127.0.0.1:8080', '*.pythonhosted.org', '[::1]:9000'];
    expect(hostAllowed(rules, 'registry.npmjs.org', 443)).toBe(true);
    expect(hostAllowed(rules, 'REGISTRY.npmjs.org.', 80)).toBe(true);
    expect(hostAllowed(rules, 'registry.npmjs.org', 22)).toBe(false);
    expect(hostAllowed(rules, 'evil-registry.npmjs.org', 443)).toBe(false);
    expect(hostAllowed(rules, '127.0.0.1', 8080)).toBe(true);
    expect(hostAllowed(rules, '127.0.0.1', 8081)).toBe(false);
    expect(hostAllowed(rules, '127.0.0.1', 443)).toBe(false);
    expect(hostAllowed(rules, 'files.pythonhosted.org', 443)).toBe(true);
    expect(hostAllowed(rules, 'pythonhosted.org', 443)).toBe(false);
    expect(hostAllowed(rules, 'evilpythonhosted.org', 443)).toBe(false);
    expect(hostAllowed(rules, '::1', 9000)).toBe(true);
    expect(hostAllowed([], 'registry.npmjs.org', 443)).toBe(false);
  });

  it('says per OS what protects commands; Windows says plainly that commands are not sandboxed, macOS runs its Seatbelt probe', () => {
    const probe = () => ({ available: true, detail: 'Linux: commands run in bubblewrap' });
    expect(sandboxStatusFor('win32', false, probe)).toEqual({ available: false, detail: 'Windows: commands are not sandboxed (Erasmus has no sandbox on Windows); every command that is not read-only asks' });
    // macOS: the probe of the generated Seatbelt profile decides (it must confine a write), like bwrap's on Linux.
    const mac = { available: true, detail: 'macOS: commands run in Seatbelt (sandbox-exec)' };
    expect(sandboxStatusFor('darwin', false, () => mac)).toEqual(mac);
    expect(sandboxStatusFor('freebsd', false, probe).detail).toMatch(/^freebsd: commands are not sandboxed/);
    expect(sandboxStatusFor('linux', false, probe)).toEqual(probe());
    expect(sandboxStatusFor('linux', true, probe)).toMatchObject({ available: false, detail: expect.stringMatching(/^switched off \(ERASMUS_SANDBOX=off\): commands are not sandboxed/) });
  });

  it('says nothing when the output shows no refusal (a bare mention where the command succeeded), and a refused write a command line went on past', () => {
    const p = { root: project, home };
    expect(sandboxNote({ output: 'Read-only file system', exitCode: 0 }, p)).toBe('');
    // A refused write the command line went on past (played as the model: `printf … > /tmp/x.txt && …; echo exit $?`
    // ended 0, and the refusal came back with no word that the sandbox made it): the program's own report is said.
    expect(sandboxNote({ output: 'bash: line 1: /tmp/x.txt: Read-only file system\nexit 1\n', exitCode: 0 }, { ...p, tmpDir: '/tmp/erasmus-session-x' })).toBe(
      `[sandbox] a write outside the writable places was refused (read-only file system (sandbox)): only the project ${project} (not .git/hooks, .git/config) and $TMPDIR (/tmp/erasmus-session-x) are writable`,
    );
    expect(sandboxNote({ output: "touch: cannot touch '/opt/x': Read-only file system", exitCode: 0 }, p)).toMatch(/^\[sandbox\] a write outside the writable places was refused/);
    expect(sandboxNote({ output: 'PASS handles a Read-only file system error\n', exitCode: 0 }, p)).toBe('');
    expect(sandboxNote({ output: 'assertion failed: 1 !== 2', exitCode: 1 }, p)).toBe('');
    // git renaming its config onto the read-only bind gets EBUSY: the note says it was the sandbox, and why.
    expect(sandboxNote({ output: 'error: could not write config file .git/config: Device or resource busy', exitCode: 255 }, p)).toMatch(/^\[sandbox\] \.git, \.git\/hooks and \.git\/config cannot be moved, replaced or written \(sandbox\)/);
    const network = { kind: 'socket' as const, dir: '/x', socket: '/x/proxy.sock', node: 'node', allowed: [] };
    expect(sandboxNote({ output: 'connect ECONNREFUSED 127.0.0.1:80', exitCode: 0 }, { ...p, network })).toBe('');
    expect(sandboxNote({ output: 'connect ECONNREFUSED 127.0.0.1:80', exitCode: 1 }, { ...p, network })).toMatch(/^\[sandbox\] this command's network goes only through Erasmus's proxy/);
    // A host the proxy refused is named even when the command ended well (curl without -f).
    expect(sandboxNote({ output: '', exitCode: 0 }, { ...p, network }, ['registry.npmjs.org:443'])).toBe(
      `[sandbox] the network reaches only this project's allowed hosts (sandbox): registry.npmjs.org:443 refused (allowed: none). ${howToAllow('registry.npmjs.org:443')} Ask the user, or do without it`,
    );
    expect(howToAllow('registry.npmjs.org:443')).toContain('"allowedHosts": ["registry.npmjs.org"]');
  });
});
