import { accessSync, constants, rmSync } from 'node:fs';
import { ownedTmpDir } from '../../common/owned-tmp';
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect, isIP, type Socket } from 'node:net';
import { delimiter, join } from 'node:path';

/**
 * The network a sandboxed command gets when the user accepted one that needs it: not the machine's,
 * but a filtering HTTP(S) proxy of the core that reaches only the project's allowed hosts. The
 * sandbox keeps its own network namespace (nothing outside is reachable, 127.0.0.1 included); the
 * proxy listens on a unix socket bind-mounted into it, and a small bridge inside (node, started by
 * the sandbox before the command) forwards a loopback port of the sandbox to that socket. The
 * command finds the proxy through HTTP_PROXY / HTTPS_PROXY / npm_config_proxy / PIP_PROXY.
 */

/** The loopback port the bridge listens on inside the sandbox (its network namespace is private). */
export const BRIDGE_PORT = 3128;

/**
 * An allowed host: `registry.npmjs.org` (ports 80 and 443), `*.example.com` (its subdomains, 80 and
 * 443), or with a port (`127.0.0.1:8080`, `[::1]:8080`): that port only.
 */
export const HOST_RULE = /^(?:\*\.)?(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?::\d{1,5})?$|^\[[0-9a-f:.]+\](?::\d{1,5})?$/i;

function splitRule(rule: string): { host: string; port?: number } {
  const m = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(rule.trim().toLowerCase());
  if (!m) return { host: rule.toLowerCase() };
  return { host: m[1]!.replace(/^\[|\]$/g, ''), ...(m[2] ? { port: Number(m[2]) } : {}) };
}

/** Whether `host:port` is allowed by the rules (host names compared without case; a trailing dot ignored). */
export function hostAllowed(rules: readonly string[], host: string, port: number): boolean {
  const h = host.toLowerCase().replace(/^\[|\]$/g, '').replace(/\.$/, '');
  return rules.some((rule) => {
    const r = splitRule(rule);
    if (r.port !== undefined ? r.port !== port : port !== 80 && port !== 443) return false;
    if (r.host.startsWith('*.')) return isIP(h) === 0 && h.endsWith(r.host.slice(1));
    return r.host === h;
  });
}

/**
 * How the user allows a host, in words for the model and for people: true whichever face they use (the runners do not
 * know it), so each is named: the app's approval card and Settings, the terminal's `h` answer, the settings file.
 */
export function howToAllow(target: string): string {
  const host = target.replace(/:(80|443)$/, '');
  return `Only the user can allow it: ${allowHostWays(`"Allow ${host}"`)}, or with "runners": {"network": {"allowedHosts": ["${host}"]}} in the project's .erasmus/settings.json.`;
}

/** The ways to allow a host when approving a command that names it, in the app and on a terminal, and in the app's Settings. */
function allowHostWays(allowWords: string): string {
  return `when approving a command that names it (${allowWords} on the app's approval card; on a terminal, the answer h or h1, h2…), in the app's Settings → Allowed hosts`;
}

/** What the proxy answers when a host is not allowed. */
export function refusalText(target: string, allowed: readonly string[]): string {
  return `Erasmus sandbox: ${target} is not an allowed host of this project (allowed: ${allowed.length ? allowed.join(', ') : 'none'}). ${howToAllow(target)}`;
}

/** The node binary for the bridge: this process's when it is node, else the first `node` on PATH. */
export function bridgeNode(path: string | undefined): string | undefined {
  if (!process.versions.electron) return process.execPath;
  for (const dir of (path ?? '').split(delimiter)) {
    if (!dir) continue;
    try {
      accessSync(join(dir, 'node'), constants.X_OK);
      return join(dir, 'node');
    } catch {
      // not here
    }
  }
  return undefined;
}

export interface ProxyHandle {
  /** The unix socket the sandbox binds in. */
  socket: string;
  /** The folder holding the socket (bind-mounted into the sandbox). */
  dir: string;
  /** The port on 127.0.0.1 it listens on instead (macOS: the one address Seatbelt lets the command reach). */
  port?: number;
  /** `host:port` targets refused so far, in order, once each. */
  refused: string[];
  /** `host:port` targets reached. */
  reached: string[];
  close(): Promise<void>;
}

function target(host: string, port: number): string {
  return `${isIP(host) === 6 ? `[${host}]` : host}:${port}`;
}

/**
 * Starts a filtering proxy on a fresh unix socket under `base` (or, `tcp`, on a free port of
 * 127.0.0.1): CONNECT tunnels (https and anything
 * else) and plain http requests in absolute form, each to an allowed host only; the rest is answered
 * 403 with `refusalText`. One proxy per command, so what it refused belongs to that command.
 */
export async function startProxy(base: string, allowed: readonly string[], listen: 'socket' | 'tcp' = 'socket'): Promise<ProxyHandle> {
  const dir = ownedTmpDir(base, 'net'); // named by this process: removed by a later one if this one is killed
  const socket = join(dir, 'proxy.sock');
  const sockets = new Set<Socket>();
  const refused: string[] = [];
  const reached: string[] = [];
  const note = (list: string[], t: string) => {
    if (!list.includes(t)) list.push(t);
  };

  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let url: URL;
    try {
      url = new URL(req.url ?? '');
    } catch {
      res.writeHead(400, { 'content-type': 'text/plain' }).end('Erasmus sandbox proxy: a request must name its http:// URL (use it as HTTP_PROXY)\n');
      return;
    }
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
    if (url.protocol !== 'http:') {
      res.writeHead(400, { 'content-type': 'text/plain' }).end(`Erasmus sandbox proxy: only http:// is forwarded as a request; https goes through CONNECT\n`);
      return;
    }
    const t = target(host, port);
    if (!hostAllowed(allowed, host, port)) {
      note(refused, t);
      res.writeHead(403, { 'content-type': 'text/plain' }).end(`${refusalText(t, allowed)}\n`);
      return;
    }
    note(reached, t);
    const headers = { ...req.headers };
    for (const h of Object.keys(headers)) if (h.startsWith('proxy-')) delete headers[h];
    const up = request({ host, port, method: req.method, path: `${url.pathname}${url.search}`, headers }, (r) => {
      res.writeHead(r.statusCode ?? 502, r.headers);
      r.pipe(res);
    });
    up.on('error', (err) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`Erasmus sandbox proxy: ${t} could not be reached (${err.message})\n`);
    });
    req.pipe(up);
  });
  server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => client.destroy());
    const m = /^(\[[^\]]+\]|[^:]+):(\d{1,5})$/.exec(req.url ?? '');
    if (!m) {
      client.end('HTTP/1.1 400 Bad Request\r\ncontent-type: text/plain\r\n\r\nErasmus sandbox proxy: CONNECT needs host:port\n');
      return;
    }
    const host = m[1]!.replace(/^\[|\]$/g, '');
    const port = Number(m[2]);
    const t = target(host, port);
    if (!hostAllowed(allowed, host, port)) {
      note(refused, t);
      const body = `${refusalText(t, allowed)}\n`;
      client.end(`HTTP/1.1 403 Forbidden\r\ncontent-type: text/plain\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
      return;
    }
    note(reached, t);
    const up = connect(port, host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) up.write(head);
      up.pipe(client);
      client.pipe(up);
    });
    sockets.add(up);
    up.on('close', () => sockets.delete(up));
    up.on('error', (err) => {
      if (client.writable && !client.destroyed) client.end(`HTTP/1.1 502 Bad Gateway\r\ncontent-type: text/plain\r\n\r\nErasmus sandbox proxy: ${t} could not be reached (${err.message})\n`);
    });
    client.on('close', () => up.destroy());
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    if (listen === 'tcp') server.listen(0, '127.0.0.1', () => resolve());
    else server.listen(socket, () => resolve());
  });
  const address = server.address();
  return {
    socket,
    dir,
    ...(listen === 'tcp' && address && typeof address === 'object' ? { port: address.port } : {}),
    refused,
    reached,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => {
          rmSync(dir, { recursive: true, force: true });
          resolve();
        });
      }),
  };
}

/**
 * The bridge inside the sandbox: listens on 127.0.0.1:port, forwards each connection to the proxy's
 * socket, runs the command (the rest of argv) and ends with its status.
 */
const BRIDGE = [
  "const net=require('net'),{spawn}=require('child_process');",
  'const [sock,port,file,...args]=process.argv.slice(1);',
  'const srv=net.createServer((c)=>{const u=net.connect(sock);c.pipe(u);u.pipe(c);c.on("error",()=>u.destroy());u.on("error",()=>c.destroy());});',
  'srv.on("error",(e)=>{console.error("Erasmus sandbox: the network bridge could not start ("+e.message+")");process.exit(125);});',
  'srv.listen(Number(port),"127.0.0.1",()=>{const ch=spawn(file,args,{stdio:"inherit"});',
  'ch.on("error",(e)=>{console.error(e.message);process.exit(127);});',
  'ch.on("exit",(code,sig)=>{srv.close();if(sig){process.kill(process.pid,sig);setTimeout(()=>process.exit(128),100);}else process.exit(code===null?1:code);});});',
].join('');

/** The argv that starts the bridge inside the sandbox before the command (appended after bwrap's `--`). */
export function bridgeArgv(node: string, socket: string, port: number = BRIDGE_PORT): string[] {
  return [node, '-e', BRIDGE, socket, String(port)];
}

/** The environment that sends a command's HTTP(S) through the bridge. */
export function proxyEnv(port: number = BRIDGE_PORT): Record<string, string> {
  const url = `http://127.0.0.1:${port}`;
  return {
    HTTP_PROXY: url,
    HTTPS_PROXY: url,
    http_proxy: url,
    https_proxy: url,
    ALL_PROXY: url,
    all_proxy: url,
    NO_PROXY: '',
    no_proxy: '',
    npm_config_proxy: url,
    npm_config_https_proxy: url,
    npm_config_noproxy: '',
    PIP_PROXY: url,
    NODE_USE_ENV_PROXY: '1',
  };
}
