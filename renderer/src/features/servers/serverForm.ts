import type { McpServerInput } from '../../../../electron/contract/index';

/** One environment variable or header row; `secret` rows hold a keychain name, written as `${secret:NAME}`. */
export interface KeyValueRow {
  key: string;
  value: string;
  secret: boolean;
}

export interface ServerFormState {
  name: string;
  transport: McpServerInput['transport'];
  command: string;
  /** One argument per line (so arguments with spaces need no quoting). */
  args: string;
  env: KeyValueRow[];
  cwd: string;
  url: string;
  headers: KeyValueRow[];
  description: string;
  /** Start it now (the user's own command counts as trusted). */
  enable: boolean;
}

export const emptyForm: ServerFormState = { name: '', transport: 'stdio', command: '', args: '', env: [], cwd: '', url: '', headers: [], description: '', enable: true };

const SECRET_REF = /^\$\{secret:([^}]+)\}$/;

function rowsToMap(rows: KeyValueRow[]): Record<string, string> | undefined {
  const out: Record<string, string> = {};
  for (const r of rows) {
    const key = r.key.trim();
    if (!key) continue;
    const v = r.value.trim();
    out[key] = r.secret ? `\${secret:${v || key.replace(/[^A-Za-z0-9_]/g, '_').toUpperCase()}}` : r.value;
  }
  return Object.keys(out).length ? out : undefined;
}

/** What the form sends as `mcp.server.add`'s `server`: only the fields of the chosen transport. */
export function toInput(f: ServerFormState): McpServerInput {
  const description = f.description.trim() || undefined;
  if (f.transport === 'stdio') {
    const args = f.args.split('\n').map((a) => a.trim()).filter(Boolean);
    return { transport: 'stdio', command: f.command.trim(), ...(args.length ? { args } : {}), ...opt('env', rowsToMap(f.env)), ...(f.cwd.trim() ? { cwd: f.cwd.trim() } : {}), ...(description ? { description } : {}) };
  }
  return { transport: f.transport, url: f.url.trim(), ...opt('headers', rowsToMap(f.headers)), ...(description ? { description } : {}) };
}

function opt<K extends string>(k: K, v: Record<string, string> | undefined): Partial<Record<K, Record<string, string>>> {
  return v ? ({ [k]: v } as Record<K, Record<string, string>>) : {};
}

/** A secret row shows its keychain name, not `${secret:…}`. */
export function isSecretRef(value: string): string | undefined {
  return SECRET_REF.exec(value)?.[1];
}

export interface FieldIssue {
  field: string;
  message: string;
}

/** The core's issues (error.data.issues of mcp.server.add), if the error carries them. */
export function issuesOf(err: unknown): FieldIssue[] {
  const data = (err as { data?: unknown } | null)?.data as { issues?: unknown } | undefined;
  if (!data || !Array.isArray(data.issues)) return [];
  return data.issues.filter((i): i is FieldIssue => !!i && typeof (i as FieldIssue).field === 'string' && typeof (i as FieldIssue).message === 'string');
}

/** Issues for one field; `env` matches "env.KEY" too. */
export function issuesFor(issues: FieldIssue[], field: string): string[] {
  return issues.filter((i) => i.field === field || i.field.startsWith(`${field}.`)).map((i) => (i.field === field ? i.message : `${i.field.slice(field.length + 1)}: ${i.message}`));
}
