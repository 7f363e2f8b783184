import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { serverEntry } from '../../../tests/fixtures/mcp/servers';
import { startScriptedLlm, type ScriptedLlm } from '../../../tests/fixtures/scripted-llm/index';
import { Core } from '../api/core';
import type { KeychainBackend } from './store';
import { Redactor, StreamRedactor } from './redactor';

const SECRET = 'sk-erasmus-leak-probe-7f3a9c2e51';
const ENV_SECRET = 'sk-erasmus-env-probe-4b81d07c39';

function memoryKeychain(): KeychainBackend {
  const m = new Map<string, string>();
  return {
    getPassword: async (_s, a) => m.get(a) ?? null,
    setPassword: async (_s, a, p) => void m.set(a, p),
    deletePassword: async (_s, a) => m.delete(a),
    findCredentials: async () => [...m].map(([account, password]) => ({ account, password })),
  };
}

/** Every file under dir whose content holds the needle. */
function filesHolding(dir: string, needle: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      const st = statSync(p);
      if (st.isDirectory()) walk(p);
      else if (readFileSync(p).includes(needle)) out.push(p);
    }
  };
  walk(dir);
  return out;
}

describe('StreamRedactor', () => {
  it('catches a secret split across chunks, and passes text through untouched without secrets', () => {
    const r = new Redactor();
    const plain = new StreamRedactor(r);
    expect(plain.push('abc')).toBe('abc');
    r.add('TOKEN', SECRET);
    const s = new StreamRedactor(r);
    let out = '';
    for (const chunk of ['key=', SECRET.slice(0, 5), SECRET.slice(5, 17), `${SECRET.slice(17)} and sk-`, 'not-it\n']) out += s.push(chunk);
    out += s.flush();
    expect(out).toBe('key=[secret:TOKEN] and sk-not-it\n');
  });
});

describe('no secret leaks', () => {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'erasmus-leak-')));
  const home = join(base, 'home');
  const project = join(base, 'project');
  let core: Core;
  let llm: ScriptedLlm;
  const seen: string[] = [];

  beforeAll(async () => {
    mkdirSync(join(home, 'mcp'), { recursive: true });
    mkdirSync(project);
    llm = await startScriptedLlm([
      { match: { lastUser: 'chat: save the token' }, toolCalls: [{ name: 'open_toolset', arguments: { name: 'notes' } }] },
      { match: { lastTool: 'is open' }, toolCalls: [{ name: 'notes__write', arguments: { text: `the token is ${SECRET}` } }] },
      { match: { lastTool: 'saved' }, text: `Saved: ${SECRET}` },
      { match: { lastUser: 'step: save the token' }, toolCalls: [{ name: 'notes__write', arguments: { text: SECRET } }] },
      { match: { lastTool: 'saved' }, text: `Step done with ${SECRET}.` },
      { match: { lastUser: 'env: hello' }, text: 'hello' },
    ]);
    writeFileSync(join(home, 'config.yaml'), `providers:\n  - id: scripted\n    kind: openai-compatible\n    model: scripted\n    baseUrl: ${llm.baseUrl}\n    apiKey: \${secret:TOKEN}\n`);
    // A server that prints the secret it was given to its stderr (which is logged).
    writeFileSync(
      join(home, 'mcp', 'config.json'),
      JSON.stringify({ mcpServers: { leaky: { command: 'sh', args: ['-c', 'echo "token=$TOKEN" >&2; exec "$0" "$@"', process.execPath, serverEntry.everything, 'stdio'], env: { TOKEN: '${secret:TOKEN}' } } } }),
    );
    core = new Core({ face: 'browser', home, keychain: memoryKeychain(), env: { ...process.env, ERASMUS_LEAK_PROBE_ENV_KEY: ENV_SECRET } });
    await core.secrets.set('TOKEN', SECRET);
    core.bus.on((_e, payload) => seen.push(JSON.stringify(payload)));
    const notes = new McpServer({ name: 'notes', version: '1.0.0' });
    notes.registerTool('write', { description: 'write a note', inputSchema: { text: z.string() } }, async ({ text }) => ({ content: [{ type: 'text', text: `saved ${text}` }] }));
    await core.hub.addInProcessServer('notes', notes, { description: 'notes', alwaysAllow: ['write'] });
    await core.hub.start({ projectDir: project, watch: false });
    await core.hub.whenReady('leaky', 30_000);
  }, 60_000);

  afterAll(async () => {
    await core.dispose();
    await llm.close();
    rmSync(base, { recursive: true, force: true });
  });

  it('after a chat, a workflow step, a tool call and a command that all carry the secret, it is nowhere under ERASMUS_HOME, the project or the events', async () => {
    const chat = await core.agent.run({ task: 'chat: save the token', project, toolMode: 'native', autoApprove: true });
    expect(JSON.stringify(chat)).not.toContain('"error"');
    await core.agent.run({ task: 'step: save the token', project, toolMode: 'native', openToolsets: ['notes'], autoApprove: true });
    const echoed = await core.hub.callTool('leaky', 'echo', { message: SECRET });
    expect(JSON.stringify(echoed)).toContain(SECRET); // the caller gets the real result; sinks must not keep it
    const run = await core.ptys.run({ command: 'printf "%s\\n" "$TOKEN"', cwd: project, env: { TOKEN: SECRET } });
    expect(run.output).toContain('[secret:TOKEN]');
    await core.hub.removeServer('leaky'); // flushes its stderr log
    expect(filesHolding(home, SECRET)).toEqual([]);
    expect(filesHolding(project, SECRET)).toEqual([]);
    expect(seen.filter((p) => p.includes(SECRET))).toEqual([]);
    // The sinks did receive the text, masked: the test would notice a sink that kept nothing.
    expect(filesHolding(home, '[secret:TOKEN]').some((f) => f.includes(join('logs', 'mcp')))).toBe(true);
    expect(filesHolding(home, '[secret:TOKEN]').some((f) => f.includes('sessions'))).toBe(true);
    expect(filesHolding(home, '[secret:TOKEN]').some((f) => f.includes('outputs'))).toBe(true);
  }, 120_000);

  it("a provider's key read from an environment variable (${env:NAME}): no command gets the variable, and its value is masked like a secret", async () => {
    const config = readFileSync(join(home, 'config.yaml'), 'utf8');
    writeFileSync(join(home, 'config.yaml'), config.replace('${secret:TOKEN}', '${env:ERASMUS_LEAK_PROBE_ENV_KEY}'));
    try {
      const chat = await core.agent.run({ task: 'env: hello', project, toolMode: 'native', autoApprove: true });
      expect(JSON.stringify(chat)).not.toContain('"error"');
      const env = await core.runner.run({ command: 'env; echo "key=$ERASMUS_LEAK_PROBE_ENV_KEY"', root: project });
      expect(env.output).toContain('key=\n');
      expect(env.output).not.toContain('ERASMUS_LEAK_PROBE_ENV_KEY=');
      // A command given the value another way (its own env) shows it masked.
      const given = await core.ptys.run({ command: 'printf "%s\\n" "$K"', cwd: project, env: { K: ENV_SECRET } });
      expect(given.output).toContain('[secret:env:ERASMUS_LEAK_PROBE_ENV_KEY]');
      expect(filesHolding(home, ENV_SECRET)).toEqual([]);
      expect(seen.filter((p) => p.includes(ENV_SECRET))).toEqual([]);
    } finally {
      writeFileSync(join(home, 'config.yaml'), config);
    }
  }, 60_000);
});
