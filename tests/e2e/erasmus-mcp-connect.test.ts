// `erasmus mcp-server erasmus --connect ws://…?token=…` forwards to a running Erasmus (`erasmus serve`)
// instead of starting its own core; connection timeout and retries come from the environment.
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startScriptedLlm, type ScriptedLlm } from '../fixtures/scripted-llm/index';
import { startServe, type ServeHandle } from '../support/serve';
import { connectClient, tempHome, type Home, type Running } from './erasmus-mcp-helpers';

let home: Home | undefined;
let llm: ScriptedLlm | undefined;
let serve: ServeHandle | undefined;
const servers: Running[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.transport.close();
  await serve?.stop();
  serve = undefined;
  await llm?.close();
  llm = undefined;
  home?.cleanup();
  home = undefined;
});

const text = (r: unknown) => ((r as { content: Array<{ text?: string }> }).content ?? []).map((c) => c.text ?? '').join('\n');

describe('erasmus mcp-server erasmus --connect', () => {
  it('forwards erasmus_chat and the workflow tools to the running Erasmus', async () => {
    home = tempHome();
    llm = await startScriptedLlm([{ text: 'Hello from the running Erasmus.' }]);
    const serveHome = join(home.dir, 'serve-home');
    mkdirSync(serveHome);
    serve = await startServe({ ERASMUS_HOME: serveHome });
    writeFileSync(join(serveHome, 'config.yaml'), `providers:\n  - id: scripted\n    kind: openai-compatible\n    model: scripted\n    baseUrl: ${llm.baseUrl}\n`);
    // This server's own home has no provider at all: only the running Erasmus can answer.
    const { client, server } = await connectClient({ ERASMUS_HOME: home.home }, {}, ['--connect', serve.wsUrl]);
    servers.push(server);
    const progress: string[] = [];
    const r = await client.callTool({ name: 'erasmus_chat', arguments: { user_input: 'hello', chat_messages: [{ role: 'user', content: 'earlier' }, { role: 'assistant', content: 'reply' }] } }, undefined, { onprogress: (p) => void progress.push(p.message ?? '') });
    expect(text(r)).toBe('Hello from the running Erasmus.');
    expect(progress.join('')).toBe('Hello from the running Erasmus.');
    // The history arrives as real messages, before the new input.
    const sent = llm.requests[0]!.body.messages!.map((m) => [m.role, String(m.content)]);
    expect(sent.slice(-3)).toEqual([['user', 'earlier'], ['assistant', 'reply'], ['user', 'hello']]);
    // The session was logged by the running Erasmus, not here.
    expect(readdirSync(join(serveHome, 'sessions')).length).toBe(1);
    expect(existsSync(join(home.home, 'sessions'))).toBe(false);
    const project = join(home.dir, 'proj');
    mkdirSync(project);
    const loaded = await client.callTool({ name: 'workflow_load', arguments: { project, goal: 'x' } });
    const runId = (loaded.structuredContent as { runId: string }).runId;
    expect(text(await client.callTool({ name: 'workflow_list', arguments: {} }))).toContain(runId);
    expect(server.stderr()).toContain('connected to ws://127.0.0.1');
    expect(server.stderr()).not.toContain(serve.wsUrl.split('token=')[1]!);
  }, 60_000);

  it('reports every failed attempt, within the configured timeout and retries', async () => {
    home = tempHome();
    serve = await startServe();
    const wrongToken = serve.wsUrl.replace(/token=[^&]+/, 'token=guessed-secret-xyz');
    const { client, server } = await connectClient({ ERASMUS_HOME: home.home, ERASMUS_CONNECT_RETRIES: '1', ERASMUS_CONNECT_TIMEOUT_MS: '2000' }, {}, ['--connect', wrongToken]);
    servers.push(server);
    const started = Date.now();
    const r = await client.callTool({ name: 'erasmus_chat', arguments: { user_input: 'hello' } });
    expect(r.isError).toBe(true);
    expect(text(r)).toMatch(/cannot connect to Erasmus at ws:\/\/127\.0\.0\.1:\d+\/rpc\?token=… after 2 attempt\(s\): attempt 1: .*; attempt 2: /);
    expect(text(r)).toContain('HTTP 401 (wrong token?)');
    expect(text(r)).not.toContain('guessed-secret-xyz');
    expect(Date.now() - started).toBeLessThan(10_000);
    const w = await client.callTool({ name: 'workflow_list', arguments: {} });
    expect(w).toMatchObject({ isError: true, structuredContent: { error: { kind: 'RUNTIME_ERROR' } } });
  }, 60_000);

  it('refuses a --connect that is not a ws:// URL with a token', async () => {
    home = tempHome();
    const { client, server } = await connectClient({ ERASMUS_HOME: home.home }, {}, ['--connect', 'http://127.0.0.1:1/']);
    servers.push(server);
    const r = await client.callTool({ name: 'erasmus_chat', arguments: { user_input: 'hello' } });
    expect(text(r)).toContain('expected a ws:// or wss:// URL');
  });
});
