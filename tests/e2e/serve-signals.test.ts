// `erasmus serve` on Ctrl-C, as a user in a terminal meets it: it says what it stops and ends cleanly (a second Ctrl-C
// during that stop: interrupt.test.ts).
import { describe, expect, it } from 'vitest';
import { startServe } from '../support/serve';
import { ensureBuilt } from './workflow-helpers';

/** After the process ended and its output was read whole. */
function exited(child: import('node:child_process').ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  return new Promise((r) => child.once('close', (code: number | null, signal: NodeJS.Signals | null) => r({ code, signal })));
}

describe('erasmus serve on Ctrl-C', () => {
  it('says it is stopping and ends with 0 on one Ctrl-C', async () => {
    ensureBuilt();
    const s = await startServe();
    const end = exited(s.child);
    s.child.kill('SIGINT');
    const ended = await end;
    expect(ended).toEqual({ code: 0, signal: null });
    expect(s.stderr()).toContain('Stopping Erasmus: runs under way are saved to resume');
  }, 60_000);

});
