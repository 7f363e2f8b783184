import { resolve } from 'node:path';
import { ErrorCode, RpcError } from '../../../contract/index';
import { FileTextScope, readFileText } from '../../project/fileText';
import { inspectProject, projectFolder, RecentProjects } from '../../project/inspect';
import { isRepository, makeRepository } from '../../workflow/git';
import type { ProjectSummary } from '../../../contract/index';
import type { Core } from '../core';

/**
 * Opens a project in the core, for every face that opens one: the hub follows it (roots, ${workspaceFolder}, its
 * .erasmus/mcp.json) before anyone hears of it, and Erasmus's own toolsets serve it before this resolves.
 */
export async function openProject(core: Core, path: string): Promise<ProjectSummary> {
  let summary;
  try {
    summary = await inspectProject(path);
  } catch (err) {
    throw new RpcError(ErrorCode.ActionFailed, (err as Error).message);
  }
  await new RecentProjects(core.paths.recentProjects).add(summary);
  await core.hub.setProject(summary.path).catch((err: Error) => core.bus.emit('app.notice', { level: 'error', message: `MCP servers for ${summary.path}: ${err.message}` }));
  core.bus.emit('project.opened', summary);
  await core.builtins?.setRoot(summary.path).catch((err: Error) => core.bus.emit('app.notice', { level: 'error', message: `Erasmus's files and runners toolsets for ${summary.path}: ${err.message}` }));
  return summary;
}

export function registerProjectHandlers(core: Core): void {
  core.dispatcher.register('project.open', ({ path }) => openProject(core, path));
  core.dispatcher.register('project.chooseFolder', async () => {
    if (!core.host.chooseFolder) return { path: null, supported: false };
    return { path: await core.host.chooseFolder(), supported: true };
  });
  const trustAction = async <T>(fn: () => Promise<T>): Promise<T> => {
    try {
      return await fn();
    } catch (err) {
      throw new RpcError(ErrorCode.ActionFailed, (err as Error).message);
    }
  };
  core.dispatcher.register('project.trust.list', ({ path }) =>
    trustAction(async () => ({ project: resolve(path), files: await core.hub.projectTrust.files(resolve(path)) })),
  );
  core.dispatcher.register('project.trust.grant', ({ path, files }) =>
    trustAction(async () => {
      const project = resolve(path);
      await core.hub.projectTrust.trust(project, { files: files.map((f) => f.path), expect: Object.fromEntries(files.map((f) => [f.path, f.sha256])) });
      await core.hub.reload(); // a trusted .erasmus/mcp.json takes effect now
      return { project, files: await core.hub.projectTrust.files(project) };
    }),
  );
  core.dispatcher.register('project.approvals.list', ({ path }) => trustAction(async () => ({ kinds: await core.approvalGrants.list(path) })));
  core.dispatcher.register('project.approvals.revoke', ({ path, kind }) =>
    trustAction(async () => {
      await core.approvalGrants.revoke(path, kind);
      return { kinds: await core.approvalGrants.list(path) };
    }),
  );
  // project.fileText reads only the open project and the files that waiting approvals name.
  const scope = new FileTextScope();
  core.bus.onEvent('project.opened', (p) => scope.setProject(p.path));
  core.bus.onEvent('agent.event', (e) => {
    if (e.type === 'approval_required') {
      const path = [e.args.path, e.args.file, e.args.filePath].find((v): v is string => typeof v === 'string');
      if (path) scope.addPending(`${e.sessionId}:${e.requestId}`, path);
    } else if (e.type === 'approval_resolved') scope.removePending(`${e.sessionId}:${e.requestId}`);
  });
  core.dispatcher.register('project.fileText', async ({ path }) => {
    try {
      await scope.check(path);
      return await readFileText(path);
    } catch (err) {
      throw new RpcError(ErrorCode.ActionFailed, (err as Error).message);
    }
  });
  core.dispatcher.register('project.makeRepository', ({ path }) =>
    trustAction(async () => {
      const dir = await projectFolder(path);
      if (await isRepository(dir)) throw new Error(`${dir} is a git repository already`);
      const made = await makeRepository(dir);
      // Opened again: every face hears the project is a repository now (project.opened), and its runners follow.
      const project = await openProject(core, dir);
      return { project, committed: 'committed' in made ? made.committed : 0, held: 'held' in made ? made.held : [] };
    }),
  );
  core.dispatcher.register('project.recent', async () => ({ projects: await new RecentProjects(core.paths.recentProjects).list() }));
}
