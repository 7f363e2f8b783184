import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { McpServerInput } from '../../contract/index';
import type { TrustPreview } from './catalog';
import type { ConfigEntryView, ServerConfigEditor } from './config/manage';
import { bundleServer, bundleServerName, readBundle, unpackBundle, type Bundle } from './mcpb';

export interface InstallDeps {
  config: Pick<ServerConfigEditor, 'add' | 'remove'>;
  /** The keychain (`${secret:NAME}` values). */
  secrets: { set(name: string, value: string): Promise<void> };
}

/**
 * Adds a server from the registry or a bundle to ERASMUS_HOME/mcp/config.json, disabled: its first
 * enable shows what it runs and asks for trust. Its secret values go to the keychain; if the keychain
 * refuses one, the entry is taken out again, so nothing refers to a secret that is not there.
 */
export async function installServer(d: InstallDeps, name: string, server: McpServerInput, secrets: Record<string, string>): Promise<ConfigEntryView> {
  const view = await d.config.add(name, server, { enable: false });
  try {
    for (const [key, value] of Object.entries(secrets)) await d.secrets.set(key, value);
  } catch (err) {
    await d.config.remove(name).catch(() => undefined);
    throw new Error(`server "${name}" was not added: its secret could not be stored in the keychain: ${(err as Error).message}`);
  }
  return view;
}

export interface BundleInstallDeps extends InstallDeps {
  config: Pick<ServerConfigEditor, 'add' | 'remove' | 'entries' | 'preview'>;
  extensionsDir: string;
}

/**
 * Installs a `.mcpb` bundle (a file, or one already read: a checked download from the registry): checks
 * it, refuses a name already configured, unpacks it under `extensionsDir/<name>/`, and adds it disabled
 * (secrets to the keychain). Returns the entry and what it runs, for the trust question before its first
 * start. A failure leaves nothing behind.
 */
export async function installBundle(d: BundleInstallDeps, source: string | Bundle, opts: { name?: string; values?: Record<string, string> } = {}): Promise<{ entry: ConfigEntryView; preview: TrustPreview }> {
  const bundle = typeof source === 'string' ? await readBundle(source) : source;
  const name = opts.name?.trim() || bundleServerName(bundle.manifest);
  if ((await d.config.entries()).some((e) => e.name === name)) throw new Error(`a server named "${name}" is configured already; remove it first, or install the bundle under another name`);
  const dir = join(d.extensionsDir, name);
  // Answers are checked before anything is written.
  const { server, secrets } = bundleServer(bundle, name, dir, opts.values ?? {});
  await unpackBundle(bundle, dir);
  try {
    const entry = await installServer(d, name, server, secrets);
    return { entry, preview: await d.config.preview(name) };
  } catch (err) {
    await rm(dir, { recursive: true, force: true });
    throw err;
  }
}
