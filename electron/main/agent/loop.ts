import type { ChatMessage, EndReason, ImagePart, ToolCallRecord, Usage } from '../../contract/index';
import type { NewSessionEntry } from '../sessions/entries';
import type { ApprovalRequester } from './approvals';
import { markerText, planArchive, resultCapChars, type ContextEntry } from './context';
import type { Emit } from './events';
import { executeCall, type PendingCall } from './execute';
import { KEPT_NOTE, READ_OUTPUT, readOutputTool } from './kept-output';
import { correctionFor, reachFor, usageOf, type TurnItem } from './loop-calls';
import { reachableTools } from './reach';
import { findUnrunTags, unrunText } from './unrun';
import type { ToolPolicy } from './policy';
import type { ModelInfo, NativeToolSpec, StreamTurn } from './providers/types';
import { OPEN_TOOLSET, openToolsetSchema, safeToolName, type AgentTool, type AgentTools, type ShellRunner, type ToolCallResult } from './tools';
import { addCounts, addUsage, turnUsage, type TokenCounts } from './usage';
import { collectMeta } from './providers/metadata';
import type { XmlSupport, XmlToolSpec } from './xml-support';

export interface Budgets {
  maxTurns?: number;
  maxTokens?: number;
  maxCostUsd?: number;
}

/** The mutable state of a session's context, kept across `send`s. */
export interface LoopState {
  messages: ContextEntry[];
  /** Model-facing tool name → tool. */
  active: Map<string, AgentTool>;
  openedToolsets: Set<string>;
  usage: Usage;
  turns: number;
  /** Filter: toolsets the model may open (undefined = all). */
  allowedToolsets?: string[];
  /** The last turn ran no call and was told about tags that did not run (told once, then it may end). */
  unrunNudged?: boolean;
  /** Messages the user sent while the loop ran (steering), oldest first: each reaches the model at its next turn. */
  queued?: QueuedMessage[];
}

export interface QueuedMessage {
  id: string;
  text: string;
}

/** What the model reads of a message the user sent while it worked (it arrives after the current tool results). */
export function steeringText(text: string): string {
  return `The user sent this message while you were working:\n\n${text}`;
}

export interface LoopDeps {
  stream: StreamTurn;
  model: ModelInfo;
  toolMode: 'native' | 'xml';
  xml?: XmlSupport;
  tools: AgentTools;
  policy: ToolPolicy;
  approvals: ApprovalRequester;
  shell?: ShellRunner;
  cwd?: string;
  /** Appends to the session log; returns the entry id. */
  commit: (e: NewSessionEntry) => string;
  /** Writes archived messages to ERASMUS_HOME/archive/<session>.jsonl; returns its path. */
  archive: (entries: ContextEntry[]) => string;
  /** Keeps a tool result too long for the context whole (ERASMUS_HOME/outputs); returns its path. */
  keepWhole?: (callId: string, text: string) => string;
  /** A kept output's text by name, for the `read_output` tool (undefined: none by that name). */
  readKept?: (name: string) => string | undefined;
  /** Optional: a summary of archived messages, made by the model. */
  summarize?: (messages: ChatMessage[], signal: AbortSignal) => Promise<string | undefined>;
  emit: Emit;
  clock: () => number;
  budgets: Budgets;
  signal: AbortSignal;
  /** Why `signal` stopped the session, in words (default "stopped by the user"; Erasmus shutting down says so). */
  stoppedWhy?: () => string;
  /** Share of the context window the history may fill before archiving (default 0.75). */
  contextShare?: number;
}

export interface LoopResult {
  reason: EndReason;
  finalAnswer?: string;
  error?: string;
}

/** Adds a toolset's tools to the state under provider-safe names; returns the added tools. */
export async function openToolsetInto(state: LoopState, tools: AgentTools, name: string): Promise<AgentTool[]> {
  if (state.allowedToolsets && !state.allowedToolsets.includes(name)) throw new Error(`toolset "${name}" is not available in this session; available: ${state.allowedToolsets.join(', ')}`);
  const list = await tools.openToolset(name);
  const taken = new Set(state.active.keys());
  const added: AgentTool[] = [];
  for (const t of list) {
    if (t.unlisted) continue;
    const named = addTool(state, t, taken);
    if (named) added.push(named);
  }
  state.openedToolsets.add(name);
  return added;
}

/** Makes one tool callable under a provider-safe name; undefined when it already is. */
export function addTool(state: LoopState, t: AgentTool, taken = new Set(state.active.keys())): AgentTool | undefined {
  if ([...state.active.values()].some((x) => x.server === t.server && x.tool === t.tool)) return undefined;
  const named = { ...t, name: safeToolName(t.name, taken) };
  state.active.set(named.name, named);
  return named;
}

const openToolsetTool: AgentTool = { name: OPEN_TOOLSET, server: 'erasmus', tool: OPEN_TOOLSET, toolset: 'erasmus', description: "Open a toolset: makes its tools available and lists them with their parameters.", inputSchema: openToolsetSchema as unknown as Record<string, unknown>, annotations: { readOnlyHint: true } };

function specs(active: Map<string, AgentTool>): XmlToolSpec[] {
  return [openToolsetTool, ...active.values()].map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema }));
}

/**
 * The agent loop: turns until the model answers without calls, a budget runs out, or the signal
 * stops it. Never throws: failures are `error` events and the result's reason.
 */
export async function runAgentLoop(d: LoopDeps, state: LoopState): Promise<LoopResult> {
  let seq = 0;
  const nextId = (p: string) => `${p}${state.turns}-${++seq}`;
  let nativeSpecs: NativeToolSpec[] | undefined;
  let nativeSize = -1;
  const commitMessage = (message: ChatMessage) => state.messages.push({ id: d.commit({ type: 'message', message }), message });
  const fail = (code: 'provider' | 'budget' | 'internal' | 'stopped', message: string, reason: EndReason): LoopResult => {
    d.emit({ type: 'error', code, message });
    return { reason, error: message };
  };

  const openForModel = async (name: string): Promise<ToolCallResult> => {
    try {
      const added = await openToolsetInto(state, d.tools, name);
      d.commit({ type: 'toolset', name });
      d.emit({ type: 'toolset_opened', name, tools: added.map((t) => t.name) });
      const all = [...state.active.values()].filter((t) => t.toolset === name);
      const unlisted = (await d.tools.openToolset(name)).filter((t) => t.unlisted).map((t) => t.name);
      const more = unlisted.length ? `\n\nNot listed, as this project shows no sign of their toolchain, but callable by name where the program is installed: ${unlisted.join(', ')}.` : '';
      if (d.toolMode === 'xml' && d.xml) return { content: `Toolset "${name}" is open. Its tools:\n\n${d.xml.formatTools(all.map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema }))).trimEnd()}${more}`, isError: false };
      return { content: `Toolset "${name}" is open; these tools are available from your next turn:\n${all.map((t) => `- ${t.name}: ${t.description.split('\n')[0]}`).join('\n')}${more}`, isError: false };
    } catch (err) {
      // The session's own toolsets only, named once: a toolset it may not open is no way out (the hub's own error lists them all).
      const sets = (await d.tools.toolsets()).map((s) => s.name).filter((s) => !state.allowedToolsets || state.allowedToolsets.includes(s));
      const list = sets.join(', ') || 'none';
      if (!sets.includes(name)) return { content: `There is no toolset "${name}" in this session. The toolsets you can open: ${list}.`, isError: true };
      return { content: `Toolset "${name}" could not be opened: ${(err as Error).message}. Call ${OPEN_TOOLSET} again to retry, or go on with the other toolsets (${list}).`, isError: true };
    }
  };

  /** Opens a toolset because a call named one of its tools (no text of its own: the call's result says so). */
  const openOnTheWay = async (name: string, tool: AgentTool): Promise<AgentTool[]> => {
    const added = state.openedToolsets.has(name) ? [] : await openToolsetInto(state, d.tools, name);
    if (added.length || !state.openedToolsets.has(name)) {
      d.commit({ type: 'toolset', name });
      d.emit({ type: 'toolset_opened', name, tools: added.map((t) => t.name) });
    }
    // A tool its toolset does not list (a toolchain the project does not show) joins on its own.
    if (tool.unlisted) addTool(state, tool);
    return added;
  };

  // Messages the user sent meanwhile go to the model before its next turn, after the results it is owed.
  const deliverQueued = () => {
    for (const q of state.queued?.splice(0) ?? []) {
      commitMessage({ role: 'user', content: steeringText(q.text), instruction: true, steered: true });
      d.emit({ type: 'steer', id: q.id, text: q.text, state: 'delivered' });
    }
  };

  // A session that cut a result (before a resume, too) offers read_output to page through it.
  const offerReadOutput = () => {
    if (d.readKept && addTool(state, readOutputTool)) nativeSize = -1;
  };
  if (state.messages.some((m) => m.message.content.includes(KEPT_NOTE))) offerReadOutput();

  try {
    if (d.budgets.maxCostUsd !== undefined && !d.model.pricing)
      return fail('budget', `a cost budget ($${d.budgets.maxCostUsd}) needs the model's prices, and this model has none in the bundled catalog: set pricing: {input, output} (USD per million tokens) for this provider in config.yaml`, 'error');
    for (;;) {
      if (d.signal.aborted) return fail('stopped', d.stoppedWhy?.() ?? 'stopped by the user', 'stopped');
      const b = d.budgets;
      if (b.maxTurns !== undefined && state.turns >= b.maxTurns) return fail('budget', `turn budget exhausted (${b.maxTurns} turns)`, 'budget');
      if (b.maxTokens !== undefined && state.usage.totalTokens >= b.maxTokens) return fail('budget', `token budget exhausted (${state.usage.totalTokens} of ${b.maxTokens} tokens)`, 'budget');
      if (b.maxCostUsd !== undefined && state.usage.costUsd !== null && state.usage.costUsd >= b.maxCostUsd) return fail('budget', `cost budget exhausted ($${state.usage.costUsd.toFixed(4)} of $${b.maxCostUsd})`, 'budget');
      deliverQueued();
      state.turns++;
      d.emit({ type: 'turn_started', turn: state.turns });

      if (d.toolMode === 'native' && nativeSize !== state.active.size) {
        nativeSpecs = specs(state.active);
        nativeSize = state.active.size;
      }
      await fitContext(d, state, nativeSpecs);

      const sets = await d.tools.toolsets();
      // A follow-up toolset (reading what a tool result linked to) joins a session's allowed ones when it appears.
      for (const t of sets) if (t.followUp && state.allowedToolsets && !state.allowedToolsets.includes(t.name)) state.allowedToolsets = [...state.allowedToolsets, t.name];
      const offered = state.allowedToolsets ?? sets.map((t) => t.name);
      const reach = await reachableTools(d.tools, offered, state.active);
      const items: TurnItem[] = [];
      let raw = '';
      let providerError: string | undefined;
      let counts: TokenCounts = { inputTokens: 0, outputTokens: 0 };
      const meta = collectMeta();
      const parser = d.toolMode === 'xml' && d.xml ? d.xml.createParser({ tools: [...specs(state.active), ...[...reach.names].map(([name, t]) => ({ name, description: t.description, inputSchema: t.inputSchema }))] }) : undefined;
      const onParsed = (evs: ReturnType<NonNullable<typeof parser>['push']>) => {
        for (const e of evs) {
          if (e.type === 'text') d.emit({ type: 'sentence', text: e.text });
          else if (e.type === 'tool_call') items.push({ kind: 'tool', id: e.id || nextId('x'), name: e.name, args: e.args, ...(e.dependsOn?.length ? { dependsOn: e.dependsOn } : {}) });
          else if (e.type === 'shell') items.push({ kind: 'shell', id: nextId('sh'), command: e.command });
          else items.push({ kind: 'correction', message: correctionFor(e, reach, state.active, offered, state.openedToolsets) });
        }
      };
      const messages = state.messages.map((m) => m.message);
      for await (const part of d.stream({ messages, tools: d.toolMode === 'native' ? nativeSpecs : undefined, signal: d.signal })) {
        if (part.type === 'text') {
          raw += part.text;
          if (parser) onParsed(parser.push(part.text));
          else d.emit({ type: 'sentence', text: part.text });
        } else if (part.type === 'tool_call') {
          items.push({ kind: 'tool', id: part.id, name: part.name, args: part.args, ...('sent' in part ? { sent: part.sent } : {}) });
          meta.add(part);
        } else if (part.type === 'usage') counts = addCounts(counts, part);
        else if (part.type === 'reasoning' || part.type === 'text_meta') {
          meta.add(part);
          if (part.type === 'reasoning' && part.text) d.emit({ type: 'reasoning', text: part.text });
        } else if (part.type === 'warning') d.emit({ type: 'warning', message: part.message });
        else if (part.type === 'error') providerError = part.message;
      }
      if (parser) onParsed(parser.end());
      const tu = turnUsage(counts, d.model.pricing);
      state.usage = addUsage(state.usage, tu);
      d.emit({ type: 'usage', turn: tu, session: state.usage });
      if (d.signal.aborted) return fail('stopped', d.stoppedWhy?.() ?? 'stopped by the user', 'stopped');
      if (providerError !== undefined) return fail('provider', providerError, 'error');

      const calls = items.filter((c): c is PendingCall => c.kind !== 'correction');
      const toolCalls: ToolCallRecord[] | undefined = d.toolMode === 'native' && calls.length ? calls.map((c) => ({ id: c.id, name: c.kind === 'tool' ? c.name : '!', args: c.kind === 'tool' ? c.args : { command: c.command }, ...meta.ofCall(c.id) })) : undefined;
      commitMessage({ role: 'assistant', content: raw, ...(toolCalls ? { toolCalls } : {}), ...meta.message() });

      if (!items.length && parser && !state.unrunNudged) {
        // A tag naming a tool that did not run (in a code block, in <thinking>, in a sentence): the model
        // hears where it was, once, instead of the session ending as if it had answered.
        const unrun = findUnrunTags(raw, new Set([OPEN_TOOLSET, ...state.active.keys(), ...reach.names.keys(), ...reach.ambiguous.keys()]));
        if (unrun.length) items.push({ kind: 'correction', message: unrunText(unrun, (n) => usageOf(n, state.active, reach)) });
      }
      // A message the user sent while the model wrote its answer is not left unread: the model answers it too.
      if (!items.length && state.queued?.length) continue;
      if (!items.length) {
        d.emit({ type: 'complete', answer: raw.trim() });
        return { reason: 'complete', finalAnswer: raw.trim() };
      }
      state.unrunNudged = !calls.length;

      const failed = new Set<string>();
      const results = new Map<string, string>();
      const xmlParts: string[] = [];
      const xmlImages: ImagePart[] = [];
      const nativeCorrections: string[] = [];
      for (const item of items) {
        if (d.signal.aborted) break;
        if (item.kind === 'correction') {
          xmlParts.push(`[tool call not run]\n${item.message}`);
          nativeCorrections.push(item.message);
          continue;
        }
        let call: PendingCall = item;
        const deps = call.kind === 'tool' ? call.dependsOn : undefined;
        let out: ToolCallResult | undefined;
        let note = '';
        if (call.kind === 'tool' && !state.active.has(call.name) && call.name !== OPEN_TOOLSET && !(call.name === READ_OUTPUT && d.readKept)) {
          const r = await reachFor(call.name, reach, state.active, openOnTheWay);
          if ('error' in r) {
            out = { content: r.error, isError: true };
            d.emit({ type: 'tool_complete', callId: call.id, name: call.name, args: call.args, result: out.content, isError: true, durationMs: 0 });
          } else if (r.name) {
            call = { ...call, name: r.name };
            note = r.note;
          }
        }
        if (!out && call.kind === 'tool' && deps?.length) {
          const bad = deps.find((x) => failed.has(x));
          const r = bad ? { ok: false as const, message: `Skipped: it depends on call "${bad}", which failed.` } : d.xml ? d.xml.resolve({ ...call, dependsOn: deps }, results, state.active.get(call.name)?.inputSchema) : { ok: true as const, args: call.args };
          if (r.ok) call = { ...call, args: r.args };
          else {
            out = { content: r.message, isError: true };
            d.emit({ type: 'tool_complete', callId: call.id, name: call.name, args: call.args, result: out.content, isError: true, durationMs: 0 });
          }
        }
        if (!out)
          out = await executeCall(
            { tools: d.tools, active: state.active, policy: d.policy, approvals: d.approvals, shell: d.shell, cwd: d.cwd, emit: d.emit, clock: d.clock, signal: d.signal, openToolset: openForModel, nextRequestId: () => nextId('ap'), maxResultChars: resultCapChars(d.model.contextWindow), keepWhole: d.keepWhole, readKept: d.readKept, onKept: offerReadOutput, closedToolsets: offered.filter((t) => !state.openedToolsets.has(t)) },
            call,
          );
        if (note) out = { ...out, content: `${note}\n${out.content}` };
        if (out.isError) failed.add(call.id);
        results.set(call.id, out.content);
        const name = call.kind === 'tool' ? call.name : `!${call.command}`;
        const images = out.images?.length ? { images: out.images } : {};
        if (d.toolMode === 'native') commitMessage({ role: 'tool', toolCallId: item.id, name: item.kind === 'tool' ? item.name : '!', content: out.content, ...(out.isError ? { isError: true } : {}), ...images });
        else {
          xmlParts.push(`[${name}${out.isError ? ' — error' : ''}]\n${out.content}`);
          xmlImages.push(...(out.images ?? []));
        }
      }
      if (d.toolMode === 'xml') commitMessage({ role: 'user', content: xmlParts.join('\n\n'), ...(xmlImages.length ? { images: xmlImages } : {}) });
      else if (nativeCorrections.length) commitMessage({ role: 'user', content: nativeCorrections.join('\n\n') });
      if (d.signal.aborted) return fail('stopped', d.stoppedWhy?.() ?? 'stopped by the user', 'stopped');
    }
  } catch (err) {
    return fail('internal', `internal error in the agent loop: ${(err as Error).stack ?? String(err)}`, 'error');
  }
}

async function fitContext(d: LoopDeps, state: LoopState, nativeSpecs: NativeToolSpec[] | undefined): Promise<void> {
  const toolTokens = nativeSpecs ? Math.ceil(JSON.stringify(nativeSpecs).length / 4) : 0;
  const budget = Math.floor(d.model.contextWindow * (d.contextShare ?? 0.75));
  const plan = planArchive(state.messages, budget, toolTokens);
  if (!plan) return;
  const archivePath = d.archive(plan.remove);
  let summary: string | undefined;
  if (d.summarize) {
    try {
      summary = await d.summarize(plan.remove.map((e) => e.message), d.signal);
    } catch (err) {
      d.emit({ type: 'warning', message: `could not summarize archived messages: ${(err as Error).message}` });
    }
  }
  const marker: ChatMessage = { role: 'user', content: markerText(plan.totalArchived, archivePath, summary) };
  const id = d.commit({ type: 'archived', ids: plan.remove.map((e) => e.id), marker, archivePath });
  const gone = new Set(plan.remove);
  const kept = state.messages.filter((e) => !gone.has(e));
  kept.splice(plan.at, 0, { id, message: marker });
  state.messages = kept;
  d.emit({ type: 'context_archived', count: plan.remove.length, archivePath, ...(summary ? { summary } : {}) });
}
