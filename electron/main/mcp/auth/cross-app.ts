import type { OAuthClientProvider, OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { z } from 'zod';

const TOKEN_EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange';
const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
const ID_TOKEN = 'urn:ietf:params:oauth:token-type:id_token';
const ID_JAG = 'urn:ietf:params:oauth:token-type:id-jag';

export interface CrossAppAccessOptions {
  /** The MCP server's URL (the resource, unless its protected-resource metadata names another). */
  serverUrl: string;
  /** Erasmus's client at the MCP server's authorization server. */
  clientId: string;
  clientSecret?: string;
  scope?: string;
  idp: {
    /** The identity provider's token endpoint, or its issuer (the endpoint is then discovered). */
    tokenEndpoint?: string;
    issuer?: string;
    /** Erasmus's client at the identity provider, when it wants one named. */
    clientId?: string;
    clientSecret?: string;
    /** The ID token the identity provider issued to Erasmus for the user. */
    idToken: string;
  };
  fetchFn?: typeof fetch;
}

const ExchangeAnswer = z.object({ access_token: z.string().min(1), issued_token_type: z.literal(ID_JAG) });
const OidcConfiguration = z.object({ token_endpoint: z.string().url() });

/**
 * Enterprise-managed authorization (SEP-990, "cross-app access"), with no browser: the ID token the
 * user's enterprise identity provider issued to Erasmus is exchanged there (RFC 8693 token exchange)
 * for an identity assertion grant (ID-JAG) addressed to the MCP server's authorization server and
 * naming the server as its resource; that grant is then presented to the authorization server as a
 * JWT bearer grant (RFC 7523) with Erasmus's client credentials. The SDK's auth flow drives it: the
 * discovery it saves names the authorization server, `prepareTokenRequest` makes the exchange.
 */
export class CrossAppAccessProvider implements OAuthClientProvider {
  private client: OAuthClientInformationMixed;
  private saved: OAuthTokens | undefined;
  private discovery: OAuthDiscoveryState | undefined;
  private readonly fetchFn: typeof fetch;

  constructor(private readonly options: CrossAppAccessOptions) {
    this.client = { client_id: options.clientId, ...(options.clientSecret ? { client_secret: options.clientSecret } : {}) };
    this.fetchFn = options.fetchFn ?? fetch;
  }

  get redirectUrl(): undefined {
    return undefined;
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'Erasmus',
      redirect_uris: [],
      grant_types: [JWT_BEARER],
      token_endpoint_auth_method: this.options.clientSecret ? 'client_secret_basic' : 'none',
      ...(this.options.scope ? { scope: this.options.scope } : {}),
    };
  }
  clientInformation(): OAuthClientInformationMixed {
    return this.client;
  }
  saveClientInformation(info: OAuthClientInformationMixed): void {
    this.client = info;
  }
  tokens(): OAuthTokens | undefined {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens): void {
    this.saved = tokens;
  }
  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.discovery = state;
  }
  discoveryState(): OAuthDiscoveryState | undefined {
    return this.discovery;
  }
  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): void {
    if (scope === 'all' || scope === 'tokens') this.saved = undefined;
    if (scope === 'all' || scope === 'discovery') this.discovery = undefined;
  }
  redirectToAuthorization(): void {
    throw new Error('enterprise-managed authorization (oauth.grant "cross_app_access") signs in without a browser');
  }
  saveCodeVerifier(): void {}
  codeVerifier(): string {
    throw new Error('enterprise-managed authorization uses no authorization code');
  }

  /** The token request the SDK sends to the authorization server: a JWT bearer grant of a fresh ID-JAG. */
  async prepareTokenRequest(scope?: string): Promise<URLSearchParams> {
    const audience = this.discovery?.authorizationServerMetadata?.issuer ?? this.discovery?.authorizationServerUrl;
    if (!audience) throw new Error('enterprise-managed authorization: the MCP server named no authorization server to address the grant to');
    const resource = this.discovery?.resourceMetadata?.resource ?? this.options.serverUrl;
    const assertion = await this.exchange(audience, resource, scope);
    const params = new URLSearchParams({ grant_type: JWT_BEARER, assertion });
    if (scope) params.set('scope', scope);
    return params;
  }

  /** RFC 8693 at the identity provider: the user's ID token for an ID-JAG. */
  private async exchange(audience: string, resource: string, scope: string | undefined): Promise<string> {
    const { idp } = this.options;
    const endpoint = await this.idpTokenEndpoint();
    const body = new URLSearchParams({
      grant_type: TOKEN_EXCHANGE,
      requested_token_type: ID_JAG,
      subject_token: idp.idToken,
      subject_token_type: ID_TOKEN,
      audience,
      resource,
    });
    if (scope) body.set('scope', scope);
    const headers: Record<string, string> = { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' };
    if (idp.clientId && idp.clientSecret) headers.Authorization = `Basic ${Buffer.from(`${encodeURIComponent(idp.clientId)}:${encodeURIComponent(idp.clientSecret)}`).toString('base64')}`;
    else if (idp.clientId) body.set('client_id', idp.clientId);
    let res: Response;
    try {
      res = await this.fetchFn(endpoint, { method: 'POST', headers, body });
    } catch (err) {
      throw new Error(`enterprise-managed authorization: the identity provider's token endpoint ${endpoint} cannot be reached (${(err as Error).message})`);
    }
    const text = await res.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    if (!res.ok) {
      const why = (json as { error_description?: string; error?: string } | undefined)?.error_description ?? (json as { error?: string } | undefined)?.error ?? text.slice(0, 200);
      throw new Error(`enterprise-managed authorization: the identity provider refused the token exchange (HTTP ${res.status}: ${why}); check oauth.idp (its idToken may have expired)`);
    }
    const answer = ExchangeAnswer.safeParse(json);
    if (!answer.success) throw new Error(`enterprise-managed authorization: the identity provider's answer is not an ID-JAG (${answer.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')})`);
    return answer.data.access_token;
  }

  private async idpTokenEndpoint(): Promise<string> {
    const { idp } = this.options;
    if (idp.tokenEndpoint) return idp.tokenEndpoint;
    if (!idp.issuer) throw new Error('enterprise-managed authorization needs oauth.idp.tokenEndpoint or oauth.idp.issuer');
    const url = `${idp.issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`;
    const res = await this.fetchFn(url, { headers: { Accept: 'application/json' } });
    const config = OidcConfiguration.safeParse(res.ok ? await res.json() : undefined);
    if (!config.success) throw new Error(`enterprise-managed authorization: ${url} names no token_endpoint (HTTP ${res.status}); set oauth.idp.tokenEndpoint`);
    return config.data.token_endpoint;
  }
}
