import type { OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { SecretStore } from '../../secrets/index';

/** What one server's sign-in keeps: everything here is a credential or leads to one, so all of it lives in the keychain. */
export interface OAuthRecord {
  /** The server URL the record belongs to; a record for another URL is ignored. */
  url: string;
  /** The loopback port of the redirect URI (kept so that a registered client stays valid). */
  redirectPort?: number;
  tokens?: OAuthTokens;
  client?: OAuthClientInformationMixed;
  verifier?: string;
  discovery?: OAuthDiscoveryState;
}

export type OAuthSecrets = Pick<SecretStore, 'get' | 'set' | 'delete'>;

/** The keychain entry holding a server's OAuth record. */
export function oauthSecretName(server: string): string {
  return `mcp-oauth:${server}`;
}

/**
 * A server's OAuth record in the keychain (one entry, JSON). Without a keychain the record lives in
 * this process's memory only: a sign-in then lasts until Erasmus quits, and nothing reaches a file.
 */
export class OAuthRecordStore {
  private memory?: OAuthRecord;

  constructor(
    private readonly server: string,
    private readonly url: string,
    private readonly secrets?: OAuthSecrets,
  ) {}

  async read(): Promise<OAuthRecord> {
    if (!this.secrets) return this.memory ?? { url: this.url };
    const raw = await this.secrets.get(oauthSecretName(this.server));
    if (!raw) return { url: this.url };
    try {
      const rec = JSON.parse(raw) as OAuthRecord;
      return rec.url === this.url ? rec : { url: this.url };
    } catch {
      return { url: this.url };
    }
  }

  async update(change: (rec: OAuthRecord) => OAuthRecord): Promise<void> {
    const next = change(await this.read());
    if (!this.secrets) {
      this.memory = next;
      return;
    }
    await this.secrets.set(oauthSecretName(this.server), JSON.stringify(next));
  }

  async clear(): Promise<void> {
    this.memory = undefined;
    await this.secrets?.delete(oauthSecretName(this.server));
  }
}
