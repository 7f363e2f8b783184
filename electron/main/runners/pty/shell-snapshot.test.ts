import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Redactor } from '../../secrets/redactor';
import { CommandRunner } from '../runner';
import { PtyManager } from './manager';
import { resetSandboxProbe, sandboxStatus } from './sandbox';

/**
 * The shell snapshot on real PTYs and a real bash: a home whose login profile counts its own runs
 * (in `$COUNT`), puts a folder on PATH, defines a function and an alias and exports a variable.
 */
let dir: string;
let home: string;
let cache: string;
let project: string;
const managers: PtyManager[] = [];

const PROFILE = `echo run >> "$COUNT"
export PATH="$HOME/bin:$PATH"
greet() { echo "hello from $1"; }
alias hi='echo alias works'
export FROM_PROFILE=yes
`;

function manager(extra: { redactor?: Redactor; timeoutMs?: number; env?: Record<string, string> } = {}): PtyManager {
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, XDG_CACHE_HOME: cache, COUNT: join(dir, 'runs'), ...extra.env };
  // The user's own switches do not apply here.
  delete env.BASH_ENV;
  delete env.ERASMUS_SHELL_SNAPSHOT;
  const m = new PtyManager({ outputsDir: join(dir, 'outputs'), env, killGraceMs: 500, ...(extra.redactor ? { redactor: extra.redactor } : {}), ...(extra.timeoutMs ? { shellSnapshot: { timeoutMs: extra.timeoutMs } } : {}) });
  managers.push(m);
  return m;
}

const runs = () => (existsSync(join(dir, 'runs')) ? readFileSync(join(dir, 'runs'), 'utf8').split('\n').filter(Boolean).length : 0);
const snapshotFiles = () => (existsSync(join(cache, 'erasmus', 'shell-snapshots')) ? readdirSync(join(cache, 'erasmus', 'shell-snapshots')) : []);

beforeEach(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'erasmus-snapshot-')));
  home = join(dir, 'home');
  cache = join(dir, 'cache');
  project = join(dir, 'project');
  for (const d of [home, join(home, 'bin'), project]) mkdirSync(d, { recursive: true });
  writeFileSync(join(home, 'bin', 'mytool'), '#!/bin/sh\necho mytool from profile PATH\n');
  chmodSync(join(home, 'bin', 'mytool'), 0o755);
  writeFileSync(join(home, '.bash_profile'), PROFILE);
});

afterEach(async () => {
  await Promise.all(managers.splice(0).map((m) => m.dispose()));
  rmSync(dir, { recursive: true, force: true });
});

describe('shell snapshot', () => {
  it('reads the login profile once for many commands: its PATH, function, alias and variables apply, per-command variables stay each its own', async () => {
    const m = manager();
    for (const n of [1, 2, 3]) {
      const r = await m.run({ command: 'mytool; greet erasmus; hi; echo "profile=$FROM_PROFILE tmp=$TMPDIR"', cwd: project, env: { TMPDIR: `/tmp/session-${n}` } });
      expect(r.exitCode).toBe(0);
      expect(r.output.trimEnd().split('\n')).toEqual(['mytool from profile PATH', 'hello from erasmus', 'alias works', `profile=yes tmp=/tmp/session-${n}`]);
    }
    expect(runs()).toBe(1);
    expect(m.snapshots?.taken).toBe(1);
    // Private: a 0600 file in a 0700 folder.
    const folder = join(cache, 'erasmus', 'shell-snapshots');
    const [file] = snapshotFiles();
    expect(statSync(folder).mode & 0o777).toBe(0o700);
    expect(statSync(join(folder, file!)).mode & 0o777).toBe(0o600);
    // A command's own exit code, syntax errors and positional parameters are the command's, as under bash -lc.
    const r = await m.run({ command: 'echo "[$0|$#]"; exit 7', cwd: project });
    expect(r.exitCode).toBe(7);
    expect(r.output.trimEnd()).toMatch(/^\[.*bash\|0\]$/);
    // Child bash scripts do not source the snapshot (BASH_ENV is gone from their environment).
    const child = await m.run({ command: 'bash -c \'echo "child=${BASH_ENV:-none}"; type greet >/dev/null 2>&1 && echo has-greet || echo no-greet\'', cwd: project });
    expect(child.output.trimEnd()).toBe('child=none\nno-greet');
    expect(runs()).toBe(1);
  });

  it('is shared by other managers and processes of the user, and a changed profile is read again', async () => {
    await manager().run({ command: 'true', cwd: project });
    // Another process whose environment differs only in what the profile does not read (a test's own variables).
    const other = manager({ env: { SOME_TEST_PORT: '4711', ERASMUS_HOME: join(dir, 'another-home') } });
    const r = await other.run({ command: 'echo $FROM_PROFILE $SOME_TEST_PORT', cwd: project });
    expect(r.output.trimEnd()).toBe('yes 4711');
    expect(other.snapshots?.taken).toBe(0);
    expect(runs()).toBe(1);
    // A variable the profile reads ($COUNT) or builds on (PATH) makes a snapshot of its own.
    const counted = manager({ env: { COUNT: join(dir, 'runs2') } });
    await counted.run({ command: 'true', cwd: project });
    expect(counted.snapshots?.taken).toBe(1);
    expect(readFileSync(join(dir, 'runs2'), 'utf8')).toBe('run\n');
    const path = manager({ env: { PATH: `/usr/local/bin:${process.env.PATH}` } });
    await path.run({ command: 'true', cwd: project });
    expect(path.snapshots?.taken).toBe(1);
    expect(snapshotFiles()).toHaveLength(3);
    expect(runs()).toBe(2);
    writeFileSync(join(home, '.bash_profile'), `${PROFILE}export FROM_PROFILE=changed\n`);
    const again = await manager().run({ command: 'echo $FROM_PROFILE', cwd: project });
    expect(again.output.trimEnd()).toBe('changed');
    expect(runs()).toBe(3);
    expect(snapshotFiles()).toHaveLength(4);
    // A file over a day old is taken again (what the profile reads outside the key stays at most a day old).
    const folder = join(cache, 'erasmus', 'shell-snapshots');
    const old = (Date.now() - 25 * 3600_000) / 1000;
    for (const f of snapshotFiles()) utimesSync(join(folder, f), old, old);
    const later = manager();
    await later.run({ command: 'true', cwd: project });
    expect(later.snapshots?.taken).toBe(1);
    expect(runs()).toBe(4);
  });

  it('falls back to a login shell for each command when the profile cannot be read without a terminal, with its PATH intact', async () => {
    // The snapshot runs without a terminal (stdin empty): this profile stops there, and only there.
    writeFileSync(join(home, '.bash_profile'), `[ -t 0 ] || exit 3\n${PROFILE}`);
    const m = manager();
    for (let i = 0; i < 2; i++) {
      const r = await m.run({ command: 'mytool; greet x', cwd: project });
      expect(r.output.trimEnd()).toBe('mytool from profile PATH\nhello from x');
    }
    expect(runs()).toBe(2);
    expect(m.snapshots?.lastOutcome).toMatchObject({ reason: expect.stringContaining('ended before its environment was read (exit 3') });
    expect(snapshotFiles()).toEqual([]);
  });

  it('falls back when the profile takes longer than the time-out', async () => {
    writeFileSync(join(home, '.bash_profile'), `[ -t 0 ] || sleep 30\n${PROFILE}`);
    const m = manager({ timeoutMs: 300 });
    const r = await m.run({ command: 'mytool', cwd: project });
    expect(r.output.trimEnd()).toBe('mytool from profile PATH');
    expect(m.snapshots?.lastOutcome).toMatchObject({ reason: expect.stringContaining('longer than 300 ms') });
  });

  it("stopped at the time-out, the profile's processes end on SIGTERM first: a lock one holds (pyenv rehash's) is removed by its trap, not left for every later login shell to wait on", async () => {
    // As `pyenv rehash` does: take a lock file, remove it in an EXIT trap; here it outlasts the time-out.
    writeFileSync(join(home, 'bin', 'rehash'), `#!/bin/bash\nset -o noclobber\n: > "$HOME/.rehash-lock" || exit 1\ntrap 'rm -f "$HOME/.rehash-lock"' EXIT\nsleep 30\n`);
    chmodSync(join(home, 'bin', 'rehash'), 0o755);
    writeFileSync(join(home, '.bash_profile'), `[ -t 0 ] || "$HOME/bin/rehash"\n${PROFILE}`);
    const m = manager({ timeoutMs: 500 });
    const r = await m.run({ command: 'mytool', cwd: project });
    expect(r.output.trimEnd()).toBe('mytool from profile PATH');
    expect(m.snapshots?.lastOutcome).toMatchObject({ reason: expect.stringContaining('longer than 500 ms') });
    await expect.poll(() => existsSync(join(home, '.rehash-lock')), { timeout: 3_000 }).toBe(false);
  });

  it("never writes nor uses a snapshot holding one of Erasmus's secrets: commands then read the profile each time", async () => {
    const secret = 'sk-profile-secret-0123456789';
    writeFileSync(join(home, '.bash_profile'), `${PROFILE}export PROVIDER_KEY=${secret}\n`);
    const redactor = new Redactor();
    redactor.add('PROVIDER_KEY', secret);
    const m = manager({ redactor });
    const r = await m.run({ command: 'greet x; test "$PROVIDER_KEY" = ' + secret + ' && echo key-set', cwd: project });
    expect(r.output.trimEnd()).toBe('hello from x\nkey-set');
    expect(snapshotFiles()).toEqual([]);
    expect(m.snapshots?.lastOutcome).toMatchObject({ reason: expect.stringContaining('secret') });
    // A snapshot taken before the secret was known is not used once it is.
    const late = new Redactor();
    const first = manager({ redactor: late });
    await first.run({ command: 'true', cwd: project });
    expect(snapshotFiles()).toHaveLength(1);
    late.add('PROVIDER_KEY', secret);
    const before = runs();
    const again = await first.run({ command: 'echo ok', cwd: project });
    expect(again.output.trimEnd()).toBe('ok');
    expect(runs()).toBe(before + 1);
  });

  it('is taken inside the sandbox the commands run in', async () => {
    resetSandboxProbe();
    if (!sandboxStatus().available) return void console.warn('no sandbox here: skipped');
    // Only the project and TMPDIR of /tmp are mounted in the sandbox: this home is in the project,
    // which a read-only step mounts read-only; the session's TMPDIR is writable.
    const inside = join(project, 'home');
    mkdirSync(join(inside, 'bin'), { recursive: true });
    writeFileSync(join(inside, 'bin', 'mytool'), '#!/bin/sh\necho mytool from profile PATH\n', { mode: 0o755 });
    writeFileSync(join(inside, '.bash_profile'), `( : > "$HOME/written" ) 2>/dev/null && echo outside >> "$TMPDIR/where" || echo inside >> "$TMPDIR/where"\n${PROFILE.replace('"$COUNT"', '"$TMPDIR/runs"')}`);
    const m = manager({ env: { HOME: inside } });
    const runner = new CommandRunner(m, { home: inside, erasmusHome: join(dir, 'erasmus-home'), tmpBase: dir });
    try {
      for (let i = 0; i < 3; i++) {
        const r = await runner.run({ command: 'mytool; greet sandbox; hi', root: project, access: 'read' });
        expect(r.sandboxed).toBe(true);
        expect(r.output.trimEnd()).toBe('mytool from profile PATH\nhello from sandbox\nalias works');
      }
      const tmp = runner.tmpDir(project);
      expect(readFileSync(join(tmp, 'where'), 'utf8')).toBe('inside\n');
      expect(readFileSync(join(tmp, 'runs'), 'utf8')).toBe('run\n');
      expect(existsSync(join(inside, 'written'))).toBe(false);
    } finally {
      runner.dispose();
    }
  });
});
