import type { Command } from 'commander';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { cliCore } from '../context';
import { shutdownOnSignals } from '../interrupt';
import { rendererDir } from '../../main/paths/index';
import { readServeAddress, saveServeAddress, SERVE_TOKEN } from '../../main/serve/address';
import { installLastResort, serve } from '../../main/serve/server';
import { attachBuiltinServers } from '../../servers/builtin';

export function registerServe(program: Command): void {
  program
    .command('serve')
    .description('browser mode: serve the core over a WebSocket and the app on 127.0.0.1, with a random token (kept in ERASMUS_HOME/serve.json, so a restart serves the same address)')
    .option('--port <n>', 'port to listen on (default: the one served last from this ERASMUS_HOME when free, else a free one)', (v) => parsePort(v))
    .option('--json', 'print the address as one JSON line')
    .action(async (opts: { port?: number; json?: boolean }) => {
      installLastResort();
      const core = cliCore();
      const dir = rendererDir();
      if (!existsSync(join(dir, 'index.html'))) {
        process.stderr.write(`warning: no built renderer in ${dir}; run \`npm run build\` first. Serving the WebSocket only.\n`);
      }
      // The MCP servers of ERASMUS_HOME's config, and Erasmus's own runners and files following the open project.
      await core.hub.start().catch((err: Error) => process.stderr.write(`warning: the MCP hub did not start: ${err.message}\n`));
      await attachBuiltinServers(core).catch((err: Error) => process.stderr.write(`warning: the built-in servers did not attach: ${err.message}\n`));
      // The address stays across restarts of the same ERASMUS_HOME (its token, and its port while free): open pages
      // reconnect on their own. ERASMUS_SERVE_TOKEN and --port choose them instead.
      const envToken = process.env.ERASMUS_SERVE_TOKEN;
      if (envToken !== undefined && !SERVE_TOKEN.test(envToken)) throw new Error('ERASMUS_SERVE_TOKEN must be at least 24 characters of A-Z a-z 0-9 _ -');
      const saved = await readServeAddress(core.paths.serveAddress);
      const token = envToken ?? saved?.token;
      const server = await serve(core, {
        ...(opts.port !== undefined ? { port: opts.port } : saved ? { preferredPort: saved.port } : {}),
        ...(token ? { token } : {}),
        rendererDir: dir,
      });
      if (saved && opts.port === undefined && server.port !== saved.port) {
        process.stderr.write(`note: port ${saved.port}, served last time, is taken: pages open on it will not reconnect; open the address below instead.\n`);
      }
      await saveServeAddress(core.paths.serveAddress, { port: server.port, token: server.token }).catch((err: Error) =>
        process.stderr.write(`warning: the address was not saved (${err.message}): after a restart, open the address it prints then.\n`),
      );
      // Before the address is announced: whoever read it and then signals gets the clean stop, not Node's default.
      shutdownOnSignals({
        stopping: 'Stopping Erasmus: runs under way are saved to resume, terminals and MCP servers closed… (Ctrl-C again quits at once)',
        stop: () => core.dispose(),
        quitting: 'Quit without waiting: a run that was under way reads interrupted; `erasmus workflow resume DIR` (or the app) takes it up.',
        // Bounded, as the worker's: a stop that hangs (a server or a step's process that does not let go) cannot keep the
        // process alive for good on a SIGTERM, which a second one does not repeat.
        late: `Erasmus did not stop within ${STOP_WAIT_MS / 1000} s; leaving now: a run that was under way reads interrupted, and resume takes it up.`,
        boundMs: STOP_WAIT_MS,
        say: (line) => process.stderr.write(`${line}\n`),
        exit: (code) => process.exit(code),
      });
      if (opts.json) process.stdout.write(JSON.stringify({ url: server.url, wsUrl: server.wsUrl, port: server.port }) + '\n');
      else process.stdout.write(`Erasmus is serving on ${server.url}\n`);
    });
}

/** How long a stop may take before the process leaves anyway. */
const STOP_WAIT_MS = 10_000;

function parsePort(v: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new Error(`--port must be an integer 0-65535, got ${JSON.stringify(v)}`);
  return n;
}
