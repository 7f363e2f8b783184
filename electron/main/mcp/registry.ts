// The official MCP Registry (registry.modelcontextprotocol.io, API v0): search, and a chosen result
// turned into a server of ERASMUS_HOME/mcp/config.json (secrets as ${secret:NAME}, never values).
import { z } from 'zod';
import type { McpRegistryOption, McpRegistryServer, McpServerInput } from '../../contract/index';

export const DEFAULT_REGISTRY_URL = 'https://registry.modelcontextprotocol.io';
/** The registry to ask: ERASMUS_MCP_REGISTRY (a company mirror, a test fixture) or the official one. */
export function registryUrl(env: NodeJS.ProcessEnv = process.env): string {
  return (env.ERASMUS_MCP_REGISTRY?.trim() || DEFAULT_REGISTRY_URL).replace(/\/+$/, '');
}

const Input = z
  .object({
    name: z.string().optional(),
    description: z.string().optional(),
    isRequired: z.boolean().optional(),
    isSecret: z.boolean().optional(),
    value: z.string().optional(),
    default: z.string().optional(),
    valueHint: z.string().optional(),
    type: z.string().optional(),
  })
  .passthrough();
const Package = z
  .object({
    registryType: z.string(),
    identifier: z.string(),
    version: z.string().optional(),
    /** For an `mcpb` package (whose identifier is the bundle's URL): the sha256 of the file. */
    fileSha256: z.string().optional(),
    runtimeHint: z.string().optional(),
    transport: z.object({ type: z.string(), url: z.string().optional() }).passthrough().optional(),
    packageArguments: z.array(Input).optional(),
    runtimeArguments: z.array(Input).optional(),
    environmentVariables: z.array(Input).optional(),
  })
  .passthrough();
const Remote = z.object({ type: z.string(), url: z.string(), headers: z.array(Input).optional() }).passthrough();
const Server = z
  .object({
    name: z.string(),
    title: z.string().optional(),
    description: z.string().optional(),
    version: z.string().optional(),
    repository: z.object({ url: z.string().optional() }).passthrough().optional(),
    websiteUrl: z.string().optional(),
    packages: z.array(Package).optional(),
    remotes: z.array(Remote).optional(),
  })
  .passthrough();
const Listing = z.object({
  servers: z.array(z.object({ server: Server, _meta: z.record(z.string(), z.unknown()).optional() }).passthrough()),
  metadata: z.object({ nextCursor: z.string().optional(), count: z.number().optional() }).passthrough().optional(),
});
type Input = z.infer<typeof Input>;

/** The registry could not be reached (offline, DNS, refused, timed out): said plainly, with what to do. */
export class RegistryUnreachableError extends Error {
  constructor(url: string, cause: string) {
    super(`cannot reach the MCP Registry at ${url} (${cause}). Check the network connection and try again, or add the server by hand.`);
    this.name = 'RegistryUnreachableError';
  }
}

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** A ${secret:NAME} for an env var or header: upper-case, prefixed by the server's short name. */
function secretName(server: string, key: string): string {
  return `${server}_${key}`.replace(/[^A-Za-z0-9_]/g, '_').toUpperCase();
}

/** `io.github.acme/weather-mcp` → `weather-mcp`: a config name (1-64 of letters, digits, . _ -). */
export function shortName(registryName: string): string {
  const last = registryName.slice(registryName.lastIndexOf('/') + 1);
  return last.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 64) || 'server';
}

type Option = McpRegistryOption;
type PackageOption = Exclude<Option, { kind: 'mcpb' }>;

function inputs(list: Input[] | undefined, where: 'env' | 'header', server: string): PackageOption['inputs'] {
  return (list ?? [])
    .filter((i) => i.name && (where === 'header' || ENV_NAME.test(i.name)))
    .map((i) => ({
      key: i.name!,
      where,
      description: i.description ?? '',
      required: i.isRequired === true,
      secret: i.isSecret === true,
      ...(i.value ?? i.default ? { default: i.value ?? i.default } : {}),
      ...(i.isSecret ? { secretName: secretName(server, i.name!) } : {}),
    }));
}

/** Fixed arguments of a package (positional values, `--name value`); arguments needing the user's input are left out. */
function fixedArgs(list: Input[] | undefined): string[] {
  const out: string[] = [];
  for (const a of list ?? []) {
    const v = a.value ?? a.default;
    if (v === undefined) continue;
    if (a.type === 'named' && a.name) out.push(a.name, v);
    else out.push(v);
  }
  return out;
}

/** How each package or remote of a registry server would run here; unknown package kinds are left out. */
function optionsOf(s: z.infer<typeof Server>): Option[] {
  const short = shortName(s.name);
  const out: Option[] = [];
  for (const p of s.packages ?? []) {
    const transport = p.transport?.type ?? 'stdio';
    if (transport !== 'stdio') continue; // a package that serves http runs as a local web server: not offered
    const at = p.version && p.version !== 'latest' ? p.version : undefined;
    if (p.registryType === 'mcpb') {
      // A bundle: its settings are in its manifest, asked after the download (mcp.registry.bundle).
      const file = p.identifier.slice(p.identifier.lastIndexOf('/') + 1) || p.identifier;
      out.push({ kind: 'mcpb', label: `mcpb ${file}${at ? ` (${at})` : ''}`, bundle: { url: p.identifier, ...(p.fileSha256 ? { sha256: p.fileSha256 } : {}) }, inputs: [] });
      continue;
    }
    const env = inputs(p.environmentVariables, 'env', short);
    const args = fixedArgs(p.packageArguments);
    let server: McpServerInput | undefined;
    if (p.registryType === 'npm') server = { transport: 'stdio', command: 'npx', args: ['-y', at ? `${p.identifier}@${at}` : p.identifier, ...args] };
    else if (p.registryType === 'pypi') server = { transport: 'stdio', command: 'uvx', args: [at ? `${p.identifier}==${at}` : p.identifier, ...args] };
    else if (p.registryType === 'oci')
      server = { transport: 'stdio', command: 'docker', args: ['run', '-i', '--rm', ...env.flatMap((e) => ['-e', e.key]), at && !p.identifier.includes(':') ? `${p.identifier}:${at}` : p.identifier, ...args] };
    if (!server) continue;
    out.push({ kind: p.registryType as PackageOption['kind'], label: `${p.registryType} ${p.identifier}${at ? `@${at}` : ''}`, server, inputs: env });
  }
  for (const r of s.remotes ?? []) {
    const transport = r.type === 'sse' ? 'sse' : r.type === 'streamable-http' || r.type === 'http' ? 'http' : undefined;
    if (!transport || !/^https?:\/\//.test(r.url) || /\{[^}]+\}/.test(r.url)) continue;
    out.push({ kind: 'remote', label: `${transport === 'sse' ? 'SSE' : 'HTTP'} ${r.url}`, server: { transport, url: r.url }, inputs: inputs(r.headers, 'header', short) });
  }
  return out;
}

export interface SearchOptions {
  baseUrl?: string;
  limit?: number;
  /** Start at this page (the `nextCursor` of the page before). */
  cursor?: string;
  /** Follow `nextCursor` for up to this many pages (default 1, at most MAX_PAGES). */
  pages?: number;
  signal?: AbortSignal;
  fetch?: typeof fetch;
  /** Give up after this long, per page (default 15 s). */
  timeoutMs?: number;
}

/** The most pages one search follows (`erasmus servers search --all`). */
export const MAX_PAGES = 10;

export interface RegistryPage {
  servers: McpRegistryServer[];
  /** More results follow: search again with this cursor. */
  nextCursor?: string;
}

/**
 * Searches the registry by name (latest versions only), one page or, with `pages`, following its
 * `nextCursor` (a result seen on an earlier page is not repeated). Throws RegistryUnreachableError when offline.
 */
export async function searchRegistry(query: string, opts: SearchOptions = {}): Promise<RegistryPage> {
  const pages = Math.min(Math.max(1, Math.floor(opts.pages ?? 1)), MAX_PAGES);
  const servers: McpRegistryServer[] = [];
  const seen = new Set<string>();
  let cursor = opts.cursor;
  for (let i = 0; i < pages; i++) {
    const page = await searchPage(query, { ...opts, cursor });
    for (const s of page.servers) {
      if (seen.has(s.name)) continue;
      seen.add(s.name);
      servers.push(s);
    }
    cursor = page.nextCursor;
    if (!cursor) break;
  }
  return { servers, ...(cursor ? { nextCursor: cursor } : {}) };
}

async function searchPage(query: string, opts: SearchOptions): Promise<RegistryPage> {
  const base = (opts.baseUrl ?? registryUrl()).replace(/\/+$/, '');
  const url = new URL(`${base}/v0/servers`);
  if (query.trim()) url.searchParams.set('search', query.trim());
  url.searchParams.set('version', 'latest');
  url.searchParams.set('limit', String(opts.limit ?? 30));
  if (opts.cursor) url.searchParams.set('cursor', opts.cursor);
  const timeout = AbortSignal.timeout(opts.timeoutMs ?? 15_000);
  const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
  let res: Response;
  try {
    res = await (opts.fetch ?? fetch)(url, { headers: { accept: 'application/json' }, signal });
  } catch (err) {
    if (opts.signal?.aborted) throw err;
    const e = err as Error & { cause?: { code?: string; message?: string } };
    const cause = timeout.aborted ? `no answer in ${Math.round((opts.timeoutMs ?? 15_000) / 1000)} s` : (e.cause?.code ?? e.cause?.message ?? e.message);
    throw new RegistryUnreachableError(base, cause);
  }
  if (!res.ok) throw new Error(`the MCP Registry at ${base} answered ${res.status} ${res.statusText} to ${url.pathname}${url.search}`);
  let body: unknown;
  try {
    body = await res.json();
  } catch {
    throw new Error(`the MCP Registry at ${base} sent something that is not JSON`);
  }
  const parsed = Listing.safeParse(body);
  if (!parsed.success) throw new Error(`the MCP Registry at ${base} sent an answer Erasmus does not understand: ${parsed.error.issues[0]?.path.join('.')}: ${parsed.error.issues[0]?.message}`);
  const next = parsed.data.metadata?.nextCursor;
  return {
    servers: parsed.data.servers.map(({ server: s }) => ({
      name: s.name,
      suggestedName: shortName(s.name),
      ...(s.title ? { title: s.title } : {}),
      description: s.description ?? '',
      ...(s.version ? { version: s.version } : {}),
      ...(s.repository?.url ? { repository: s.repository.url } : s.websiteUrl ? { repository: s.websiteUrl } : {}),
      options: optionsOf(s),
    })),
    // A cursor that does not move on would page forever.
    ...(next && next !== opts.cursor ? { nextCursor: next } : {}),
  };
}

/**
 * The config entry for one option of a search result and the user's answers: secret inputs become
 * `${secret:NAME}` (the caller stores the values in the keychain); a missing required input is refused.
 */
export function installInput(option: PackageOption, values: Record<string, string>, description?: string): { server: McpServerInput; secrets: Record<string, string> } {
  const env: Record<string, string> = {};
  const headers: Record<string, string> = {};
  const secrets: Record<string, string> = {};
  const missing: string[] = [];
  for (const i of option.inputs) {
    const v = values[i.key] ?? i.default;
    if (v === undefined || v === '') {
      if (i.required) missing.push(i.key);
      continue;
    }
    let value = v;
    if (i.secret && i.secretName) {
      secrets[i.secretName] = v;
      value = `\${secret:${i.secretName}}`;
    }
    (i.where === 'env' ? env : headers)[i.key] = value;
  }
  if (missing.length) throw new Error(`needs a value for ${missing.join(', ')} (${option.inputs.filter((i) => missing.includes(i.key)).map((i) => i.description || i.key).join('; ')})`);
  const server: McpServerInput = {
    ...option.server,
    ...(Object.keys(env).length ? { env } : {}),
    ...(Object.keys(headers).length ? { headers } : {}),
    ...(description ? { description: description.slice(0, 200) } : {}),
  };
  return { server, secrets };
}
