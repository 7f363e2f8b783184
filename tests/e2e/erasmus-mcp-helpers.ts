// Helpers for the Erasmus MCP server e2e tests: the built CLI (`node bin/erasmus.js mcp-server
// erasmus`) as a child in its own process group, driven by the SDK client or by raw JSON-RPC.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, type ClientOptions } from '@modelcontextprotocol/sdk/client/index.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { GroupStdioTransport } from '../../electron/main/mcp/transport/stdio-group';

function killGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  try {
    if (pid) process.kill(-pid, signal);
  } catch {
    // ESRCH: already gone.
  }
}

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const CLI = join(ROOT, 'bin', 'erasmus.js');

export interface Home {
  dir: string;
  home: string;
  /** config.yaml with one OpenAI-compatible provider (the scripted model). */
  useModel(baseUrl: string): void;
  /** mcp/config.json with the real memory server (Erasmus's own toolset for erasmus_chat). */
  useMemoryServer(): string;
  cleanup(): void;
}

export function tempHome(): Home {
  const dir = mkdtempSync(join(tmpdir(), 'erasmus-mcp-e2e-'));
  const home = join(dir, 'home');
  mkdirSync(home, { recursive: true });
  return {
    dir,
    home,
    useModel(baseUrl) {
      writeFileSync(join(home, 'config.yaml'), `providers:\n  - id: scripted\n    kind: openai-compatible\n    model: scripted\n    baseUrl: ${baseUrl}\n    nativeTools: true\n`);
    },
    useMemoryServer() {
      const memoryFile = join(dir, 'memory.jsonl');
      mkdirSync(join(home, 'mcp'), { recursive: true });
      const entry = join(ROOT, 'node_modules', '@modelcontextprotocol', 'server-memory', 'dist', 'index.js');
      writeFileSync(join(home, 'mcp', 'config.json'), JSON.stringify({ mcpServers: { memory: { command: process.execPath, args: [entry], env: { MEMORY_FILE_PATH: memoryFile } } } }));
      return memoryFile;
    },
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

export interface Running {
  transport: GroupStdioTransport;
  stderr: () => string;
  /** Lines on stdout that were not JSON-RPC (must stay empty: stdout is protocol only). */
  invalidStdout: string[];
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  kill(): void;
}

export function spawnServer(env: Record<string, string>, args: string[] = []): Running {
  let err = '';
  const invalidStdout: string[] = [];
  let onExit: (v: { code: number | null; signal: NodeJS.Signals | null }) => void = () => undefined;
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) => (onExit = r));
  const transport = new GroupStdioTransport({
    command: process.execPath,
    args: [CLI, 'mcp-server', 'erasmus', ...args],
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    cwd: ROOT,
    onStderr: (c) => (err += c),
    onInvalidOutput: (line) => invalidStdout.push(line),
    onExit: (code, signal) => onExit({ code, signal }),
  });
  return { transport, stderr: () => err, invalidStdout, exit, kill: () => killGroup(transport.pid, 'SIGKILL') };
}

/** The SDK client over a spawned server. */
export async function connectClient(env: Record<string, string>, options: ClientOptions = {}, args: string[] = []): Promise<{ client: Client; server: Running }> {
  const server = spawnServer(env, args);
  const client = new Client({ name: 'erasmus-mcp-test', version: '1.0.0' }, options);
  try {
    await client.connect(server.transport);
  } catch (err) {
    server.kill();
    throw new Error(`${(err as Error).message}\nstderr:\n${server.stderr()}`);
  }
  return { client, server };
}

/** Raw JSON-RPC over a spawned server, for the old dialect (what the SDK client cannot send). */
/** A JSON-RPC reply as the tests read it. */
export interface RawReply {
  id: number;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
}

export async function rawSession(env: Record<string, string>): Promise<{ request: <T = RawReply>(method: string, params?: unknown) => Promise<T>; server: Running; close: () => Promise<void> }> {
  const server = spawnServer(env);
  const waiting = new Map<number, (m: JSONRPCMessage) => void>();
  server.transport.onmessage = (m) => {
    if ('id' in m && typeof m.id === 'number' && !('method' in m)) waiting.get(m.id)?.(m);
  };
  await server.transport.start();
  let id = 0;
  const request = <T = RawReply>(method: string, params?: unknown) =>
    new Promise<T>((resolve, reject) => {
      const n = ++id;
      const timer = setTimeout(() => reject(new Error(`no answer to ${method}; stderr:\n${server.stderr()}`)), 20_000);
      waiting.set(n, (m) => {
        clearTimeout(timer);
        resolve(m as unknown as T);
      });
      void server.transport.send({ jsonrpc: '2.0', id: n, method, ...(params !== undefined ? { params } : {}) } as JSONRPCMessage);
    });
  await request('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } });
  await server.transport.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  return { request, server, close: () => server.transport.close() };
}
