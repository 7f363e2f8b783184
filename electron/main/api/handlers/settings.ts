import { join } from 'node:path';
import { ErrorCode, RpcError } from '../../../contract/index';
import { resourcesDir } from '../../paths/index';
import { KeychainUnavailableError } from '../../secrets/index';
import * as settings from '../../settings/index';
import { probeProvider } from '../../agent/providers/probe';
import type { Core } from '../core';

/** A refused change or an unavailable keychain is a failed action whose message the view shows as is. */
async function action<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof settings.SettingsError) throw new RpcError(ErrorCode.ActionFailed, err.message, err.field ? { field: err.field } : undefined);
    if (err instanceof KeychainUnavailableError) throw new RpcError(ErrorCode.ActionFailed, err.message, { kind: 'keychain-unavailable' });
    throw err;
  }
}

/** settings.*: providers and agent defaults in config.yaml, a project's runner settings, prompt sections. */
export function registerSettingsHandlers(core: Core): void {
  const d = core.dispatcher;
  const file = core.paths.configYaml;
  const dirs: settings.PromptDirs = { builtin: join(resourcesDir(), 'prompts'), overrides: core.paths.promptsDir };
  d.register('settings.providers.list', () => action(() => settings.listProviders(file)));
  d.register('settings.providers.add', (p) => action(() => settings.addProvider(file, core.secrets, p.provider, p.key)));
  d.register('settings.providers.update', (p) => action(() => settings.updateProvider(file, core.secrets, p.id, p.provider, p.key)));
  d.register('settings.providers.remove', (p) => action(() => settings.removeProvider(file, p.id)));
  d.register('settings.providers.setDefault', (p) => action(() => settings.setDefaultProvider(file, p.id)));
  d.register('settings.providers.test', ({ id }) => probeProvider(() => core.agent.provider(id ? { provider: id } : {})));
  d.register('settings.agent.get', () => action(() => settings.getAgentDefaults(file)));
  d.register('settings.agent.set', (p) => action(() => settings.setAgentDefaults(file, p)));
  d.register('settings.runners.get', (p) => action(() => settings.getRunnerSettings(p.project, core.hub.projectTrust)));
  d.register('settings.runners.set', ({ project, ...changes }) => action(() => settings.setRunnerSettings(project, changes, core.hub.projectTrust)));
  d.register('settings.prompts.list', () => action(async () => ({ sections: await settings.listPromptSections(dirs), dir: dirs.overrides })));
  d.register('settings.prompts.get', (p) => action(() => settings.getPromptSection(dirs, p.name)));
  d.register('settings.prompts.set', (p) => action(() => settings.setPromptSection(dirs, p.name, p.body)));
  d.register('settings.prompts.reset', (p) => action(async () => ({ deleted: await settings.resetPromptSection(dirs, p.name) })));
}
