import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { importServers } from './config/import';
import { describeZodError, type ServerConfig } from './config/schema';
import { trustHash, type TrustStore } from './trust';

/** A server the product suggests; disabled until the user enables (and trusts) it. */
export const CatalogServer = z.object({
  id: z.string().regex(/^[A-Za-z0-9._-]{1,64}$/),
  title: z.string(),
  description: z.string(),
  /** The npm/PyPI package that provides it, shown before trusting. */
  package: z.string().optional(),
  command: z.string(),
  args: z.array(z.string()).default([]),
  envKeys: z.array(z.string()).default([]),
  alwaysAllow: z.array(z.string()).default([]),
});
export type CatalogServer = z.infer<typeof CatalogServer>;

/** A toolset spanning servers: tools picked by `server__tool` patterns (`*` matches any run of characters). */
export const CatalogGroup = z.object({
  name: z.string().regex(/^[A-Za-z0-9._-]{1,64}$/),
  description: z.string(),
  tools: z.array(z.string()).min(1),
});
export type CatalogGroup = z.infer<typeof CatalogGroup>;

export const Catalog = z.object({ servers: z.array(CatalogServer).default([]), groups: z.array(CatalogGroup).default([]) });
export type Catalog = z.infer<typeof Catalog>;

export function loadCatalog(resourcesDir: string): Catalog {
  const file = join(resourcesDir, 'catalog', 'catalog.json');
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { servers: [], groups: [] };
    throw new Error(`${file}: ${(err as Error).message}`);
  }
  const r = Catalog.safeParse(raw);
  if (!r.success) throw new Error(`${file}: ${describeZodError(r.error)}`);
  return r.data;
}

export function patternMatcher(patterns: string[]): (qualified: string) => boolean {
  const res = patterns.map((p) => new RegExp(`^${p.split('*').map(escape).join('.*')}$`));
  return (q) => res.some((r) => r.test(q));
}

function escape(s: string): string {
  return s.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
}

/** What the user sees before trusting a third-party server: its exact command, package and env keys. */
export interface TrustPreview {
  id: string;
  title: string;
  description: string;
  package?: string;
  command: string;
  args: string[];
  envKeys: string[];
  hash: string;
  trusted: boolean;
}

export async function previewCatalogServer(entry: CatalogServer, trust: TrustStore): Promise<TrustPreview> {
  return {
    id: entry.id,
    title: entry.title,
    description: entry.description,
    package: entry.package,
    command: entry.command,
    args: entry.args,
    envKeys: entry.envKeys,
    hash: trustHash(entry.command, entry.args),
    trusted: await trust.isTrusted(entry.command, entry.args),
  };
}

/**
 * Enables a catalog server in ERASMUS_HOME/mcp/config.json. The first time needs `trust: true`
 * (remembered by the hash of command and args); without it nothing is written and the preview says why.
 */
export async function enableCatalogServer(entry: CatalogServer, opts: { trust: TrustStore; mcpConfig: string; trusted?: boolean }): Promise<{ enabled: boolean; preview: TrustPreview }> {
  const preview = await previewCatalogServer(entry, opts.trust);
  if (!preview.trusted && !opts.trusted) return { enabled: false, preview };
  if (!preview.trusted) await opts.trust.trust(entry.id, entry.command, entry.args);
  const env = Object.fromEntries(entry.envKeys.map((k) => [k, `\${secret:${k}}`]));
  const server: ServerConfig = {
    name: entry.id,
    transport: 'stdio',
    command: entry.command,
    args: entry.args,
    env,
    envKeys: [],
    headers: {},
    disabled: false,
    alwaysAllow: entry.alwaysAllow,
    description: entry.description,
    source: 'catalog',
  };
  await importServers([server], opts.mcpConfig);
  return { enabled: true, preview: { ...preview, trusted: true } };
}
