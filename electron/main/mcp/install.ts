import type { McpServerInput } from '../../contract/index';
import type { ConfigEntryView, ServerConfigEditor } from './config/manage';

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
