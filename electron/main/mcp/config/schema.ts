import { z } from 'zod';

/** How the hub reaches a server. */
export const TransportKind = z.enum(['stdio', 'http', 'sse', 'websocket']);
export type TransportKind = z.infer<typeof TransportKind>;

const StringMap = z.record(z.string(), z.string());

/** A credential in a config file may only name a keychain entry; the value itself never sits in a file. */
const SecretRef = z.string().regex(/^\$\{secret:[^}]+\}$/, 'must be a keychain reference like ${secret:NAME}, never the value itself');

/** How Erasmus signs in to a remote server (OAuth 2.1). Without it, a server that asks for sign-in gets the default: discovery, registration, browser sign-in. */
export const OAuthSettings = z
  .object({
    /** A pre-registered client (else dynamic registration or `clientMetadataUrl`). */
    clientId: z.string().min(1).optional(),
    clientSecret: SecretRef.optional(),
    /** A client-ID metadata document URL (https) to use as the client_id where the server supports it. */
    clientMetadataUrl: z.string().url().optional(),
    /** Space-separated scopes to ask for (else from WWW-Authenticate or the server's scopes_supported). */
    scope: z.string().optional(),
    /**
     * `client_credentials`: a machine client with no user (the OAuth client-credentials extension).
     * `cross_app_access`: enterprise-managed authorization (SEP-990): the user's ID token from `idp` is
     * exchanged there for a grant the server's authorization server accepts, with no browser.
     */
    grant: z.enum(['authorization_code', 'client_credentials', 'cross_app_access']).optional(),
    /** For cross_app_access: the enterprise identity provider and the ID token it issued to Erasmus for the user. */
    idp: z
      .object({
        /** Its token endpoint, or its issuer (the endpoint is read from its OpenID configuration). */
        tokenEndpoint: z.string().url().optional(),
        issuer: z.string().url().optional(),
        clientId: z.string().min(1).optional(),
        clientSecret: SecretRef.optional(),
        idToken: SecretRef,
      })
      .strict()
      .refine((i) => i.tokenEndpoint || i.issuer, { message: 'needs "tokenEndpoint" or "issuer"' })
      .optional(),
    /** For client_credentials with private_key_jwt: a PEM private key, as a keychain reference. */
    privateKey: SecretRef.optional(),
    signingAlgorithm: z.string().optional(),
    /** The authorization server the client credentials were issued by (they are sent nowhere else). */
    issuer: z.string().url().optional(),
  })
  .strict()
  .superRefine((o, ctx) => {
    if (o.grant === 'cross_app_access' && !o.idp) ctx.addIssue({ code: 'custom', path: ['idp'], message: 'oauth.grant "cross_app_access" needs oauth.idp (its tokenEndpoint or issuer, and idToken as ${secret:NAME})' });
    if (o.idp && o.grant !== 'cross_app_access') ctx.addIssue({ code: 'custom', path: ['idp'], message: 'oauth.idp is used only with oauth.grant "cross_app_access"' });
  });
export type OAuthSettings = z.infer<typeof OAuthSettings>;

/** One entry of Claude Desktop's `mcpServers` (also Cursor, Roo, and VS Code's `servers`). */
export const ClaudeServerEntry = z
  .object({
    type: z.enum(['stdio', 'http', 'streamable-http', 'streamableHttp', 'streamable_http', 'sse', 'ws', 'websocket']).optional(),
    command: z.string().min(1, 'command is empty').optional(),
    args: z.array(z.string()).optional(),
    env: StringMap.optional(),
    cwd: z.string().optional(),
    url: z.string().optional(),
    headers: StringMap.optional(),
    oauth: OAuthSettings.optional(),
    disabled: z.boolean().optional(),
    /** Seconds, as Roo and Cline write it. */
    timeout: z.number().positive().optional(),
    alwaysAllow: z.array(z.string()).optional(),
    description: z.string().optional(),
  })
  .passthrough()
  .superRefine((e, ctx) => {
    const remote = e.type && e.type !== 'stdio';
    if (remote && !e.url) ctx.addIssue({ code: 'custom', message: `type "${e.type}" needs a "url"` });
    if (!remote && !e.command && !e.url) ctx.addIssue({ code: 'custom', message: 'needs a "command" (stdio) or a "url" (remote)' });
    if (e.url && !/^(https?|wss?):\/\//.test(e.url) && !e.url.includes('${')) ctx.addIssue({ code: 'custom', path: ['url'], message: `not an http(s) or ws(s) URL: ${e.url}` });
  });
export type ClaudeServerEntry = z.infer<typeof ClaudeServerEntry>;

/** One entry of goose's `extensions:` in config.yaml. */
export const GooseExtension = z
  .object({
    name: z.string().optional(),
    type: z.enum(['stdio', 'sse', 'streamable_http', 'websocket', 'builtin', 'platform', 'frontend', 'inline_python']).default('stdio'),
    cmd: z.string().optional(),
    args: z.array(z.string()).optional(),
    enabled: z.boolean().optional(),
    envs: StringMap.optional(),
    env_keys: z.array(z.string()).optional(),
    timeout: z.number().positive().optional(),
    uri: z.string().optional(),
    headers: StringMap.optional(),
    description: z.string().optional(),
    cwd: z.string().optional(),
    alwaysAllow: z.array(z.string()).optional(),
  })
  .passthrough()
  .superRefine((e, ctx) => {
    if (e.type === 'stdio' && !e.cmd) ctx.addIssue({ code: 'custom', message: 'type "stdio" needs a "cmd"' });
    if ((e.type === 'sse' || e.type === 'streamable_http' || e.type === 'websocket') && !e.uri)
      ctx.addIssue({ code: 'custom', message: `type "${e.type}" needs a "uri"` });
  });
export type GooseExtension = z.infer<typeof GooseExtension>;

/** A server as the hub sees it, whichever file and format it came from (values not yet interpolated). */
export interface ServerConfig {
  name: string;
  transport: TransportKind;
  command?: string;
  args: string[];
  env: Record<string, string>;
  /** Names to take from the environment or, failing that, the keychain (goose's env_keys). */
  envKeys: string[];
  cwd?: string;
  url?: string;
  headers: Record<string, string>;
  /** Sign-in settings for a remote server (remote servers sign in by default when asked to). */
  oauth?: OAuthSettings;
  disabled: boolean;
  timeoutMs?: number;
  alwaysAllow: string[];
  description?: string;
  /** The file this entry came from. */
  source: string;
}

/** A problem in a config file: the file, the entry (when one entry is at fault) and what is wrong. */
export interface ConfigIssue {
  file: string;
  entry?: string;
  message: string;
}

export const SERVER_NAME = /^[A-Za-z0-9._-]{1,64}$/;

export function fromClaude(name: string, e: ClaudeServerEntry, source: string): ServerConfig {
  const t = e.type;
  const transport: TransportKind =
    t === 'sse' ? 'sse' : t === 'ws' || t === 'websocket' ? 'websocket' : t === undefined ? (e.command ? 'stdio' : urlKind(e.url)) : t === 'stdio' ? 'stdio' : 'http';
  return {
    name,
    transport,
    command: e.command,
    args: e.args ?? [],
    env: e.env ?? {},
    envKeys: [],
    cwd: e.cwd,
    url: e.url,
    headers: e.headers ?? {},
    oauth: e.oauth,
    disabled: e.disabled ?? false,
    timeoutMs: e.timeout ? e.timeout * 1000 : undefined,
    alwaysAllow: e.alwaysAllow ?? [],
    description: e.description,
    source,
  };
}

function urlKind(url: string | undefined): TransportKind {
  return url && /^wss?:/.test(url) ? 'websocket' : 'http';
}

export function fromGoose(key: string, e: GooseExtension, source: string): ServerConfig {
  const transport: TransportKind = e.type === 'sse' ? 'sse' : e.type === 'websocket' ? 'websocket' : e.type === 'streamable_http' ? 'http' : 'stdio';
  return {
    name: key,
    transport,
    command: e.cmd,
    args: e.args ?? [],
    env: e.envs ?? {},
    envKeys: e.env_keys ?? [],
    cwd: e.cwd,
    url: e.uri,
    headers: e.headers ?? {},
    disabled: e.enabled === false,
    timeoutMs: e.timeout ? e.timeout * 1000 : undefined,
    alwaysAllow: e.alwaysAllow ?? [],
    description: e.description,
    source,
  };
}

/** "args: expected array, received string; url: not an http(s) URL" */
export function describeZodError(err: z.ZodError): string {
  return err.issues.map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message)).join('; ');
}

/** A stable fingerprint of everything that affects the connection (a change means reconnect). */
export function fingerprint(c: ServerConfig): string {
  const { source: _s, description: _d, alwaysAllow: _a, ...rest } = c;
  return stableStringify(rest);
}

function stableStringify(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stableStringify).join(',')}]`;
  if (v && typeof v === 'object')
    return `{${Object.keys(v)
      .sort()
      .filter((k) => (v as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${stableStringify((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(v);
}
