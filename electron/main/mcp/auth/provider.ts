import { randomBytes } from 'node:crypto';
import type { OAuthClientProvider, OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import { ClientCredentialsProvider, PrivateKeyJwtProvider } from '@modelcontextprotocol/sdk/client/auth-extensions.js';
import { CrossAppAccessProvider } from './cross-app';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { OAuthSettings } from '../config/schema';
import { awaitLoopbackRedirect, freeLoopbackPort } from './loopback';
import { OAuthRecordStore, type OAuthSecrets } from './store';

/** Shows the user the authorization page: the system browser (desktop), a link (browser mode, CLI), or a test's browser. */
export type OpenAuthorization = (server: string, url: string) => void | Promise<void>;

export const SIGN_IN_TIMEOUT_MS = 5 * 60_000;

/** A sign-in that did not succeed (refused, abandoned, or credentials rejected): the server waits for the user, it is not restarted in a loop. */
export class SignInError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SignInError';
  }
}

/**
 * OAuth 2.1 authorization-code sign-in for one remote server, on the SDK's auth client (discovery,
 * dynamic registration or a client-ID metadata document or a pre-registered client, PKCE, scopes,
 * refresh): this class only keeps the state in the keychain and runs the browser step with a
 * loopback redirect.
 */
export class SignInProvider implements OAuthClientProvider {
  private lastState?: string;
  private pending?: { result: Promise<{ code: string }>; abort: AbortController; url: string };

  private constructor(
    readonly server: string,
    private readonly settings: OAuthSettings,
    private readonly store: OAuthRecordStore,
    private readonly open: OpenAuthorization,
    private readonly port: number,
    private readonly timeoutMs: number,
  ) {}

  static async create(server: string, url: string, settings: OAuthSettings, secrets: OAuthSecrets | undefined, open: OpenAuthorization, timeoutMs = SIGN_IN_TIMEOUT_MS): Promise<SignInProvider> {
    const store = new OAuthRecordStore(server, url, secrets);
    // One loopback port per server, kept with the record: a registered client's redirect URI stays valid.
    let port = (await store.read()).redirectPort;
    if (!port) {
      port = await freeLoopbackPort();
      await store.update((r) => ({ ...r, redirectPort: port }));
    }
    return new SignInProvider(server, settings, store, open, port, timeoutMs);
  }

  get redirectUrl(): string {
    return `http://127.0.0.1:${this.port}/callback`;
  }

  get clientMetadataUrl(): string | undefined {
    return this.settings.clientMetadataUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'Erasmus',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      ...(this.settings.clientSecret ? {} : { token_endpoint_auth_method: 'none' }),
      ...(this.settings.scope ? { scope: this.settings.scope } : {}),
    };
  }

  state(): string {
    this.lastState = randomBytes(16).toString('base64url');
    return this.lastState;
  }

  async clientInformation(): Promise<OAuthClientInformationMixed | undefined> {
    if (this.settings.clientId) return { client_id: this.settings.clientId, ...(this.settings.clientSecret ? { client_secret: this.settings.clientSecret } : {}) };
    return (await this.store.read()).client;
  }

  async saveClientInformation(client: OAuthClientInformationMixed): Promise<void> {
    if (!this.settings.clientId) await this.store.update((r) => ({ ...r, client }));
  }

  async tokens(): Promise<OAuthTokens | undefined> {
    return (await this.store.read()).tokens;
  }

  async saveTokens(tokens: OAuthTokens): Promise<void> {
    await this.store.update((r) => ({ ...r, tokens }));
  }

  async saveCodeVerifier(verifier: string): Promise<void> {
    await this.store.update((r) => ({ ...r, verifier }));
  }

  async codeVerifier(): Promise<string> {
    const v = (await this.store.read()).verifier;
    if (!v) throw new Error(`no PKCE code verifier is saved for "${this.server}"; sign in again`);
    return v;
  }

  async saveDiscoveryState(discovery: OAuthDiscoveryState): Promise<void> {
    await this.store.update((r) => ({ ...r, discovery }));
  }

  async discoveryState(): Promise<OAuthDiscoveryState | undefined> {
    return (await this.store.read()).discovery;
  }

  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    await this.store.update((r) => ({
      url: r.url,
      redirectPort: r.redirectPort,
      client: scope === 'all' || scope === 'client' ? undefined : r.client,
      tokens: scope === 'all' || scope === 'tokens' ? undefined : r.tokens,
      verifier: scope === 'all' || scope === 'verifier' ? undefined : r.verifier,
      discovery: scope === 'all' || scope === 'discovery' ? undefined : r.discovery,
    }));
  }

  /** The SDK's browser step: listen for the redirect, then show the page. */
  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    this.pending?.abort.abort(new Error('a newer sign-in started'));
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(new Error(`nobody signed in within ${Math.round(this.timeoutMs / 1000)} s`)), this.timeoutMs);
    timer.unref?.();
    const { ready, result } = awaitLoopbackRedirect(this.port, this.lastState ?? '', this.server, abort.signal);
    void result.catch(() => {}).finally(() => clearTimeout(timer));
    this.pending = { result, abort, url: authorizationUrl.href };
    await ready;
    try {
      await this.open(this.server, authorizationUrl.href);
    } catch (err) {
      // Nobody can be shown the page: the sign-in ends now, saying why, rather than waiting out the timeout.
      abort.abort(new Error((err as Error).message));
    }
  }

  /** The authorization page the user has been sent to and not yet come back from. */
  get signInUrl(): string | undefined {
    return this.pending?.url;
  }

  /** Waits for the browser step started by `redirectToAuthorization` and returns its code (once). */
  async takeAuthorizationCode(): Promise<string> {
    const pending = this.pending;
    if (!pending) throw new SignInError('the server refused the request as unauthorized, and no sign-in could be started');
    try {
      return (await pending.result).code;
    } catch (err) {
      throw new SignInError((err as Error).message);
    } finally {
      if (this.pending === pending) this.pending = undefined;
    }
  }

  /** Forgets the sign-in: tokens, registered client and discovery (the keychain entry is removed). */
  async signOut(): Promise<void> {
    this.dispose();
    await this.store.clear();
  }

  dispose(): void {
    this.pending?.abort.abort(new Error('the server was stopped'));
    this.pending = undefined;
  }
}

/** The auth provider for a remote server's configuration, or none when its headers already carry credentials. */
export async function authProviderFor(
  server: string,
  url: string,
  settings: OAuthSettings | undefined,
  headers: Record<string, string>,
  secrets: OAuthSecrets | undefined,
  open: OpenAuthorization,
): Promise<OAuthClientProvider | undefined> {
  if (Object.keys(headers).some((h) => h.toLowerCase() === 'authorization')) return undefined;
  const s = settings ?? {};
  if (s.grant === 'cross_app_access') {
    if (!s.clientId) throw new Error('oauth.grant "cross_app_access" needs oauth.clientId (Erasmus\'s client at the server\'s authorization server)');
    if (!s.idp) throw new Error('oauth.grant "cross_app_access" needs oauth.idp');
    return new CrossAppAccessProvider({ serverUrl: url, clientId: s.clientId, clientSecret: s.clientSecret, scope: s.scope, idp: s.idp });
  }
  if (s.grant === 'client_credentials') {
    if (!s.clientId) throw new Error('oauth.grant "client_credentials" needs oauth.clientId');
    if (s.privateKey) return new PrivateKeyJwtProvider({ clientId: s.clientId, privateKey: s.privateKey, algorithm: s.signingAlgorithm ?? 'RS256', scope: s.scope, expectedIssuer: s.issuer });
    if (!s.clientSecret) throw new Error('oauth.grant "client_credentials" needs oauth.clientSecret (a ${secret:NAME} reference) or oauth.privateKey');
    return new ClientCredentialsProvider({ clientId: s.clientId, clientSecret: s.clientSecret, scope: s.scope, expectedIssuer: s.issuer });
  }
  return SignInProvider.create(server, url, s, secrets, open);
}
