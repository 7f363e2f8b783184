import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/**
 * How to start a child in its own process group, so that stopping it ends the whole tree.
 *
 * - POSIX with perl (Linux distributions, macOS): `perl -e 'setpgrp(0,0); exec …'` — a new process
 *   group in our session. The pid stays the same (exec), so the pid is the group id.
 * - POSIX without perl: Node's `detached` (setsid: a new session and group). Linux then schedules
 *   the child in its own autogroup, which on a loaded machine makes every round trip slower
 *   (measured in bench/mcp.bench.ts), hence the perl route first.
 * - Windows: no groups; the tree is ended with `taskkill /T`.
 */
export interface SpawnPlan {
  command: string;
  args: string[];
  detached: boolean;
}

const SETPGRP = 'setpgrp(0, 0); exec { $ARGV[0] } @ARGV or die "cannot run $ARGV[0]: $!\\n";';
/** The line SETPGRP prints when the server's program cannot be run (not there, or not allowed to): its name and why. */
export const CANNOT_RUN = /^cannot run (.+): (No such file or directory|Permission denied)$/;

let perlPath: string | null | undefined;
function findPerl(): string | null {
  if (perlPath !== undefined) return perlPath;
  perlPath = null;
  for (const dir of (process.env.PATH ?? '').split(delimiter).filter(Boolean)) {
    try {
      accessSync(join(dir, 'perl'), constants.X_OK);
      return (perlPath = join(dir, 'perl'));
    } catch {}
  }
  return perlPath;
}

export function groupSpawnPlan(command: string, args: string[]): SpawnPlan {
  if (process.platform === 'win32') return { command, args, detached: false };
  const perl = findPerl();
  if (perl) return { command: perl, args: ['-e', SETPGRP, command, ...args], detached: false };
  return { command, args, detached: true };
}

/** Signals the child's whole group (or tree on Windows); a child that has not yet left our group gets it alone. */
export function killGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (!pid) return;
  if (process.platform === 'win32') {
    spawnSync('taskkill', ['/pid', String(pid), '/T', '/F'], { stdio: 'ignore', windowsHide: true });
    return;
  }
  try {
    process.kill(-pid, signal);
  } catch (err) {
    // ESRCH: no such group — already gone, or the child has not run setpgrp yet.
    if ((err as NodeJS.ErrnoException).code !== 'ESRCH') return;
    try {
      process.kill(pid, signal);
    } catch {}
  }
}
