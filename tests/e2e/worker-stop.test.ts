// `erasmus worker` stops on Ctrl-C even when its database is gone: DBOS's shutdown waits on connections that
// never answer, and the worker hung until killed.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { postgresBin, startPostgres, type TestPostgres } from '../support/postgres';
import { CLI, ensureBuilt, killGroup } from './workflow-helpers';

describe.skipIf(!postgresBin())('erasmus worker', () => {
  let pg: TestPostgres | undefined;
  let worker: ChildProcess | undefined;
  let root: string | undefined;
  afterEach(async () => {
    if (worker) killGroup(worker);
    await pg?.stop().catch(() => undefined);
    if (root) await rm(root, { recursive: true, force: true });
  });

  it('stops on SIGINT within its bound when its database went away, saying why it waited', async () => {
    ensureBuilt();
    root = await mkdtemp(join(tmpdir(), 'erasmus-worker-stop-'));
    pg = await startPostgres();
    const w = spawn(process.execPath, [CLI, 'worker', '--database-url', pg.url, '--work-dir', join(root, 'work')], { env: { ...process.env, ERASMUS_HOME: join(root, 'home') }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    worker = w;
    let out = '';
    w.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    w.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise<number | null>((r) => w.once('exit', (code) => r(code)));
    for (let i = 0; i < 600 && !/takes components from queue/.test(out); i++) await new Promise((r) => setTimeout(r, 50));
    expect(out).toMatch(/takes components from queue/);
    await pg.stop();
    pg = undefined;
    const asked = Date.now();
    w.kill('SIGINT');
    const code = await exited;
    worker = undefined;
    expect(code).toBe(0);
    expect(Date.now() - asked).toBeLessThan(20_000); // the bound is 10 s; it hung for good before
    expect(out).toContain('stopping worker');
  }, 60_000);
});
