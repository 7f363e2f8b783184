import { ErrorCode, RpcError } from '../../../contract/index';
import { ProjectTrust } from '../../project/trust';
import { WorkflowError, type DocRef, type ExecutorConfig } from '../../workflow/index';
import { preflightMessage, workflowPreflight } from '../../workflow/preflight';
import type { Core } from '../core';
import { openProject } from './project';

/**
 * Before a run is driven (resume, retry, skip, approve, start, an answered goal): its project is the core's open
 * one, with Erasmus's own toolsets serving it. A core started again under an open tab (`erasmus serve` killed and
 * restarted) has no project open until then, and its first step would find only the user's servers.
 */
async function openRunProject(core: Core, runId: string): Promise<void> {
  const { projectDir } = await core.workflow.status(runId);
  const served = !core.builtins || (core.hub.server('files')?.state === 'ready' && core.hub.server('runners')?.state === 'ready');
  if (core.hub.project === projectDir && served) return;
  await openProject(core, projectDir);
}

/**
 * An agent run needs a model and every toolset its protocols name: checked before the run is created
 * and again when it starts, with the same check as `erasmus workflow start`. Refused with
 * `data: { kind: 'PREFLIGHT', problems }`, which the app shows with a way to fix each.
 */
async function checkAgentRun(core: Core, projectDir: string, executor: ExecutorConfig): Promise<void> {
  if (executor.kind !== 'agent') return;
  const problems = await workflowPreflight({
    projectDir,
    availableToolsets: core.hub.toolsets().map((t) => t.name),
    provider: () => core.agent.provider({ provider: executor.provider, model: executor.model, baseUrl: executor.baseUrl }),
    trust: new ProjectTrust(core.paths.projectTrustFile),
  });
  if (problems.length) throw new RpcError(ErrorCode.ActionFailed, preflightMessage(problems), { kind: 'PREFLIGHT', problems });
}

/** Turns a workflow error into a JSON-RPC error with its own code and the details (file, field, issues). */
function rpc<T>(fn: () => Promise<T>): Promise<T> {
  return fn().catch((err: unknown) => {
    if (err instanceof WorkflowError) throw new RpcError(err.code, err.message, { kind: err.kind, ...err.details });
    if (err instanceof RpcError) throw err;
    throw new RpcError(ErrorCode.ActionFailed, (err as Error).message);
  });
}

function docRef(doc: 'architecture' | 'progress_schedule' | 'task_list' | 'component', component?: string): DocRef {
  if (doc !== 'component') return { doc };
  if (!component) throw new RpcError(ErrorCode.InvalidParams, 'doc "component" needs a component id');
  return { doc, component };
}

/** workflow.*: the engine in core.workflow; events go out as workflow.* and app.notify. */
export function registerWorkflowHandlers(core: Core): void {
  const wf = () => core.workflow;
  const d = core.dispatcher;
  d.register('workflow.load', (p) =>
    rpc(async () => {
      let executor: ExecutorConfig;
      if (p.executor === 'command') {
        if (!p.command) throw new RpcError(ErrorCode.InvalidParams, 'executor "command" needs a command');
        executor = { kind: 'command', command: p.command };
      } else if (p.executor === 'agent') executor = { kind: 'agent', provider: p.provider, model: p.model, baseUrl: p.baseUrl, toolMode: p.toolMode, autoApprove: p.autoApprove, ...(p.maxCostUsd ? { maxCostUsd: p.maxCostUsd } : {}) };
      else executor = { kind: 'external' };
      await checkAgentRun(core, p.projectDir, executor);
      return wf().load({ projectDir: p.projectDir, goal: p.goal, executor, dirtyTree: p.dirtyTree, branch: p.branch, ...(p.parallel ? { parallel: p.parallel } : {}), ...(p.documents ? { documents: p.documents } : {}) });
    }),
  );
  d.register('workflow.start', ({ runId, parallel }) =>
    rpc(async () => {
      await openRunProject(core, runId);
      const run = await wf().status(runId);
      if (run.status === 'LOADED') await checkAgentRun(core, run.projectDir, (await wf().get(runId)).record.executor);
      return { status: await wf().start(runId, { parallel }) };
    }),
  );
  d.register('workflow.getTask', ({ runId, timeoutMs }) => rpc(() => wf().getTask(runId, timeoutMs)));
  d.register('workflow.submitTask', ({ runId, state, result }) => rpc(() => wf().submitTask(runId, result, state)));
  d.register('workflow.status', ({ runId }) => rpc(() => wf().status(runId)));
  d.register('workflow.list', ({ projectDir }) => rpc(async () => ({ runs: await wf().list(projectDir) })));
  d.register('workflow.runs', ({ projectDir, limit }) => rpc(async () => ({ runs: await wf().runSteps(projectDir, limit) })));
  d.register('workflow.latest', ({ projectDir }) => rpc(async () => ({ runId: await wf().latest(projectDir) })));
  d.register('workflow.answerGoal', ({ runId, goal }) => rpc(async () => (await openRunProject(core, runId), { status: await wf().answerGoal(runId, goal) })));
  d.register('workflow.plan', ({ runId }) => rpc(() => wf().plan(runId)));
  d.register('workflow.report', ({ runId }) => rpc(() => wf().report(runId)));
  d.register('workflow.finish', ({ runId, choice }) => rpc(() => wf().finish(runId, choice)));
  d.register('workflow.drift', ({ projectDir }) => rpc(async () => ({ documents: await wf().drift(projectDir) })));
  d.register('workflow.approve', ({ runId, plan, parallel }) => rpc(async () => (await openRunProject(core, runId), { status: await wf().approve(runId, plan, { parallel }) })));
  d.register('workflow.pause', ({ runId }) => rpc(async () => ({ status: await wf().pause(runId) })));
  d.register('workflow.resume', ({ runId, parallel }) => rpc(async () => (await openRunProject(core, runId), { status: await wf().resume(runId, { parallel }) })));
  d.register('workflow.stop', ({ runId }) => rpc(async () => ({ status: await wf().stop(runId) })));
  d.register('workflow.retry', ({ runId, component, answer }) => rpc(async () => (await openRunProject(core, runId), { status: await wf().retry(runId, { component, answer }) })));
  d.register('workflow.skip', ({ runId, component }) => rpc(async () => (await openRunProject(core, runId), { status: await wf().skip(runId, { component }) })));
  d.register('workflow.abandon', ({ runId }) =>
    rpc(async () => {
      const { status, kept, note } = await wf().abandon(runId);
      return { status, ...(kept.length ? { kept } : {}), ...(note ? { note } : {}) };
    }),
  );
  d.register('workflow.checkpoints', ({ runId }) => rpc(async () => ({ checkpoints: await wf().checkpoints(runId) })));
  d.register('workflow.rewindPreview', ({ runId, checkpointId }) => rpc(() => wf().rewindPreview(runId, checkpointId)));
  d.register('workflow.rewind', ({ runId, checkpointId }) => rpc(() => wf().rewind(runId, checkpointId)));
  d.register('workflow.stepPrompt', ({ runId, index }) => rpc(async () => ({ prompt: await wf().stepPrompt(runId, index) })));
  d.register('workflow.docs.read', ({ projectDir, doc, component }) => rpc(() => wf().readDoc(projectDir, docRef(doc, component))));
  d.register('workflow.docs.write', ({ projectDir, doc, component, text }) => rpc(() => wf().writeDoc(projectDir, docRef(doc, component), text)));
}
