// `erasmus servers search` (the official MCP Registry) and `erasmus servers install <file.mcpb>`: both
// add a server to ERASMUS_HOME/mcp/config.json, disabled until its command is trusted, secrets in the keychain.
import { resolve } from 'node:path';
import type { Command } from 'commander';
import type { McpBundleInfo, McpRegistryServer } from '../../contract/index';
import type { Core } from '../../main/api/core';
import type { TrustPreview } from '../../main/mcp/catalog';
import { ServerConfigEditor } from '../../main/mcp/config/manage';
import { fetchRegistryBundle, registryLoopbackOrigin } from '../../main/mcp/bundle-download';
import { installBundle, installServer } from '../../main/mcp/install';
import { bundleInfo, readBundle, type Bundle } from '../../main/mcp/mcpb';
import { installInput, MAX_PAGES, registryUrl, searchRegistry } from '../../main/mcp/registry';
import { TrustStore } from '../../main/mcp/trust';
import { argv, q } from '../../servers/runners/quote';
import { withCore } from '../context';
import { ask, readHidden } from '../prompt';

const out = (s: string): void => void process.stdout.write(s.endsWith('\n') ? s : s + '\n');
const interactive = () => !!process.stdin.isTTY && !!process.stderr.isTTY;

/** The config editor without a running hub: the CLI writes the config; servers start when a face starts the hub. */
function editor(core: Core): ServerConfigEditor {
  return new ServerConfigEditor({ file: core.paths.mcpConfig, trust: new TrustStore(core.paths.trustFile), reload: async () => {}, locations: () => ({ env: core.env, home: core.env.HOME || undefined }) });
}

/** `--set KEY=VALUE`, repeatable. */
function collect(value: string, prev: Record<string, string>): Record<string, string> {
  const i = value.indexOf('=');
  if (i < 1) throw new Error(`--set takes KEY=VALUE, got "${value}"`);
  return { ...prev, [value.slice(0, i)]: value.slice(i + 1) };
}

interface Question {
  key: string;
  title: string;
  description: string;
  required: boolean;
  secret: boolean;
  default?: string;
  multiple?: boolean;
}

/** Fills what --set did not give: asked on a terminal (secrets without echo); without one, a missing required value is refused with how to give it. */
async function answers(questions: Question[], given: Record<string, string>, how: string): Promise<Record<string, string>> {
  const values = { ...given };
  for (const q of questions) {
    if (values[q.key] !== undefined) continue;
    if (!interactive()) {
      if (q.required && q.default === undefined) throw new Error(`${q.title} (${q.key}) is required: pass --set ${q.key}=VALUE${q.secret ? ' (it goes to the keychain, never into the config)' : ''}${how}`);
      continue;
    }
    const label = `${q.title}${q.description && q.description !== q.title ? ` — ${q.description}` : ''}${q.required ? '' : ' (optional)'}${q.default !== undefined ? ` [${q.default}]` : ''}${q.multiple ? ' (several: separate with ;)' : ''}: `;
    let v = q.secret ? await readHidden(label) : await ask(label);
    if (q.multiple) v = v.split(';').map((s) => s.trim()).filter(Boolean).join('\n');
    if (v !== '') values[q.key] = v;
  }
  return values;
}

function printPreview(p: TrustPreview): void {
  out(`It runs: ${[p.command, ...p.args].map((a) => (/\s/.test(a) ? JSON.stringify(a) : a)).join(' ')}`);
  if (p.envKeys.length) out(`with environment: ${p.envKeys.join(', ')}`);
}

/** After an install: trust and enable now (asked, or --yes), or say how to do it later. */
async function trustStep(core: Core, name: string, preview: TrustPreview, yes: boolean | undefined): Promise<void> {
  printPreview(preview);
  let go = !!yes;
  if (!go && interactive()) go = (await ask(`Trust "${name}" to run this command and enable it? [y/N] `)).trim().toLowerCase().startsWith('y');
  if (go) {
    await editor(core).enable(name, { trust: true });
    out(`"${name}" is trusted and enabled; it starts with the hub (\`erasmus servers\` shows it and its tools).`);
  } else out(`"${name}" was added disabled: enable it in the Servers view, where its command is shown for trust before it first starts (or install again with --yes after removing it).`);
}

function printResults(servers: McpRegistryServer[]): void {
  servers.forEach((s, i) => {
    out(`${String(i + 1).padStart(2)}. ${s.name}${s.version ? ` ${s.version}` : ''}${s.title ? ` (${s.title})` : ''}`);
    if (s.description) out(`    ${s.description.split('\n')[0]}`);
    s.options.forEach((o, j) => out(`    [${j + 1}] ${o.label}${o.inputs.some((x) => x.required) ? `  needs ${o.inputs.filter((x) => x.required).map((x) => x.key).join(', ')}` : ''}`));
    if (!s.options.length) out('    (no package or remote Erasmus can run)');
  });
}

export function registerServersInstall(servers: Command): void {
  servers
    .command('search <query>')
    .description('search the official MCP Registry; --install N adds result N as a server (disabled until trusted)')
    .option('--cursor <cursor>', 'the page of results after the one that printed this cursor')
    .option('--all', `follow the registry's pages to the last one (at most ${MAX_PAGES})`)
    .option('--install <n>', 'the result to install: its number or its registry name')
    .option('--option <n>', 'which of its packages/remotes to use (default 1)', '1')
    .option('--as <name>', 'the server name in the config (default: the last part of its registry name)')
    .option('--set <KEY=VALUE>', 'a value it needs (environment variable, header or bundle setting); repeatable', collect, {})
    .option('--yes', 'trust its command and enable it without asking')
    .option('--json', 'print JSON')
    .action(async (query: string, _opts: unknown, cmd: Command) => {
      // `--json` is also an option of `servers` itself, which takes it wherever it stands: read both.
      const opts = cmd.optsWithGlobals<{ cursor?: string; all?: boolean; install?: string; option: string; as?: string; set: Record<string, string>; yes?: boolean; json?: boolean }>();
      await withCore(async (core) => {
        const registry = registryUrl(core.env);
        const page = await searchRegistry(query, { baseUrl: registry, cursor: opts.cursor, pages: opts.all ? MAX_PAGES : 1 });
        const found = page.servers;
        // This search again, as typed (its page), for the hints printed below.
        const again = argv(['erasmus', 'servers', 'search', query, ...(opts.cursor ? ['--cursor', opts.cursor] : []), ...(opts.all ? ['--all'] : [])]);
        if (!opts.install) {
          if (opts.json) return out(JSON.stringify({ registry, servers: found, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) }, null, 2));
          if (!found.length && !page.nextCursor) return out(`no servers in the MCP Registry match "${query}"${opts.cursor ? ' after that cursor' : ''}`);
          printResults(found);
          if (page.nextCursor) {
            const next = argv(['erasmus', 'servers', 'search', query, '--cursor', page.nextCursor]);
            out(`\n${opts.all ? `Stopped after ${MAX_PAGES} pages; more` : 'More'} results: ${next}${opts.all ? '' : `  (or add --all for up to ${MAX_PAGES} pages)`}`);
          }
          return out(`\nInstall one: ${again} --install <number> [--option <n>] [--set KEY=VALUE]`);
        }
        const n = Number(opts.install);
        const pick = Number.isInteger(n) && n >= 1 ? found[n - 1] : found.find((s) => s.name === opts.install);
        if (!pick) throw new Error(`no result ${opts.install} for "${query}" on this page (${found.length} found${page.nextCursor ? '; more on the next page: --cursor, or --all' : ''}; give its number or its registry name)`);
        const option = pick.options[Number(opts.option) - 1];
        if (!option) throw new Error(`${pick.name} has ${pick.options.length} way(s) to run it (--option 1${pick.options.length > 1 ? `..${pick.options.length}` : ''}), not ${opts.option}`);
        const name = opts.as ?? pick.suggestedName;
        const cfg = editor(core);
        if (option.kind === 'mcpb') {
          // A bundle: downloaded, checked against the registry's sha256, then installed as a bundle file is.
          const bundle = await fetchRegistryBundle(option.bundle, { loopbackOrigin: registryLoopbackOrigin(registry) });
          return installBundleStep(core, cfg, bundle, { ...opts, as: name }, ` (${again} --install ${q(opts.install)} --set KEY=VALUE)`, `${option.label}, sha256 checked`);
        }
        const values = await answers(
          option.inputs.map((i) => ({ key: i.key, title: i.key, description: i.description, required: i.required, secret: i.secret, default: i.default })),
          opts.set,
          '',
        );
        const { server, secrets } = installInput(option, values, pick.description);
        const entry = await installServer({ config: cfg, secrets: core.secrets }, name, server, secrets);
        if (opts.json) return out(JSON.stringify({ entry }, null, 2));
        out(`added "${entry.name}" (${option.label}) to ${cfg.file}`);
        if (entry.transport === 'stdio') await trustStep(core, entry.name, await cfg.preview(entry.name), opts.yes);
        else if (opts.yes || (interactive() && (await ask(`Enable "${name}" now? [y/N] `)).trim().toLowerCase().startsWith('y'))) await cfg.enable(name);
      });
    });

  servers
    .command('install <file>')
    .description('install a .mcpb bundle (MCP Bundle / Desktop Extension): asks for its settings, keeps secrets in the keychain, and shows its command for trust before it first starts')
    .option('--as <name>', "the server name in the config (default: the bundle's name)")
    .option('--set <KEY=VALUE>', 'a user_config value; repeatable (several values of one setting: separate with newlines)', collect, {})
    .option('--yes', 'trust its command and enable it without asking')
    .option('--json', 'print JSON')
    .action(async (file: string, _opts: unknown, cmd: Command) => {
      const opts = cmd.optsWithGlobals<{ as?: string; set: Record<string, string>; yes?: boolean; json?: boolean }>();
      await withCore(async (core) => {
        const path = resolve(file);
        await installBundleStep(core, editor(core), await readBundle(path), opts, ` (erasmus servers install ${file} --set KEY=VALUE)`);
      });
    });
}

/** A bundle read (a file) or downloaded and checked (a registry result): what it is, its settings, the install, then trust. */
async function installBundleStep(core: Core, cfg: ServerConfigEditor, bundle: Bundle, opts: { as?: string; set: Record<string, string>; yes?: boolean; json?: boolean }, how: string, from?: string): Promise<void> {
  const info: McpBundleInfo = bundleInfo(bundle);
  if (!opts.json) {
    out(`${info.displayName} ${info.version}${info.author ? ` by ${info.author}` : ''} — a ${info.serverType} server`);
    if (info.description) out(info.description);
    if (info.tools.length) out(`tools: ${info.tools.join(', ')}`);
  }
  const values = await answers(
    info.userConfig.map((f) => ({ key: f.key, title: f.title, description: f.description, required: f.required, secret: f.sensitive, default: f.default, multiple: f.multiple })),
    opts.set,
    how,
  );
  const { entry, preview } = await installBundle({ config: cfg, secrets: core.secrets, extensionsDir: core.paths.extensionsDir }, bundle, { name: opts.as, values });
  if (opts.json) {
    if (opts.yes) await cfg.enable(entry.name, { trust: true });
    return out(JSON.stringify({ entry: { ...entry, disabled: !opts.yes, trusted: !!opts.yes }, preview }, null, 2));
  }
  out(`installed "${entry.name}"${from ? ` (${from})` : ''} in ${core.paths.extensionsDir}/${entry.name}, added to ${cfg.file}`);
  await trustStep(core, entry.name, preview, opts.yes);
}
