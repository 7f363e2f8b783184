import { spawn, type ChildProcess } from 'node:child_process';
import { getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { deserializeMessage, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { groupSpawnPlan, killGroup } from './process-group';

const MAX_LINE = 10 * 1024 * 1024;

export interface GroupStdioOptions {
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string;
  /** Each chunk of the child's stderr. */
  onStderr?: (chunk: string) => void;
  /** A line on stdout that is not a JSON-RPC message. */
  onInvalidOutput?: (line: string, error: Error) => void;
  /** The child exited (before or without close()). */
  onExit?: (code: number | null, signal: NodeJS.Signals | null) => void;
}

/**
 * MCP over a child's stdin/stdout, framed as the SDK frames it, with the child in its own process
 * group (see process-group.ts) so that stopping it ends the whole tree: SIGTERM to the group, then
 * SIGKILL. The SDK's StdioClientTransport cannot do this (it spawns into our group and kills only the leader).
 */
export class GroupStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private child?: ChildProcess;
  private pending: Buffer = Buffer.alloc(0);
  private exited?: Promise<void>;
  private closed = false;
  private drain?: Promise<void>;
  private readonly queue: JSONRPCMessage[] = [];
  private delivering = false;

  constructor(private readonly opts: GroupStdioOptions) {}

  /** Set by the SDK client after initialize. */
  protocolVersion?: string;
  setProtocolVersion(version: string): void {
    this.protocolVersion = version;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  start(): Promise<void> {
    if (this.child) throw new Error('GroupStdioTransport already started');
    return new Promise((resolve, reject) => {
      const plan = groupSpawnPlan(this.opts.command, this.opts.args);
      const child = spawn(plan.command, plan.args, {
        env: { ...getDefaultEnvironment(), ...this.opts.env },
        cwd: this.opts.cwd,
        stdio: ['pipe', 'pipe', 'pipe'],
        detached: plan.detached,
        windowsHide: true,
        shell: false,
      });
      this.child = child;
      this.exited = new Promise((done) => child.once('exit', () => done()));
      child.once('error', (err) => {
        reject(err);
        this.onerror?.(err);
        this.finish();
      });
      child.once('spawn', () => resolve());
      child.once('exit', (code, signal) => {
        this.opts.onExit?.(code, signal);
        // The leader is gone: end whatever it left in its group, then report the close at once
        // (not on 'close', which waits for grandchildren holding the pipes).
        killGroup(child.pid, 'SIGKILL');
        this.finish();
      });
      child.stdin?.on('error', (err) => this.onerror?.(err));
      child.stdout?.on('error', (err) => this.onerror?.(err));
      child.stderr?.setEncoding('utf8');
      child.stderr?.on('data', (chunk: string) => this.opts.onStderr?.(chunk));
      child.stdout?.on('data', (chunk: Buffer) => this.onData(chunk));
    });
  }

  private onData(chunk: Buffer): void {
    this.pending = this.pending.length ? Buffer.concat([this.pending, chunk]) : chunk;
    if (this.pending.length > MAX_LINE) {
      this.pending = Buffer.alloc(0);
      this.opts.onInvalidOutput?.('', new Error(`a line on stdout exceeded ${MAX_LINE} bytes`));
      return;
    }
    let nl: number;
    while ((nl = this.pending.indexOf(10)) !== -1) {
      const line = this.pending.toString('utf8', 0, nl).replace(/\r$/, '');
      this.pending = this.pending.subarray(nl + 1);
      if (!line.trim()) continue;
      let message: JSONRPCMessage;
      try {
        message = deserializeMessage(line);
      } catch (err) {
        this.opts.onInvalidOutput?.(line, err as Error);
        continue;
      }
      this.queue.push(message);
    }
    if (!this.delivering && this.queue.length) void this.deliver();
  }

  /**
   * Delivers messages one microtask apart. The SDK runs notification handlers a microtask late but
   * responses at once, so a progress notification and the response right behind it in one chunk
   * would otherwise lose the progress (its handler is gone when it runs).
   */
  private async deliver(): Promise<void> {
    this.delivering = true;
    while (this.queue.length && !this.closed) {
      this.onmessage?.(this.queue.shift()!);
      if (this.queue.length) await Promise.resolve();
    }
    this.delivering = false;
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve, reject) => {
      const stdin = this.child?.stdin;
      if (!stdin || this.closed) return reject(new Error('Not connected'));
      if (stdin.write(serializeMessage(message))) resolve();
      else {
        // One drain listener however many writes wait for it.
        this.drain ??= new Promise<void>((done) => stdin.once('drain', () => ((this.drain = undefined), done())));
        void this.drain.then(resolve);
      }
    });
  }

  /** Ends the child's whole process group: stdin closed, SIGTERM, and SIGKILL after `graceMs`. */
  async close(graceMs = 1500): Promise<void> {
    const child = this.child;
    if (child && child.exitCode === null && child.signalCode === null) {
      try {
        child.stdin?.end();
      } catch {}
      killGroup(child.pid, 'SIGTERM');
      const timer = new Promise<void>((r) => setTimeout(r, graceMs).unref());
      await Promise.race([this.exited, timer]);
      killGroup(child.pid, 'SIGKILL');
      await Promise.race([this.exited, new Promise<void>((r) => setTimeout(r, 500).unref())]);
    } else if (child) killGroup(child.pid, 'SIGKILL');
    this.finish();
  }

  /** Synchronous last resort (process exit): SIGKILL the group. */
  killNow(): void {
    killGroup(this.child?.pid, 'SIGKILL');
  }

  private finish(): void {
    if (this.closed) return;
    this.closed = true;
    this.pending = Buffer.alloc(0);
    this.onclose?.();
  }
}

/** Kept here too: other parts import it from this module. */
export { killGroup } from './process-group';
