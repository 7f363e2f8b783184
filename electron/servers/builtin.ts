import type { Core } from '../main/api/core';
import type { ScriptReviewer } from '../main/runners/review/index';
import { createModelReviewer } from '../main/runners/review/index';
import { createFilesServer } from './files/index';
import { FILE_TOOLS } from './files/tools';
import { attachRunners } from './runners/index';

export interface BuiltinOptions {
  /** Attach for this project folder now (otherwise on the next `project.opened`). */
  root?: string;
  /** config.yaml to take the reviewer's model from (default: ERASMUS_HOME/config.yaml). */
  configFile?: string;
}

/**
 * Script review with the session's model (the provider of the session started last, however it was
 * given), else the configured default, resolved when a review is needed (so a face can start before a
 * provider is configured). No usable model → the script is rejected, with the reason.
 */
export function configuredReviewer(core: Core, configFile?: string): ScriptReviewer {
  return {
    async review(request, signal) {
      let handle;
      try {
        handle = await core.agent.helperProvider(configFile);
      } catch (err) {
        return { verdict: 'reject', reasons: [`no model for script review: ${(err as Error).message} (or switch review off for this project in .erasmus/settings.json: {"runners": {"review": false}})`] };
      }
      if (!handle.languageModel) return { verdict: 'reject', reasons: [`provider ${handle.id} cannot make one-shot calls for script review`] };
      return createModelReviewer({ model: handle.languageModel }).review(request, signal);
    },
  };
}

/**
 * Erasmus's own toolsets, in-process on the core's hub, following the open project: the runners
 * (commands in real PTYs, visible in the terminal view) and the scoped filesystem. Every face that
 * runs agent sessions (desktop, serve, chat, the Erasmus MCP server) calls this once.
 */
export interface BuiltinServers {
  /** Points both servers at another project folder; resolves once they serve it. */
  setRoot(root: string): Promise<void>;
}

export async function attachBuiltinServers(core: Core, options: BuiltinOptions = {}): Promise<BuiltinServers> {
  if (core.disposables.isDisposed) return { setRoot: async () => undefined }; // the face quit while starting
  const reviewer = configuredReviewer(core, options.configFile);
  const runners = await attachRunners(core, { reviewer: () => reviewer, ...(options.root ? { root: options.root } : {}) });
  let current: string | undefined;
  let chain: Promise<void> = Promise.resolve();
  const setRoot = (root: string): Promise<void> =>
    (chain = chain.then(async () => {
      if (root === current) return;
      await core.hub.removeServer('files');
      await core.hub.addInProcessServer('files', createFilesServer({ root }), {
        description: 'Read, write, move and search files in the project folder',
        // The server asks for its own destructive cases (overwrite, remove, move over a file) through
        // elicitation, knowing the real circumstances; the agent's policy does not ask a second time.
        alwaysAllow: Object.keys(FILE_TOOLS),
      });
      current = root;
    }));
  const off = core.bus.onEvent('project.opened', (p) => {
    void setRoot(p.path).catch((err: Error) => core.bus.emit('app.notice', { level: 'error', message: `files: ${err.message}` }));
  });
  core.disposables.defer(async () => {
    off();
    await chain.catch(() => {});
    await core.hub.removeServer('files');
  });
  if (options.root) await setRoot(options.root);
  const builtins: BuiltinServers = { setRoot: async (root) => void (await Promise.all([runners.setRoot(root), setRoot(root)])) };
  core.builtins = builtins;
  return builtins;
}
