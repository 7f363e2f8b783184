// A test hook for crash recovery: the process kills itself (SIGKILL, as a crash or `kill -9` would) at a named
// moment between two writes that must both happen (a commit and the run file that records it, a merge and its
// working tree). ERASMUS_TEST_CRASH_AT lists the points, comma-separated; each kills one process only: the
// point is written to the folder ERASMUS_TEST_CRASH_DIR before the kill, and a point found there is passed.
// `leave`, when given, first leaves what a process killed at that point leaves (one that is not ours: git).
// Unset (always, outside tests): nothing happens.
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export function crashPoint(point: string, leave?: () => void): void {
  const at = process.env.ERASMUS_TEST_CRASH_AT;
  const dir = process.env.ERASMUS_TEST_CRASH_DIR;
  if (!at || !dir || !at.split(',').includes(point)) return;
  const mark = join(dir, point.replaceAll('/', '_'));
  if (existsSync(mark)) return;
  writeFileSync(mark, `${process.pid}\n`);
  leave?.();
  process.kill(process.pid, 'SIGKILL');
}
