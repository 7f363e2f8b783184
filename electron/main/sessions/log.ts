import { closeSync, existsSync, fdatasync, fsyncSync, mkdirSync, openSync, readFileSync, truncateSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { randomBytes } from 'node:crypto';
import { SESSION_FORMAT_VERSION, type NewSessionEntry, type SessionEntry } from './entries';

/** A random session id: time-ordered prefix plus randomness, safe as a file name. */
export function newSessionId(now: number = Date.now()): string {
  return `${now.toString(36)}-${randomBytes(6).toString('hex')}`;
}

/**
 * When to sync to disk. Every entry is written with one write(2) in any mode, so it survives the
 * process being killed; syncing adds durability against a crash of the machine.
 * - 'async' (default): a coalesced fdatasync in the background after each write, a final one at close
 * - 'messages': fsync after entries that change the context (header, message, archived, toolset)
 * - 'all': fsync after every entry;  'none': never (tests, benchmarks)
 */
export type SyncMode = 'async' | 'messages' | 'all' | 'none';

export interface SessionLogOptions {
  fsync?: SyncMode;
  clock?: () => number;
  /** Cut a torn last line (no final newline) before appending, so new entries start on a line of their own. */
  repairTornTail?: boolean;
  /** Masks secrets in each line before it is written. */
  redact?: (text: string) => string;
}

/**
 * Append-only JSONL session log. Each entry is written with one write(2) as it happens, so a
 * SIGKILL leaves at worst a torn last line, which readers skip with a warning.
 */
export class SessionLog {
  private fd: number | undefined;
  private seq = 0;
  private readonly mode: SyncMode;
  private readonly clock: () => number;
  private readonly redact?: (text: string) => string;
  private syncing = false;
  private dirty = false;
  private closeAfterSync: number | undefined;

  constructor(
    readonly path: string,
    opts: SessionLogOptions = {},
  ) {
    this.mode = opts.fsync ?? 'async';
    this.clock = opts.clock ?? Date.now;
    this.redact = opts.redact;
    mkdirSync(dirname(path), { recursive: true });
    if (opts.repairTornTail && existsSync(path)) {
      const buf = readFileSync(path);
      if (buf.length && buf[buf.length - 1] !== 0x0a) truncateSync(path, buf.lastIndexOf(0x0a) + 1);
    }
    this.fd = openSync(path, 'a', 0o600);
  }

  /** Continue numbering after an existing log's entries (resume appends to the same file). */
  continueAfter(entries: number): this {
    this.seq = Math.max(this.seq, entries);
    return this;
  }

  /** Entries in the log so far (resumed ones included): a position in the conversation. */
  get entries(): number {
    return this.seq;
  }

  append(entry: NewSessionEntry): SessionEntry {
    const full = { v: SESSION_FORMAT_VERSION, id: `e${++this.seq}`, at: this.clock(), ...entry } as SessionEntry;
    if (this.fd === undefined) throw new Error(`session log ${this.path} is closed`);
    const line = JSON.stringify(full) + '\n';
    writeSync(this.fd, this.redact ? this.redact(line) : line);
    if (this.mode === 'all' || (this.mode === 'messages' && full.type !== 'event')) fsyncSync(this.fd);
    else if (this.mode === 'async') this.syncSoon();
    return full;
  }

  private syncSoon(): void {
    if (this.syncing) {
      this.dirty = true;
      return;
    }
    const fd = this.fd;
    if (fd === undefined) return;
    this.syncing = true;
    fdatasync(fd, () => {
      this.syncing = false;
      if (this.closeAfterSync !== undefined) {
        closeSync(this.closeAfterSync);
        this.closeAfterSync = undefined;
      } else if (this.dirty) {
        this.dirty = false;
        this.syncSoon();
      }
    });
  }

  close(): void {
    const fd = this.fd;
    if (fd === undefined) return;
    this.fd = undefined;
    if (this.mode !== 'none') fsyncSync(fd);
    if (this.syncing) this.closeAfterSync = fd;
    else closeSync(fd);
  }
}
