import { ErrorCode, RpcError } from '../../../contract/index';
import { readFileText } from '../../project/fileText';
import { inspectProject, RecentProjects } from '../../project/inspect';
import type { Core } from '../core';

export function registerProjectHandlers(core: Core): void {
  const recent = new RecentProjects(core.paths.recentProjects);
  core.dispatcher.register('project.open', async ({ path }) => {
    let summary;
    try {
      summary = await inspectProject(path);
    } catch (err) {
      throw new RpcError(ErrorCode.ActionFailed, (err as Error).message);
    }
    await recent.add(summary);
    core.bus.emit('project.opened', summary);
    return summary;
  });
  core.dispatcher.register('project.chooseFolder', async () => {
    if (!core.host.chooseFolder) return { path: null, supported: false };
    return { path: await core.host.chooseFolder(), supported: true };
  });
  core.dispatcher.register('project.fileText', async ({ path }) => {
    try {
      return await readFileText(path);
    } catch (err) {
      throw new RpcError(ErrorCode.ActionFailed, (err as Error).message);
    }
  });
  core.dispatcher.register('project.recent', async () => ({ projects: await recent.list() }));
}
