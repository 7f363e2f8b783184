import { databaseHint } from '../../../contract/words';
import { WorkflowError } from '../errors';
import type { DurableHooks } from '../run';
import type { ExecutorConfig, RunRecord } from '../run-record';
import { checkDatabaseUrl, redactedUrl } from './database-url';
import { originUrl } from './lane-git';
import type { RunGate } from './bridge';

/**
 * The engine's side of durable runs (`--database-url`, ERASMUS_DATABASE_URL): the checks before a run becomes
 * durable, each run's database URL as given to this process (never written to disk: it may hold a password),
 * and the hooks that send a durable run's components to workers. DBOS is loaded on first use only: a run without
 * a database never loads it.
 */
export class DurableRuns {
  private readonly urls = new Map<string, string>();
  private loaded = false;
  private readonly warmed = new Set<string>();
  private readonly warming: Array<Promise<void>> = [];

  constructor(
    private readonly env: () => NodeJS.ProcessEnv | undefined,
    /** Where the workers' questions are asked and their events shown (the core's gate; absent: refused at once). */
    private readonly gate: () => RunGate | undefined = () => undefined,
  ) {}

  /** The database a new run uses: the one given, else ERASMUS_DATABASE_URL. */
  urlFor(given: string | undefined): string | undefined {
    return given ?? this.env()?.ERASMUS_DATABASE_URL;
  }

  /** A URL that is not postgres://… is refused, naming what is wrong. */
  checkUrl(url: string): void {
    try {
      checkDatabaseUrl(url);
    } catch (err) {
      throw new WorkflowError('RUNTIME_ERROR', (err as Error).message);
    }
  }

  /**
   * Said before anything is done: a durable run needs an origin for its workers to clone. An agent run's workers
   * use the run's provider by its id, from their own config.yaml and keychain (no key goes through the database):
   * the provider config.yaml names by default here is pinned in the executor, so every worker uses the same one.
   */
  async check(projectDir: string, url: string, executor: ExecutorConfig, config: { defaultProvider?: string; providers?: Array<{ id: string }> } | undefined): Promise<ExecutorConfig> {
    this.checkUrl(url);
    if (executor.kind === 'external')
      throw new WorkflowError(
        'RUNTIME_ERROR',
        "a durable run (--database-url, or ERASMUS_DATABASE_URL in the environment) runs its components' steps in `erasmus worker` processes, with the agent executor (the default) or --executor command; the external executor's steps are answered by the engine that asks for them, which a worker cannot reach. Start the run without a database URL (unset ERASMUS_DATABASE_URL) to run it in this process.",
      );
    await originUrl(projectDir).catch((err: Error) => {
      throw new WorkflowError('RUNTIME_ERROR', err.message);
    });
    if (executor.kind !== 'agent' || executor.provider || executor.baseUrl) return executor;
    const provider = config?.defaultProvider ?? config?.providers?.[0]?.id;
    return provider ? { ...executor, provider } : executor;
  }

  /**
   * Before a durable run is abandoned: abandoning cancels its components' workflows (else the workers go on spending
   * the model on them) and keeps the work of each from its last checkpoint DBOS recorded, so it needs the run's
   * database. `given` (the URL the abandoning command was given) must be that database; with none (neither given nor
   * in the environment) while a component's workflow is not merged, the abandon is refused before anything changes.
   */
  beforeAbandon(record: RunRecord, given: string | undefined): void {
    if (!record.durable) return;
    if (given !== undefined) {
      this.checkUrl(given);
      if (redactedUrl(given) !== record.durable.database)
        throw new WorkflowError('RUNTIME_ERROR', `run ${record.runId}'s components run over ${record.durable.database}, not over the database given (${redactedUrl(given)}); nothing was changed. Give its own database URL to abandon it.`);
      this.remember(record.runId, given);
      return;
    }
    if (this.urls.has(record.runId) || this.env()?.ERASMUS_DATABASE_URL) return;
    const open = (record.lanes ?? []).filter((l) => l.status !== 'merged' && l.workflow).map((l) => l.component);
    if (!open.length) return;
    const db = databaseHint(record.durable);
    throw new WorkflowError(
      'RUNTIME_ERROR',
      `run ${record.runId} is durable: the workflow${open.length === 1 ? '' : 's'} of ${open.join(', ')} may still run in \`erasmus worker\` processes over ${record.durable.database}. Abandoning it cancels ${open.length === 1 ? 'it' : 'them'} and keeps ${open.length === 1 ? 'its' : 'their'} work, which needs the run's database URL, and this process was not given it; nothing was changed. Give it to the command that starts the new goal (${db.option.trim()}${db.note}), or set ERASMUS_DATABASE_URL where the app or \`erasmus serve\` runs, then start the new goal again.`,
    );
  }

  /** This process drives the run over `url`; what its record keeps (the password hidden). */
  remember(runId: string, url: string): NonNullable<RunRecord['durable']> {
    this.urls.set(runId, url);
    return { database: redactedUrl(url) };
  }

  /** A durable run's components go to workers; at completion the run is published to origin; abandoned, it leaves nothing there. */
  hooks(record: RunRecord): DurableHooks {
    const db = databaseHint(record.durable);
    const url = () => {
      const u = this.urls.get(record.runId) ?? this.env()?.ERASMUS_DATABASE_URL;
      if (!u)
        throw new WorkflowError(
          'RUNTIME_ERROR',
          `run ${record.runId} is durable: its components run in \`erasmus worker\` processes over ${record.durable?.database}, and this process needs its database URL. Run the command again with it (workflow resume, approve, retry, skip and rewind take --database-url), e.g. erasmus workflow resume ${record.projectDir}${db.option}${db.note}`,
        );
      return u;
    };
    const load = () => {
      this.loaded = true;
      return import('./remote-lane');
    };
    this.warm(record, url);
    return {
      driveLane: async (ctx, plan, lane, component) => (await load()).driveRemoteLane(url(), ctx, plan, lane, component, this.gate()),
      completing: async () => (await load()).publishRun(record),
      lanesRewound: async () => {
        this.loaded = true;
        const u = url();
        return (await import('./leave')).leaveRewoundLanes(u, record).catch((err: Error) => {
          throw new WorkflowError(
            'RUNTIME_ERROR',
            `the rewound attempt's components could not be cleared (their workflows in ${redactedUrl(u)} cancelled, their work kept, the run's refs on origin deleted): ${err.message}. Make the database and origin reachable, then retry (erasmus workflow retry ${record.projectDir}${db.option}${db.note})`,
          );
        });
      },
      leaving: async (kept) => {
        this.loaded = true;
        return (await import('./leave')).leaveRemoteLanes(this.urls.get(record.runId) ?? this.env()?.ERASMUS_DATABASE_URL, record, kept);
      },
    };
  }

  /**
   * Connects to the run's database once, in the background, while the run has components to send (DBOS's client and
   * its tables take the better part of a second: the first component would wait for them). A failure is said by
   * the component that needs the database.
   */
  private warm(record: RunRecord, url: () => string): void {
    if (this.warmed.has(record.runId) || record.lanes?.every((l) => l.status === 'merged')) return;
    this.warmed.add(record.runId);
    let u: string;
    try {
      u = url();
    } catch {
      return;
    }
    this.loaded = true;
    this.warming.push(import('./dbos').then((m) => m.dbosClient(u)).then(() => undefined, () => undefined));
  }

  /** Closes DBOS's clients, when they were loaded. */
  async dispose(): Promise<void> {
    if (!this.loaded) return;
    // A client still connecting is closed too (one that cannot connect is not waited for long).
    await Promise.race([Promise.all(this.warming.splice(0)), new Promise((r) => setTimeout(r, 2000).unref())]);
    await (await import('./dbos')).closeDbosClients();
    await (await import('./bridge')).closeBridgePools();
  }
}
