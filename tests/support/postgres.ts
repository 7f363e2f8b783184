// A real, throwaway Postgres for tests: Debian's postgresql binaries (found by glob under
// /usr/lib/postgresql/*/bin), initdb into a temporary folder, a loopback port, the unix socket in that
// folder. initdb refuses to run as root, so as root the server runs as `nobody` (CI runs as root).
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TestPostgres {
  /** postgres://… of the server's `postgres` database (trust auth, loopback only). */
  url: string;
  /** The server's process id (the postmaster; its backends are its children). */
  pid: number;
  stop(): Promise<void>;
}

/** The newest installed server's bin folder, or undefined (apt-get install postgresql). */
export function postgresBin(): string | undefined {
  const base = '/usr/lib/postgresql';
  if (!existsSync(base)) return undefined;
  const versions = readdirSync(base)
    .filter((v) => existsSync(join(base, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? join(base, versions[0], 'bin') : undefined;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

export async function startPostgres(): Promise<TestPostgres> {
  const bin = postgresBin();
  if (!bin) throw new Error('no PostgreSQL server under /usr/lib/postgresql/*/bin: apt-get install postgresql');
  const root = mkdtempSync(join(tmpdir(), 'erasmus-pg-'));
  const data = join(root, 'data');
  const asRoot = process.getuid?.() === 0;
  // The server's user must own its folder; the folder is only reachable through root's tmp, which is world-traversable.
  if (asRoot) {
    chmodSync(root, 0o777);
  }
  const user = asRoot ? { uid: 65534, gid: 65534 } : {}; // nobody
  execFileSync(join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8'], { stdio: 'pipe', cwd: root, ...user });
  const port = await freePort();
  const args = ['-D', data, '-p', String(port), '-h', '127.0.0.1', '-k', root, '-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off', '-c', 'max_connections=200'];
  const child: ChildProcess = spawn(join(bin, 'postgres'), args, { stdio: ['ignore', 'ignore', 'pipe'], cwd: root, ...user });
  let log = '';
  child.stderr?.on('data', (d: Buffer) => (log += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + 30_000;
  while (!/ready to accept connections/.test(log)) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      rmSync(root, { recursive: true, force: true });
      throw new Error(`postgres did not start:\n${log}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    pid: child.pid!,
    async stop() {
      // SIGINT: the "fast" shutdown (connections are dropped, no waiting for clients).
      if (child.exitCode === null) child.kill('SIGINT');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
      rmSync(root, { recursive: true, force: true });
    },
  };
}
