import { createPipePair } from '../../contract/index';
import { attachBuiltinServers } from '../builtin';
import { Core } from '../../main/api/core';
import { loadAgentConfig, resolveProvider } from '../../main/agent/providers/config';
import type { ProviderHandle } from '../../main/agent/providers/types';
import type { Paths } from '../../main/paths/index';
import { Redactor, SecretStore } from '../../main/secrets/index';
import { localChat, remoteChat, type ChatBackend } from './chat';
import { connectLink, CoreLink } from './link';
import type { ServerSettings } from './settings';

/** What the server sessions share: one core (or one connection), the model, the settings. */
export interface ErasmusBackend {
  link: () => Promise<CoreLink>;
  chat: () => ChatBackend;
  provider: () => Promise<ProviderHandle>;
  dispose(): Promise<void>;
}

export interface BackendOptions {
  paths: Paths;
  version: string;
  env: NodeJS.ProcessEnv;
  settings: ServerSettings;
  /** ws://127.0.0.1:PORT?token=… of a running Erasmus; absent: a core in this process. */
  connect?: string;
  log: (message: string) => void;
}

function once<T>(make: () => Promise<T>): () => Promise<T> {
  let p: Promise<T> | undefined;
  return () => (p ??= make().catch((err: unknown) => {
    p = undefined;
    throw err;
  }));
}

/**
 * Local mode: a core in this process, created on first use; its MCP hub (Erasmus's toolsets) is
 * started the first time the agent runs. Connected mode: the contract of a running Erasmus over
 * its WebSocket, reconnected (with the same timeout and retries) if it drops.
 */
export function createBackend(o: BackendOptions): ErasmusBackend {
  const secrets = new SecretStore(new Redactor());
  const provider = async () => resolveProvider(await loadAgentConfig(o.paths.configYaml), {}, { env: o.env, secret: (name) => secrets.get(name), credentialFromEnv: (name, value) => secrets.learn(`env:${name}`, value) });
  if (o.connect) {
    const url = o.connect;
    let pending: Promise<CoreLink> | undefined;
    let current: CoreLink | undefined;
    const link = (): Promise<CoreLink> => {
      if (pending) return pending;
      const mine: Promise<CoreLink> = connectLink(url, { timeoutMs: o.settings.connectTimeoutMs, retries: o.settings.connectRetries, log: o.log }).then(
        (l) => {
          current = l;
          l.onClose(() => {
            o.log(`connection to ${l.where} closed`);
            if (pending === mine) pending = undefined;
          });
          return l;
        },
        (err: unknown) => {
          if (pending === mine) pending = undefined;
          throw err;
        },
      );
      pending = mine;
      return mine;
    };
    return { link, chat: () => remoteChat(link), provider, dispose: async () => current?.close() };
  }
  let core: Core | undefined;
  const getCore = once(async () => (core = new Core({ face: 'cli', version: o.version, home: o.paths.home, env: o.env })));
  const link = once(async () => {
    const c = await getCore();
    const [ours, theirs] = createPipePair();
    c.connect(theirs, 'cli');
    return new CoreLink(ours, 'this process');
  });
  const withHub = once(async () => {
    const c = await getCore();
    await c.hub.start();
    for (const issue of c.hub.configErrors()) o.log(`mcp config: ${issue.file}${issue.entry ? ` (${issue.entry})` : ''}: ${issue.message}`);
    // Erasmus's own toolsets (runners, files), pointed at each chat's project folder.
    const builtin = await attachBuiltinServers(c);
    return { core: c, builtin };
  });
  const prepared = async (project?: string) => {
    const { core: c, builtin } = await withHub();
    // Without a project folder, the tools work where the server was started (as `erasmus chat` does).
    await builtin.setRoot(project ?? process.cwd());
    return c;
  };
  return { link, chat: () => localChat(prepared), provider, dispose: async () => core?.dispose() };
}
