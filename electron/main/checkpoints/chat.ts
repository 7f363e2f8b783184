import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Paths } from '../paths/index';
import { newSessionId } from '../sessions/log';
import type { SessionEntry } from '../sessions/entries';
import { readSessionLog } from '../sessions/read';
import { loadRetention } from './retention';
import type { Change } from './shadow';
import { git } from './shadow';
import type { CheckpointRecord, CheckpointStore } from './store';

export interface TurnInfo {
  sessionId: string;
  project?: string;
  turn: number;
  logPath: string;
  entries: number;
}

export type RewindScope = 'both' | 'code' | 'conversation';

export interface ChatRewind {
  /** The log to continue: a new one holding the conversation before the turn (conversation rewound), or the same. */
  logPath: string;
  sessionId: string;
  turn: number;
  files: Change[];
  commitsUndone: Array<{ commit: string; subject: string }>;
  /** The checkpoint of what the code rewind left (undo it with a rewind to this turn of the log that continues). */
  undo?: CheckpointRecord;
}

/** Chat checkpoints: one before every user turn of a chat in a git repository; the rewind to one, of code, conversation or both. */
export class ChatCheckpoints {
  /** Projects known to be (or not to be) inside a git work tree: a chat elsewhere (a home folder) takes none. */
  private readonly repos = new Map<string, Promise<boolean>>();

  constructor(
    private readonly store: CheckpointStore,
    private readonly paths: Paths,
  ) {}

  private inRepo(project: string): Promise<boolean> {
    let known = this.repos.get(project);
    if (!known) {
      known = git(project, ['rev-parse', '--is-inside-work-tree']).then((r) => r.code === 0 && r.stdout.trim() === 'true', () => false);
      this.repos.set(project, known);
    }
    return known;
  }

  /** Before a turn: the project's files and HEAD, and where the conversation stands. Says once why a project gets none. */
  async beforeTurn(t: TurnInfo): Promise<void> {
    if (!t.project) return;
    const first = !this.repos.has(t.project);
    if (!(await this.inRepo(t.project))) {
      if (first) throw new Error(`${t.project} is not a git repository, so chats in it take no checkpoints and cannot be rewound (git init makes it one)`);
      return;
    }
    await this.store.take(t.project, { kind: 'turn', state: `turn ${t.turn}`, sessionId: t.sessionId, turn: t.turn, log: resolve(t.logPath), entries: t.entries });
    // The project's old checkpoints go as config.yaml's retention says, once per process, after the first new one.
    if (this.pruned.has(t.project)) return;
    this.pruned.add(t.project);
    const retention = await loadRetention(this.paths.configYaml).catch((err: Error) => {
      throw new Error(`the checkpoint was taken, but old ones were not pruned: ${err.message}`);
    });
    await this.store.prune(t.project, retention);
  }

  private readonly pruned = new Set<string>();

  /** The checkpoint before turn `turn` of the session of `logPath`, looking through the logs it was forked from. */
  private async find(logPath: string, turn: number): Promise<{ checkpoint: CheckpointRecord; project: string; sessionId: string } | undefined> {
    const seen = new Set<string>();
    let path: string | undefined = resolve(logPath);
    while (path && !seen.has(path)) {
      seen.add(path);
      const header: SessionEntry | undefined = readSessionLog(path).entries[0];
      if (header?.type !== 'header' || !header.project) return undefined;
      const list = await this.store.list(header.project, { sessionId: header.sessionId });
      const checkpoint = list.filter((c) => c.kind === 'turn' && c.turn === turn).at(-1);
      if (checkpoint) return { checkpoint, project: header.project, sessionId: header.sessionId };
      path = header.resumedFrom;
    }
    return undefined;
  }

  /** The turns of a session's log that have a checkpoint (for the message that names them). */
  async turns(logPath: string): Promise<number[]> {
    const header = readSessionLog(resolve(logPath)).entries[0];
    if (header?.type !== 'header' || !header.project) return [];
    return [...new Set((await this.store.list(header.project, { sessionId: header.sessionId })).filter((c) => c.kind === 'turn').map((c) => c.turn!))].sort((a, b) => a - b);
  }

  /**
   * Back to before turn `turn`: `code` restores the project's files and HEAD (after a checkpoint of what
   * it leaves), `conversation` forks the log at that point into a new session (the old log stays as it
   * was), `both` does both.
   */
  async rewind(logPath: string, turn: number, scope: RewindScope): Promise<ChatRewind> {
    const log = resolve(logPath);
    const found = await this.find(log, turn);
    if (!found) {
      const have = await this.turns(log).catch(() => []);
      throw new Error(`${log} has no checkpoint before turn ${turn}${have.length ? ` (turns with one: ${have.join(', ')})` : ' (checkpoints are taken before each turn of a chat in a git repository)'}`);
    }
    const { checkpoint, project } = found;
    const header = readSessionLog(log).entries[0]!;
    let out: ChatRewind = { logPath: log, sessionId: header.type === 'header' ? header.sessionId : found.sessionId, turn, files: [], commitsUndone: [] };
    if (scope !== 'conversation') {
      const undo = await this.store.take(project, { kind: 'rewind', state: `turn ${turn} (code rewound)`, sessionId: out.sessionId, note: `left by the rewind of ${log} to turn ${turn}` });
      const r = await this.store.restore(checkpoint, undo);
      out = { ...out, ...r, undo };
    }
    if (scope !== 'code') out = { ...out, ...this.fork(checkpoint) };
    return out;
  }

  /** A new session log holding the entries of `checkpoint.log` before its turn; its header names where it came from. */
  private fork(checkpoint: CheckpointRecord): { logPath: string; sessionId: string } {
    if (!checkpoint.log || checkpoint.entries === undefined) throw new Error(`checkpoint ${checkpoint.id} does not say where its conversation stood`);
    const lines = readFileSync(checkpoint.log, 'utf8').split('\n').filter((l) => l.trim()).slice(0, checkpoint.entries);
    const sessionId = newSessionId();
    const header = JSON.parse(lines[0]!) as Record<string, unknown>;
    lines[0] = JSON.stringify({ ...header, sessionId, resumedFrom: checkpoint.log });
    const logPath = this.paths.session(sessionId);
    mkdirSync(dirname(logPath), { recursive: true });
    writeFileSync(logPath, lines.join('\n') + '\n', { mode: 0o600 });
    return { logPath, sessionId };
  }
}
