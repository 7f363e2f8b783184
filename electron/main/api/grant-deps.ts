import type { GrantDeps } from '../mcp/elicitation';
import type { Core } from './core';

/**
 * "Always allow" as every face of one core applies it: the kept answers, the hub's open project and
 * the run driving it now, and which servers are Erasmus's own (in-process).
 */
export function grantDepsOf(core: Core): GrantDeps {
  return {
    grants: core.approvalGrants,
    place: () => {
      const project = core.hub.project;
      const runId = project ? core.workflow.drivingRun(project) : undefined;
      return project ? { project, ...(runId ? { runId } : {}) } : undefined;
    },
    builtin: (server) => core.hub.servers().some((s) => s.name === server && s.transport === 'in-process'),
  };
}
