import type { Command } from 'commander';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { cliCore } from '../context';
import { rendererDir } from '../../main/paths/index';
import { installLastResort, serve } from '../../main/serve/server';
import { attachBuiltinServers } from '../../servers/builtin';

export function registerServe(program: Command): void {
  program
    .command('serve')
    .description('browser mode: serve the core over a WebSocket and the app on 127.0.0.1, with a random token')
    .option('--port <n>', 'port to listen on (default: a free one)', (v) => parsePort(v))
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
      // ERASMUS_SERVE_TOKEN keeps the address across restarts (with --port): open pages reconnect on their own.
      const token = process.env.ERASMUS_SERVE_TOKEN;
      if (token !== undefined && !/^[A-Za-z0-9_-]{24,}$/.test(token)) throw new Error('ERASMUS_SERVE_TOKEN must be at least 24 characters of A-Z a-z 0-9 _ -');
      const server = await serve(core, { ...(opts.port !== undefined ? { port: opts.port } : {}), ...(token ? { token } : {}), rendererDir: dir });
      if (opts.json) process.stdout.write(JSON.stringify({ url: server.url, wsUrl: server.wsUrl, port: server.port }) + '\n');
      else process.stdout.write(`Erasmus is serving on ${server.url}\n`);
      const stop = () => {
        void core.dispose().finally(() => process.exit(0));
      };
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
}

function parsePort(v: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new Error(`--port must be an integer 0-65535, got ${JSON.stringify(v)}`);
  return n;
}
