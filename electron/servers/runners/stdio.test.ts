import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createServer } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { APPROVAL_META } from '../../contract/index';
import { ProjectTrust } from '../../main/project/trust';
import { sandboxStatus } from '../../main/runners/pty/sandbox';
import { setRunnerSettings } from '../../main/settings/runners';
import { bundledFixture } from '../../../tests/support/fixture-bundle';

const fixture = bundledFixture(resolve(__dirname, '../../../tests/fixtures/runners-stdio.ts'));
let dir: string;
let root: string;
const clients: Client[] = [];

type Answer = 'accept' | 'decline';
/** What the client does when asked, before it answers (the app's card ticking "Allow <host>"). */
let onAsk: ((meta: Record<string, unknown> | undefined) => Promise<void>) | undefined;
async function connect(opts: { elicitation: boolean; answer?: () => Answer; asked?: string[] }): Promise<Client> {
  const client = new Client({ name: 'test', version: '1' }, { capabilities: opts.elicitation ? { elicitation: {} } : {} });
  if (opts.elicitation) {
    client.setRequestHandler(ElicitRequestSchema, async (req) => {
      opts.asked?.push(req.params.message);
      await onAsk?.(req.params._meta);
      return { action: opts.answer?.() ?? 'decline', content: {} };
    });
  }
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [fixture, '--root', root, '--outputs', join(dir, 'outputs')],
    cwd: resolve(__dirname, '../../..'),
    // A `pnpm` on PATH (a test double that echoes), and no `uv`: rewrites apply only to installed tools.
    env: { ...(process.env as Record<string, string>), PATH: `${join(dir, 'bin')}:${process.env.PATH}` },
    stderr: 'pipe',
  });
  await client.connect(transport);
  clients.push(client);
  return client;
}

const text = (r: unknown) => ((r as CallToolResult).content[0] as { text: string }).text;
const call = async (c: Client, name: string, args: Record<string, unknown>) => (await c.callTool({ name, arguments: args })) as CallToolResult;

let answer: Answer = 'accept';
const asked: string[] = [];
let withElicitation: Client;
let without: Client;

beforeAll(async () => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'erasmus-runners-')));
  root = join(dir, 'project');
  mkdirSync(root);
  mkdirSync(join(dir, 'bin'));
  writeFileSync(join(dir, 'bin', 'pnpm'), '#!/bin/sh\necho "pnpm-double $@"\n', { mode: 0o755 });
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: root });
  // The project's lockfile names pnpm: npm commands are rewritten toward it.
  writeFileSync(join(root, 'pnpm-lock.yaml'), '');
  [withElicitation, without] = await Promise.all([connect({ elicitation: true, answer: () => answer, asked }), connect({ elicitation: false })]);
}, 60_000);

afterAll(async () => {
  for (const c of clients) await c.close();
  rmSync(dir, { recursive: true, force: true });
});

beforeEach(() => {
  mkdirSync(join(root, 'build', 'deep'), { recursive: true });
  asked.length = 0;
});

describe('runners MCP server over stdio', () => {
  it('lists the toolsets with honest annotations', async () => {
    const { tools } = await withElicitation.listTools();
    const by = new Map(tools.map((t) => [t.name, t]));
    for (const name of ['bash_run', 'bash_script', 'git_status', 'git_commit', 'git_push', 'pnpm_run', 'cargo_test', 'uv_run', 'docker_build', 'docker_ps']) {
      expect(by.has(name), name).toBe(true);
    }
    expect(by.get('git_status')!.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    expect(by.get('docker_ps')!.annotations).toMatchObject({ readOnlyHint: true });
    expect(by.get('bash_run')!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(by.get('git_commit')!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false });
  });

  it('runs a read-only command without asking, in the project folder', async () => {
    const r = await call(withElicitation, 'git_status', {});
    expect(r.isError).toBe(false);
    // (A login profile may print a line of its own first, e.g. pyenv failing to write inside the sandbox.)
    expect(text(r)).toMatch(/^\$ git status --short --branch\n\[exit code 0\]\n(.*\n)?## No commits yet on main/);
    const pwd = await call(without, 'bash_run', { command: 'pwd' });
    expect(text(pwd)).toContain(`\n${root}`);
    expect(asked).toEqual([]);
  });

  it('asks through elicitation before a destructive command: accept runs it', async () => {
    answer = 'accept';
    const r = await call(withElicitation, 'bash_run', { command: 'rm -rf build', purpose: 'clean the build' });
    expect(asked).toHaveLength(1);
    expect(asked[0]).toContain('rm -rf build');
    expect(asked[0]).toContain('clean the build');
    expect(r.isError).toBe(false);
    expect(existsSync(join(root, 'build'))).toBe(false);
  });

  it.runIf(sandboxStatus().available)('a network command: the approval offers the hosts it names; allowed there, the command reaches that host and nothing else', async () => {
    const capture = createServer((req, res) => res.end(`reached ${req.url}`));
    await new Promise<void>((r) => capture.listen(0, '127.0.0.1', () => r()));
    const port = (capture.address() as { port: number }).port;
    const offered: unknown[] = [];
    let tick = true;
    // The app's card: tick "Allow <host>" (the core adds it to the project's allowed hosts), then Allow.
    onAsk = async (meta) => {
      const approval = meta?.[APPROVAL_META] as { hosts?: string[] } | undefined;
      offered.push(approval?.hosts);
      if (tick && approval?.hosts?.length) await setRunnerSettings(root, { allowHosts: approval.hosts }, ProjectTrust.forHome());
    };
    answer = 'accept';
    const client = withElicitation;
    try {
      const r = await call(client, 'bash_run', { command: `curl -fsS http://127.0.0.1:${port}/allowed` });
      expect(offered).toEqual([[`127.0.0.1:${port}`]]);
      // Where it can write, all of it: the project and its temporary folder, nothing else whatever the answer.
      expect(asked.at(-1)).toContain(`It runs in the sandbox: it can write only in ${root} and its own temporary folder ($TMPDIR); a write anywhere else fails, approved or not;`);
      // The approval says how to allow them on each face: the app's card and Settings, a terminal's h answers, the file.
      expect(asked.at(-1)).toContain(`Hosts it names that the project does not allow: 127.0.0.1:${port} (the proxy refuses them unless allowed: answering this approval, "Allow <host>" on the app's card or h (all of them) or h1, h2… (one) on a terminal; or in the app's Settings → Allowed hosts,`);
      expect(text(r)).toContain('reached /allowed');
      expect(r.isError).toBe(false);
      // The same host on another port, not ticked: the proxy refuses it and the result says how to allow it.
      tick = false;
      const other = port === 65535 ? port - 1 : port + 1;
      const refused = await call(client, 'bash_run', { command: `curl -fsS http://127.0.0.1:${other}/other` });
      expect(offered[1]).toEqual([`127.0.0.1:${other}`]);
      expect(refused.isError).toBe(true);
      expect(text(refused)).toContain(`[sandbox] the network reaches only this project's allowed hosts (sandbox): 127.0.0.1:${other} refused (allowed: 127.0.0.1:${port})`);
    } finally {
      await new Promise<void>((r) => capture.close(() => r()));
      onAsk = undefined;
      rmSync(join(root, '.erasmus'), { recursive: true, force: true });
    }
  });

  it('decline does not run it', async () => {
    answer = 'decline';
    const r = await call(withElicitation, 'bash_run', { command: 'rm -rf build' });
    expect(asked).toHaveLength(1);
    expect(r.isError).toBe(true);
    expect(text(r)).toContain('the user declined');
    expect(existsSync(join(root, 'build', 'deep'))).toBe(true);
  });

  it('a client without elicitation gets a clear refusal, and nothing is removed', async () => {
    const r = await call(without, 'bash_run', { command: 'rm -rf build' });
    expect(r.isError).toBe(true);
    expect(text(r)).toContain('cannot ask: it does not support elicitation');
    expect(existsSync(join(root, 'build', 'deep'))).toBe(true);
  });

  it('refuses outright what the policy refuses, without asking', async () => {
    const r = await call(withElicitation, 'bash_run', { command: 'rm -rf ~' });
    expect(r.isError).toBe(true);
    expect(text(r)).toContain('Refused, not run');
    expect(asked).toEqual([]);
  });

  it('reports a rewrite: what was asked and what actually ran', async () => {
    const r = await call(without, 'bash_run', { command: 'npm --version' });
    expect(text(r).split('\n')[0]).toBe('$ pnpm --version');
    expect(text(r)).toContain('rewritten from: npm --version');
    expect((r.structuredContent as { rewrites: { rule: string }[] }).rewrites.map((a) => a.rule)).toContain('npm');
  });

  it('does not rewrite to a tool that is not installed, and adds no line of its own', async () => {
    const hasUv = execFileSync('sh', ['-c', 'command -v uv || true'], { encoding: 'utf8' }).trim();
    if (hasUv) return; // the machine has uv: the rewrite would rightly apply
    writeFileSync(join(root, 'uv.lock'), '');
    writeFileSync(join(root, 'six.py'), 'print(6*7)\n');
    try {
      const r = await call(without, 'bash_run', { command: 'python3 six.py' });
      expect(text(r)).toMatch(/^\$ python3 six\.py\n\[exit code 0\]\n(.*\n)?42/);
      expect(text(r)).not.toContain('rewritten');
      // A uv tool called by name, without uv: how to install it, nothing run.
      const uv = await call(without, 'uv_run', { args: ['six.py'] });
      expect(uv.isError).toBe(true);
      expect(text(uv)).toMatch(/^Not run: uv is not installed on this machine \(it is not on PATH\), so the uv tools cannot run\. Ask the user to install uv: curl -LsSf https:\/\/astral\.sh\/uv\/install\.sh \| sh/);
    } finally {
      rmSync(join(root, 'uv.lock'));
    }
  });

  it('leaves a command in the background when asked, and stops it when the client goes away', async () => {
    const client = await connect({ elicitation: false });
    const r = await call(client, 'bash_run', { command: 'echo up; sleep 97.25', timeout_seconds: 1, on_timeout: 'background' });
    expect(r.isError).toBe(false);
    expect(text(r)).toContain('still running in the background');
    const running = () => execFileSync('ps', ['-eo', 'args='], { encoding: 'utf8' }).split('\n').filter((l) => l.startsWith('sleep 97.25'));
    for (let i = 0; i < 100 && running().length === 0; i++) await new Promise((res) => setTimeout(res, 50)); // a login shell may start slowly
    expect(running()).toHaveLength(1);
    await client.close();
    const deadline = Date.now() + 10_000;
    while (running().length && Date.now() < deadline) await new Promise((res) => setTimeout(res, 50));
    expect(running()).toEqual([]);
  });

  it('stops a command past its timeout and says so', async () => {
    const r = await call(without, 'bash_run', { command: 'echo waiting; sleep 30', timeout_seconds: 1 });
    expect(r.isError).toBe(true);
    expect(text(r)).toContain('stopped after its timeout');
    expect(text(r)).toContain('waiting');
  });

  it('never takes a name that begins with "-" as an option: such values are refused before anything runs, and names follow `--`', async () => {
    answer = 'accept';
    const pwned = join(dir, 'pwned');
    for (const [tool, args] of [
      ['git_push', { remote: `--receive-pack=touch ${pwned}` }],
      ['git_push', { remote: 'origin', branch: `--exec=touch ${pwned}` }],
      ['pnpm_run', { script: '--filter=x' }],
      ['pnpm_install', { packages: ['--global', 'x'] }],
      ['cargo_add', { crates: ['--config=x'] }],
      ['cargo_test', { filter: '--config=x' }],
      ['uv_add', { packages: ['--index-url=http://evil'] }],
      ['docker_logs', { container: '--help' }],
      ['docker_run', { image: '--privileged' }],
    ] as Array<[string, Record<string, unknown>]>) {
      const r = await call(withElicitation, tool, args);
      expect(r.isError, tool).toBe(true);
      expect(text(r), tool).toMatch(/must not begin with "-"/);
    }
    expect(existsSync(pwned)).toBe(false);
    // A push names its remote after `--`, so git reads it as a repository.
    asked.length = 0;
    const r = await call(withElicitation, 'git_push', { remote: 'nowhere' });
    expect(text(r)).toMatch(/^\$ git push -- nowhere\n/);
  });
});
