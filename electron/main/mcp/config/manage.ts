import type { TrustPreview } from '../catalog';
import { trustHash, type TrustStore } from '../trust';
import { addEntry, entryFromInput, listEntries, packageOf, removeEntry, setDisabled, type ServerInput } from './edit';
import { discoverImports, importFiles, importServers, type ImportLocations, type ImportResult, type ImportSource } from './import';
import type { ConfigIssue, ServerConfig } from './schema';

/** A server of ERASMUS_HOME/mcp/config.json as the Servers view shows it. */
export interface ConfigEntryView {
  name: string;
  transport: ServerConfig['transport'];
  command?: string;
  args: string[];
  /** Names only: values may be secrets. */
  envKeys: string[];
  cwd?: string;
  url?: string;
  headerKeys: string[];
  description?: string;
  package?: string;
  disabled: boolean;
  /** stdio: the command + args are trusted (remote servers run nothing here: always true). */
  trusted: boolean;
  /** Why the entry does not load. */
  error?: string;
}

/** One server another app has, as offered for import. */
export interface ImportOffer {
  name: string;
  transport: ServerConfig['transport'];
  command?: string;
  args: string[];
  url?: string;
  envKeys: string[];
  package?: string;
  /** A server of this name is already configured: importing leaves the existing one as it is. */
  exists: boolean;
}

export interface ImportCandidateView {
  source: ImportSource;
  file: string;
  servers: ImportOffer[];
  issues: ConfigIssue[];
}

export interface ServerConfigEditorDeps {
  /** ERASMUS_HOME/mcp/config.json */
  file: string;
  trust: TrustStore;
  /** Re-reads the config (the hub reconnects only what changed). */
  reload: () => Promise<void>;
  /** Where other apps' configs are looked for. */
  locations: () => ImportLocations;
}

function envKeysOf(c: ServerConfig): string[] {
  return [...new Set([...Object.keys(c.env), ...c.envKeys])];
}

/**
 * Edits the user's server list (ERASMUS_HOME/mcp/config.json): add, enable, disable, remove, trust,
 * import. Every write is atomic and keeps every other entry; the hub then reconnects just that server.
 */
export class ServerConfigEditor {
  constructor(private readonly deps: ServerConfigEditorDeps) {}

  get file(): string {
    return this.deps.file;
  }

  async entries(): Promise<ConfigEntryView[]> {
    const out: ConfigEntryView[] = [];
    for (const e of await listEntries(this.deps.file)) {
      const c = e.config;
      if (!c) {
        out.push({ name: e.name, transport: 'stdio', args: [], envKeys: [], headerKeys: [], disabled: e.disabled, trusted: false, error: e.error });
        continue;
      }
      out.push({
        name: c.name,
        transport: c.transport,
        command: c.command,
        args: c.args,
        envKeys: envKeysOf(c),
        cwd: c.cwd,
        url: c.url,
        headerKeys: Object.keys(c.headers),
        description: c.description,
        package: packageOf(c.command, c.args),
        disabled: c.disabled,
        trusted: await this.isTrusted(c),
      });
    }
    return out;
  }

  private async isTrusted(c: ServerConfig): Promise<boolean> {
    return c.transport !== 'stdio' || (await this.deps.trust.isTrusted(c.command ?? '', c.args));
  }

  private async config(name: string): Promise<ServerConfig> {
    const e = (await listEntries(this.deps.file)).find((x) => x.name === name);
    if (!e) throw new Error(`no server "${name}" in ${this.deps.file}`);
    if (!e.config) throw new Error(`server "${name}" in ${this.deps.file} does not load: ${e.error}`);
    return e.config;
  }

  /** What enabling `name` will run: its exact command, package and env keys. */
  async preview(name: string): Promise<TrustPreview> {
    const c = await this.config(name);
    const remote = c.transport !== 'stdio';
    return {
      id: c.name,
      title: c.name,
      description: c.description ?? '',
      package: packageOf(c.command, c.args),
      command: remote ? (c.url ?? '') : (c.command ?? ''),
      args: remote ? [] : c.args,
      envKeys: remote ? Object.keys(c.headers) : envKeysOf(c),
      hash: remote ? '' : trustHash(c.command ?? '', c.args),
      trusted: await this.isTrusted(c),
    };
  }

  /**
   * Adds a server the user entered (refused with InvalidServerError naming the field; nothing else
   * changes). With `enable` (the default) the user's own command counts as trusted and it starts now.
   */
  async add(name: string, input: ServerInput, opts: { enable?: boolean } = {}): Promise<ConfigEntryView> {
    const entry = entryFromInput(name, input);
    const enable = opts.enable !== false;
    if (!enable) entry.disabled = true;
    await addEntry(this.deps.file, name, entry);
    if (enable && input.transport === 'stdio') await this.deps.trust.trust(name, String(entry.command), (entry.args as string[] | undefined) ?? []);
    await this.deps.reload();
    const view = (await this.entries()).find((e) => e.name === name);
    if (!view) throw new Error(`server "${name}" was written to ${this.deps.file} but is not there any more`);
    return view;
  }

  /** Enables a server; an untrusted stdio server needs `trust: true` (else nothing changes and the preview says what would run). */
  async enable(name: string, opts: { trust?: boolean } = {}): Promise<{ enabled: boolean; preview: TrustPreview }> {
    const preview = await this.preview(name);
    if (!preview.trusted && !opts.trust) return { enabled: false, preview };
    if (!preview.trusted) await this.trustServer(name);
    await setDisabled(this.deps.file, name, false);
    await this.deps.reload();
    return { enabled: true, preview: { ...preview, trusted: true } };
  }

  /** Remembers trust for the server's command + args (by hash; a change asks again). */
  async trustServer(name: string): Promise<TrustPreview> {
    const c = await this.config(name);
    if (c.transport === 'stdio') await this.deps.trust.trust(name, c.command ?? '', c.args);
    return { ...(await this.preview(name)), trusted: true };
  }

  async disable(name: string): Promise<void> {
    await setDisabled(this.deps.file, name, true);
    await this.deps.reload();
  }

  async remove(name: string): Promise<void> {
    await removeEntry(this.deps.file, name);
    await this.deps.reload();
  }

  /** Every other app's config found here, with what each holds and which names already exist. */
  async discover(): Promise<ImportCandidateView[]> {
    const have = new Set((await listEntries(this.deps.file)).map((e) => e.name));
    return (await discoverImports(this.deps.locations())).map((c) => ({
      source: c.source,
      file: c.file,
      issues: c.issues,
      servers: c.servers.map((s) => ({
        name: s.name,
        transport: s.transport,
        command: s.command,
        args: s.args,
        url: s.url,
        envKeys: s.transport === 'stdio' ? envKeysOf(s) : Object.keys(s.headers),
        package: packageOf(s.command, s.args),
        exists: have.has(s.name),
      })),
    }));
  }

  /**
   * Imports the named servers of another app's config (one of the files `discover` looks at). Existing
   * names are skipped, never overwritten; stdio servers not yet trusted arrive disabled, so their
   * first enable shows what they run and asks for trust.
   */
  async importFrom(file: string, names: string[]): Promise<ImportResult> {
    const allowed = importFiles(this.deps.locations()).map((f) => f.file);
    if (!allowed.includes(file)) throw new Error(`${file} is not a config file Erasmus imports from (it looks at: ${allowed.join(', ')})`);
    const found = (await discoverImports(this.deps.locations())).find((c) => c.file === file);
    const servers = found?.servers ?? [];
    const missing = names.filter((n) => !servers.some((s) => s.name === n));
    if (missing.length) throw new Error(`${file} has no server named ${missing.map((n) => `"${n}"`).join(', ')}`);
    const picked: ServerConfig[] = [];
    for (const s of servers.filter((x) => names.includes(x.name))) picked.push({ ...s, disabled: s.disabled || !(await this.isTrusted(s)) });
    const r = await importServers(picked, this.deps.file);
    if (r.added.length) await this.deps.reload();
    return r;
  }
}
