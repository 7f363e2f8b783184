// The Erasmus MCP server over stdio, driven by the SDK client and by raw JSON-RPC: every tool,
// resources with a subscription, every prompt, the old dialect, the error codes, erasmus_chat and
// prompt/call against the scripted model, and a clean exit when the client closes stdin.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ElicitRequestSchema, LoggingMessageNotificationSchema, ResourceListChangedNotificationSchema, ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { Paths, projectKey } from '../../electron/main/paths/index';
import { startScriptedLlm, type ScriptedLlm } from '../fixtures/scripted-llm/index';
import { CLI, connectClient, rawSession, ROOT, tempHome, type Home, type Running } from './erasmus-mcp-helpers';

let home: Home | undefined;
let llm: ScriptedLlm | undefined;
const servers: Running[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.transport.close();
  await llm?.close();
  llm = undefined;
  home?.cleanup();
  home = undefined;
});

async function client(env: Record<string, string> = {}, options = {}): Promise<Client> {
  const { client, server } = await connectClient({ ERASMUS_HOME: home!.home, ...env }, options);
  servers.push(server);
  return client;
}

const TASKS = '# Task list\n\n## Component: adder — adds two numbers\nTest: node --test test/\n- [ ] A1: Implement add\n- [ ] A2: Test add\n\n## Component: cli\n- [ ] C1: A command line\n';

function seedProject(): { project: string; key: string; paths: Paths } {
  const project = join(home!.dir, 'proj');
  mkdirSync(project, { recursive: true });
  const paths = new Paths(home!.home);
  mkdirSync(join(paths.ctxDir(project), 'orchestration'), { recursive: true });
  mkdirSync(join(paths.ctxDir(project), 'components'), { recursive: true });
  writeFileSync(paths.orchestrationDoc(project, 'task_list'), TASKS);
  writeFileSync(paths.orchestrationDoc(project, 'architecture'), '# Architecture\n\nAn adder.\n');
  writeFileSync(paths.componentDoc(project, 'adder'), '# Component: adder\n');
  return { project, key: projectKey(project), paths };
}

const text = (r: unknown) => (((r as { content?: unknown }).content as Array<{ type: string; text?: string }>) ?? []).map((c) => c.text ?? '').join('\n');

describe('Erasmus MCP server over stdio (SDK client)', () => {
  it('lists its tools, resources, templates and prompts', async () => {
    home = tempHome();
    const { key } = seedProject();
    const c = await client();
    expect(c.getServerCapabilities()).toMatchObject({ tools: {}, prompts: {}, logging: {}, resources: { subscribe: true } });
    const tools = (await c.listTools()).tools;
    expect(tools.map((t) => t.name).sort()).toEqual(
      ['analyze_fsm', 'erasmus_chat', 'prompt_library_rate', 'prompt_library_search', 'validate_task_list', 'workflow_approve', 'workflow_checkpoints', 'workflow_get_task', 'workflow_list', 'workflow_load', 'workflow_report', 'workflow_resume', 'workflow_retry', 'workflow_rewind', 'workflow_skip', 'workflow_start', 'workflow_status', 'workflow_submit_task'].sort(),
    );
    const chat = tools.find((t) => t.name === 'erasmus_chat')!;
    expect(chat.inputSchema.required).toEqual(['user_input']);
    expect(Object.keys(chat.inputSchema.properties ?? {})).toEqual(['user_input', 'chat_messages', 'agent', 'project']);
    expect(tools.every((t) => t.description && t.inputSchema.type === 'object')).toBe(true);
    const uris = (await c.listResources()).resources.map((r) => r.uri);
    expect(uris).toEqual([
      `erasmus://projects/${key}/orchestration/architecture.md`,
      `erasmus://projects/${key}/orchestration/task_list.md`,
      `erasmus://projects/${key}/components/adder.md`,
      'erasmus://prompt-library',
    ]);
    expect((await c.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate)).toContain('erasmus://projects/{key}/components/{component}.md');
    const read = await c.readResource({ uri: uris[1]! });
    expect(read.contents[0]).toMatchObject({ mimeType: 'text/markdown', text: TASKS });
    const prompts = (await c.listPrompts()).prompts;
    expect(prompts.map((p) => p.name)).toEqual(['design', 'orchestration', 'development', 'testing', 'debugging', 'review', 'documentation']);
    expect(prompts.every((p) => p.description && p.arguments?.some((a) => a.name === 'task' && a.required))).toBe(true);
  });

  it('gets each prompt filled with its arguments, and refuses a missing or unknown argument with -32602', async () => {
    home = tempHome();
    const { project } = seedProject();
    const c = await client();
    for (const p of (await c.listPrompts()).prompts) {
      const r = await c.getPrompt({ name: p.name, arguments: { task: `do the ${p.name} step`, project, component: 'adder', goal: 'add numbers' } });
      const body = (r.messages[0]!.content as { text: string }).text;
      expect(body).toContain(`# Protocol: ${p.name}`);
      expect(body).toContain(`do the ${p.name} step`);
      expect(body).toContain('add numbers');
      expect(body).toContain('# Component: adder');
    }
    await expect(c.getPrompt({ name: 'design', arguments: {} })).rejects.toMatchObject({ code: -32602, message: expect.stringContaining('task') });
    await expect(c.getPrompt({ name: 'design', arguments: { task: 'x', colour: 'red' } })).rejects.toMatchObject({ code: -32602 });
    await expect(c.getPrompt({ name: 'poetry', arguments: { task: 'x' } })).rejects.toMatchObject({ code: -32602, message: expect.stringContaining('unknown prompt') });
  });

  it('validate_task_list and analyze_fsm, from text and from a project', async () => {
    home = tempHome();
    const { project } = seedProject();
    const c = await client();
    const ok = await c.callTool({ name: 'validate_task_list', arguments: { project } });
    expect(ok.structuredContent).toMatchObject({ valid: true, components: [{ id: 'adder', tasks: 2, testCommand: 'node --test test/' }, { id: 'cli', tasks: 1 }] });
    const bad = await c.callTool({ name: 'validate_task_list', arguments: { task_list: '## Component: x\n- [ ] broken\n- [?] T2: odd\n' } });
    expect(bad.structuredContent).toMatchObject({ valid: false });
    expect((bad.structuredContent as { issues: Array<{ line: number }> }).issues.map((i) => i.line)).toEqual([1, 2, 3]);
    expect(text(bad)).toContain('line 2');
    const fsm = await c.callTool({ name: 'analyze_fsm', arguments: { project, max_debug_attempts: 2 } });
    const a = fsm.structuredContent as { initial: string; states: Array<{ name: string; final: boolean }>; transitions: Array<{ from: string; event: string; to?: string; when?: string }> };
    expect(a.initial).toBe('adder:development');
    expect(a.states.map((s) => s.name)).toContain('orchestration:adder');
    expect(a.states.find((s) => s.name === 'completed')).toMatchObject({ final: true });
    expect(a.transitions).toContainEqual({ from: 'adder:testing', event: 'STEP_DONE', to: 'adder:debugging', when: 'tests fail' });
    expect(a.transitions).toContainEqual({ from: 'adder:commit', event: 'STEP_DONE', to: 'orchestration:adder', when: 'tests pass (or no test command)' });
    // A commit the repository's hooks refuse goes to debugging, as failing tests do.
    expect(a.transitions).toContainEqual({ from: 'adder:commit', event: 'STEP_DONE', to: 'adder:redebugging' });
    expect(a.transitions).toContainEqual(expect.objectContaining({ from: 'adder:debugging', to: 'adder:debugging', when: 'tests fail, attempts left' }));
    expect(text(fsm)).toContain('initial state: adder:development');
    const none = await c.callTool({ name: 'analyze_fsm', arguments: { project: join(home.dir, 'elsewhere') } });
    expect(none.isError).toBe(true);
    expect(text(none)).toMatch(/no task list/);
    const both = await c.callTool({ name: 'analyze_fsm', arguments: { project, task_list: TASKS } });
    expect(both.isError).toBe(true);
  });

  it('workflow tools answer with the kind of error that holds', async () => {
    home = tempHome();
    const { project } = seedProject();
    const c = await client();
    const missing = await c.callTool({ name: 'workflow_status', arguments: { runId: 'no-such-run' } });
    expect(missing).toMatchObject({ isError: true, structuredContent: { error: { kind: 'RUN_NOT_FOUND', code: -32010 } } });
    const loaded = await c.callTool({ name: 'workflow_load', arguments: { project, goal: 'an adder' } });
    const runId = (loaded.structuredContent as { runId: string }).runId;
    expect(runId).toMatch(/\S/);
    const early = await c.callTool({ name: 'workflow_submit_task', arguments: { runId, result: { output: 'too early' } } });
    expect(early).toMatchObject({ isError: true, structuredContent: { error: { kind: 'INVALID_STATE' } } });
    expect(text(early)).toMatch(/^INVALID_STATE: /);
    const list = await c.callTool({ name: 'workflow_list', arguments: {} });
    expect(text(list)).toContain(runId);
    const status = await c.callTool({ name: 'workflow_status', arguments: { runId } });
    expect(status.structuredContent).toMatchObject({ runId, status: 'LOADED' });
    const gone = await c.callTool({ name: 'workflow_load', arguments: { project: join(home.dir, 'missing') } });
    expect(gone).toMatchObject({ isError: true, structuredContent: { error: { kind: 'RUNTIME_ERROR' } } });
  });

  it('bad arguments are isError results the model can correct (2025-11-25); unknown tools are -32602 with one prefix; a subscribed document announces its change', async () => {
    home = tempHome();
    const { project, key, paths } = seedProject();
    const c = await client();
    const text = (r: unknown) => ((r as { content: Array<{ text?: string }> }).content[0]?.text ?? '');
    const noInput = await c.callTool({ name: 'erasmus_chat', arguments: { chat_messages: [] } });
    expect(noInput.isError).toBe(true);
    expect(text(noInput)).toMatch(/^invalid arguments for erasmus_chat: .*user_input.*Call erasmus_chat again with arguments that match its input schema\.$/s);
    const badAgent = await c.callTool({ name: 'erasmus_chat', arguments: { user_input: 'hi', agent: 'poet' } });
    expect(badAgent).toMatchObject({ isError: true, content: [{ type: 'text', text: expect.stringContaining('agent') }] });
    expect(await c.callTool({ name: 'workflow_status', arguments: { runId: '../etc' } })).toMatchObject({ isError: true });
    const unknown = await c.callTool({ name: 'no_such_tool', arguments: {} }).catch((e: Error) => e);
    expect(unknown).toMatchObject({ code: -32602, message: expect.stringContaining('unknown tool') });
    expect((unknown as Error).message.match(/MCP error/g)).toHaveLength(1);
    await expect(c.readResource({ uri: 'file:///etc/passwd' })).rejects.toMatchObject({ code: -32602 });
    await expect(c.readResource({ uri: `erasmus://projects/${key}/components/nope.md` })).rejects.toMatchObject({ code: -32002 });

    const uri = `erasmus://projects/${key}/components/adder.md`;
    const updates: string[] = [];
    c.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void updates.push(n.params.uri));
    await c.subscribeResource({ uri });
    await new Promise((r) => setTimeout(r, 300));
    writeFileSync(paths.componentDoc(project, 'adder'), '# Component: adder\n\n- changed\n');
    await expect.poll(() => updates, { timeout: 5000 }).toEqual([uri]);
    expect((await c.readResource({ uri })).contents[0]).toMatchObject({ text: '# Component: adder\n\n- changed\n' });
    await c.unsubscribeResource({ uri });
    writeFileSync(paths.componentDoc(project, 'adder'), '# Component: adder\n\n- changed again\n');
    await new Promise((r) => setTimeout(r, 800));
    expect(updates).toEqual([uri]);
  });

  it('erasmus_chat runs the agent with its toolsets: text as progress, tools as logging messages', async () => {
    home = tempHome();
    const memoryFile = home.useMemoryServer();
    llm = await startScriptedLlm([
      { toolCalls: [{ name: 'open_toolset', arguments: { name: 'memory' } }] },
      { match: { lastTool: 'memory' }, toolCalls: [{ name: 'memory__create_entities', arguments: { entities: [{ name: 'Ada', entityType: 'person', observations: ['likes adders'] }] } }] },
      { match: { lastTool: 'Ada' }, toolCalls: [{ name: 'memory__delete_relations', arguments: { relations: [] } }] },
      { match: { lastTool: 'deleted' }, text: 'I remembered Ada, who likes adders.' },
    ]);
    home.useModel(llm.baseUrl);
    const elicited: string[] = [];
    const c = await client({}, { capabilities: { elicitation: {} } });
    c.setRequestHandler(ElicitRequestSchema, async (req) => {
      elicited.push(req.params.message);
      return { action: 'accept', content: { decision: 'allow_once' } };
    });
    const logs: Array<Record<string, unknown>> = [];
    c.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logs.push(n.params.data as Record<string, unknown>));
    const progress: string[] = [];
    const history = [
      { role: 'user' as const, content: 'My friend is called Ada.' },
      { role: 'assistant' as const, content: 'Nice to meet Ada.' },
    ];
    const r = await c.callTool({ name: 'erasmus_chat', arguments: { user_input: 'Remember her, please.', chat_messages: history, agent: 'general' } }, undefined, {
      onprogress: (p) => void progress.push(p.message ?? ''),
      timeout: 60_000,
    });
    expect(r.isError).toBeFalsy();
    expect(text(r)).toBe('I remembered Ada, who likes adders.');
    expect(progress.join('')).toBe('I remembered Ada, who likes adders.');
    expect(logs.filter((l) => l.type === 'tool_running' || l.type === 'tool_complete').map((l) => `${l.type}:${l.tool_name}`)).toEqual([
      'tool_running:open_toolset',
      'tool_complete:open_toolset',
      'tool_running:memory__create_entities',
      'tool_complete:memory__create_entities',
      'tool_running:memory__delete_relations',
      'tool_complete:memory__delete_relations',
    ]);
    expect(readFileSync(memoryFile, 'utf8')).toContain('likes adders');
    expect(r.structuredContent).toMatchObject({ endedReason: 'complete', usage: { totalTokens: expect.any(Number) } });
    // The whole history reached the model.
    const first = llm.requests[0]!.body.messages!.map((m) => ({ role: m.role, content: String(m.content) }));
    expect(first.find((m) => m.content.includes('My friend is called Ada.'))?.role).toBe('user');
    expect(first.at(-1)).toEqual({ role: 'user', content: 'Remember her, please.' });
    // Erasmus's own toolsets are offered beside the configured servers.
    const system = first.find((m) => m.role === 'system')?.content ?? '';
    expect(system).toMatch(/\brunners\b/);
    expect(system).toMatch(/\bfiles\b/);
    // delete_relations is destructive: the policy asked, and the client approved it through elicitation.
    expect(elicited).toHaveLength(1);
    expect(elicited[0]).toContain('memory__delete_relations');
    expect(elicited[0]).toContain('destructive');
  });

  it('erasmus_chat as a protocol agent gets that protocol; a model failure is a tool error', async () => {
    home = tempHome();
    llm = await startScriptedLlm([{ match: { system: '# Protocol' }, text: 'Design notes.' }, { error: { status: 500, message: 'model exploded' }, repeat: true }]);
    home.useModel(llm.baseUrl);
    const c = await client();
    const r = await c.callTool({ name: 'erasmus_chat', arguments: { user_input: 'design it', agent: 'design' } });
    expect(llm.requests[0]!.body.messages![0]!.content).toContain('architecture');
    expect(r.structuredContent).toMatchObject({ endedReason: 'complete' });
    const failed = await c.callTool({ name: 'erasmus_chat', arguments: { user_input: 'again' } });
    expect(failed.isError).toBe(true);
    expect(text(failed)).toContain('Erasmus chat failed');
  });

  it('a new document is announced with list_changed; a cancelled erasmus_chat stops its session', async () => {
    home = tempHome();
    const { project, key, paths } = seedProject();
    llm = await startScriptedLlm([{ text: 'word '.repeat(400), chunkSize: 5, delayMs: 20 }]);
    home.useModel(llm.baseUrl);
    const c = await client();
    let changed = 0;
    c.setNotificationHandler(ResourceListChangedNotificationSchema, () => void changed++);
    await new Promise((r) => setTimeout(r, 1200));
    writeFileSync(paths.componentDoc(project, 'cli'), '# Component: cli\n');
    await expect.poll(() => changed, { timeout: 5000 }).toBeGreaterThanOrEqual(1);
    expect((await c.listResources()).resources.map((r) => r.uri)).toContain(`erasmus://projects/${key}/components/cli.md`);

    const notAFolder = await c.callTool({ name: 'erasmus_chat', arguments: { user_input: 'hi', project: join(home.dir, 'nowhere') } });
    expect(notAFolder.isError).toBe(true);
    expect(text(notAFolder)).toContain('existing folder');

    const abort = new AbortController();
    let streamed = 0;
    const call = c.callTool({ name: 'erasmus_chat', arguments: { user_input: 'talk a lot', project } }, undefined, {
      signal: abort.signal,
      onprogress: () => {
        if (++streamed === 3) abort.abort();
      },
    });
    await expect(call).rejects.toThrow();
    // The server stopped the agent session: its log ends with session_ended "stopped".
    const sessions = join(home.home, 'sessions');
    const ended = () => {
      const files = existsSync(sessions) ? readdirSync(sessions) : [];
      return files.length === 1 ? readFileSync(join(sessions, files[0]!), 'utf8') : '';
    };
    await expect.poll(() => /"type":"session_ended","reason":"stopped"/.test(ended()), { timeout: 10_000 }).toBe(true);
    expect(ended()).not.toContain('"type":"complete"');
  });

  it('prompt/call fills the prompt, runs it on the configured model, and keeps it in the prompt library', async () => {
    home = tempHome();
    llm = await startScriptedLlm([
      { text: 'An architecture with one adder.', usage: { prompt_tokens: 120, completion_tokens: 9 } },
      { match: { lastUser: 'subtracter' }, text: 'A second take, with a subtracter.', usage: { prompt_tokens: 130, completion_tokens: 8 } },
    ]);
    home.useModel(llm.baseUrl);
    const raw = await rawSession({ ERASMUS_HOME: home.home });
    servers.push(raw.server);
    const res = await raw.request<{ result: Record<string, unknown> }>('prompt/call', { prompt_name: 'design', arguments: { task: 'design an adder', goal: 'add numbers' } });
    expect(res.result).toMatchObject({ content: 'An architecture with one adder.', model: 'scripted', usage: { prompt_tokens: 120, completion_tokens: 9, total_tokens: 129 } });
    expect(String(llm.requests[0]!.body.messages![0]!.content)).toContain('design an adder');
    const id = String(res.result.library_id);
    const entry = JSON.parse(readFileSync(join(new Paths(home.home).promptLibraryDir, 'entries', `${id}.json`), 'utf8'));
    expect(entry).toMatchObject({ prompt_name: 'design', arguments: { task: 'design an adder', goal: 'add numbers' }, content: 'An architecture with one adder.', usage: { total_tokens: 129 } });
    expect(entry.prompt).toContain('# Protocol: design');
    const found = await raw.request<{ result: { structuredContent: { entries: Array<{ id: string }> } } }>('tools/call', { name: 'prompt_library_search', arguments: { query: 'adder architecture' } });
    expect(found.result.structuredContent.entries.map((e) => e.id)).toEqual([id]);
    const none = await raw.request<{ result: { structuredContent: { entries: unknown[] } } }>('tools/call', { name: 'prompt_library_search', arguments: { query: 'giraffe' } });
    expect(none.result.structuredContent.entries).toEqual([]);
    const index = await raw.request<{ result: { contents: Array<{ text: string }> } }>('resources/read', { uri: 'erasmus://prompt-library' });
    expect(index.result.contents[0]!.text).toContain(id);
    const bad = await raw.request<{ error: { code: number; message: string } }>('prompt/call', { arguments: {} });
    expect(bad.error).toMatchObject({ code: -32602, message: expect.stringContaining('prompt_name') });
    const unknown = await raw.request<{ error: { code: number } }>('prompt/call', { prompt_name: 'poetry' });
    expect(unknown.error.code).toBe(-32602);
    // Mark it good, rerun it with one argument changed, and find the good one first.
    const rated = await raw.request<{ result: { isError?: boolean } }>('tools/call', { name: 'prompt_library_rate', arguments: { id, rating: 5, note: 'clear and short' } });
    expect(rated.result.isError).toBeFalsy();
    const rerun = await raw.request<{ result: Record<string, unknown> }>('prompt/call', { library_id: id, arguments: { task: 'design an adder and a subtracter' } });
    expect(rerun.result).toMatchObject({ content: 'A second take, with a subtracter.', usage: { total_tokens: 138 } });
    expect(String(llm.requests[1]!.body.messages![0]!.content)).toContain('add numbers');
    const second = JSON.parse(readFileSync(join(new Paths(home.home).promptLibraryDir, 'entries', `${String(rerun.result.library_id)}.json`), 'utf8'));
    expect(second).toMatchObject({ prompt_name: 'design', from: id, arguments: { task: 'design an adder and a subtracter', goal: 'add numbers' } });
    const best = await raw.request<{ result: { structuredContent: { entries: Array<{ id: string; rating?: number }> } } }>('tools/call', { name: 'prompt_library_search', arguments: { best_first: true } });
    expect(best.result.structuredContent.entries.map((e) => [e.id, e.rating])).toEqual([[id, 5], [String(rerun.result.library_id), undefined]]);
    const good = await raw.request<{ result: { structuredContent: { entries: Array<{ id: string }> } } }>('tools/call', { name: 'prompt_library_search', arguments: { query: 'clear', min_rating: 4 } });
    expect(good.result.structuredContent.entries.map((e) => e.id)).toEqual([id]);
    const missing = await raw.request<{ result: { isError?: boolean } }>('tools/call', { name: 'prompt_library_rate', arguments: { id: 'nope', rating: 3 } });
    expect(missing.result.isError).toBe(true);
  });
});

describe('Erasmus MCP server: old dialect, error codes, stdout, exit', () => {
  it('accepts tools/call with tool_name and prompt/list; unknown methods are -32601', async () => {
    home = tempHome();
    const raw = await rawSession({ ERASMUS_HOME: home.home });
    servers.push(raw.server);
    const viaAlias = await raw.request<{ result: { prompts: Array<{ name: string }> } }>('prompt/list');
    const viaName = await raw.request<{ result: { prompts: Array<{ name: string }> } }>('prompts/list');
    expect(viaAlias.result.prompts.map((p) => p.name)).toEqual(viaName.result.prompts.map((p) => p.name));
    const old = await raw.request<{ result: { structuredContent: { valid: boolean } } }>('tools/call', { tool_name: 'validate_task_list', arguments: { task_list: TASKS } });
    expect(old.result.structuredContent.valid).toBe(true);
    const missing = await raw.request<{ error: { code: number } }>('no/such/method', {});
    expect(missing.error.code).toBe(-32601);
    const noName = await raw.request<{ error: { code: number } }>('tools/call', { arguments: {} });
    expect(noName.error.code).toBe(-32602);
    const badArgs = await raw.request<{ result: { isError: boolean; content: Array<{ text: string }> } }>('tools/call', { name: 'analyze_fsm', arguments: { max_debug_attempts: 'many' } });
    expect(badArgs.result).toMatchObject({ isError: true, content: [{ text: expect.stringContaining('max_debug_attempts') }] });
    const badLevel = await raw.request<{ error: { code: number } }>('logging/setLevel', { level: 'loud' });
    expect(badLevel.error.code).toBe(-32602);
    expect(raw.server.invalidStdout).toEqual([]);
  });

  it('exits cleanly (status 0, stdout protocol only) when the client closes stdin', async () => {
    home = tempHome();
    const child = spawn(process.execPath, [CLI, 'mcp-server', 'erasmus'], { cwd: ROOT, env: { ...process.env, ERASMUS_HOME: home.home }, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    try {
      child.stdin.write(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } }) + '\n');
      child.stdin.write(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' }) + '\n');
      await expect.poll(() => out.split('\n').filter(Boolean).length, { timeout: 15_000 }).toBe(2);
      const code = new Promise<number | null>((r) => child.once('exit', (c) => r(c)));
      child.stdin.end();
      expect(await code).toBe(0);
      expect(out.trim().split('\n').map((l) => JSON.parse(l).id)).toEqual([1, 2]);
      expect(err).toContain('shutting down');
      expect(existsSync(home.home)).toBe(true);
    } finally {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {}
    }
  });
});
