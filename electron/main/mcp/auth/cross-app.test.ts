// Enterprise-managed authorization against a real identity provider endpoint on 127.0.0.1 (the whole
// flow, with the suite's IdP and authorization server, is the conformance scenario
// auth/cross-app-access-complete-flow in ../conformance.test.ts).
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { OAuthSettings } from '../config/schema';
import { CrossAppAccessProvider } from './cross-app';

let server: Server | undefined;
afterEach(() => new Promise<void>((r) => (server ? server.close(() => r()) : r())));

const body = (req: IncomingMessage) => new Promise<URLSearchParams>((r) => {
  let s = '';
  req.on('data', (d) => (s += d)).on('end', () => r(new URLSearchParams(s)));
});

/** An identity provider: its OpenID configuration and a token endpoint answering with `answer`. */
async function idp(answer: (form: URLSearchParams) => { status: number; json: unknown }): Promise<{ issuer: string; forms: URLSearchParams[] }> {
  const forms: URLSearchParams[] = [];
  server = createServer(async (req, res) => {
    const base = `http://127.0.0.1:${(server!.address() as AddressInfo).port}`;
    if (req.url === '/.well-known/openid-configuration') return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ issuer: base, token_endpoint: `${base}/token` }));
    const form = await body(req);
    forms.push(form);
    const a = answer(form);
    res.writeHead(a.status, { 'content-type': 'application/json' }).end(JSON.stringify(a.json));
  });
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  return { issuer: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, forms };
}

function provider(issuer: string) {
  const p = new CrossAppAccessProvider({ serverUrl: 'http://mcp.test/mcp', clientId: 'erasmus', clientSecret: 's', idp: { issuer, clientId: 'idp-client', idToken: 'the-id-token' } });
  p.saveDiscoveryState({ authorizationServerUrl: 'http://as.test/', authorizationServerMetadata: { issuer: 'http://as.test', authorization_endpoint: 'http://as.test/a', token_endpoint: 'http://as.test/t', response_types_supported: ['code'] } });
  return p;
}

describe('CrossAppAccessProvider', () => {
  it('exchanges the ID token at the identity provider for an ID-JAG addressed to the authorization server, and offers it as a JWT bearer grant', async () => {
    const { issuer, forms } = await idp(() => ({ status: 200, json: { access_token: 'the-jag', issued_token_type: 'urn:ietf:params:oauth:token-type:id-jag', token_type: 'N_A' } }));
    const params = await provider(issuer).prepareTokenRequest('mcp:read');
    expect(Object.fromEntries(params)).toEqual({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion: 'the-jag', scope: 'mcp:read' });
    expect(Object.fromEntries(forms[0]!)).toEqual({
      grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
      requested_token_type: 'urn:ietf:params:oauth:token-type:id-jag',
      subject_token: 'the-id-token',
      subject_token_type: 'urn:ietf:params:oauth:token-type:id_token',
      audience: 'http://as.test',
      resource: 'http://mcp.test/mcp',
      scope: 'mcp:read',
      client_id: 'idp-client',
    });
  });

  it("says what the identity provider answered when it refuses, and what to check", async () => {
    const { issuer } = await idp(() => ({ status: 400, json: { error: 'invalid_grant', error_description: 'Invalid ID token' } }));
    await expect(provider(issuer).prepareTokenRequest()).rejects.toThrow(/refused the token exchange \(HTTP 400: Invalid ID token\); check oauth\.idp \(its idToken may have expired\)/);
  });

  it('refuses an answer that is not an ID-JAG', async () => {
    const { issuer } = await idp(() => ({ status: 200, json: { access_token: 'x', issued_token_type: 'urn:ietf:params:oauth:token-type:access_token' } }));
    await expect(provider(issuer).prepareTokenRequest()).rejects.toThrow(/not an ID-JAG \(issued_token_type/);
  });

  it('is configured with an idp whose ID token is a keychain reference, and only with grant cross_app_access', () => {
    const ok = { grant: 'cross_app_access', clientId: 'c', idp: { issuer: 'https://idp.example', idToken: '${secret:ID_TOKEN}' } };
    expect(OAuthSettings.safeParse(ok).success).toBe(true);
    const issues = (v: unknown) => (OAuthSettings.safeParse(v).error?.issues ?? []).map((i) => `${i.path.join('.')}: ${i.message}`).join('\n');
    expect(issues({ grant: 'cross_app_access', clientId: 'c' })).toMatch(/idp: oauth.grant "cross_app_access" needs oauth.idp/);
    expect(issues({ ...ok, grant: 'client_credentials' })).toMatch(/idp: oauth.idp is used only with oauth.grant "cross_app_access"/);
    expect(issues({ ...ok, idp: { issuer: 'https://idp.example', idToken: 'eyJ-the-token-itself' } })).toMatch(/idp.idToken: must be a keychain reference/);
    expect(issues({ ...ok, idp: { idToken: '${secret:ID_TOKEN}' } })).toMatch(/needs "tokenEndpoint" or "issuer"/);
  });
});
