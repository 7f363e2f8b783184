// What a worker's component step and the run's process say to each other while the step runs, over the run's
// Postgres: the step's questions (the agent's approvals, the built-in servers' confirmations), asked through the
// run's own approvals gate and answered back; its timeline as it goes (the entry as it starts, not only when it
// ends); and its session's events (tool calls as they happen). DBOS's own messages cannot carry these: a
// component step is one DBOS step, and DBOS refuses `recv` and `setEvent` inside a step. So two tables of
// Erasmus's own, in the schema `erasmus` of the same database (made with DBOS's tables, durable/dbos.ts).
import type { ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import type { Pool } from 'pg';
import { z } from 'zod';
import type { AgentEvent, ApprovalDecision } from '../../../contract/index';
import { WorkflowTimelineEntry } from '../../../contract/methods/workflow';
import { unanswered, UnansweredApproval } from '../../agent/approval-path';
import type { ApprovalRequest } from '../../agent/approvals';
import type { ElicitationRequest } from '../../mcp/types';
import { keepLogPiece, StepLog } from './step-log';

/** The tables (idempotent; run under the migration lock). */
export const BRIDGE_DDL = [
  'CREATE SCHEMA IF NOT EXISTS erasmus',
  `CREATE TABLE IF NOT EXISTS erasmus.asks (
    id bigserial PRIMARY KEY,
    run_id text NOT NULL,
    workflow_id text NOT NULL,
    kind text NOT NULL,
    request jsonb NOT NULL,
    answer jsonb,
    seen_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now())`,
  `CREATE TABLE IF NOT EXISTS erasmus.live (
    id bigserial PRIMARY KEY,
    workflow_id text NOT NULL,
    step integer NOT NULL,
    kind text NOT NULL,
    body jsonb NOT NULL)`,
  'CREATE INDEX IF NOT EXISTS live_workflow ON erasmus.live (workflow_id, id)',
  // Which component workflows a run's process follows now (it can ask someone): the time of its last look.
  'CREATE TABLE IF NOT EXISTS erasmus.following (workflow_id text PRIMARY KEY, seen_at timestamptz NOT NULL)',
  // The database session (backend pid) of the process that follows: when that process dies its session ends at once,
  // so a worker need not wait for its time to run out.
  'ALTER TABLE erasmus.following ADD COLUMN IF NOT EXISTS pid integer',
  // The workers that started on this database and the queues each takes (alive while its liveness lock is held: dbos.ts).
  'CREATE TABLE IF NOT EXISTS erasmus.workers (executor_id text PRIMARY KEY, queues text[] NOT NULL, started_at timestamptz NOT NULL DEFAULT now())',
];

/** Where a question comes from: the component's workflow (its id names the run and the component). */
export interface AskPlace {
  runId: string;
  workflowId: string;
  /** The command that resumes the run (its project, its database with the password masked), for a question nobody took up. */
  resume?: string;
}

const Answer = z.union([
  z.object({ kind: z.literal('approval'), decision: z.enum(['allow_once', 'always_allow', 'deny']) }),
  z.object({ kind: z.literal('elicitation'), result: z.record(z.string(), z.unknown()) }),
  z.object({ kind: z.literal('refused'), why: z.string() }),
]);
type Answer = z.infer<typeof Answer>;

/**
 * How long a run's process may be silent and still count as following a component's workflow: it looks every
 * FOLLOW_MS at most (at once when its worker notifies) while it does, and says so at most every FOLLOWING_MS. A question of a workflow nobody follows
 * is refused at once; one whose run stops looking while it waits is refused after this long.
 */
export const ASK_WAIT_MS = 15_000;
/** How often the run's process says it follows a workflow (erasmus.following). */
const FOLLOWING_MS = 1000;

/**
 * The channel a worker notifies when it wrote what the run following a workflow reads (a question, the step's timeline
 * or events, a step recorded): its payload is the workflow's id. The run looks at once, instead of on a short poll.
 */
const FOLLOW_CHANNEL = 'erasmus_follow';

/** Nobody follows the run to answer (its process is paused, stopped or gone): the call is refused and the step goes on without it. */
export class RunGone extends UnansweredApproval {}

/** The run's process says it follows a component's workflow (before it enqueues it, and as it looks). */
export async function following(pool: Pool, workflowId: string): Promise<void> {
  await pool.query('INSERT INTO erasmus.following (workflow_id, seen_at, pid) VALUES ($1, now(), pg_backend_pid()) ON CONFLICT (workflow_id) DO UPDATE SET seen_at = now(), pid = pg_backend_pid()', [workflowId]);
}

/** The run's process stops following the workflow (stop, pause): a question its worker asks from now on is refused at once. */
async function notFollowing(pool: Pool, workflowId: string): Promise<void> {
  await pool.query('DELETE FROM erasmus.following WHERE workflow_id = $1', [workflowId]).catch(() => undefined);
}

/**
 * How long ago a run's process said it follows the workflow, and whether that process still lives (its database
 * session is there: a process that died, even killed, ends its session). No row: nobody follows.
 */
const FOLLOWED = `SELECT EXTRACT(EPOCH FROM (now() - seen_at)) * 1000 AS idle_ms, (pid IS NULL OR EXISTS (SELECT 1 FROM pg_stat_activity a WHERE a.pid = f.pid)) AS alive
  FROM erasmus.following f WHERE workflow_id = $1`;

/** What a step publishes, and the notice to the run that follows its workflow. */
const LIVE_INSERT = `WITH l AS (INSERT INTO erasmus.live (workflow_id, step, kind, body) VALUES ($1, $2, $3, $4) RETURNING workflow_id) SELECT pg_notify('${FOLLOW_CHANNEL}', workflow_id) FROM l`;

/** The prompt a worker's step was given, for its timeline entry `entry` (its index in the component's timeline). */
export const StepPrompt = z.object({ entry: z.number().int().nonnegative(), text: z.string() });
export type StepPrompt = z.infer<typeof StepPrompt>;

/** The worker's side: asks and waits for the answer; publishes the step's timeline and events. */
export class WorkerBridge {
  constructor(
    private readonly pool: Pool,
    private readonly pollMs: number,
    private readonly waitMs = ASK_WAIT_MS,
  ) {}

  private async ask(place: AskPlace, kind: 'approval' | 'elicitation', request: unknown, signal: AbortSignal): Promise<Answer | undefined> {
    const nobody = (): RunGone =>
      new RunGone(`nobody follows run ${place.runId} now: the process that drives it is paused, stopped or gone`);
    const follower = async () => (await this.pool.query<{ idle_ms: number; alive: boolean }>(FOLLOWED, [place.workflowId])).rows[0];
    const followed = await follower();
    if (!followed || !followed.alive || Number(followed.idle_ms) > this.waitMs) throw nobody();
    const { rows } = await this.pool.query<{ id: string }>(
      `WITH a AS (INSERT INTO erasmus.asks (run_id, workflow_id, kind, request) VALUES ($1, $2, $3, $4) RETURNING id, workflow_id) SELECT id, pg_notify('${FOLLOW_CHANNEL}', workflow_id) FROM a`,
      [place.runId, place.workflowId, kind, JSON.stringify(request)],
    );
    const id = rows[0]!.id;
    try {
      for (;;) {
        if (signal.aborted) return undefined;
        const r = await this.pool.query<{ answer: unknown; idle_ms: number }>(
          'SELECT answer, EXTRACT(EPOCH FROM (now() - COALESCE(seen_at, created_at))) * 1000 AS idle_ms FROM erasmus.asks WHERE id = $1',
          [id],
        );
        const row = r.rows[0];
        if (row?.answer) return Answer.parse(row.answer);
        if (!row || Number(row.idle_ms) > this.waitMs) throw nobody();
        // The run's process died while the question waits: refused now, not once its time runs out. (One that stopped
        // following, alive, may look again soon, as a resume after a pause does: its question waits the bounded time.)
        if ((await follower())?.alive === false) throw nobody();
        await new Promise((res) => setTimeout(res, this.pollMs));
      }
    } finally {
      await this.pool.query('DELETE FROM erasmus.asks WHERE id = $1', [id]).catch(() => undefined);
    }
  }

  /** A step starts: what an earlier run of it left asking (its worker died mid-question) is withdrawn. */
  async withdraw(place: AskPlace): Promise<void> {
    await this.pool.query('DELETE FROM erasmus.asks WHERE workflow_id = $1', [place.workflowId]);
  }

  /** An approval of the step's agent session, asked in the run's process. */
  async approval(place: AskPlace, req: ApprovalRequest & { sessionId?: string }, signal: AbortSignal): Promise<ApprovalDecision> {
    const a = await this.ask(place, 'approval', req, signal);
    if (!a) return 'deny';
    if (a.kind === 'refused') throw new UnansweredApproval(a.why);
    return a.kind === 'approval' ? a.decision : 'deny';
  }

  /** A confirmation one of the worker's built-in servers asks (an overwrite, a removal), asked in the run's process. */
  async elicitation(place: AskPlace, req: ElicitationRequest, signal: AbortSignal): Promise<ElicitResult> {
    const a = await this.ask(place, 'elicitation', req, signal);
    if (!a) return { action: 'cancel' };
    if (a.kind === 'refused') return unanswered(a.why);
    return a.kind === 'elicitation' ? (a.result as ElicitResult) : { action: 'decline' };
  }

  /** The step's timeline as it stands (its entry once it starts, again as it changes). */
  async timeline(place: AskPlace, step: number, timeline: WorkflowTimelineEntry[]): Promise<void> {
    await this.pool.query(LIVE_INSERT, [place.workflowId, step, 'timeline', JSON.stringify(timeline)]);
  }

  /** One event of the step's agent session (a tool call, the session's start and end). */
  async event(place: AskPlace, step: number, e: AgentEvent): Promise<void> {
    await this.pool.query(LIVE_INSERT, [place.workflowId, step, 'event', JSON.stringify(e)]);
  }

  /** The prompt of the step's timeline entry `entry` (its index in the component's timeline), as the step sends it. */
  async prompt(place: AskPlace, step: number, entry: number, text: string): Promise<void> {
    await this.pool.query(LIVE_INSERT, [place.workflowId, step, 'prompt', JSON.stringify({ entry, text })]);
  }

  /** A piece of the step's session log (what its session appended since the last piece, masked as the worker wrote it). */
  async log(place: AskPlace, step: number, piece: StepLog): Promise<void> {
    await this.pool.query(LIVE_INSERT, [place.workflowId, step, 'log', JSON.stringify(piece)]);
  }

  /** A step of the workflow was recorded (DBOS has its progress): the run following it looks now. */
  async recorded(place: AskPlace): Promise<void> {
    await this.pool.query(`SELECT pg_notify('${FOLLOW_CHANNEL}', $1)`, [place.workflowId]);
  }
}

/** What the run's process answers a worker's questions with, and where the step's events go: its own gate and bus. */
export interface RunGate {
  /** `sessionId`: the worker's session asking (its events show in this process under that id). */
  approval: (req: ApprovalRequest & { sessionId?: string }, signal: AbortSignal) => Promise<ApprovalDecision>;
  elicitation: (req: ElicitationRequest, signal: AbortSignal) => Promise<ElicitResult>;
  agentEvent: (e: AgentEvent) => void;
}

/** The events a run shows of a worker's session: its tool calls, its start and end, what went wrong. */
const FORWARDED = new Set<AgentEvent['type']>(['session_started', 'turn_started', 'tool_running', 'tool_complete', 'warning', 'error', 'session_ended']);
export const forwarded = (e: AgentEvent): boolean => FORWARDED.has(e.type);

/**
 * The run's side for one component's workflow: each look answers the questions not yet taken (each asked once,
 * through the gate, answered when the person does; the others' heartbeat kept), and returns what the step
 * published since the last look.
 */
export class RunBridge {
  private readonly asking = new Map<string, AbortController>();
  private lastLive = 0;
  /** Whether this bridge looked already (its first look, on a resume, leaves out what was shown before: `look`). */
  private looked = false;
  /** When this process last said it follows the workflow (erasmus.following). */
  private said = 0;
  /** The worker's sessions shown here and not ended yet, with their tool calls under way (ended here if their worker dies). */
  private readonly open = new Map<string, { turns: number; calls: Map<string, { name: string; args: Record<string, unknown>; at: number }> }>();

  constructor(
    private readonly pool: Pool,
    private readonly workflowId: string,
    private readonly gate: RunGate | undefined,
    /** Names the component in what is asked (`a · development`): the step, when the request does not carry it. */
    private readonly component: string,
    /** The run's project: a worker's session belongs to it (not to the worker's clone, whose folder is the component's name). */
    private readonly projectDir?: string,
    /** Where the run's home keeps a worker session's log (its ERASMUS_HOME/sessions/<id>.jsonl): each piece is written there as it comes. */
    private readonly sessionFile?: (sessionId: string) => string,
  ) {}

  /**
   * `from`: the first step not recorded yet. On this bridge's first look (the run follows the workflow again: a
   * resume), what the recorded steps published is not shown again (their timeline entries, imported, say how they
   * ended), nor what an earlier attempt of the step under way did (its worker died; the step runs again): only the
   * newest session of the step under way, as it went so far. Later looks show everything new, in order.
   */
  async look(from?: number): Promise<{ timeline?: { step: number; entries: WorkflowTimelineEntry[] }; prompts: StepPrompt[]; logs: StepLog[] }> {
    if (Date.now() - this.said >= FOLLOWING_MS) {
      await following(this.pool, this.workflowId);
      this.said = Date.now();
    }
    const live = await this.pool.query<{ id: string; step: number; kind: string; body: unknown }>('SELECT id, step, kind, body FROM erasmus.live WHERE workflow_id = $1 AND id > $2 ORDER BY id', [this.workflowId, this.lastLive]);
    const again = this.looked ? undefined : from;
    this.looked = true;
    const starts = live.rows.filter((r) => r.kind === 'event' && again !== undefined && r.step >= again && (r.body as AgentEvent).type === 'session_started');
    const newest = starts.length ? Number(starts.at(-1)!.id) : 0;
    let timeline: { step: number; entries: WorkflowTimelineEntry[] } | undefined;
    const prompts: StepPrompt[] = [];
    // Every piece of every session's log, a dead attempt's too (kept as its own session; writing one twice changes nothing).
    const logs: StepLog[] = [];
    for (const row of live.rows) {
      this.lastLive = Math.max(this.lastLive, Number(row.id));
      if (row.kind === 'timeline') {
        const entries = z.array(WorkflowTimelineEntry).safeParse(row.body);
        if (entries.success) timeline = { step: row.step, entries: entries.data };
      } else if (row.kind === 'prompt') {
        const prompt = StepPrompt.safeParse(row.body);
        if (prompt.success) prompts.push(prompt.data);
      } else if (row.kind === 'log') {
        const piece = StepLog.safeParse(row.body);
        if (piece.success) {
          logs.push(piece.data);
          if (this.sessionFile) await keepLogPiece(this.sessionFile(piece.data.sessionId), piece.data).catch(() => false);
        }
      } else if (row.kind === 'event' && (again === undefined || (row.step >= again && Number(row.id) >= newest))) this.show(row.body as AgentEvent);
    }
    // The questions after what was published: a worker writes its step's log (up to the call that asks) before it asks,
    // so read in this order, whoever answers finds the asking call in the log here already.
    const asks = await this.pool.query<{ id: string; kind: string; request: unknown }>(
      'UPDATE erasmus.asks SET seen_at = now() WHERE workflow_id = $1 AND answer IS NULL RETURNING id, kind, request',
      [this.workflowId],
    );
    for (const row of asks.rows) if (!this.asking.has(row.id)) this.take(row.id, row.kind, row.request);
    // A question gone from the table was withdrawn (its step ended, or runs again elsewhere after its worker died): no longer asked.
    const open = new Set(asks.rows.map((r) => r.id));
    for (const [id, c] of this.asking) if (!open.has(id)) c.abort();
    return { ...(timeline ? { timeline } : {}), prompts, logs };
  }

  /** One event of a worker's session, shown here: under the run's project; its session and tool calls kept open until they end. */
  private show(raw: AgentEvent): void {
    // Its log is the copy in the run's home (the worker's path means nothing on this machine).
    const e: AgentEvent = raw.type === 'session_started' ? { ...raw, ...(this.projectDir ? { project: this.projectDir } : {}), ...(this.sessionFile ? { logPath: this.sessionFile(raw.sessionId) } : {}) } : raw;
    if (e.type === 'session_started') this.open.set(e.sessionId, { turns: 0, calls: new Map() });
    else if (e.type === 'turn_started') {
      const o = this.open.get(e.sessionId);
      if (o) o.turns = e.turn;
    }
    else if (e.type === 'tool_running') this.open.get(e.sessionId)?.calls.set(e.callId, { name: e.name, args: e.args, at: e.at });
    else if (e.type === 'tool_complete') this.open.get(e.sessionId)?.calls.delete(e.callId);
    else if (e.type === 'session_ended') this.open.delete(e.sessionId);
    this.gate?.agentEvent(e);
  }

  /**
   * The worker running the step is gone (its process died; DBOS recovery gives the workflow to another worker, where
   * the step runs again): its questions are withdrawn (no longer asked here, their cards resolved, their rows gone so
   * no later look asks them again), and its sessions end here, with their tool calls, saying why.
   */
  async workerGone(why: string): Promise<void> {
    const ids = [...this.asking.keys()];
    for (const c of this.asking.values()) c.abort();
    this.asking.clear();
    if (ids.length) await this.pool.query('DELETE FROM erasmus.asks WHERE id = ANY($1::bigint[]) AND answer IS NULL', [ids]).catch(() => undefined);
    this.endSessions(why);
  }

  /** Ends the worker's sessions still open here (their worker died, or their workflow ended without saying so). */
  endSessions(why: string): void {
    const at = Date.now();
    for (const [sessionId, { turns, calls }] of this.open) {
      for (const [callId, c] of calls)
        this.gate?.agentEvent({ type: 'tool_complete', sessionId, at, callId, name: c.name, args: c.args, result: `Not finished: ${why}.`, isError: true, durationMs: Math.max(0, at - c.at) });
      this.gate?.agentEvent({ type: 'warning', sessionId, at, message: `This session ended: ${why}.` });
      this.gate?.agentEvent({ type: 'session_ended', sessionId, at, reason: 'error', usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0, costUsd: null }, turns });
    }
    this.open.clear();
  }

  private take(id: string, kind: string, request: unknown): void {
    const controller = new AbortController();
    this.asking.set(id, controller);
    void this.answer(kind, request, controller.signal)
      // Not followed any more (paused, stopped): left unanswered for the run's next look, not answered "cancel".
      .then((answer) => (controller.signal.aborted ? undefined : this.pool.query('UPDATE erasmus.asks SET answer = $2 WHERE id = $1', [id, JSON.stringify(answer)])))
      .catch(() => undefined)
      .finally(() => this.asking.delete(id));
  }

  private async answer(kind: string, request: unknown, signal: AbortSignal): Promise<Answer> {
    if (!this.gate) return { kind: 'refused', why: 'the process following this run has no way to ask anyone' };
    try {
      if (kind === 'approval') {
        const req = request as ApprovalRequest;
        return { kind: 'approval', decision: await this.gate.approval({ ...req, step: req.step ?? this.component }, signal) };
      }
      return { kind: 'elicitation', result: (await this.gate.elicitation(request as ElicitationRequest, signal)) as Record<string, unknown> };
    } catch (err) {
      if (err instanceof UnansweredApproval) return { kind: 'refused', why: err.why };
      return { kind: 'refused', why: `asking in the run's process failed: ${(err as Error).message}` };
    }
  }

  /**
   * The workflow ended: what its steps published and this process has not read yet is shown, a session still open
   * (its end never published: its worker died) ends, and what the steps published goes (their outcome is in DBOS's record).
   */
  async finish(why: string): Promise<void> {
    await this.look().catch(() => undefined);
    this.endSessions(why);
    await this.forget();
  }

  /** What the workflow's steps published goes. */
  async forget(): Promise<void> {
    await this.pool.query('DELETE FROM erasmus.live WHERE workflow_id = $1', [this.workflowId]).catch(() => undefined);
    await notFollowing(this.pool, this.workflowId);
  }

  /**
   * Stops asking (the run stops following the component: stop, pause): the questions asked already wait for the
   * next look (a bounded time); one the worker asks from now on is refused at once.
   */
  async close(): Promise<void> {
    for (const c of this.asking.values()) c.abort();
    this.asking.clear();
    await notFollowing(this.pool, this.workflowId);
  }
}

const pools = new Map<string, Pool>();

/** One small pool per database in this process (the run's lanes and a worker's steps share it). */
export async function bridgePool(url: string): Promise<Pool> {
  let p = pools.get(url);
  if (!p) {
    const { default: pg } = await import('pg');
    // Its connections stay open while the process lives: the one that says the run follows a workflow is the sign,
    // to a worker, that the run's process is alive (erasmus.following's pid).
    p = new pg.Pool({ connectionString: url, max: 4, idleTimeoutMillis: 0, allowExitOnIdle: true, application_name: 'erasmus bridge' });
    p.on('error', () => undefined);
    pools.set(url, p);
  }
  return p;
}

export async function closeBridgePools(): Promise<void> {
  const all = [...pools.values()];
  pools.clear();
  const heard = [...listeners.values()];
  listeners.clear();
  await Promise.all([...all.map((p) => p.end().catch(() => undefined)), ...heard.map((l) => l.then((x) => x.client.end()).catch(() => undefined))]);
}

/** A run process's one connection per database that LISTENs on the follow channel, and who waits for which workflow. */
interface Listener {
  client: import('pg').Client;
  /** The workflows this process follows, with the looks waiting for their next notice. */
  waiting: Map<string, Set<() => void>>;
  /** Followed workflows notified while no look waited: the next look is at once. */
  pending: Set<string>;
}
const listeners = new Map<string, Promise<Listener>>();

function listener(url: string): Promise<Listener> {
  let l = listeners.get(url);
  if (!l) {
    l = (async () => {
      const { default: pg } = await import('pg');
      // Bounded: with the database unreachable, a look waits 5 s for it at most, not the system's TCP timeout.
      const client = new pg.Client({ connectionString: url, application_name: 'erasmus follow', connectionTimeoutMillis: 5000 });
      const out: Listener = { client, waiting: new Map(), pending: new Set() };
      // The connection lost: the next look listens anew (meanwhile each look waits its bound, as a poll would).
      client.on('error', () => listeners.delete(url));
      client.on('end', () => listeners.delete(url));
      client.on('notification', (n) => {
        const id = n.payload ?? '';
        const set = out.waiting.get(id);
        if (!set) return;
        if (!set.size) out.pending.add(id);
        for (const wake of [...set]) wake();
      });
      await client.connect();
      await client.query(`LISTEN ${FOLLOW_CHANNEL}`);
      return out;
    })();
    l.catch(() => listeners.delete(url));
    listeners.set(url, l);
  }
  return l;
}

/**
 * Waits until the workflow's worker writes something the run reads (it notifies), at most `ms`, or until `signal`
 * aborts: the run's next look at a workflow it follows. Without the listening connection it waits `ms`.
 */
export async function nextLook(url: string, workflowId: string, ms: number, signal?: AbortSignal): Promise<void> {
  const l = await listener(url).catch(() => undefined);
  let set = l?.waiting.get(workflowId);
  if (l && !set) l.waiting.set(workflowId, (set = new Set()));
  if (l?.pending.delete(workflowId) || signal?.aborted) return;
  await new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      set?.delete(done);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    set?.add(done);
    signal?.addEventListener('abort', done, { once: true });
  });
}

/** The run no longer follows the workflow here: its notices are not kept. */
export function unfollow(url: string, workflowId: string): void {
  void listeners.get(url)?.then((l) => {
    l.waiting.delete(workflowId);
    l.pending.delete(workflowId);
  }, () => undefined);
}
