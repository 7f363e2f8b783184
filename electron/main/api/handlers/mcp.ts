import { ErrorCode, RpcError } from '../../../contract/index';
import type { Core } from '../core';
import { grantDepsOf } from '../grant-deps';
import { ElicitationBroker } from '../../mcp/elicitation';
import { InvalidServerError } from '../../mcp/config/edit';
import { RegistryBundles, registryLoopbackOrigin } from '../../mcp/bundle-download';
import { installBundle, installServer } from '../../mcp/install';
import { bundleInfo, readBundle } from '../../mcp/mcpb';
import { iconDataUrl } from '../../mcp/icons';
import { installInput, registryUrl, searchRegistry } from '../../mcp/registry';

/** Wraps a hub call: its errors (which name the server) become ActionFailed. */
async function act<T>(fn: () => Promise<T> | T): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    // A refused server entry carries one issue per field, for the form to show beside each.
    throw new RpcError(ErrorCode.ActionFailed, (err as Error).message, err instanceof InvalidServerError ? { issues: err.issues } : undefined);
  }
}

export function registerMcpHandlers(core: Core): void {
  const d = core.dispatcher;
  const hub = core.hub;
  // Elicitation goes to the UI by default (desktop, browser mode); a part may set another handler.
  const broker = new ElicitationBroker(core.bus, undefined, grantDepsOf(core));
  hub.setElicitationHandler(broker.handler);
  core.disposables.defer(() => broker.dispose());
  d.register('mcp.elicitation.pending', async () => ({ requests: broker.list() }));
  d.register('mcp.elicitation.respond', ({ id, action, content, always }) => act(async () => ({ delivered: await broker.respond(id, { action, content }, always) })));
  const statusAll = () => ({ servers: hub.servers(), issues: hub.configErrors() });
  d.register('mcp.servers', async () => statusAll());
  d.register('mcp.reload', async () => {
    await hub.reload();
    return statusAll();
  });
  d.register('mcp.server.restart', ({ server }) => act(() => hub.restartServer(server)));
  d.register('mcp.catalog', async () => ({ servers: hub.catalogServers() }));
  d.register('mcp.catalog.enable', ({ id, trust }) => act(() => hub.enableCatalogServer(id, { trust })));
  d.register('mcp.config.entries', () => act(async () => ({ file: hub.config.file, entries: await hub.config.entries() })));
  d.register('mcp.server.add', ({ name, server, enable }) => act(() => hub.config.add(name, server, { enable })));
  d.register('mcp.server.enable', ({ server, trust }) => act(() => hub.config.enable(server, { trust })));
  d.register('mcp.server.disable', ({ server }) => act(async () => (await hub.config.disable(server), {})));
  d.register('mcp.server.remove', ({ server }) => act(async () => (await hub.config.remove(server), {})));
  d.register('mcp.server.preview', ({ server }) => act(() => hub.config.preview(server)));
  d.register('mcp.server.trust', ({ server }) => act(() => hub.config.trustServer(server)));
  d.register('mcp.import.discover', () => act(async () => ({ candidates: await hub.config.discover() })));
  d.register('mcp.import', ({ file, names }) => act(() => hub.config.importFrom(file, names)));
  d.register('mcp.registry.search', ({ query, cursor }) =>
    act(async () => {
      const registry = registryUrl(core.env);
      return { ...(await searchRegistry(query, { baseUrl: registry, cursor })), registry };
    }),
  );
  // Registry bundles: https only (or the configured registry's own loopback origin), checked by sha256.
  const bundles = new RegistryBundles({ loopbackOrigin: registryLoopbackOrigin(registryUrl(core.env)) });
  const bundleDeps = () => ({ config: hub.config, secrets: core.secrets, extensionsDir: core.paths.extensionsDir });
  d.register('mcp.registry.bundle', ({ option }) => act(async () => bundleInfo(await bundles.get(option.bundle))));
  d.register('mcp.registry.install', ({ name, option, values, description }) =>
    act(async () => {
      if (option.kind === 'mcpb') {
        const { entry } = await installBundle(bundleDeps(), await bundles.get(option.bundle), { name, values });
        bundles.forget(option.bundle);
        return entry;
      }
      const { server, secrets } = installInput(option, values ?? {}, description);
      return installServer({ config: hub.config, secrets: core.secrets }, name, server, secrets);
    }),
  );
  d.register('mcp.bundle.inspect', ({ file }) => act(async () => bundleInfo(await readBundle(file))));
  d.register('mcp.bundle.install', ({ file, name, values }) => act(() => installBundle(bundleDeps(), file, { name, values })));
  d.register('mcp.icon', ({ src }) => act(async () => ({ dataUrl: await iconDataUrl(src) })));
  d.register('mcp.toolsets', async () => ({ toolsets: hub.toolsets() }));
  d.register('mcp.toolset.open', ({ name }) => act(() => ({ tools: hub.openToolset(name) })));
  d.register('mcp.tools', ({ server }) => act(() => ({ tools: hub.listTools(server) })));
  d.register('mcp.call', ({ server, tool, args, timeoutMs }) => act(async () => ({ ...(await hub.callTool(server, tool, args ?? {}, { timeoutMs })) })));
  d.register('mcp.resources', ({ server }) =>
    act(async () => {
      const [resources, templates] = await Promise.all([hub.listResources(server), hub.listResourceTemplates(server)]);
      return { resources: resources.map((r) => ({ ...r })), templates: templates.map((t) => ({ ...t })), ...(server ? { subscribed: hub.subscriptions(server) } : {}) };
    }),
  );
  d.register('mcp.resource.read', ({ uri, server }) => act(async () => ({ ...(await hub.readResource(uri, server)) })));
  d.register('mcp.resource.subscribe', ({ uri, server }) => act(async () => (await hub.subscribe(server, uri), {})));
  d.register('mcp.resource.unsubscribe', ({ uri, server }) => act(async () => (await hub.unsubscribe(server, uri), {})));
  d.register('mcp.prompts', ({ server }) => act(async () => ({ prompts: (await hub.listPrompts(server)).map((p) => ({ ...p })) })));
  d.register('mcp.prompt.get', ({ server, name, args }) => act(async () => ({ ...(await hub.getPrompt(server, name, args ?? {})) })));
}
