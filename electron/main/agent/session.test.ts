import { mkdtempSync, readFileSync, appendFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { contentText, startScriptedLlm, type ScriptedLlm, type Script } from '../../../tests/fixtures/scripted-llm/index';
import type { AgentEvent } from '../../contract/index';
import { Paths } from '../paths/index';
import { readSessionLog, restoreContext } from '../sessions/index';
import { resolveProvider } from './providers/config';
import { AgentSession, runAgentSession, type AgentSessionDeps } from './session';
import { memoryTools } from './tools';
import { xmlSupport } from './xml-adapter';

let home: string;
let llm: ScriptedLlm | undefined;
const files = new Map<string, string>();
const tools = memoryTools({
  notes: {
    description: 'a tiny in-memory file store',
    tools: [
      { name: 'read_note', description: 'read a note', inputSchema: { type: 'object', properties: { name: { type: 'string' } } }, annotations: { readOnlyHint: true }, run: (a) => files.get(String(a.name)) ?? 'no such note' },
      { name: 'write_note', description: 'write a note', inputSchema: { type: 'object', properties: { name: { type: 'string' }, text: { type: 'string' } } }, run: (a) => (files.set(String(a.name), String(a.text)), 'written') },
    ],
  },
});

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'erasmus-agent-'));
  files.clear();
});
afterEach(async () => {
  await llm?.close();
  llm = undefined;
  rmSync(home, { recursive: true, force: true });
});

async function setup(script: Script, extra: Partial<AgentSessionDeps> = {}) {
  llm = await startScriptedLlm(script);
  const deps: AgentSessionDeps = { paths: new Paths(home), sources: { env: {} }, tools, ...extra };
  const provider = await resolveProvider({ providers: [] }, { baseUrl: llm.baseUrl, model: 'scripted' }, { env: {} });
  return { deps, provider };
}

const types = (evs: AgentEvent[]) => evs.map((e) => e.type);

describe('agent session (native tool calls)', () => {
  it('a call cut off by a stop (a server connection closed as Erasmus shut down) reads as cut off to the model, not as the call failing', async () => {
    const { deps, provider } = await setup([
      { toolCalls: [{ name: 'open_toolset', arguments: { name: 'slow' } }] },
      { match: { lastTool: 'is open' }, toolCalls: [{ name: 'edit_file', arguments: { path: 'a.txt' } }] },
    ]);
    let running!: () => void;
    const started = new Promise<void>((r) => (running = r));
    // A server's call that waits (for its user's approval) until the session's stop closes the connection.
    const slow: typeof tools = {
      toolsets: () => [{ name: 'slow', description: 'a server that waits' }],
      openToolset: async () => [{ name: 'slow__edit_file', description: 'edit', inputSchema: { type: 'object', properties: { path: { type: 'string' } } }, server: 'slow', tool: 'edit_file', toolset: 'slow', annotations: { readOnlyHint: true } }],
      call: (_t, _a, { signal }) => {
        running();
        return new Promise((_, reject) => signal.addEventListener('abort', () => reject(new Error('MCP server "slow" MCP error -32000: Connection closed'))));
      },
    };
    const events: AgentEvent[] = [];
    const session = await AgentSession.create({ ...deps, tools: slow }, { task: 'edit a.txt', provider, onEvent: (e) => events.push(e) });
    const run = session.run('edit a.txt');
    await started;
    await session.close();
    await run;
    const done = events.findLast((e) => e.type === 'tool_complete');
    expect(done).toMatchObject({ isError: true, result: expect.stringMatching(/^Cut off: the session was stopped .* while this call ran .*\(MCP server "slow" MCP error -32000: Connection closed\)\. It may not have taken effect: check before you call it again\.$/) });
    // The model reads the same when the chat goes on.
    const restored = restoreContext(session.logPath);
    expect(restored.messages.map((m) => m.message).findLast((m) => m.role === 'tool')?.content).toBe((done as { result: string }).result);
  });

  it('a call whose server closed its connection under it (Erasmus shutting its servers down first) reads as cut off, not as the call failing', async () => {
    const { deps, provider } = await setup([
      { toolCalls: [{ name: 'open_toolset', arguments: { name: 'gone' } }] },
      { match: { lastTool: 'is open' }, toolCalls: [{ name: 'edit_file', arguments: { path: 'a.txt' } }] },
      { match: { lastTool: 'Cut off' }, text: 'I will check a.txt before trying again.' },
    ]);
    const gone: typeof tools = {
      toolsets: () => [{ name: 'gone', description: 'a server that goes away' }],
      openToolset: async () => [{ name: 'gone__edit_file', description: 'edit', inputSchema: { type: 'object', properties: { path: { type: 'string' } } }, server: 'gone', tool: 'edit_file', toolset: 'gone', annotations: { readOnlyHint: true } }],
      call: async () => {
        throw new Error('MCP server "gone" MCP error -32000: Connection closed');
      },
    };
    const events: AgentEvent[] = [];
    const session = await AgentSession.create({ ...deps, tools: gone }, { task: 'edit a.txt', provider, onEvent: (e) => events.push(e) });
    await session.run('edit a.txt');
    await session.close();
    expect(events.findLast((e) => e.type === 'tool_complete')).toMatchObject({ isError: true, result: expect.stringMatching(/^Cut off: the tool’s server closed its connection .*\(MCP server "gone" MCP error -32000: Connection closed\)\. It may not have taken effect: check before you call it again\.$/) });
  });

  it('a session closed because Erasmus shuts down says so, not "stopped by the user"; a stop still says the user stopped it', async () => {
    // Two sessions, each: open the toolset, then a write that asks first.
    const turns: Script = [
      { toolCalls: [{ name: 'open_toolset', arguments: { name: 'notes' } }] },
      { match: { lastTool: 'is open' }, toolCalls: [{ name: 'write_note', arguments: { name: 'a', text: 'hello' } }] },
    ];
    const { deps, provider } = await setup([...turns, ...turns]);
    const ended = async (end: (s: AgentSession) => Promise<void> | void) => {
      const events: AgentEvent[] = [];
      const session = await AgentSession.create(deps, { task: 'write a note', provider, onEvent: (e) => events.push(e) });
      // The call waits for an approval nobody gives; then the session is ended.
      session.onEvent((e) => {
        if (e.type === 'approval_required') setTimeout(() => void end(session), 5);
      });
      const outcome = await session.run('write a note');
      await session.close();
      return { outcome, error: events.find((e) => e.type === 'error') };
    };
    const shutDown = await ended((s) => s.close());
    expect(shutDown.outcome.endedReason).toBe('stopped');
    expect(shutDown.error).toMatchObject({ code: 'stopped', message: expect.stringMatching(/^Erasmus was shut down/) });
    expect(files.has('a')).toBe(false);
    const stopped = await ended((s) => s.stop());
    expect(stopped.error).toMatchObject({ code: 'stopped', message: 'stopped by the user' });
  });

  it('opens a toolset, runs tools through approval, answers, and logs everything', async () => {
    const { deps, provider } = await setup([
      { toolCalls: [{ name: 'open_toolset', arguments: { name: 'notes' } }] },
      { match: { lastTool: 'is open' }, toolCalls: [{ name: 'write_note', arguments: { name: 'a', text: 'hello' } }, { name: 'read_note', arguments: { name: 'a' } }] },
      { match: { lastTool: 'hello' }, text: 'Done: wrote and read note a.' },
    ]);
    const events: AgentEvent[] = [];
    const session = await AgentSession.create(deps, { task: 'write a note', provider, onEvent: (e) => events.push(e) });
    session.onEvent((e) => {
      if (e.type === 'approval_required') setTimeout(() => session.approve(e.requestId, 'allow_once'), 5);
    });
    const outcome = await session.run('write a note');
    await session.close();
    expect(outcome).toMatchObject({ endedReason: 'complete', finalAnswer: 'Done: wrote and read note a.', turns: 3 });
    expect(files.get('a')).toBe('hello');
    expect(types(events)).toEqual([
      'session_started', 'turn_started', 'usage', 'tool_running', 'toolset_opened', 'tool_complete',
      'turn_started', 'usage', 'approval_required', 'approval_resolved', 'tool_running', 'tool_complete', 'tool_running', 'tool_complete',
      'turn_started', ...Array(events.filter((e) => e.type === 'sentence').length).fill('sentence'), 'usage', 'complete', 'session_ended',
    ]);
    // The model saw the tools after opening the toolset, and every tool result.
    expect(llm!.requests[0]!.body.tools!.map((t) => t.function.name)).toEqual(['open_toolset']);
    expect(llm!.requests[1]!.body.tools!.map((t) => t.function.name)).toEqual(['open_toolset', 'read_note', 'write_note']);
    const last = llm!.requests[2]!.body.messages!;
    expect(last.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'assistant', 'tool', 'tool']);
    expect(String(last[0]!.content)).toMatch(/# RULES/);
    expect(String(last[0]!.content)).toMatch(/- notes: a tiny in-memory file store/);
    // The log holds every event and message, in order.
    const { entries } = readSessionLog(outcome.logPath);
    expect(entries.filter((e) => e.type === 'event').map((e) => (e as { event: AgentEvent }).event.type)).toEqual(types(events));
    expect(entries.filter((e) => e.type === 'message')).toHaveLength(8);
    expect(outcome.usage.totalTokens).toBeGreaterThan(0);
  });

  it('denied calls come back to the model as refusals; always_allow skips later approvals', async () => {
    const { deps, provider } = await setup([
      { toolCalls: [{ name: 'write_note', arguments: { name: 'x', text: '1' } }] },
      { toolCalls: [{ name: 'write_note', arguments: { name: 'y', text: '2' } }] },
      { toolCalls: [{ name: 'write_note', arguments: { name: 'z', text: '3' } }] },
      { text: 'ok' },
    ]);
    const answers = ['deny', 'always_allow'] as const;
    let n = 0;
    const events: AgentEvent[] = [];
    const outcome = await runAgentSession(
      { ...deps, approvals: async () => answers[n++] ?? 'deny' },
      { task: 't', provider, openToolsets: ['notes'], onEvent: (e) => events.push(e) },
    );
    expect(outcome.endedReason).toBe('complete');
    expect(n).toBe(2);
    expect([...files.keys()]).toEqual(['y', 'z']);
    const refused = events.find((e) => e.type === 'tool_complete' && e.refused);
    expect(refused).toMatchObject({ isError: true, args: { name: 'x' } });
  });

  it('stops at the turn budget with reason budget', async () => {
    const { deps, provider } = await setup([{ repeat: true, toolCalls: [{ name: 'read_note', arguments: { name: 'a' } }] }]);
    const events: AgentEvent[] = [];
    const outcome = await runAgentSession(deps, { task: 't', provider, openToolsets: ['notes'], budgets: { maxTurns: 2 }, onEvent: (e) => events.push(e) });
    expect(outcome).toMatchObject({ endedReason: 'budget', turns: 2 });
    expect(events.at(-2)).toMatchObject({ type: 'error', code: 'budget' });
    expect(events.at(-1)).toMatchObject({ type: 'session_ended', reason: 'budget' });
  });

  it('counts cost from known prices and stops at the cost and token budgets', async () => {
    const { deps, provider: p } = await setup([{ repeat: true, usage: { prompt_tokens: 100_000, completion_tokens: 10_000 }, toolCalls: [{ name: 'read_note', arguments: { name: 'a' } }] }]);
    const provider = { ...p, pricing: { input: 3, output: 15 } };
    const events: AgentEvent[] = [];
    const byCost = await runAgentSession(deps, { task: 't', provider, openToolsets: ['notes'], budgets: { maxCostUsd: 1 }, onEvent: (e) => events.push(e) });
    // $0.30 + $0.15 = $0.45 a turn: the third turn passes $1, so no fourth starts.
    expect(byCost).toMatchObject({ endedReason: 'budget', turns: 3 });
    expect(byCost.usage.costUsd).toBeCloseTo(1.35, 6);
    expect(events.find((e) => e.type === 'usage')).toMatchObject({ turn: { inputTokens: 100_000, outputTokens: 10_000, costUsd: 0.45 } });
    const byTokens = await runAgentSession(deps, { task: 't', provider, openToolsets: ['notes'], budgets: { maxTokens: 200_000 } });
    expect(byTokens).toMatchObject({ endedReason: 'budget', turns: 2, error: expect.stringMatching(/token budget/) });
  });

  it('auto mode uses native tools when the model has them, xml otherwise', async () => {
    const { deps, provider } = await setup([{ repeat: true, text: 'hi' }]);
    const native = await AgentSession.create({ ...deps, xml: xmlSupport() }, { task: 't', provider });
    const xml = await AgentSession.create({ ...deps, xml: xmlSupport() }, { task: 't', provider: { ...provider, supportsNativeTools: false } });
    expect([native.toolMode, xml.toolMode]).toEqual(['native', 'xml']);
    await Promise.all([native.close(), xml.close()]);
    await expect(AgentSession.create(deps, { task: 't', provider, toolMode: 'xml' })).rejects.toThrow(/xml tool-call mode is not available/);
  });

  it('open_toolset with an unknown name: the reply says so and names the toolsets once', async () => {
    const { deps, provider } = await setup([
      { match: { lastUser: 'look' }, toolCalls: [{ name: 'open_toolset', arguments: { name: 'nope' } }] },
      { match: { lastTool: 'nope' }, text: 'Done.' },
    ]);
    const outcome = await runAgentSession(deps, { task: 'look around', provider });
    expect(outcome.endedReason).toBe('complete');
    const reply = contentText(llm!.requests[1]!.body.messages!.at(-1)!.content);
    expect(reply).toBe('There is no toolset "nope" in this session. The toolsets you can open: notes.');
  });

  it('a provider failure is an error event, never a throw', async () => {
    const { deps, provider } = await setup([{ error: { status: 400, message: 'bad model' } }]);
    const events: AgentEvent[] = [];
    const outcome = await runAgentSession(deps, { task: 't', provider, onEvent: (e) => events.push(e) });
    expect(outcome.endedReason).toBe('error');
    expect(events.find((e) => e.type === 'error')).toMatchObject({ code: 'provider' });
    expect(outcome.error).toMatch(/bad model/);
  });

  it('a bad configuration is an error outcome naming the problem', async () => {
    const outcome = await runAgentSession({ paths: new Paths(home), sources: { env: {} } }, { task: 't', provider: { provider: 'nope' } });
    expect(outcome.endedReason).toBe('error');
    expect(outcome.error).toMatch(/no provider "nope"/);
  });

  it('resumes from the log with the exact context, skipping a torn last line', async () => {
    const { deps, provider } = await setup([
      { toolCalls: [{ name: 'write_note', arguments: { name: 'a', text: 'first' } }] },
      { text: 'first task done' },
      { match: { lastUser: 'second' }, text: 'second task done' },
    ]);
    const first = await runAgentSession(deps, { task: 'first task', provider, openToolsets: ['notes'], autoApprove: true });
    expect(first.endedReason).toBe('complete');
    const before = restoreContext(first.logPath).messages.map((m) => m.message);
    appendFileSync(first.logPath, '{"v":1,"id":"e999","type":"mess');
    const events: AgentEvent[] = [];
    const second = await runAgentSession(deps, { task: 'second task', provider, resume: first.logPath, autoApprove: true, onEvent: (e) => events.push(e) });
    expect(second).toMatchObject({ endedReason: 'complete', finalAnswer: 'second task done', sessionId: first.sessionId, logPath: first.logPath });
    expect(events.some((e) => e.type === 'warning' && /torn/.test(e.message))).toBe(true);
    const sent = llm!.requests[2]!.body.messages!;
    expect(sent).toHaveLength(before.length + 1);
    expect(sent.map((m) => m.role)).toEqual([...before.map((m) => m.role), 'user']);
    expect(sent[0]!.content).toBe(before[0]!.content);
    // The tools opened before are offered again.
    expect(llm!.requests[2]!.body.tools!.map((t) => t.function.name)).toContain('write_note');
    expect(() => readSessionLog(first.logPath)).not.toThrow();
  });

  it('xml mode: a session limited to toolsets without runners offers no ! shell lines and runs none', async () => {
    const ran: string[] = [];
    const shell: NonNullable<AgentSessionDeps['shell']> = async (command) => (ran.push(command), { content: 'ran', isError: false });
    const script = [{ match: { lastUser: 'list' }, text: 'Listing.\n!ls\n' }, { text: 'Done.' }];
    let { deps, provider } = await setup(script);
    const events: AgentEvent[] = [];
    await runAgentSession({ ...deps, xml: xmlSupport({ shell: true }), shell }, { task: 'list', provider, toolMode: 'xml', toolsets: ['notes'], openToolsets: ['notes'], autoApprove: true, onEvent: (e) => events.push(e) });
    expect(ran).toEqual([]);
    expect(String(llm!.requests[0]!.body.messages![0]!.content)).not.toMatch(/starts with `!`|line starting with !/i);
    expect(events.find((e) => e.type === 'tool_complete' && e.name === '!')).toMatchObject({ isError: true, result: 'Shell commands (`!command`) are not available in this session.' });
    // With runners among its toolsets (or no limit), the same line runs.
    await llm!.close();
    ({ deps, provider } = await setup(script));
    await runAgentSession({ ...deps, xml: xmlSupport({ shell: true }), shell }, { task: 'list', provider, toolMode: 'xml', autoApprove: true });
    expect(ran).toEqual(['ls']);
    expect(String(llm!.requests[0]!.body.messages![0]!.content)).toContain('A line starting with ! runs the rest as a shell command');
  });

  it('xml mode: calls in plain text, a depends chain, a corrective message for an unknown tool', async () => {
    const { deps, provider } = await setup([
      {
        match: { hasTools: false },
        text: 'Reading first.\n<read_note id="r">\n<name>a</name>\n</read_note>\nNow copying.\n<write_note>\n<name>b</name>\n<text>copy: {{r.result}}</text>\n</write_note>\n<no_such_tool>\n<x>1</x>\n</no_such_tool>',
      },
      { match: { lastUser: '[write_note]' }, text: 'Copied.' },
    ]);
    files.set('a', 'original');
    const events: AgentEvent[] = [];
    const outcome = await runAgentSession({ ...deps, xml: xmlSupport() }, { task: 'copy a to b', provider, toolMode: 'xml', openToolsets: ['notes'], autoApprove: true, onEvent: (e) => events.push(e) });
    expect(outcome.error ?? '').toBe('');
    expect(outcome).toMatchObject({ endedReason: 'complete', finalAnswer: 'Copied.' });
    expect(files.get('b')).toBe('copy: original');
    const sys = String(llm!.requests[0]!.body.messages![0]!.content);
    expect(sys).toMatch(/# Tool use/);
    expect(sys).toMatch(/## write_note\n/);
    expect(sys.match(/# Tool use/g)).toHaveLength(1);
    const results = String(llm!.requests[1]!.body.messages!.at(-1)!.content);
    expect(results).toMatch(/\[read_note\]\noriginal/);
    // A call of an unknown tool runs nothing; the model gets the parser's corrective message.
    expect(results).toMatch(/\[tool call not run\]\nThere is no tool named "no_such_tool"[\s\S]*Tools you can call now: open_toolset, read_note, write_note/);
    expect(events.filter((e) => e.type === 'sentence').map((e) => (e as { text: string }).text).join('')).not.toContain('<read_note');
  });

  it("a withheld tool is refused with the session's reason, even unattended, and the note is not written", async () => {
    const { deps, provider } = await setup([
      { toolCalls: [{ name: 'write_note', arguments: { name: 'x', text: '1' } }] },
      { text: 'Understood; left it.' },
    ]);
    const events: AgentEvent[] = [];
    const outcome = await runAgentSession(deps, { task: 't', provider, openToolsets: ['notes'], autoApprove: true, withholdTools: { write_note: 'notes are written by the workflow itself' }, onEvent: (e) => events.push(e) });
    expect(outcome.endedReason).toBe('complete');
    expect(files.has('x')).toBe(false);
    const done = events.find((e) => e.type === 'tool_complete');
    expect(done).toMatchObject({ isError: true, refused: true, result: 'Refused by policy: notes are written by the workflow itself. Do not retry this call in another form.' });
  });

  it('xml mode, a session limited to open toolsets: the prompt offers nothing to open, and opening another toolset names only the session\'s', async () => {
    const { deps, provider } = await setup([
      { match: { hasTools: false }, text: '<open_toolset>\n<name>vault</name>\n</open_toolset>' },
      { match: { lastUser: 'open_toolset' }, text: 'I cannot open vault.' },
    ]);
    const two = memoryTools({
      notes: { description: 'notes', tools: [{ name: 'read_note', description: 'read a note', inputSchema: { type: 'object', properties: { name: { type: 'string' } } }, run: () => 'x' }] },
      vault: { description: 'not for this session', tools: [{ name: 'read_secret', description: 'read', inputSchema: { type: 'object', properties: {} }, run: () => 's' }] },
    });
    const outcome = await runAgentSession({ ...deps, tools: two, xml: xmlSupport() }, { task: 'look around', provider, toolMode: 'xml', toolsets: ['notes'], openToolsets: ['notes'] });
    expect(outcome).toMatchObject({ endedReason: 'complete' });
    const sys = String(llm!.requests[0]!.body.messages![0]!.content);
    expect(sys).toContain('- notes (open): notes');
    expect(sys).not.toContain('Open one with');
    expect(sys).toContain('Every toolset is open');
    expect(sys).toContain('nothing to open (`open_toolset` only shows a toolset');
    const result = String(llm!.requests[1]!.body.messages!.at(-1)!.content);
    expect(result).toContain('There is no toolset "vault" in this session. The toolsets you can open: notes.');
    expect(result.match(/notes/g)).toHaveLength(1);
  });

  it('an unknown tool is answered with what there is: every toolset open says so, not "open a toolset to get more"', async () => {
    // Played as the model in a workflow step (every toolset open): a call to a tool that does not exist was told to open a
    // toolset for more, while the system prompt said there is nothing to open.
    const { deps, provider } = await setup([
      { match: { lastUser: 'look around' }, toolCalls: [{ name: 'patch_note', arguments: { name: 'a' } }] },
      { match: { lastTool: 'Unknown tool' }, text: 'There is no patch tool.' },
    ]);
    const open = await runAgentSession(deps, { task: 'look around', provider, toolMode: 'native', toolsets: ['notes'], openToolsets: ['notes'] });
    expect(open).toMatchObject({ endedReason: 'complete' });
    const told = String(llm!.requests[1]!.body.messages!.at(-1)!.content);
    expect(told).toContain('Unknown tool "patch_note". Available tools: read_note, write_note. Every toolset is open: these are all the tools this session has.');
    expect(told).not.toContain('to get more');
    await llm!.close();
    // A toolset not open yet is named, so the model knows what opening one would bring.
    llm = await startScriptedLlm([
      { match: { lastUser: 'look around' }, toolCalls: [{ name: 'patch_note', arguments: { name: 'a' } }] },
      { match: { lastTool: 'Unknown tool' }, text: 'There is no patch tool.' },
    ]);
    const closed = await runAgentSession(deps, { task: 'look around', provider: await resolveProvider({ providers: [] }, { baseUrl: llm.baseUrl, model: 'scripted' }, { env: {} }), toolMode: 'native' });
    expect(closed).toMatchObject({ endedReason: 'complete' });
    expect(String(llm.requests[1]!.body.messages!.at(-1)!.content)).toContain('Open one of these toolsets with open_toolset for more: notes.');
  });

  it('steps of one run share the start of their prompt: the run\'s tools in one order, then what this step may call; a call out of scope is refused before anyone is asked', async () => {
    const run = memoryTools({
      files: {
        description: 'project files',
        tools: [
          { name: 'read_file', description: 'read a file', inputSchema: { type: 'object', properties: { path: { type: 'string' } } }, annotations: { readOnlyHint: true }, run: (a) => files.get(String(a.path)) ?? 'no such file' },
          { name: 'write_file', description: 'write a file', inputSchema: { type: 'object', properties: { path: { type: 'string' }, content: { type: 'string' } } }, run: (a) => (files.set(String(a.path), String(a.content)), 'written') },
        ],
      },
      runners: { description: 'commands', tools: [{ name: 'bash_run', description: 'run a command', inputSchema: { type: 'object', properties: { command: { type: 'string' } } }, run: () => 'ran' }] },
    });
    for (const mode of ['native', 'xml'] as const) {
      const write = mode === 'native' ? { toolCalls: [{ name: 'write_file', arguments: { path: 'a.md', content: 'x' } }] } : { text: '<write_file>\n<path>a.md</path>\n<content>x</content>\n</write_file>' };
      const { deps, provider } = await setup([
        { match: { system: 'Review it.' }, ...write },
        { match: { last: 'only reads the project' }, text: 'Reported instead.' },
        { match: { system: 'Plan it.' }, text: 'Planned.' },
      ]);
      const events: AgentEvent[] = [];
      const step = { provider, toolMode: mode, runToolsets: ['files', 'runners'], openToolsets: ['files'], onEvent: (e: AgentEvent) => events.push(e)};
      const d = { ...deps, tools: run, xml: xmlSupport() };
      // A review step (reads only, both toolsets) and a schedule step (writes, files only), unattended or not.
      const review = await runAgentSession(d, { ...step, task: 'review', protocolPrompt: 'Review it.', toolsets: ['files', 'runners'], projectAccess: 'read' });
      await runAgentSession(d, { ...step, task: 'plan', protocolPrompt: 'Plan it.', toolsets: ['files'], autoApprove: true });
      expect(review, review.error).toMatchObject({ endedReason: 'complete', finalAnswer: 'Reported instead.' });
      expect(files.has('a.md')).toBe(false);
      expect(events.some((e) => e.type === 'approval_required')).toBe(false);
      expect(events.find((e) => e.type === 'tool_complete')).toMatchObject({ isError: true, result: 'Not done: this step only reads the project, so write_file is not available here. Report what should change instead.' });
      const [a, b] = [llm!.requests[0]!.body, llm!.requests[2]!.body];
      expect(a.tools, mode).toEqual(b.tools);
      if (mode === 'native') expect(a.tools!.map((t) => t.function.name)).toEqual(['open_toolset', 'read_file', 'write_file', 'bash_run']);
      const [sa, sb] = [String(a.messages![0]!.content), String(b.messages![0]!.content)];
      const shared = sa.slice(0, sa.indexOf('# Protocol'));
      expect(sb.startsWith(shared), mode).toBe(true);
      expect(shared).toContain('- files (open): project files\n- runners (open): commands');
      if (mode === 'xml') expect(shared).toMatch(/## write_file\n[\s\S]*## bash_run\n/);
      expect(sa).toContain("# This step's tools\n\nThe tools above serve every step of this run. This step may call every one of them except write_file; a call to one of those is refused.");
      expect(sb).toContain('This step may call every one of them except those of the runners toolset;');
      await llm!.close();
      llm = undefined;
    }
  });

  it('moves the oldest messages to the archive with a marker, keeping system prompt and task', async () => {
    const big = 'x'.repeat(4000);
    const { deps, provider: p } = await setup([
      { toolCalls: [{ name: 'read_note', arguments: { name: big.slice(0, 10) } }], text: big },
      { toolCalls: [{ name: 'read_note', arguments: { name: 'b' } }], text: big },
      { text: 'end' },
    ]);
    const provider = { ...p, contextWindow: 3000 };
    const events: AgentEvent[] = [];
    const outcome = await runAgentSession(deps, { task: 'the task', provider, openToolsets: ['notes'], autoApprove: true, onEvent: (e) => events.push(e) });
    expect(outcome.endedReason).toBe('complete');
    const archived = events.find((e) => e.type === 'context_archived');
    expect(archived).toBeDefined();
    const archivePath = new Paths(home).archive(outcome.sessionId);
    expect(existsSync(archivePath)).toBe(true);
    expect(readFileSync(archivePath, 'utf8')).toContain(big);
    const msgs = llm!.requests[2]!.body.messages!;
    expect(msgs[0]!.role).toBe('system');
    expect(msgs[1]).toMatchObject({ role: 'user', content: 'the task' });
    expect(String(msgs[2]!.content)).toMatch(/\[Context note\] \d+ earlier messages/);
    const restored = restoreContext(outcome.logPath).messages.map((m) => m.message);
    expect(restored[2]!.content).toMatch(/\[Context note\]/);
  });
});
