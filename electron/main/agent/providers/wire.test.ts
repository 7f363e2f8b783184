import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startWireServer, type WireFormat, type WireServer, type WireTurn } from '../../../../tests/fixtures/provider-wire/server';
import type { AgentEvent } from '../../../contract/index';
import { Paths } from '../../paths/index';
import { readSessionLog } from '../../sessions/index';
import { runAgentSession, type AgentSessionDeps } from '../session';
import { memoryTools } from '../tools';
import { xmlSupport } from '../xml-adapter';
import { resolveProvider, type ProviderConfig } from './config';

/**
 * Each provider kind against a stand-in that speaks its real wire format (as the AI SDK parses it):
 * what the requests carry, and what the session counts.
 */
let home: string;
let server: WireServer | undefined;
const tools = memoryTools({
  notes: {
    description: 'notes',
    tools: [{ name: 'read_note', description: 'read a note', inputSchema: { type: 'object', properties: { name: { type: 'string' } } }, annotations: { readOnlyHint: true }, run: (a) => `note ${String(a.name)}: hello` }],
  },
});
beforeEach(() => (home = mkdtempSync(join(tmpdir(), 'erasmus-wire-'))));
afterEach(async () => {
  await server?.close();
  server = undefined;
  rmSync(home, { recursive: true, force: true });
});

const PREFIX: Record<WireFormat, string> = { anthropic: '/v1', gemini: '/v1beta', 'openai-chat': '/v1', 'openai-responses': '/v1', ollama: '/api' };

async function session(format: WireFormat, entry: Omit<ProviderConfig, 'id' | 'baseUrl'>, turns: WireTurn[], o: { task?: string; toolMode?: 'native' | 'xml'; resume?: string; contextLength?: number } = {}) {
  server ??= await startWireServer(format, turns, { contextLength: o.contextLength });
  const config = { providers: [{ id: 'p', ...entry, baseUrl: `${server.url}${PREFIX[format]}`, ...(entry.kind === 'ollama' ? {} : { apiKey: '${env:KEY}' }) }] };
  const provider = await resolveProvider(config, {}, { env: { KEY: 'test-key' } });
  const deps: AgentSessionDeps = { paths: new Paths(home), sources: { env: {} }, tools, xml: xmlSupport() };
  const events: AgentEvent[] = [];
  const outcome = await runAgentSession(deps, { task: o.task ?? 'read note a', provider, toolMode: o.toolMode ?? 'native', openToolsets: ['notes'], autoApprove: true, resume: o.resume, onEvent: (e) => events.push(e) });
  expect(outcome.error ?? '').toBe('');
  return { outcome, events, provider, bodies: server.requests.filter((r) => !r.path.endsWith('/show')).map((r) => r.body) };
}

const readA = (signature?: string) => ({ name: 'read_note', args: { name: 'a' }, ...(signature ? { signature } : {}) });
type Json = Record<string, unknown> & { content?: unknown };
const blocks = (m: unknown) => ((m as Json).content ?? []) as Json[];

describe('Anthropic Messages', () => {
  const turns: WireTurn[] = [
    { reasoning: { text: 'I should read note a.', signature: 'sig-anthropic-1' }, toolCalls: [readA()], usage: { input: 100, cacheWrite: 2000, output: 20 } },
    { text: 'Note a says hello.', usage: { input: 50, cacheRead: 10_000, output: 10 } },
  ];

  it('replays the thinking signature, sets cache breakpoints, and prices cache reads and writes', async () => {
    const { bodies, events, outcome } = await session('anthropic', { kind: 'anthropic', model: 'claude-sonnet-4-5' }, turns);
    expect(outcome.finalAnswer).toBe('Note a says hello.');
    // The reasoning came back with its signature, before the tool call, as Anthropic requires.
    const assistant = (bodies[1]!.messages as Json[]).find((m) => m.role === 'assistant')!;
    expect(blocks(assistant).map((b) => b.type)).toEqual(['thinking', 'tool_use']);
    expect(blocks(assistant)[0]).toMatchObject({ thinking: 'I should read note a.', signature: 'sig-anthropic-1' });
    // Breakpoints: the system prompt, the last tool, and the end of the conversation.
    for (const body of bodies) {
      expect((body.system as Json[]).at(-1)).toMatchObject({ cache_control: { type: 'ephemeral' } });
      expect((body.tools as Json[]).at(-1)).toMatchObject({ cache_control: { type: 'ephemeral' } });
      expect(blocks((body.messages as Json[]).at(-1)).at(-1)).toMatchObject({ cache_control: { type: 'ephemeral' } });
      expect(JSON.stringify(body).match(/cache_control/g)!.length).toBeLessThanOrEqual(4);
    }
    // Usage in parts, priced cache-aware at Sonnet 4.5's prices ($3 in, $0.30 cache read, $3.75 cache write, $15 out).
    const usage = events.filter((e): e is Extract<AgentEvent, { type: 'usage' }> => e.type === 'usage');
    expect(usage[0]!.turn).toMatchObject({ inputTokens: 2100, cacheWriteTokens: 2000, cacheReadTokens: 0, outputTokens: 20 });
    expect(usage[1]!.turn).toMatchObject({ inputTokens: 10_050, cacheReadTokens: 10_000, outputTokens: 10 });
    expect(usage[1]!.turn.costUsd).toBeCloseTo((50 * 3 + 10_000 * 0.3 + 10 * 15) / 1e6, 9);
    expect(outcome.usage.costUsd).toBeCloseTo((100 * 3 + 2000 * 3.75 + 20 * 15 + 50 * 3 + 10_000 * 0.3 + 10 * 15) / 1e6, 9);
    // Reasoning is an event (the transcript and --json show it) and stays in the session log.
    expect(events.find((e) => e.type === 'reasoning')).toMatchObject({ text: 'I should read note a.' });
    const logged = readSessionLog(outcome.logPath).entries.find((e) => e.type === 'message' && (e as { message: { role: string } }).message.role === 'assistant');
    expect(JSON.stringify(logged)).toContain('sig-anthropic-1');
  });

  it('in xml mode the reasoning signature and the breakpoints go back too, and survive a resume', async () => {
    const xmlTurns: WireTurn[] = [
      { reasoning: { text: 'Read it.', signature: 'sig-xml' }, text: '<read_note>\n<name>a</name>\n</read_note>' },
      { text: 'It says hello.' },
      { text: 'Second answer.' },
    ];
    const first = await session('anthropic', { kind: 'anthropic', model: 'claude-sonnet-4-5' }, xmlTurns, { toolMode: 'xml' });
    expect(first.outcome.finalAnswer).toBe('It says hello.');
    const again = await session('anthropic', { kind: 'anthropic', model: 'claude-sonnet-4-5' }, xmlTurns, { toolMode: 'xml', resume: first.outcome.logPath, task: 'and now?' });
    expect(again.outcome.finalAnswer).toBe('Second answer.');
    for (const body of again.bodies.slice(1)) {
      const assistant = (body.messages as Json[]).find((m) => m.role === 'assistant')!;
      expect(blocks(assistant)[0]).toMatchObject({ type: 'thinking', signature: 'sig-xml' });
      expect((body.system as Json[]).at(-1)).toMatchObject({ cache_control: { type: 'ephemeral' } });
    }
  });
});

describe('Gemini streamGenerateContent', () => {
  it('sends the thought signature of a function call back on the next request', async () => {
    const { bodies, outcome } = await session('gemini', { kind: 'google', model: 'gemini-3-pro-preview' }, [
      { reasoning: { text: 'Thinking about notes.' }, toolCalls: [readA('sig-gemini-fc')], usage: { input: 300, cacheRead: 700, output: 12, reasoning: 30 } },
      { text: 'It says hello.' },
    ]);
    expect(outcome.finalAnswer).toBe('It says hello.');
    const model = (bodies[1]!.contents as Json[]).find((c) => c.role === 'model')!;
    const call = (model.parts as Json[]).find((p) => p.functionCall)!;
    expect(call.thoughtSignature).toBe('sig-gemini-fc');
    expect(JSON.stringify(bodies[1])).not.toContain('skip_thought_signature_validator');
    // Thinking models are asked for their thoughts.
    expect(bodies[0]!.generationConfig).toMatchObject({ thinkingConfig: { includeThoughts: true } });
    expect(outcome.usage).toMatchObject({ cacheReadTokens: 700 });
  });
});

describe('OpenAI Responses', () => {
  it('the openai kind calls /v1/responses, stores nothing, keeps one cache key, and replays encrypted reasoning', async () => {
    const { bodies, outcome } = await session('openai-responses', { kind: 'openai', model: 'gpt-5-codex' }, [
      { reasoning: { text: 'Need note a.', signature: 'enc-reasoning-1' }, toolCalls: [readA()], usage: { input: 1000, cacheRead: 0, output: 50, reasoning: 30 } },
      { text: 'Hello it says.', usage: { input: 100, cacheRead: 1024, output: 5 } },
    ]);
    expect(outcome.finalAnswer).toBe('Hello it says.');
    expect(server!.requests.map((r) => r.path)).toEqual(['/v1/responses', '/v1/responses']);
    expect(bodies[0]).toMatchObject({ model: 'gpt-5-codex', store: false, include: ['reasoning.encrypted_content'] });
    expect(bodies[0]!.prompt_cache_key).toMatch(/^erasmus-/);
    expect(bodies[1]!.prompt_cache_key).toBe(bodies[0]!.prompt_cache_key);
    const reasoning = (bodies[1]!.input as Json[]).find((i) => i.type === 'reasoning');
    expect(reasoning).toMatchObject({ encrypted_content: 'enc-reasoning-1' });
    expect(outcome.usage).toMatchObject({ cacheReadTokens: 1024, reasoningTokens: 30 });
    // gpt-5-codex: $1.25 in, $0.125 cache read, $10 out.
    expect(outcome.usage.costUsd).toBeCloseTo((1000 * 1.25 + 50 * 10 + 100 * 1.25 + 1024 * 0.125 + 5 * 10) / 1e6, 9);
  });
});

describe('OpenAI-compatible Chat Completions and OpenRouter', () => {
  it('openai-compatible stays on Chat Completions and counts cached prompt tokens', async () => {
    const { outcome } = await session('openai-chat', { kind: 'openai-compatible', model: 'gpt-4.1', pricing: { input: 2, output: 8, cacheRead: 0.5 } }, [
      { toolCalls: [readA()], usage: { input: 400, cacheRead: 600, output: 10 } },
      { text: 'done' },
    ]);
    expect(server!.requests.every((r) => r.path === '/v1/chat/completions')).toBe(true);
    expect(outcome.usage).toMatchObject({ cacheReadTokens: 600 });
  });

  it('OpenRouter carries Anthropic cache breakpoints for Anthropic models', async () => {
    const { bodies } = await session('openai-chat', { kind: 'openrouter', model: 'anthropic/claude-sonnet-4' }, [{ toolCalls: [readA()] }, { text: 'done' }]);
    const msgs = bodies[1]!.messages as Json[];
    expect(JSON.stringify(msgs[0])).toContain('"cache_control":{"type":"ephemeral"}');
    expect(JSON.stringify(msgs.at(-1))).toContain('"cache_control":{"type":"ephemeral"}');
  });
});

describe('Ollama /api/chat', () => {
  it('asks for a num_ctx that fits a long request, up to the limit /api/show reports', async () => {
    const long = `Summarize this: ${'lorem ipsum '.repeat(5000)}`; // ~60,000 characters, ~15,000 tokens
    const { bodies, provider } = await session('ollama', { kind: 'ollama', model: 'qwen3:8b' }, [{ text: 'ok' }], { task: long, toolMode: 'xml', contextLength: 40_960 });
    expect(provider.contextWindow).toBe(40_960);
    expect(server!.requests[0]!.path).toBe('/api/show');
    const numCtx = (bodies[0]!.options as { num_ctx: number }).num_ctx;
    expect(numCtx).toBeGreaterThan(15_000);
    expect(numCtx).toBeLessThanOrEqual(40_960);
    expect(numCtx % 4096).toBe(0);
  });

  it('warns before a request the model window would cut', async () => {
    const long = `Summarize this: ${'lorem ipsum '.repeat(5000)}`;
    const { events, bodies } = await session('ollama', { kind: 'ollama', model: 'qwen3:8b', contextWindow: 8192 }, [{ text: 'ok' }], { task: long, toolMode: 'xml' });
    expect((bodies[0]!.options as { num_ctx: number }).num_ctx).toBe(8192);
    expect(events.find((e) => e.type === 'warning' && /Ollama will cut/.test(e.message))).toBeDefined();
  });
});

describe('a cost budget in dollars', () => {
  it('stops cleanly when the cache-aware cost reaches it, and refuses to start without prices', async () => {
    // Each turn: 1,000 fresh + 99,000 cache-read tokens and 100 out at Sonnet 4.5 prices = $0.0342.
    const turn: WireTurn = { toolCalls: [readA()], usage: { input: 1000, cacheRead: 99_000, output: 100 } };
    server = await startWireServer('anthropic', Array(10).fill(turn));
    const provider = await resolveProvider({ providers: [{ id: 'c', kind: 'anthropic', model: 'claude-sonnet-4-5', baseUrl: `${server.url}/v1`, apiKey: '${env:K}' }] }, {}, { env: { K: 'k' } });
    const deps: AgentSessionDeps = { paths: new Paths(home), sources: { env: {} }, tools };
    const out = await runAgentSession(deps, { task: 't', provider, openToolsets: ['notes'], autoApprove: true, budgets: { maxCostUsd: 0.1 } });
    // Priced at the full input rate it would stop after one turn ($0.3015); cache-aware, after three ($0.1026).
    expect(out).toMatchObject({ endedReason: 'budget', turns: 3 });
    expect(out.usage.costUsd).toBeCloseTo(3 * 0.0342, 9);
    const unpriced = await runAgentSession(deps, { task: 't', provider: { ...provider, pricing: undefined }, budgets: { maxCostUsd: 1 } });
    expect(unpriced).toMatchObject({ endedReason: 'error', turns: 0 });
    expect(unpriced.error).toMatch(/set pricing: \{input, output\}/);
  });
});
