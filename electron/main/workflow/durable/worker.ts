// `erasmus worker`: a process on any machine that takes durable runs' components from the DBOS queue and
// runs them, one DBOS step per component step, each in its own clone of the project's origin (under its
// work folder, outside ERASMUS_HOME, which the sandbox hides). A workflow another worker left mid-way (that
// worker died: its liveness lock is free) is taken up through DBOS recovery: its recorded steps are not
// run again, the step that was under way runs again from the checkpoint the step before it pushed.
import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import type { Paths } from '../../paths/index';
import type { RunContext } from '../run-context';
import type { RunRecord } from '../run-record';
import { runComponentStep, type LaneJob, type LaneProgress } from './component-step';
import { removeRunRefs } from './lane-git';
import { COMPONENT_QUEUE, COMPONENT_WORKFLOW, DBOS_APP, holdLiveness, migrateSystemDatabase, orphanedWorkflows, POLL_MS, RECOVERY_MS, WORKFLOW_VERSION } from './dbos';

export interface WorkerOptions {
  databaseUrl: string;
  /** How many components this worker runs at once. */
  concurrency: number;
  /** Where the clones go: <workDir>/<run>/<component>. */
  workDir: string;
  paths: Paths;
  /** The context a component's step runs in (the worker's engine: executor, sandboxed runner). */
  host: (record: RunRecord) => RunContext;
  log?: (line: string) => void;
}

export interface Worker {
  executorID: string;
  stop(): Promise<void>;
}

export async function startWorker(opts: WorkerOptions): Promise<Worker> {
  const { DBOS, Error: DBOSErrors } = await import('@dbos-inc/dbos-sdk');
  const log = opts.log ?? (() => undefined);
  const executorID = `${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`;
  // The lock first: from here on, a workflow this executor takes is known to be alive while it is.
  const liveness = await holdLiveness(opts.databaseUrl, executorID);
  await migrateSystemDatabase(opts.databaseUrl);
  DBOS.setConfig({
    name: DBOS_APP,
    systemDatabaseUrl: opts.databaseUrl,
    executorID,
    applicationVersion: WORKFLOW_VERSION,
    listenQueues: [COMPONENT_QUEUE],
    logLevel: process.env.ERASMUS_DBOS_LOG ?? 'error',
  });
  DBOS.registerWorkflow(
    async (job: LaneJob): Promise<LaneProgress> => {
      const dir = join(opts.workDir, job.runId, job.component);
      let progress = job.start;
      // The run was abandoned (its workflow cancelled): what this worker pushed after the run cleaned origin goes too.
      let left = false;
      const abandoned = async () => {
        if (left) return;
        left = true;
        const removed = await removeRunRefs(dir, job.runId, job.component).then(
          () => 'its refs on origin and this clone are gone',
          (err: Error) => `this clone is gone; its refs on origin stay: ${err.message}`,
        );
        await rm(dir, { recursive: true, force: true });
        log(`component ${job.component} of run ${job.runId}: the run was abandoned; ${removed}`);
      };
      try {
        while (!progress.done && !progress.failed) {
          const before = progress;
          progress = await DBOS.runStep(
            async () => {
              log(`component ${job.component} of run ${job.runId}: step ${before.steps + 1}${before.lane.state ? ` (after ${before.lane.state})` : ''}`);
              const after = await runComponentStep(job, before, dir, opts.paths, opts.host);
              // Asked, not watched: DBOS's cancel signal is polled, and a last step would return before it fires.
              if ((await DBOS.getWorkflowStatus(DBOS.workflowID!))?.status === 'CANCELLED') await abandoned();
              return after;
            },
            { name: `${job.component} step ${before.steps + 1}` },
          );
        }
      } catch (err) {
        if (err instanceof DBOSErrors.DBOSWorkflowCancelledError) await abandoned();
        throw err;
      }
      if (progress.done) await rm(dir, { recursive: true, force: true });
      log(`component ${job.component} of run ${job.runId}: ${progress.done ? 'committed and pushed' : `blocked: ${progress.failed}`}`);
      return progress;
    },
    { name: COMPONENT_WORKFLOW },
  );
  await DBOS.launch();
  await DBOS.registerQueue(COMPONENT_QUEUE, { workerConcurrency: opts.concurrency, minPollingIntervalMs: POLL_MS, onConflict: 'always_update' });
  log(`worker ${executorID} takes components from queue ${COMPONENT_QUEUE} (at most ${opts.concurrency} at once)`);

  // DBOS recovery of what a dead worker left: its workflows go back on the queue, a live worker takes them.
  let stopping = false;
  const recovery = (async () => {
    while (!stopping) {
      try {
        const pending = await DBOS.listWorkflows({ status: 'PENDING', queueName: COMPONENT_QUEUE, workflowName: COMPONENT_WORKFLOW });
        for (const id of await orphanedWorkflows(pending, liveness, executorID)) {
          log(`recovering ${id}: the worker that ran it is gone`);
          await DBOS.resumeWorkflow(id, { queueName: COMPONENT_QUEUE });
        }
      } catch (err) {
        if (!stopping) log(`recovery check failed: ${(err as Error).message}`);
      }
      await new Promise((r) => setTimeout(r, RECOVERY_MS));
    }
  })();

  return {
    executorID,
    async stop() {
      stopping = true;
      await recovery;
      await DBOS.shutdown();
      await liveness.end().catch(() => undefined);
    },
  };
}
