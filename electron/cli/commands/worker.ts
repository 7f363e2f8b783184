import { InvalidArgumentError, type Command } from 'commander';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { cliCore } from '../context';
import { shutdownOnSignals } from '../interrupt';
import { attachBuiltinServers } from '../../servers/builtin';
import { checkDatabaseUrl, redactedUrl } from '../../main/workflow/durable/database-url';

/** How long Ctrl-C waits for the worker to stop cleanly. */
const STOP_WAIT_MS = 10_000;

/** `--concurrency N`: a whole number from 1 to 16. */
function concurrencyOf(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 16) throw new InvalidArgumentError(`--concurrency takes a whole number from 1 to 16 (how many components this worker runs at once), got ${JSON.stringify(value)}`);
  return n;
}

/** Where a worker clones the projects it works on: outside ERASMUS_HOME, which the sandbox hides from the steps. */
function defaultWorkDir(): string {
  return join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'erasmus', 'worker');
}

export function registerWorker(program: Command): void {
  program
    .command('worker')
    .description(
      "run durable runs' components (workflow start --database-url): take them from the DBOS queue in Postgres, each in a clone of the project's origin, and push each component's branch back; an agent run's steps use the run's provider by its id from this machine's config.yaml and keychain, and what they need approved is asked where the run is watched; runs until stopped (Ctrl-C)",
    )
    .option('--database-url <url>', 'the Postgres database the runs use (default: ERASMUS_DATABASE_URL)')
    .option('--concurrency <n>', 'how many components this worker runs at once (default 1)', concurrencyOf)
    .option('--work-dir <dir>', `where the clones go (default: ${defaultWorkDir()})`)
    .action(async (opts: { databaseUrl?: string; concurrency?: number; workDir?: string }) => {
      const url = opts.databaseUrl ?? process.env.ERASMUS_DATABASE_URL;
      if (!url) throw new Error('erasmus worker needs the runs\' database: --database-url postgres://user:password@host:port/database, or ERASMUS_DATABASE_URL');
      checkDatabaseUrl(url);
      const core = cliCore();
      const { providerReady, startWorker, warmWorker, workRoot, workerForward } = await import('../../main/workflow/durable/worker');
      const { bridgePool, WorkerBridge } = await import('../../main/workflow/durable/bridge');
      const { POLL_MS } = await import('../../main/workflow/durable/dbos');
      const worker = await (async () => {
        const workDir = await workRoot(resolve(opts.workDir ?? defaultWorkDir()));
        // Agent steps: Erasmus's files and runners servers on the worker's folder (each step's calls name its clone);
        // what they ask, and what the agent's policy asks, goes to the run's process; their sessions' events too.
        const bridge = new WorkerBridge(await bridgePool(url), POLL_MS);
        const forward = workerForward(bridge);
        await core.hub.start({ projectDir: workDir, watch: false });
        for (const issue of core.hub.configErrors()) process.stderr.write(`erasmus worker: ${issue.file}${issue.entry ? ` (${issue.entry})` : ''}: ${issue.message}\n`);
        core.hub.setElicitationHandler(forward.elicitation);
        core.agent.setApprovals(forward.approval);
        core.bus.onEvent('agent.event', forward.event);
        await attachBuiltinServers(core, { root: workDir });
        // The providers this machine has: agent runs on another provider are left in their queue for a worker that has it.
        const { loadAgentConfig } = await import('../../main/agent/providers/config');
        const providers = ((await loadAgentConfig(core.paths.configYaml).catch(() => undefined))?.providers ?? []).map((p) => p.id);
        // Before taking components: what a component's first step would otherwise pay for (the sandbox, the providers, the protocols).
        const { loadProtocols } = await import('../../main/workflow/protocols');
        const warmed = await warmWorker(
          {
            run: (command) => core.runner.run({ root: workDir, command, title: 'erasmus worker: warm-up' }),
            provider: (id) => core.agent.provider({ provider: id }),
            protocols: () => loadProtocols(workDir),
          },
          providers,
        );
        process.stdout.write(`${new Date().toISOString()} ${warmed}\n`);
        /** The runs (with their provider) whose provider this worker was found to have. */
        const ready = new Set<string>();
        return startWorker({
          databaseUrl: url,
          concurrency: opts.concurrency ?? 1,
          providers,
          workDir,
          bridge,
          paths: core.paths,
          host: async (record, signal, start) => {
            // Once per run and provider while it is there (each step's session resolves it again, and says so should it go).
            const key = record.executor.kind === 'agent' ? `${record.runId}\0${record.executor.provider ?? ''}\0${record.executor.model ?? ''}\0${record.executor.baseUrl ?? ''}` : undefined;
            if (key && !ready.has(key)) {
              await providerReady((o) => core.agent.provider(o), core.paths.configYaml, record);
              if (ready.size >= 64) ready.clear();
              ready.add(key);
            }
            return core.workflow.componentContext(record, forward.timeline, signal, start, forward.prompt);
          },
          log: (line) => process.stdout.write(`${new Date().toISOString()} ${line}\n`),
        });
      })().catch(async (err: Error) => {
        await core.dispose();
        throw new Error(`the worker could not start on ${redactedUrl(url)}: ${err.message}`);
      });
      // Bounded: with its database gone, DBOS's shutdown waits on connections that never answer, and Ctrl-C hung.
      shutdownOnSignals({
        stopping: `stopping worker ${worker.executorID}: the components it runs go on in another worker (Ctrl-C again quits at once)`,
        stop: () => worker.stop().then(() => core.dispose()),
        quitting: `worker ${worker.executorID} quit without waiting: its components go on in another worker once DBOS sees it gone`,
        late: `worker ${worker.executorID} did not stop within ${STOP_WAIT_MS / 1000} s (is its database reachable?); leaving now`,
        boundMs: STOP_WAIT_MS,
        say: (line) => process.stdout.write(`${line}\n`),
        exit: (code) => process.exit(code),
      });
    });
}
