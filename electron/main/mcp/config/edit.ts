import { readFile } from 'node:fs/promises';
import { McpServerInput } from '../../../contract/index';
import { writeJsonAtomic } from '../../common/fs';
import { ClaudeServerEntry, SERVER_NAME, fromClaude, type ServerConfig } from './schema';

/** One problem with a server entry the user gave, naming the field ("name", "command", "env.API_KEY"). */
export interface FieldIssue {
  field: string;
  message: string;
}

/** An entry refused before anything was written; `issues` name each field at fault. */
export class InvalidServerError extends Error {
  constructor(readonly issues: FieldIssue[]) {
    super(`the server was not saved: ${issues.map((i) => `${i.field}: ${i.message}`).join('; ')}`);
    this.name = 'InvalidServerError';
  }
}

/** A server as the add form gives it: the contract's schema (one definition for the form and the core). */
export const ServerInput = McpServerInput;
export type ServerInput = McpServerInput;

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** Names whose value is a secret: it must be a `${secret:NAME}` (or `${env:NAME}`) reference, never the value itself. */
const SECRET_NAME = /(key|token|secret|password|passwd|credential|auth|cookie|session)/i;
const REFERENCE = /\$\{(secret|env):[^}]+\}|\$\{[A-Za-z_][A-Za-z0-9_]*\}/;

function secretIssue(field: string, key: string, value: string): FieldIssue | undefined {
  if (!SECRET_NAME.test(key) || !value.trim() || REFERENCE.test(value)) return undefined;
  const ref = key.replace(/[^A-Za-z0-9_]/g, '_').toUpperCase();
  return { field, message: `looks like a secret: store it in the keychain (Settings → API keys) and write \${secret:${ref}} here instead of the value` };
}

/**
 * Checks a server the user entered and turns it into an entry of Claude Desktop's `mcpServers`
 * (the format of ERASMUS_HOME/mcp/config.json). Throws InvalidServerError naming every field at fault.
 */
export function entryFromInput(name: string, input: ServerInput): Record<string, unknown> {
  const issues: FieldIssue[] = [];
  if (!SERVER_NAME.test(name)) issues.push({ field: 'name', message: 'use 1-64 letters, digits, ".", "_" or "-"' });
  const e: Record<string, unknown> = {};
  if (input.transport === 'stdio') {
    const command = input.command?.trim() ?? '';
    if (!command) issues.push({ field: 'command', message: 'the program to start is required (e.g. npx, uvx, node)' });
    if (input.url) issues.push({ field: 'url', message: 'a stdio server has no url; choose http, sse or websocket for a remote server' });
    e.command = command;
    const args = (input.args ?? []).filter((a) => a.length > 0);
    if (args.length) e.args = args;
    const env = input.env ?? {};
    for (const [k, v] of Object.entries(env)) {
      if (!ENV_NAME.test(k)) issues.push({ field: `env.${k}`, message: 'an environment variable name uses letters, digits and "_" and does not start with a digit' });
      const s = secretIssue(`env.${k}`, k, v);
      if (s) issues.push(s);
    }
    if (Object.keys(env).length) e.env = env;
    if (input.cwd?.trim()) e.cwd = input.cwd.trim();
  } else {
    const url = input.url?.trim() ?? '';
    if (!url) issues.push({ field: 'url', message: `a ${input.transport} server needs its URL` });
    else if (input.transport === 'websocket' ? !/^wss?:\/\/[^\s/]+/.test(url) : !/^https?:\/\/[^\s/]+/.test(url))
      issues.push({ field: 'url', message: `not a${input.transport === 'websocket' ? ' ws:// or wss://' : 'n http:// or https://'} URL: ${url}` });
    if (input.command) issues.push({ field: 'command', message: 'a remote server has no command; choose stdio to start a program' });
    e.type = input.transport;
    e.url = url;
    const headers = input.headers ?? {};
    for (const [k, v] of Object.entries(headers)) {
      if (!HEADER_NAME.test(k)) issues.push({ field: `headers.${k}`, message: 'not a valid HTTP header name' });
      const s = secretIssue(`headers.${k}`, k, v);
      if (s) issues.push(s);
    }
    if (Object.keys(headers).length) e.headers = headers;
  }
  if (input.description?.trim()) e.description = input.description.trim();
  if (!issues.length) {
    // The same check the loader makes, so what is written always loads.
    const r = ClaudeServerEntry.safeParse(e);
    if (!r.success) for (const i of r.error.issues) issues.push({ field: i.path.join('.') || 'entry', message: i.message });
  }
  if (issues.length) throw new InvalidServerError(issues);
  return e;
}

type Doc = Record<string, unknown> & { mcpServers: Record<string, Record<string, unknown>> };

/** Reads ERASMUS_HOME/mcp/config.json for editing; refuses (writing nothing) when it cannot be parsed. */
export async function readEditable(file: string): Promise<Doc> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { mcpServers: {} };
    throw err;
  }
  let doc: unknown;
  try {
    doc = text.trim() ? JSON.parse(text) : {};
  } catch (err) {
    throw new Error(`${file} is not valid JSON, so it was left as it is: ${(err as Error).message}`);
  }
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) throw new Error(`${file}: the top level must be an object; it was left as it is`);
  const d = doc as Record<string, unknown>;
  const servers = d.mcpServers ?? {};
  if (!servers || typeof servers !== 'object' || Array.isArray(servers)) throw new Error(`${file}: "mcpServers" must be an object; it was left as it is`);
  return { ...d, mcpServers: servers as Doc['mcpServers'] };
}

/** An entry of the editable file as the Servers view lists it. */
export interface EditableEntry {
  name: string;
  /** The entry as it loads (undefined when it does not: `error` says why). */
  config?: ServerConfig;
  disabled: boolean;
  error?: string;
}

export async function listEntries(file: string): Promise<EditableEntry[]> {
  const doc = await readEditable(file);
  return Object.entries(doc.mcpServers).map(([name, raw]) => {
    const r = ClaudeServerEntry.safeParse(raw);
    const disabled = !!raw && typeof raw === 'object' && raw.disabled === true;
    if (!r.success) return { name, disabled, error: r.error.issues.map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message)).join('; ') };
    return { name, config: fromClaude(name, r.data, file), disabled };
  });
}

/** Adds one entry; an existing server of that name is never overwritten. */
export async function addEntry(file: string, name: string, entry: Record<string, unknown>): Promise<void> {
  const doc = await readEditable(file);
  if (Object.hasOwn(doc.mcpServers, name)) throw new InvalidServerError([{ field: 'name', message: `a server named "${name}" already exists in ${file}; pick another name or remove it first` }]);
  doc.mcpServers[name] = entry;
  await writeJsonAtomic(file, doc);
}

function known(doc: Doc, name: string, file: string): Record<string, unknown> {
  const e = doc.mcpServers[name];
  if (!Object.hasOwn(doc.mcpServers, name) || !e || typeof e !== 'object') throw new Error(`no server "${name}" in ${file} (known: ${Object.keys(doc.mcpServers).join(', ') || 'none'})`);
  return e;
}

/** Sets or clears the `disabled` flag, keeping every other field of the entry as it was. Returns whether it changed. */
export async function setDisabled(file: string, name: string, disabled: boolean): Promise<boolean> {
  const doc = await readEditable(file);
  const e = known(doc, name, file);
  if ((e.disabled === true) === disabled) return false;
  if (disabled) e.disabled = true;
  else delete e.disabled;
  await writeJsonAtomic(file, doc);
  return true;
}

export async function removeEntry(file: string, name: string): Promise<void> {
  const doc = await readEditable(file);
  known(doc, name, file);
  delete doc.mcpServers[name];
  await writeJsonAtomic(file, doc);
}

/** The package a command installs and runs, for the trust preview ("npm:@scope/pkg", "pypi:pkg"). */
export function packageOf(command: string | undefined, args: string[]): string | undefined {
  const prog = (command ?? '').split(/[\\/]/).pop()?.replace(/\.(cmd|exe)$/i, '');
  const firstPlain = (xs: string[]) => xs.find((a) => !a.startsWith('-'));
  if (prog === 'npx' || prog === 'bunx') {
    const p = firstPlain(args);
    return p ? `npm:${p}` : undefined;
  }
  if ((prog === 'pnpm' || prog === 'yarn') && args[0] === 'dlx') {
    const p = firstPlain(args.slice(1));
    return p ? `npm:${p}` : undefined;
  }
  if (prog === 'uvx' || prog === 'pipx') {
    const rest = prog === 'pipx' && args[0] === 'run' ? args.slice(1) : args;
    const p = firstPlain(rest);
    return p ? `pypi:${p}` : undefined;
  }
  return undefined;
}
