// DBOS over Postgres for durable runs: the names both sides share, the run's client (it enqueues a
// workflow per component and watches it) and the worker (it runs those workflows, one DBOS step per
// component step). @dbos-inc/dbos-sdk and pg are imported only here, and this module only on demand, so a
// run without a database URL loads neither.
import type { DBOSClient, WorkflowStatus } from '@dbos-inc/dbos-sdk';
import type { Client as PgClient } from 'pg';
import { BRIDGE_DDL } from './bridge';

/** The DBOS application, queue and workflow names (a worker and a run must agree on them). */
export const DBOS_APP = 'erasmus';
export const COMPONENT_QUEUE = 'erasmus-components';
export const COMPONENT_WORKFLOW = 'erasmus.component';

/**
 * The queue a run's components go on: an agent run's on its provider's (`erasmus-components@<provider id>`), so only a
 * worker whose config.yaml has that provider takes them (one without it never dequeues them: they wait for one that
 * has it); a `command` run's, or an agent run with no provider id (a base URL), on the common queue every worker takes.
 */
export function componentQueue(executor: { kind: string; provider?: string }): string {
  return executor.kind === 'agent' && executor.provider ? `${COMPONENT_QUEUE}@${executor.provider}` : COMPONENT_QUEUE;
}

/** The version both sides stamp on the component workflows (DBOS only dequeues a workflow of its own version). */
export const WORKFLOW_VERSION = 'erasmus-durable-2';
/** How often a worker polls the queue (DBOS's queue poller; it backs off by itself when Postgres is contended). */
export const POLL_MS = 100;
/** How often a worker looks for the workflows of dead workers. */
export const RECOVERY_MS = 1000;
/** How often a worker looks whether the workflow of a step it runs was cancelled (then it stops the step). */
export const CANCEL_MS = 500;
/**
 * How long the run waits at most between two looks at a component's workflow it follows (a few small queries): its worker
 * notifies as it writes what the run reads (bridge.ts nextLook), which wakes the look at once; this bounds what it
 * does not notify (a workflow ended in error, taken by another worker) and how soon a pause is seen.
 */
export const FOLLOW_MS = 500;

/** The idle-in-transaction timeout DBOS gives its connections (its default, DEFAULT_IDLE_TRANSACTION_TIMEOUT_MS). */
const IDLE_IN_TRANSACTION_MS = 60_000;

/**
 * The URL DBOS is given: the run's, with Postgres's `idle_in_transaction_session_timeout` set at connection start
 * (libpq's `options`). Without it, DBOS sets that timeout with a query it queues on each new pooled connection
 * ahead of the borrower's first one, which pg reports as deprecated ("client.query() when the client is already
 * executing a query") in every worker's output; given in the URL, DBOS leaves it to Postgres (its
 * `setsIdleTransactionTimeout`). A URL that says it already, or that URL cannot parse, is given as it is.
 */
export function dbosUrl(url: string): string {
  try {
    const u = new URL(url);
    const options = u.searchParams.get('options') ?? '';
    if (options.includes('idle_in_transaction_session_timeout')) return url;
    u.searchParams.set('options', `${options ? `${options} ` : ''}-c idle_in_transaction_session_timeout=${IDLE_IN_TRANSACTION_MS}`);
    return u.toString();
  } catch {
    return url;
  }
}

const clients = new Map<string, Promise<DBOSClient>>();

/** The run's DBOS client for a database (created once per process; the system tables are made if missing). */
export function dbosClient(url: string): Promise<DBOSClient> {
  let c = clients.get(url);
  if (!c) {
    c = (async () => {
      const { DBOSClient } = await import('@dbos-inc/dbos-sdk');
      await migrateSystemDatabase(url);
      return DBOSClient.create({ systemDatabaseUrl: dbosUrl(url), applicationName: DBOS_APP });
    })();
    c.catch(() => clients.delete(url));
    clients.set(url, c);
  }
  return c;
}

/**
 * Creates DBOS's system tables if they are missing, one process at a time: DBOS's own migration races when two
 * processes start on a fresh database at once (one of them then never launches). Each process runs it under a
 * Postgres advisory lock; the ones after it find the tables made.
 */
export async function migrateSystemDatabase(url: string): Promise<void> {
  const [{ default: pg }, { DBOS }] = await Promise.all([import('pg'), import('@dbos-inc/dbos-sdk')]);
  const client = new pg.Client({ connectionString: url, application_name: 'erasmus migration' });
  client.on('error', () => undefined);
  await client.connect();
  try {
    // Tried, not waited for: a session waiting for a lock holds a snapshot, which DBOS's CREATE INDEX CONCURRENTLY waits out (a deadlock).
    while (!(await client.query<{ got: boolean }>('SELECT pg_try_advisory_lock($1, 0) AS got', [MIGRATION_LOCK])).rows[0]?.got) await new Promise((r) => setTimeout(r, POLL_MS));
    await DBOS.migrate(dbosUrl(url));
    // Erasmus's own tables beside DBOS's: what a worker's step and the run say to each other while it runs (bridge.ts).
    for (const sql of BRIDGE_DDL) await client.query(sql);
  } finally {
    await client.end().catch(() => undefined); // the lock goes with the connection
  }
}

/** Closes the clients this process opened. */
export async function closeDbosClients(): Promise<void> {
  const all = [...clients.values()];
  clients.clear();
  await Promise.all(all.map((c) => c.then((x) => x.destroy()).catch(() => undefined)));
}

// ── liveness ────────────────────────────────────────────────────────────────────────────────────
// A worker holds a Postgres advisory lock named after its DBOS executor id on a connection of its own for as
// long as it lives; Postgres drops the lock when the process dies (its connection goes). A component workflow
// left PENDING by an executor whose lock is free was interrupted: DBOS recovery takes it up elsewhere.

const LOCK_CLASS = 26026;
const MIGRATION_LOCK = 26027;

export async function holdLiveness(url: string, executorID: string): Promise<PgClient> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url, application_name: `erasmus-worker ${executorID}` });
  client.on('error', () => undefined); // the database went away: the worker's DBOS calls say so
  await client.connect();
  await client.query('SELECT pg_advisory_lock($1, hashtext($2))', [LOCK_CLASS, executorID]);
  return client;
}

/** Whether the executor that holds a workflow still lives (asked on the asking worker's own liveness connection). */
export async function executorAlive(client: Pick<PgClient, 'query'>, executorID: string): Promise<boolean> {
  const r = await client.query<{ got: boolean }>('SELECT pg_try_advisory_lock($1, hashtext($2)) AS got', [LOCK_CLASS, executorID]);
  if (!r.rows[0]?.got) return true;
  await client.query('SELECT pg_advisory_unlock($1, hashtext($2))', [LOCK_CLASS, executorID]);
  return false;
}

/** A worker says it takes components from `queues` (on its liveness connection, once it holds its lock). */
export async function registerWorker(client: Pick<PgClient, 'query'>, executorID: string, queues: string[]): Promise<void> {
  await client.query('INSERT INTO erasmus.workers (executor_id, queues) VALUES ($1, $2) ON CONFLICT (executor_id) DO UPDATE SET queues = EXCLUDED.queues', [executorID, queues]);
}

/** A worker that stops leaves the list (one that dies is found dead by its free lock, and dropped by whoever looks). */
export async function unregisterWorker(client: Pick<PgClient, 'query'>, executorID: string): Promise<void> {
  await client.query('DELETE FROM erasmus.workers WHERE executor_id = $1', [executorID]);
}

/** The workers alive on the database (their liveness lock held), and how many of them take components from `queue`; the dead ones' rows go. */
export async function liveWorkers(client: Pick<PgClient, 'query'>, queue: string): Promise<{ running: number; listening: number }> {
  const rows = (await client.query<{ executor_id: string; queues: string[] }>('SELECT executor_id, queues FROM erasmus.workers')).rows;
  let running = 0;
  let listening = 0;
  for (const w of rows) {
    if (!(await executorAlive(client, w.executor_id))) {
      await client.query('DELETE FROM erasmus.workers WHERE executor_id = $1', [w.executor_id]);
      continue;
    }
    running++;
    if (w.queues.includes(queue)) listening++;
  }
  return { running, listening };
}

/** Component workflows whose executor died mid-way (PENDING on a queue, their executor's lock free). */
export async function orphanedWorkflows(pending: WorkflowStatus[], client: PgClient, self: string): Promise<WorkflowStatus[]> {
  const out: WorkflowStatus[] = [];
  for (const w of pending) {
    if (!w.executorId || w.executorId === self || w.executorId === 'local') continue;
    if (!(await executorAlive(client, w.executorId))) out.push(w);
  }
  return out;
}

/** A worker as the user can tell it from another on the same machine: `the worker on <host> (pid <pid>)`, from its DBOS executor id (`<host>-<pid>-<random>`). */
export function workerName(executorId: string): string {
  const parts = executorId.split('-');
  const pid = parts.at(-2);
  const host = parts.slice(0, -2).join('-');
  return host && pid && /^\d+$/.test(pid) ? `the worker on ${host} (pid ${pid})` : `the worker ${executorId}`;
}
