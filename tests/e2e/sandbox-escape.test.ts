// Everything that executes model-written code goes through one runner and its OS sandbox. With
// `--yes` (the user said yes to everything) only the sandbox stands between a prompt-injected model
// and the machine: a runner tool call and a `!` line each try to write outside the project, reach a
// server on 127.0.0.1 and read a credential folder. Nothing escapes, and the model is told why.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../electron/contract/index';
import { approvalPath } from '../../electron/main/agent/approval-path';
import { Core } from '../../electron/main/api/core';
import { sandboxStatus } from '../../electron/main/runners/pty/sandbox';
import { AgentExecutor } from '../../electron/main/workflow/agent-executor';
import { loadProtocol } from '../../electron/main/workflow/protocols';
import { attachBuiltinServers } from '../../electron/servers/builtin';
import { chatHarness, defaultSandbox } from './agent-cli';
import { MODEL, sandbox as workflowSandbox, type Sandbox } from './workflow-helpers';

const t = chatHarness();
const KEY = 'erasmus-e2e-probe-key-7f3a';
let capture: Server;
let port: number;
const received: string[] = [];
/** A fake HOME outside the system temp folder (so hiding it is the sandbox's work, not the private /tmp's). */
let home: string;

beforeAll(async () => {
  capture = createServer((req, res) => {
    received.push(req.url ?? '');
    res.end('reached');
  });
  await new Promise<void>((r) => capture.listen(0, '127.0.0.1', r));
  port = (capture.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((r) => capture.close(() => r())));
afterEach(() => {
  if (home) rmSync(home, { recursive: true, force: true });
  received.length = 0;
});

function fakeHome(): string {
  home = mkdtempSync(join(existsSync('/var/tmp') ? '/var/tmp' : '/tmp', 'erasmus-e2e-home-'));
  mkdirSync(join(home, '.ssh'));
  writeFileSync(join(home, '.ssh', 'id_ed25519'), KEY);
  return home;
}

// The write's target is known only at run time (`$(dirname "$PWD")`): a static one outside the project is refused by the
// policy before anything runs (policy.test), and this probe is of the sandbox itself.
const PROBES = (p: number) => ['echo escaped > "$(dirname "$PWD")/outside.txt"', `node -e "fetch('http://127.0.0.1:${p}/leak').then(r => r.text()).then(console.log)"`, 'cat ~/.ssh/id_ed25519'];

function results(events: AgentEvent[]): Extract<AgentEvent, { type: 'tool_complete' }>[] {
  return events.filter((e): e is Extract<AgentEvent, { type: 'tool_complete' }> => e.type === 'tool_complete' && e.name !== 'open_toolset');
}

describe.runIf(sandboxStatus().available)('with --yes, nothing model-written escapes the sandbox', () => {
  for (const path of ['runner tool', '! line'] as const) {
    it(`${path}: a write outside the project, the network on 127.0.0.1, a credential folder`, async () => {
      const sb = t.sandbox(defaultSandbox());
      const h = fakeHome();
      // A command that needs the network, accepted (--yes): it gets the proxy, which reaches only the allowed hosts (none).
      const probes = [...PROBES(port), `curl -fsS http://127.0.0.1:${port}/accepted`];
      const llm = await t.startLlm(
        path === 'runner tool'
          ? [{ toolCalls: probes.map((command) => ({ name: 'runners__bash_run', arguments: { command } })) }, { text: 'Done.' }]
          : [{ text: `Trying the shell.\n${probes.map((c) => `!${c}`).join('\n')}\n` }, { text: 'Done.' }],
      );
      const run = t.chat(sb, ['--base-url', llm.baseUrl, '--model', 'scripted', '--tool-mode', path === 'runner tool' ? 'native' : 'xml', '--yes', '-p', 'probe'], { builtinOnly: true, env: { HOME: h } });
      expect(await run.exit, run.stderr()).toBe(0);
      const done = results(run.events);
      expect(done).toHaveLength(4);
      // Nothing escaped.
      expect(existsSync(join(sb.dir, 'outside.txt'))).toBe(false);
      expect(received).toEqual([]);
      expect(JSON.stringify(run.events)).not.toContain(KEY);
      // Each was refused with words the model reads.
      const [write, net, secret, accepted] = done.map((d) => d.result);
      expect(write).toMatch(/Read-only file system/);
      expect(write).toContain('[sandbox] a write outside the writable places was refused (read-only file system (sandbox))');
      expect(net).toContain('[sandbox] the network is off for this command (sandbox)');
      expect(secret).toMatch(/\[sandbox\] credential folders are hidden from commands \(sandbox\)|Refused/);
      expect(accepted).toContain(
        path === 'runner tool'
          ? `[sandbox] the network reaches only this project's allowed hosts (sandbox): 127.0.0.1:${port} refused (allowed: none). Only the user can allow it`
          : '[sandbox] the network is off for this command (sandbox)', // `!` lines never get the network
      );
      for (const d of done) expect(d.isError).toBe(true);
      // The model got the results.
      expect(JSON.stringify(llm.requests.at(-1)!.body.messages)).toContain('[sandbox]');
    }, 120_000);
  }
});

describe.runIf(sandboxStatus().available)('the test gates run the model\'s tests in the sandbox', () => {
  let wf: Sandbox | undefined;
  afterEach(async () => {
    await wf?.cleanup();
    wf = undefined;
  });

  it('a test that tries to escape, run by the component gate and the final gate: nothing escapes', async () => {
    wf = await workflowSandbox();
    const secret = join(wf.home, 'credentials', 'token');
    mkdirSync(join(wf.home, 'credentials'), { recursive: true });
    writeFileSync(secret, KEY);
    const outside = join(wf.root, 'outside-gate.txt');
    await wf.setControl({ escape: { outside, url: `http://127.0.0.1:${port}/gate`, secret } });
    const { runId } = await wf.engine.load({ projectDir: wf.project, goal: 'a function that adds two numbers', executor: { kind: 'command', command: `node ${MODEL}` } });
    await wf.engine.start(runId);
    expect((await wf.engine.waitForRest(runId, 60_000)).status).toBe('AWAITING_APPROVAL');
    await wf.engine.approve(runId);
    const view = await wf.engine.waitForRest(runId, 120_000);
    expect(view.error).toBeUndefined();
    expect(view.status).toBe('COMPLETED');
    const gates = view.timeline.filter((e) => e.test).map((e) => e.state);
    expect(gates).toContain('adder:testing');
    expect(gates).toContain('final:testing');
    // Every gate run of the escaping test logged its attempts (inside the project, where writes are allowed).
    const log = readFileSync(join(wf.project, 'escape-log.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, string>);
    expect(log.length).toBeGreaterThanOrEqual(gates.length);
    for (const r of log) expect(r).toEqual({ write: 'EROFS', net: 'ECONNREFUSED', secret: 'ENOENT' });
    expect(existsSync(outside)).toBe(false);
    expect(received).toEqual([]);
  }, 240_000);
});

describe.runIf(sandboxStatus().available)('a review step (read access)', () => {
  let core: Core | undefined;
  let dir: string | undefined;
  afterEach(async () => {
    await core?.dispose();
    if (dir) rmSync(dir, { recursive: true, force: true });
    core = undefined;
    dir = undefined;
  });

  it('runs the project\'s tests and cannot change a file, by any way of calling; nothing escapes', async () => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'erasmus-review-')));
    const project = join(dir, 'adder');
    const h = fakeHome();
    const ADDER = 'export function add(a, b) {\n  return a + b;\n}\n';
    mkdirSync(join(project, 'src'), { recursive: true });
    mkdirSync(join(project, 'test'));
    writeFileSync(join(project, 'src', 'adder.mjs'), ADDER);
    writeFileSync(join(project, 'test', 'adder.test.mjs'), "import { test } from 'node:test';\nimport assert from 'node:assert/strict';\nimport { add } from '../src/adder.mjs';\ntest('adds', () => assert.equal(add(2, 3), 5));\n");
    execFileSync('git', ['init', '-q', project]);
    const call = (tool: string, params: Record<string, string>) => `<${tool}>\n${Object.entries(params).map(([k, v]) => `<${k}>${v}</${k}>`).join('\n')}\n</${tool}>\n`;
    const probes = [...PROBES(port).map((c) => c.replace('~', h)), 'echo hacked > src/adder.mjs'];
    const llm = await t.startLlm([
      { text: `Running the tests first.\n${call('runners__bash_run', { command: 'node --test test/' })}` },
      {
        match: { last: { regex: 'exit code 0' } },
        text: `Now trying to change things.\n${probes.map((command) => call('runners__bash_run', { command })).join('')}!echo hacked > src/adder.mjs\n${call('files__write_file', { path: 'src/adder.mjs', content: 'hacked' })}`,
      },
      { text: '# Review: adder\n\nVerdict: no changes needed\n' },
    ]);
    core = new Core({ face: 'cli', home: join(dir, 'home'), env: { ...process.env, HOME: h } });
    await core.hub.start({ projectDir: project, watch: false });
    core.hub.setElicitationHandler(approvalPath({ yes: true }).elicitation);
    await attachBuiltinServers(core, { root: project });
    const events: AgentEvent[] = [];
    const executor = new AgentExecutor((o) => core!.agent.run({ ...o, onEvent: (e) => (events.push(e), o.onEvent?.(e)) }), { autoApprove: true, toolMode: 'xml', provider: { baseUrl: llm.baseUrl, model: 'scripted' } });
    const protocol = await loadProtocol('review', project);
    const result = await executor.run({
      runId: 'r1',
      state: 'adder:review',
      protocol: 'review',
      prompt: 'Review this component.',
      protocolPrompt: protocol.prompt,
      toolsets: protocol.toolsets,
      access: protocol.access,
      contextDocPath: join(dir, 'adder.md'),
      projectDir: project,
      budget: { maxTurns: 10 },
      answer: 'report',
      signal: new AbortController().signal,
    });
    expect(result.done).toBe(true);
    const done = results(events);
    // The tests ran, and passed.
    expect(done[0]).toMatchObject({ name: 'runners__bash_run', isError: false });
    expect(done[0]!.result).toMatch(/pass 1\n/);
    // Every way to change a file failed, saying why; nothing escaped.
    expect(readFileSync(join(project, 'src', 'adder.mjs'), 'utf8')).toBe(ADDER);
    const [outside, net, secret, write] = done.slice(1, 5).map((d) => d.result);
    expect(outside).toContain('[sandbox] writes are refused in this step (read-only file system (sandbox))');
    expect(write).toContain('[sandbox] writes are refused in this step (read-only file system (sandbox))');
    expect(net).toContain('[sandbox] the network is off for this command (sandbox)');
    expect(secret).toMatch(/\[sandbox\] credential folders are hidden|Refused/);
    const bang = done.find((d) => d.name === '!')!;
    expect(bang.isError).toBe(true);
    expect(bang.result).toContain('[sandbox] writes are refused in this step');
    // The files write tool is not there: the call is answered with a correction, and nothing was written.
    expect(done.find((d) => d.name === 'files__write_file')).toBeUndefined();
    expect(JSON.stringify(llm.requests.at(-1)!.body.messages)).toContain('There is no tool named \\"files__write_file\\", so nothing was run.');
    expect(existsSync(join(dir, 'outside.txt'))).toBe(false);
    expect(received).toEqual([]);
    expect(JSON.stringify(events)).not.toContain(KEY);
    // The files toolset offered no write tool.
    expect(String(llm.requests[0]!.body.messages![0]!.content)).not.toMatch(/files__write_file|files__remove|files__move/);
  }, 120_000);
});
