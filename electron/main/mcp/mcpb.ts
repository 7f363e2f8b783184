// `.mcpb` bundles (MCP Bundles, formerly Desktop Extensions `.dxt`): a zip holding manifest.json and the
// server's files. Installing one unpacks it under ERASMUS_HOME/mcp/extensions/<name>/ and adds a
// disabled server whose first enable shows what it runs and asks for trust.
import { chmod, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, normalize, sep } from 'node:path';
import { unzipSync } from 'fflate';
import { z } from 'zod';
import type { McpBundleInfo, McpServerInput } from '../../contract/index';

/** The most a bundle may hold unpacked (a guard against zip bombs). */
export const MAX_BUNDLE_BYTES = 512 * 1024 * 1024;

const UserConfigField = z
  .object({
    type: z.enum(['string', 'number', 'boolean', 'directory', 'file']),
    title: z.string().optional(),
    description: z.string().optional(),
    required: z.boolean().optional(),
    sensitive: z.boolean().optional(),
    multiple: z.boolean().optional(),
    default: z.union([z.string(), z.number(), z.boolean(), z.array(z.string())]).optional(),
    min: z.number().optional(),
    max: z.number().optional(),
  })
  .passthrough();
const McpConfig = z.object({ command: z.string().min(1), args: z.array(z.string()).default([]), env: z.record(z.string(), z.string()).default({}) }).passthrough();
export const McpbManifest = z
  .object({
    manifest_version: z.string().optional(),
    dxt_version: z.string().optional(),
    name: z.string().min(1),
    display_name: z.string().optional(),
    version: z.string().min(1),
    description: z.string().optional(),
    author: z.object({ name: z.string(), email: z.string().optional(), url: z.string().optional() }).passthrough().optional(),
    server: z
      .object({
        type: z.enum(['node', 'python', 'binary', 'uv']),
        entry_point: z.string().min(1),
        mcp_config: McpConfig.extend({ platform_overrides: z.record(z.string(), McpConfig.partial()).optional() }),
      })
      .passthrough(),
    user_config: z.record(z.string(), UserConfigField).optional(),
    tools: z.array(z.object({ name: z.string(), description: z.string().optional() }).passthrough()).optional(),
    compatibility: z.object({ platforms: z.array(z.string()).optional() }).passthrough().optional(),
  })
  .passthrough();
export type McpbManifest = z.infer<typeof McpbManifest>;

export interface Bundle {
  file: string;
  manifest: McpbManifest;
  files: Record<string, Uint8Array>;
}

/** A bundle's manifest and files, checked: a zip, a manifest.json of the MCPB format, no path leaving the bundle. */
export async function readBundle(file: string): Promise<Bundle> {
  let zip: Uint8Array;
  try {
    zip = await readFile(file);
  } catch (err) {
    throw new Error(`cannot read ${file}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (err as Error).message}`);
  }
  return bundleFromBytes(zip, file);
}

/** A bundle from the bytes of its zip (a file read, or a download): checked as `readBundle` does; `file` names it in messages. */
export function bundleFromBytes(zip: Uint8Array, file: string): Bundle {
  let total = 0;
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(zip, {
      filter: (f) => {
        total += f.originalSize;
        if (total > MAX_BUNDLE_BYTES) throw new Error(`it unpacks to more than ${MAX_BUNDLE_BYTES / 1024 / 1024} MB`);
        return !f.name.endsWith('/');
      },
    });
  } catch (err) {
    throw new Error(`${file} is not a .mcpb bundle (a zip archive): ${(err as Error).message}`);
  }
  for (const name of Object.keys(files)) {
    const n = normalize(name);
    if (isAbsolute(name) || n.startsWith('..') || name.includes('\\') || name.includes('\0')) throw new Error(`${file} is refused: its entry "${name}" would be written outside the bundle's folder`);
  }
  const raw = files['manifest.json'];
  if (!raw) throw new Error(`${file} has no manifest.json at its top level, so it is not an MCP bundle`);
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder().decode(raw));
  } catch (err) {
    throw new Error(`${file}: manifest.json is not valid JSON: ${(err as Error).message}`);
  }
  const parsed = McpbManifest.safeParse(json);
  if (!parsed.success) throw new Error(`${file}: manifest.json is not a valid MCP bundle manifest: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(top)'}: ${i.message}`).join('; ')}`);
  const manifest = parsed.data;
  const entry = normalize(manifest.server.entry_point);
  if (!files[entry] && !files[manifest.server.entry_point]) throw new Error(`${file}: the manifest's server.entry_point "${manifest.server.entry_point}" is not in the bundle`);
  const platforms = manifest.compatibility?.platforms;
  if (platforms?.length && !platforms.includes(process.platform)) throw new Error(`${file} (${manifest.name}) supports ${platforms.join(', ')}, not ${process.platform}`);
  return { file, manifest, files };
}

/** A config name from the manifest's name: 1-64 of letters, digits, ".", "_", "-". */
export function bundleServerName(manifest: McpbManifest): string {
  return manifest.name.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 64) || 'bundle';
}

/** What a bundle is and asks for, for the CLI prompt and the Servers view (before anything is written). */
export function bundleInfo(b: Bundle): McpBundleInfo {
  const m = b.manifest;
  const cfg = effectiveConfig(m);
  return {
    file: b.file,
    name: bundleServerName(m),
    displayName: m.display_name ?? m.name,
    version: m.version,
    description: m.description ?? '',
    ...(m.author?.name ? { author: m.author.name } : {}),
    serverType: m.server.type,
    command: cfg.command,
    args: cfg.args,
    tools: (m.tools ?? []).map((t) => t.name),
    userConfig: Object.entries(m.user_config ?? {}).map(([key, f]) => ({
      key,
      type: f.type,
      title: f.title ?? key,
      description: f.description ?? '',
      required: f.required === true,
      sensitive: f.sensitive === true,
      multiple: f.multiple === true,
      ...(f.default !== undefined ? { default: Array.isArray(f.default) ? f.default.join('\n') : String(f.default) } : {}),
    })),
  };
}

function effectiveConfig(m: McpbManifest): { command: string; args: string[]; env: Record<string, string> } {
  const base = m.server.mcp_config;
  const over = base.platform_overrides?.[process.platform] ?? {};
  return { command: over.command ?? base.command, args: over.args ?? base.args, env: { ...base.env, ...(over.env ?? {}) } };
}

/** The keychain name of a sensitive user_config value. */
export function bundleSecretName(server: string, key: string): string {
  return `mcpb_${server}_${key}`.replace(/[^A-Za-z0-9_]/g, '_').toUpperCase();
}

/**
 * The server entry for a bundle unpacked in `dir` with the user's answers: ${__dirname}, ${HOME},
 * ${DESKTOP}, ${DOCUMENTS}, ${DOWNLOADS}, ${/} and ${pathSeparator} filled in; ${user_config.X} filled
 * with the answer (a sensitive one as ${secret:NAME}, its value returned for the keychain; a `multiple`
 * one spread over several arguments when it is an argument of its own).
 */
export function bundleServer(b: Bundle, name: string, dir: string, values: Record<string, string>): { server: McpServerInput; secrets: Record<string, string> } {
  const info = bundleInfo(b);
  const secrets: Record<string, string> = {};
  const answers = new Map<string, string[]>();
  const missing: string[] = [];
  for (const f of info.userConfig) {
    const raw = values[f.key] ?? f.default ?? '';
    const list = f.multiple ? raw.split('\n').map((s) => s.trim()).filter(Boolean) : raw === '' ? [] : [raw];
    if (!list.length) {
      if (f.required) missing.push(f.key);
      answers.set(f.key, []);
      continue;
    }
    if (f.type === 'number' && list.some((v) => !Number.isFinite(Number(v)))) throw new Error(`"${f.title}" (${f.key}) must be a number`);
    if (f.type === 'boolean' && list.some((v) => v !== 'true' && v !== 'false')) throw new Error(`"${f.title}" (${f.key}) must be true or false`);
    if (f.sensitive) {
      const secret = bundleSecretName(name, f.key);
      secrets[secret] = list.join('\n');
      answers.set(f.key, [`\${secret:${secret}}`]);
    } else answers.set(f.key, list.map((v) => fillPaths(v, dir)));
  }
  if (missing.length) throw new Error(`the bundle needs ${missing.map((k) => `"${info.userConfig.find((f) => f.key === k)!.title}" (${k})`).join(', ')}`);
  const fill = (s: string) => fillPaths(s, dir).replace(/\$\{user_config\.([A-Za-z0-9_.-]+)\}/g, (_, k: string) => (answers.get(k) ?? []).join(','));
  const cfg = effectiveConfig(b.manifest);
  const args: string[] = [];
  for (const a of cfg.args) {
    const whole = /^\$\{user_config\.([A-Za-z0-9_.-]+)\}$/.exec(a);
    if (whole) args.push(...(answers.get(whole[1]!) ?? []));
    else args.push(fill(a));
  }
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(cfg.env)) {
    const value = fill(v);
    if (value !== '') env[k] = value;
  }
  const m = b.manifest;
  const server: McpServerInput = {
    transport: 'stdio',
    command: fill(cfg.command),
    args,
    ...(Object.keys(env).length ? { env } : {}),
    description: `${m.display_name ?? m.name} ${m.version}${m.author?.name ? ` by ${m.author.name}` : ''} (.mcpb bundle)`.slice(0, 200),
  };
  return { server, secrets };
}

function fillPaths(s: string, dir: string): string {
  const home = homedir();
  return s
    .replaceAll('${__dirname}', dir)
    .replaceAll('${HOME}', home)
    .replaceAll('${DESKTOP}', join(home, 'Desktop'))
    .replaceAll('${DOCUMENTS}', join(home, 'Documents'))
    .replaceAll('${DOWNLOADS}', join(home, 'Downloads'))
    .replaceAll('${/}', sep)
    .replaceAll('${pathSeparator}', sep);
}

/** Writes the bundle's files under `dir` (emptied first); the entry point of a binary server becomes executable. */
export async function unpackBundle(b: Bundle, dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  for (const [name, data] of Object.entries(b.files)) {
    const target = join(dir, normalize(name));
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, data);
  }
  if (b.manifest.server.type === 'binary') await chmod(join(dir, normalize(b.manifest.server.entry_point)), 0o755);
}
