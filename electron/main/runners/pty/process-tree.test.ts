import { spawn, spawnSync } from 'node:child_process';
import { afterEach, expect, it } from 'vitest';
import { sessionAlive, sessionMembers } from './process-tree';

const pids: number[] = [];
afterEach(() => {
  for (const pid of pids.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {}
  }
});

it.runIf(process.platform === 'linux')("a leader just forked, before it calls setsid, is alive and its session's: only this process's child counts so", async () => {
  // A child of this process still in this process's session stands for the moment between node-pty's fork and setsid:
  // sessionAlive said false, and a stop right after a spawn would have signalled nothing.
  const child = spawn('sleep', ['30'], { stdio: 'ignore' });
  pids.push(child.pid!);
  await new Promise((r) => child.once('spawn', r));
  expect(sessionMembers(child.pid!)).toEqual([child.pid]);
  expect(sessionAlive(child.pid!)).toBe(true);
  // A process that is not this process's child, in another session, is not taken for a leader by its pid.
  const orphan = Number(spawnSync('sh', ['-c', 'sleep 30 >/dev/null 2>&1 & echo $!'], { encoding: 'utf8' }).stdout.trim());
  pids.push(orphan);
  expect(sessionMembers(orphan)).toEqual([]);
  expect(sessionAlive(orphan)).toBe(false);
});
