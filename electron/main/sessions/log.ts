import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, truncateSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { randomBytes } from 'node:crypto';
import { SESSION_FORMAT_VERSION, type NewSessionEntry, type SessionEntry } from './entries';

/** A random session id: time-ordered prefix plus randomness, safe as a file name. */
export function newSessionId(now: number = Date.now()): string {
  return `${now.toString(36)}-${randomBytes(6).toString('hex')}`;
}

export interface SessionLogOptions {
  /** fsync after every entry (default true): a committed line survives a crash of the machine. */
  fsync?: boolean;
  clock?: () => number;
  /** Cut a torn last line (no final newline) before appending, so new entries start on a line of their own. */
  repairTornTail?: boolean;
}

/**
 * Append-only JSONL session log. Each entry is written with one write(2) as it happens, so a
 * SIGKILL leaves at worst a torn last line, which readers skip with a warning.
 */
export class SessionLog {
  private fd: number | undefined;
  private seq = 0;
  private readonly fsync: boolean;
  private readonly clock: () => number;

  constructor(
    readonly path: string,
    opts: SessionLogOptions = {},
  ) {
    this.fsync = opts.fsync ?? true;
    this.clock = opts.clock ?? Date.now;
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

  append(entry: NewSessionEntry): SessionEntry {
    const full = { v: SESSION_FORMAT_VERSION, id: `e${++this.seq}`, at: this.clock(), ...entry } as SessionEntry;
    if (this.fd === undefined) throw new Error(`session log ${this.path} is closed`);
    writeSync(this.fd, JSON.stringify(full) + '\n');
    if (this.fsync) fsyncSync(this.fd);
    return full;
  }

  close(): void {
    if (this.fd === undefined) return;
    closeSync(this.fd);
    this.fd = undefined;
  }
}
