import { readdirSync, readFileSync } from 'node:fs';

/**
 * Processes of a PTY's session. A PTY's first process is a session leader (node-pty calls
 * setsid), so everything it starts, in its process group or in job-control groups of their own,
 * shares its session id. On Linux we read /proc; elsewhere the process group stands in.
 */
export function sessionMembers(sid: number): number[] {
  if (process.platform !== 'linux') return [];
  const pids: number[] = [];
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  for (const name of entries) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // Fields after the command name (which may contain spaces and parentheses): state ppid pgrp session …
      const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (rest[0] === 'Z') continue;
      // The leader itself, just forked by this process and not yet in a session of its own (node-pty's child calls
      // setsid after the fork): alive, and ours to signal. Another process given its pid later is not our child.
      if (Number(rest[3]) === sid || (Number(name) === sid && Number(rest[1]) === process.pid)) pids.push(Number(name));
    } catch {
      // The process ended while we looked.
    }
  }
  return pids;
}

/** True while any process of the session (or, off Linux, of its process group) is alive. */
export function sessionAlive(sid: number): boolean {
  return process.platform === 'linux' ? sessionMembers(sid).length > 0 : groupAlive(sid);
}

function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Sends `signal` to the session's process group and to every other member of the session. */
export function signalSession(sid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-sid, signal);
  } catch {
    // No such group any more.
  }
  for (const pid of sessionMembers(sid)) {
    try {
      process.kill(pid, signal);
    } catch {
      // Already gone.
    }
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Stops a whole session: SIGHUP + SIGTERM (interactive shells ignore SIGTERM), then SIGKILL to
 * whatever is left after `graceMs`. Resolves when nothing of the session remains (or after a
 * last SIGKILL round).
 */
export async function killSession(sid: number, graceMs: number): Promise<void> {
  signalSession(sid, 'SIGHUP');
  signalSession(sid, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline) {
    if (!sessionAlive(sid)) return;
    await sleep(25);
  }
  for (let round = 0; round < 20; round++) {
    signalSession(sid, 'SIGKILL');
    if (!sessionAlive(sid)) return;
    await sleep(25);
  }
}
