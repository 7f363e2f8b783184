import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { sweptLeftovers } from '../common/owned-tmp';
import { processStart } from '../common/process-alive';
import { PtyManager } from './pty/index';
import { CommandRunner } from './runner';

/**
 * Temporary folders of a process killed with SIGKILL are removed by the next process. The sessions' folders ($TMPDIR of every command the runner runs) of a process killed with SIGKILL are
 * removed by the next process's runner when it first makes one; a live process's are never touched.
 */
const root = resolve(__dirname, '../../..');
const children: ChildProcess[] = [];
let base: string | undefined;
afterEach(() => {
  for (const c of children.splice(0)) {
    try {
      process.kill(-c.pid!, 'SIGKILL');
    } catch {}
  }
  if (base) rmSync(base, { recursive: true, force: true });
  base = undefined;
});

/**
 * A process whose runner makes its session folder (as for its first command: a PTY's command would add a second of the
 * pty host's start to each), writes in it, says where, and stays.
 */
function owner(under: string): Promise<{ child: ChildProcess; tmp: string }> {
  const script = `
    import { writeFileSync } from 'node:fs';
    import { PtyManager } from ${JSON.stringify(join(root, 'electron/main/runners/pty/index.ts'))};
    import { CommandRunner } from ${JSON.stringify(join(root, 'electron/main/runners/runner.ts'))};
    const runner = new CommandRunner(new PtyManager({ outputsDir: ${JSON.stringify(join(under, 'outputs'))}, login: false }), { tmpBase: ${JSON.stringify(under)} });
    const dir = runner.tmpDir('s');
    writeFileSync(dir + '/file', 'mine\\n');
    process.stdout.write(dir + '\\n');
    setInterval(() => {}, 1000);
  `;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: root, detached: true, stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  return new Promise((res, rej) => {
    let out = '';
    child.stdout!.on('data', (b: Buffer) => {
      out += b.toString();
      if (out.includes('\n')) res({ child, tmp: out.trim() });
    });
    child.on('exit', (code) => rej(new Error(`the owner process ended (${code}) before saying its folder`)));
  });
}

it("a killed process's session folder is removed by the next runner's first; a live process's stays, and one made in another pid namespace; a reused pid's owner is gone", async () => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'erasmus-leftovers-')));
  mkdirSync(join(base, 'outputs'));
  const [killed, live] = await Promise.all([owner(base), owner(base)]);
  // Each wrote in its own folder, named by its process.
  for (const o of [killed, live]) {
    expect(readFileSync(join(o.tmp, 'file'), 'utf8')).toBe('mine\n');
    expect(o.tmp).toMatch(new RegExp(`/erasmus-session-p${o.child.pid}-\\d+-n\\d+-\\w{6}$`));
  }
  const exited = new Promise((r) => killed.child.once('exit', r));
  process.kill(killed.child.pid!, 'SIGKILL');
  await exited;
  expect(existsSync(killed.tmp)).toBe(true); // nothing removed it: SIGKILL
  // The live process's pid given to a folder with another start: that folder's owner is gone (its pid was reused).
  const reused = join(base, `erasmus-session-p${live.child.pid}-1-abcdef`);
  mkdirSync(reused);
  expect(processStart(live.child.pid!)).not.toBe('1');
  // Another name is not Erasmus's to judge.
  mkdirSync(join(base, 'erasmus-session-Ab12Cd'));
  // Nor a folder made in another pid namespace (a container sharing /tmp): its pid, dead here, may live there.
  const ns = /\d+/.exec(readlinkSync('/proc/self/ns/pid'))![0];
  const elsewhere = join(base, `erasmus-session-p${killed.child.pid}-1-n${Number(ns) + 1}-abcdef`);
  mkdirSync(elsewhere);
  // One made before folders named their namespace is judged by its pid and start alone.
  const older = join(base, `erasmus-session-p${killed.child.pid}-1-abcdef`);
  mkdirSync(older);

  const ptys = new PtyManager({ outputsDir: join(base, 'outputs'), login: false });
  const runner = new CommandRunner(ptys, { tmpBase: base });
  try {
    const mine = runner.tmpDir('s');
    expect((await sweptLeftovers(base)).sort()).toEqual([killed.tmp, reused, older].sort());
    expect(existsSync(killed.tmp)).toBe(false);
    expect(readFileSync(join(live.tmp, 'file'), 'utf8')).toBe('mine\n');
    expect(readdirSync(base).sort()).toEqual(['erasmus-session-Ab12Cd', elsewhere.split('/').pop(), live.tmp.split('/').pop(), mine.split('/').pop(), 'outputs'].sort());
  } finally {
    await ptys.dispose();
    runner.dispose();
  }
}, 60_000);

it("git's temporary indexes live in a folder named by their process: gone when it exits, swept by the next process when it was killed", async () => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'erasmus-leftovers-')));
  const repo = join(base, 'repo');
  mkdirSync(repo);
  spawnSync('git', ['init', '-q'], { cwd: repo });
  writeFileSync(join(repo, 'a.txt'), 'a\n');
  /** A process (TMPDIR: base) that snapshots the repository's working tree, says its tree, then ends or stays. */
  const snapshotter = (stay: boolean) => {
    const script = `
      import { snapshotTree } from ${JSON.stringify(join(root, 'electron/main/workflow/git.ts'))};
      process.stdout.write((await snapshotTree(${JSON.stringify(repo)})) + '\\n');
      ${stay ? 'setInterval(() => {}, 1000);' : ''}
    `;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: root, detached: true, stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, TMPDIR: base } });
    children.push(child);
    return new Promise<{ child: ChildProcess; tree: string }>((res, rej) => {
      let out = '';
      child.stdout!.on('data', (b: Buffer) => {
        out += b.toString();
        if (out.includes('\n')) res({ child, tree: out.trim() });
      });
      child.on('exit', (code) => out.includes('\n') || rej(new Error(`the snapshot process ended (${code}) before saying its tree`)));
    });
  };
  const others = () => readdirSync(base!).filter((n) => n.startsWith('erasmus-')); // (tsx keeps a folder there too)
  const done = await snapshotter(false);
  expect(done.tree).toMatch(/^[0-9a-f]{40}$/);
  await new Promise((r) => (done.child.exitCode === null ? done.child.once('exit', r) : r(undefined)));
  expect(others()).toEqual([]); // nothing left by a process that exited
  const killed = await snapshotter(true);
  expect(others()).toEqual([expect.stringMatching(new RegExp(`^erasmus-git-p${killed.child.pid}-`))]);
  const exited = new Promise((r) => killed.child.once('exit', r));
  process.kill(killed.child.pid!, 'SIGKILL');
  await exited;
  const next = await snapshotter(false);
  await new Promise((r) => (next.child.exitCode === null ? next.child.once('exit', r) : r(undefined)));
  expect(others()).toEqual([]); // the killed process's folder went with the next one's first snapshot
}, 60_000);
