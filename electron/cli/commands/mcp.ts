import { resolve } from 'node:path';
import type { Command } from 'commander';
import type { Core } from '../../main/api/core';
import type { CallToolResult, ServerStatus } from '../../main/mcp/types';
import { discoverImports, importServers } from '../../main/mcp/config/import';
import { cliCore, withCore } from '../context';
import { ask } from '../prompt';
import { cliApprovalPath, installApprovalPath } from '../approval-path';
import { registerServersInstall } from './servers-install';

interface HubOptions {
  config?: string;
  project?: string;
  json?: boolean;
}

function hubOptions(cmd: Command): Command {
  return cmd
    .option('--config <file>', 'use this MCP config file (JSON or YAML; mcpServers, servers or goose extensions) instead of the ones under ERASMUS_HOME')
    .option('--project <dir>', "the project folder (its .erasmus/mcp.json and ${workspaceFolder}); default: the current folder")
    .option('--json', 'print JSON');
}

/** Runs `fn` with the hub started on the chosen config; every server stops when it returns. */
async function withHub<T>(opts: HubOptions, fn: (core: Core) => Promise<T>): Promise<T> {
  // `erasmus tools | head`: a closed pipe ends the command quietly (the hub's exit guard ends the servers).
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(0);
  });
  return withCore(async (core) => {
    // Elicitation: asked on the terminal; with no terminal to ask on, declined at once with the reason.
    installApprovalPath(core.hub, cliApprovalPath({ command: 'this erasmus command', hasYes: false }));
    await core.hub.start({ configFile: opts.config ? resolve(opts.config) : undefined, projectDir: resolve(opts.project ?? process.cwd()), watch: false });
    for (const issue of core.hub.configErrors()) process.stderr.write(`warning: ${issue.file}${issue.entry ? `: server "${issue.entry}"` : ''}: ${issue.message}\n`);
    return fn(core);
  });
}

function parseArgs(text: string | undefined, what: string): Record<string, unknown> {
  if (!text) return {};
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (err) {
    throw new Error(`--args for ${what} is not valid JSON: ${(err as Error).message}`);
  }
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw new Error(`--args for ${what} must be a JSON object, e.g. '{"message":"hi"}'`);
  return v as Record<string, unknown>;
}

const out = (s: string): void => void process.stdout.write(s.endsWith('\n') ? s : s + '\n');
const json = (v: unknown) => out(JSON.stringify(v, null, 2));

function statusLine(s: ServerStatus): string {
  const err = s.signInUrl ? `  Sign in: ${s.signInUrl}` : s.error ? `  ${s.error.split('\n')[0]}` : '';
  return `${s.name.padEnd(20)} ${s.state.padEnd(9)} ${s.transport.padEnd(10)} ${String(s.tools).padStart(3)} tools${err}`;
}

function printContent(r: CallToolResult): void {
  for (const c of r.content) {
    if (c.type === 'text') out(c.text);
    else if (c.type === 'resource' && 'text' in c.resource) out(String(c.resource.text));
    else out(`[${c.type}${'mimeType' in c && c.mimeType ? ` ${c.mimeType}` : ''}]`);
  }
}

export function registerMcp(program: Command): void {
  const serversCommand = hubOptions(program.command('servers').description('start the configured MCP servers and show the status of each (search and install: see the subcommands)'));
  registerServersInstall(serversCommand);
  serversCommand.action(async (opts: HubOptions) => {
    await withHub(opts, async (core) => {
      const servers = core.hub.servers();
      if (opts.json) return json({ servers, issues: core.hub.configErrors() });
      if (!servers.length) out('no MCP servers configured');
      for (const s of servers) out(statusLine(s));
      if (servers.some((s) => s.state === 'errored')) process.exitCode = 1;
    });
  });

  hubOptions(program.command('tools [server]').description('list the tools of every server (or one), with their annotations')).action(async (server: string | undefined, opts: HubOptions) => {
    await withHub(opts, async (core) => {
      const tools = core.hub.listTools(server);
      if (opts.json) return json({ tools });
      for (const t of tools) {
        const hints = Object.entries(t.annotations)
          .filter(([k, v]) => k.endsWith('Hint') && v === true)
          .map(([k]) => k.replace('Hint', ''));
        out(`${t.qualifiedName}${hints.length ? ` [${hints.join(', ')}]` : ''}${t.alwaysAllow ? ' (always allowed)' : ''}\n    ${t.description.split('\n')[0]}`);
      }
    });
  });

  hubOptions(program.command('call <server> <tool>').description('call a tool').option('--args <json>', 'the arguments as a JSON object').option('--timeout <ms>', 'per-call timeout in ms')).action(
    async (server: string, tool: string, opts: HubOptions & { args?: string; timeout?: string }) => {
      const args = parseArgs(opts.args, `${server} ${tool}`);
      await withHub(opts, async (core) => {
        const r = await core.hub.callTool(server, tool, args, { timeoutMs: opts.timeout ? Number(opts.timeout) : undefined });
        if (opts.json) json(r);
        else printContent(r);
        if (r.isError) process.exitCode = 1;
      });
    },
  );

  hubOptions(program.command('resources [server]').description('list resources and resource templates')).action(async (server: string | undefined, opts: HubOptions) => {
    await withHub(opts, async (core) => {
      const [resources, templates] = await Promise.all([core.hub.listResources(server), core.hub.listResourceTemplates(server)]);
      if (opts.json) return json({ resources, templates });
      for (const r of resources) out(`${r.server}  ${r.uri}  ${r.name}${r.mimeType ? ` (${r.mimeType})` : ''}`);
      for (const t of templates) out(`${t.server}  ${t.uriTemplate}  ${t.name} (template)`);
    });
  });

  hubOptions(program.command('read <uri>').description('read a resource').option('--server <name>', 'the server to ask (default: the one that lists the URI)')).action(
    async (uri: string, opts: HubOptions & { server?: string }) => {
      await withHub(opts, async (core) => {
        const r = await core.hub.readResource(uri, opts.server);
        if (opts.json) return json(r);
        for (const c of r.contents) out('text' in c ? String(c.text) : `[blob ${c.mimeType ?? ''}, ${String(c.blob).length} base64 characters]`);
      });
    },
  );

  hubOptions(program.command('prompts [server]').description('list prompts')).action(async (server: string | undefined, opts: HubOptions) => {
    await withHub(opts, async (core) => {
      const prompts = await core.hub.listPrompts(server);
      if (opts.json) return json({ prompts });
      for (const p of prompts) out(`${p.server}  ${p.name}${p.arguments?.length ? `(${p.arguments.map((a) => a.name + (a.required ? '' : '?')).join(', ')})` : ''}  ${p.description ?? ''}`);
    });
  });

  hubOptions(program.command('prompt <name>').description('get a prompt').option('--args <json>', 'the arguments as a JSON object of strings').option('--server <name>', 'the server (default: the one that lists it)')).action(
    async (name: string, opts: HubOptions & { args?: string; server?: string }) => {
      const args = parseArgs(opts.args, `prompt ${name}`);
      for (const [k, v] of Object.entries(args)) if (typeof v !== 'string') throw new Error(`prompt argument "${k}" must be a string`);
      await withHub(opts, async (core) => {
        let server = opts.server;
        if (!server) {
          const owners = (await core.hub.listPrompts()).filter((p) => p.name === name).map((p) => p.server);
          if (owners.length !== 1) throw new Error(owners.length ? `several servers have a prompt "${name}" (${owners.join(', ')}); pass --server` : `no server has a prompt "${name}"`);
          server = owners[0]!;
        }
        const r = await core.hub.getPrompt(server, name, args as Record<string, string>);
        if (opts.json) return json(r);
        for (const m of r.messages) out(`${m.role}: ${m.content.type === 'text' ? m.content.text : `[${m.content.type}]`}`);
      });
    },
  );
}

export function registerImportServers(program: Command): void {
  program
    .command('import-servers')
    .description("find the MCP servers of Claude Desktop, Cursor, VS Code, Roo and goose and add them to ERASMUS_HOME/mcp/config.json (existing names are kept)")
    .option('--from <sources>', 'comma-separated: claude,cursor,vscode,roo,goose (default: all)')
    .option('--project <dir>', 'also look in this project (.cursor, .vscode, .roo); default: the current folder')
    .option('--yes', 'add them without asking')
    .option('--json', 'print JSON')
    .action(async (opts: { from?: string; project?: string; yes?: boolean; json?: boolean }) => {
      const wanted = opts.from?.split(',').map((s) => s.trim());
      const found = (await discoverImports({ projectDir: resolve(opts.project ?? process.cwd()) })).filter((f) => !wanted || wanted.includes(f.source));
      const servers = found.flatMap((f) => f.servers);
      if (!opts.json) {
        for (const f of found) {
          out(`${f.source}: ${f.file}`);
          for (const s of f.servers) out(`  ${s.name}  ${s.transport === 'stdio' ? [s.command, ...s.args].join(' ') : s.url}`);
          for (const i of f.issues) out(`  ! ${i.entry ?? ''} ${i.message}`);
        }
        if (!servers.length) return out('no servers found to import');
      }
      let go = !!opts.yes;
      if (!go && process.stdin.isTTY && !opts.json) go = (await ask(`Add ${servers.length} server(s) to Erasmus? [y/N] `)).trim().toLowerCase().startsWith('y');
      const target = cliCore().paths.mcpConfig;
      const result = go ? await importServers(servers, target) : { added: [], skipped: [] };
      if (opts.json) return json({ found, ...result });
      if (!go) return out('nothing added (pass --yes to add them)');
      out(`added ${result.added.length} to ${target}${result.skipped.length ? `; kept the existing ${result.skipped.join(', ')}` : ''}`);
    });
}
