import type { GrantDeps } from '../mcp/elicitation';
import { setRunnerSettings } from '../settings/runners';
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

/** "Allow <host>" as the app's card does it (settings.runners.set): the hosts join the project's allowed hosts, its settings.json trusted first. */
export function allowHostsOf(core: Core): (project: string, hosts: string[]) => Promise<unknown> {
  return (project, hosts) => setRunnerSettings(project, { allowHosts: hosts }, core.hub.projectTrust);
}
