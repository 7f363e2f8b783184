import { readFileSync } from 'node:fs';

/** A process's fields in /proc/<pid>/stat after its name (Linux), from its state (field 3) on; undefined elsewhere or when gone. */
function statFields(pid: number): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/**
 * When a process started, in clock ticks since boot (Linux: /proc/<pid>/stat, field 22), so a pid the
 * system gave to another process after the first one died is not taken for it. Undefined elsewhere.
 */
export function processStart(pid: number): string | undefined {
  return statFields(pid)?.[19] || undefined;
}

/**
 * The process `pid` (started at `start`, when known) is alive: it exists, is not a zombie (dead, not yet reaped by its
 * parent), and is that process, not one given its pid since.
 */
export function processAlive(pid: number, start?: string): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const fields = statFields(pid);
  if (fields?.[0] === 'Z') return false;
  if (!start) return true;
  const now = fields?.[19];
  return !now || now === start;
}
