// The agent loop's own overhead per turn: 200 tools offered natively and a 1,000-message history.
// The model (a stream that answers at once) and the tools (return at once) take no time, so what is
// measured is the loop: context bookkeeping, policy, events, the session log in each sync mode
// ('async', the default, syncs in the background; 'messages' and 'all' block on fsync, which is the disk's time).
// Goal: ≤ 5 ms per turn. Baseline, measured in the same run: the same loop with 1 tool and a 2-message history.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChatMessage } from '../electron/contract/index';
import { runAgentLoop, type LoopState } from '../electron/main/agent/loop';
import { ToolPolicy } from '../electron/main/agent/policy';
import type { StreamTurn } from '../electron/main/agent/providers/types';
import { memoryTools, type AgentTool } from '../electron/main/agent/tools';
import { emptyUsage } from '../electron/main/agent/usage';
import { SessionLog } from '../electron/main/sessions/index';
import { toModelMessages } from '../electron/main/agent/providers/ai-sdk-stream';
import { jsonSchema, tool } from 'ai';

const dir = mkdtempSync(join(tmpdir(), 'erasmus-agent-bench-'));

function setup(toolCount: number, history: number) {
  const defs = Array.from({ length: toolCount }, (_, i) => ({
    name: `tool_${i}`,
    description: `Tool number ${i}: does a small thing with a path and a count.`,
    inputSchema: { type: 'object', properties: { path: { type: 'string', description: 'a path' }, count: { type: 'integer' } }, required: ['path'] },
    annotations: { readOnlyHint: true },
    run: () => 'ok',
  }));
  const tools = memoryTools({ bench: { description: 'bench tools', tools: defs } });
  const active = new Map<string, AgentTool>(defs.map((d) => [d.name, { name: d.name, server: 'bench', tool: d.name, toolset: 'bench', description: d.description, inputSchema: d.inputSchema, annotations: d.annotations }]));
  const messages: { id: string; message: ChatMessage }[] = [
    { id: 's', message: { role: 'system', content: 'You are a benchmark. '.repeat(200) } },
    { id: 't', message: { role: 'user', content: 'the task' } },
  ];
  for (let i = 0; messages.length < history; i++) {
    messages.push({ id: `a${i}`, message: { role: 'assistant', content: `Step ${i}: reading a file.`, toolCalls: [{ id: `c${i}`, name: 'tool_1', args: { path: `src/f${i}.ts` } }] } });
    messages.push({ id: `r${i}`, message: { role: 'tool', toolCallId: `c${i}`, name: 'tool_1', content: `contents of f${i}: ${'x'.repeat(200)}` } });
  }
  const state: LoopState = { messages: messages.slice(0, history), active, openedToolsets: new Set(['bench']), usage: emptyUsage(), turns: 0 };
  return { tools, state, toolCount };
}

/** A model that calls one tool per turn, `turns - 1` times, then answers. */
function model(turns: number, toolCount: number): StreamTurn {
  let n = 0;
  return async function* () {
    n++;
    yield { type: 'text', text: `Turn ${n}. ` };
    if (n < turns) yield { type: 'tool_call', id: `call${n}`, name: `tool_${n % toolCount}`, args: { path: `src/x${n}.ts`, count: n } };
    yield { type: 'usage', inputTokens: 1000, outputTokens: 20 };
    yield { type: 'finish', reason: n < turns ? 'tool-calls' : 'stop' };
  };
}

type Fsync = 'none' | 'async' | 'messages' | 'all';
async function measure(toolCount: number, history: number, turns: number, fsync: Fsync): Promise<number> {
  const { tools, state } = setup(toolCount, history);
  const log = new SessionLog(join(dir, `s-${toolCount}-${history}-${fsync}-${Math.random()}.jsonl`), { fsync });
  const t0 = performance.now();
  const r = await runAgentLoop(
    {
      stream: model(turns, toolCount),
      model: { contextWindow: 10_000_000, supportsNativeTools: true },
      toolMode: 'native',
      tools,
      policy: new ToolPolicy(),
      approvals: async () => 'allow_once',
      commit: (e) => log.append(e).id,
      archive: () => join(dir, 'archive.jsonl'),
      emit: (e) => void log.append({ type: 'event', event: { ...e, sessionId: 'bench', at: Date.now() } as never }),
      clock: Date.now,
      budgets: {},
      signal: new AbortController().signal,
    },
    state,
  );
  const ms = performance.now() - t0;
  log.close();
  if (r.reason !== 'complete' || state.turns !== turns) throw new Error(`bench loop ended ${r.reason} after ${state.turns} turns: ${r.error}`);
  return ms / turns;
}

const TURNS = 100;
async function best(toolCount: number, history: number, fsync: Fsync): Promise<number> {
  await measure(toolCount, history, 10, fsync); // warm-up
  const runs = [];
  for (let i = 0; i < 5; i++) runs.push(await measure(toolCount, history, TURNS, fsync));
  return Math.min(...runs);
}

try {
  for (const fsync of ['none', 'async', 'messages', 'all'] as const) {
    const base = await best(1, 2, fsync);
    const big = await best(200, 1000, fsync);
    console.log(`session log fsync ${fsync.padEnd(8)}: baseline (1 tool, 2 messages) ${base.toFixed(3)} ms/turn; 200 tools + 1,000 messages ${big.toFixed(3)} ms/turn (${(big / base).toFixed(2)}× baseline; goal ≤ 5 ms: ${big <= 5 ? 'met' : 'NOT met'})`);
  }
  // What the AI SDK adapter adds before each request: messages converted, tool specs built.
  const { state } = setup(200, 1000);
  const msgs = state.messages.map((m) => m.message);
  const specs = [...state.active.values()];
  const prep = () => {
    toModelMessages(msgs);
    for (const t of specs) tool({ description: t.description, inputSchema: jsonSchema(t.inputSchema as Parameters<typeof jsonSchema>[0]) });
  };
  for (let i = 0; i < 20; i++) prep();
  const t0 = performance.now();
  for (let i = 0; i < 200; i++) prep();
  console.log(`AI SDK adapter preparation per request (1,000 messages, 200 tools): ${((performance.now() - t0) / 200).toFixed(3)} ms`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
