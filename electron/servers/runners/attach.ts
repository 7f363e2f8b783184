import type { Core } from '../../main/api/core';
import type { ScriptReviewer } from '../../main/runners/review/index';
import { createRunnersServer } from './server';
import { RUNNER_TOOLS } from './toolsets/index';
import { listedToolchains } from './toolchains';

export interface AttachRunnersOptions {
  /** The hub's name for the server (default `runners`). */
  name?: string;
  /** The script reviewer for a project root (the agent's provider builds it); none: scripts run unreviewed, and the result says so. */
  reviewer?: (root: string) => ScriptReviewer | undefined;
  /** Attach for this folder now (otherwise on the next `project.opened`). */
  root?: string;
}

export interface AttachedRunners {
  /** Re-creates the server for another project folder. */
  setRoot(root: string): Promise<void>;
  readonly root: string | undefined;
  dispose(): Promise<void>;
}

/**
 * Runs the runners MCP server in-process on the core's hub, with the core's PTYs (so every command
 * shows live in the terminal view), following the open project. The server asks for its own
 * approvals through elicitation (the hub turns them into approval cards), so its tools are
 * marked always-allowed for the agent's hint-based policy: no double prompt for every `ls`.
 */
export async function attachRunners(core: Core, options: AttachRunnersOptions = {}): Promise<AttachedRunners> {
  const name = options.name ?? 'runners';
  let current: string | undefined;
  let chain: Promise<void> = Promise.resolve();
  const setRoot = (root: string): Promise<void> => {
    chain = chain.then(async () => {
      if (root === current) return;
      await core.hub.removeServer(name);
      const server = createRunnersServer({ root, ptys: core.ptys, runner: core.runner, reviewer: options.reviewer?.(root), projectTrust: core.hub.projectTrust, erasmusHome: core.paths.home, version: core.version });
      await core.hub.addInProcessServer(name, server, {
        description: `Run commands in the project folder: ${[...listedToolchains(root)].join(', ')} (others by name)`,
        alwaysAllow: RUNNER_TOOLS.map((t) => t.name),
      });
      current = root;
    });
    return chain;
  };
  const off = core.bus.onEvent('project.opened', (p) => {
    void setRoot(p.path).catch((err: Error) => core.bus.emit('app.notice', { level: 'error', message: `runners: ${err.message}` }));
  });
  if (options.root) await setRoot(options.root);
  const attached: AttachedRunners = {
    setRoot,
    get root() {
      return current;
    },
    async dispose() {
      off();
      await chain.catch(() => {});
      await core.hub.removeServer(name);
    },
  };
  core.disposables.add(attached);
  return attached;
}
