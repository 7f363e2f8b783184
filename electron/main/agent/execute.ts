import type { ApprovalDecision } from '../../contract/index';
import { UnansweredApproval } from './approval-path';
import { argumentProblem, notAnObject } from './arg-check';
import type { ApprovalRequester } from './approvals';
import type { Emit } from './events';
import type { PolicyDecision, ToolPolicy } from './policy';
import { cutResult, READ_OUTPUT, readPage } from './kept-output';
import { OPEN_TOOLSET, type AgentTool, type AgentTools, type ShellRunner, type ToolCallResult } from './tools';

/** A call as the loop runs it: from native tool calling, the XML parser, or a `!command` line. */
/** `sent`: the model's arguments when they were not an object (`args` is then empty): its refusal quotes them. */
export type PendingCall = { kind: 'tool'; id: string; name: string; args: Record<string, unknown>; sent?: unknown; dependsOn?: string[] } | { kind: 'shell'; id: string; command: string };

export interface CallOutcome extends ToolCallResult {
  refused?: boolean;
}

export interface ExecuteDeps {
  tools: AgentTools;
  active: Map<string, AgentTool>;
  policy: ToolPolicy;
  approvals: ApprovalRequester;
  shell?: ShellRunner;
  cwd?: string;
  emit: Emit;
  clock: () => number;
  signal: AbortSignal;
  /** Opens a toolset for the model (the loop updates the offered tools); returns the text for the model. */
  openToolset: (name: string) => Promise<ToolCallResult>;
  /** Cap on a result's length in characters (the rest is cut with a note). */
  maxResultChars?: number;
  /** Keeps a cut result whole; returns its name for `read_output`. */
  keepWhole?: (callId: string, text: string) => string;
  /** A kept output's text by name (undefined when there is none): `read_output` pages through it. */
  readKept?: (name: string) => string | undefined;
  /** Called when a result was cut and kept (the loop offers `read_output` from then on). */
  onKept?: () => void;
  nextRequestId: () => string;
  /** The session's toolsets not open yet (undefined: not known): an unknown tool's answer names them, or says every one is open. */
  closedToolsets?: readonly string[];
}

const MAX_RESULT = 60_000;

async function approve(d: ExecuteDeps, decision: PolicyDecision, kind: 'tool' | 'command', callId: string, name: string, args: Record<string, unknown>, rememberKey: string): Promise<CallOutcome | undefined> {
  if (decision.verdict === 'refuse') return { content: `Refused by policy: ${decision.reasons.join('; ')}. Do not retry this call in another form.`, isError: true, refused: true };
  if (decision.verdict === 'allow') return undefined;
  const requestId = d.nextRequestId();
  d.emit({ type: 'approval_required', requestId, kind, callId, name, args, reasons: decision.reasons });
  let answer: ApprovalDecision;
  try {
    answer = await d.approvals({ requestId, kind, callId, name, args, reasons: decision.reasons }, d.signal);
  } catch (err) {
    if (!(err instanceof UnansweredApproval)) throw err;
    d.emit({ type: 'approval_resolved', requestId, decision: 'deny' });
    return { content: `Not run: this call ${err.message}. It needed approval because: ${decision.reasons.join('; ')}. Continue without it, or tell the user what you need and why.`, isError: true, refused: true };
  }
  d.emit({ type: 'approval_resolved', requestId, decision: answer });
  if (answer === 'deny') return { content: 'The user denied this call. Do not retry it; continue without it or explain what you needed.', isError: true, refused: true };
  if (answer === 'always_allow') d.policy.rememberAlways(rememberKey);
  return undefined;
}

/** Runs one call through policy, approval and the tools; emits tool_running / tool_complete. Never throws. */
export async function executeCall(d: ExecuteDeps, call: PendingCall): Promise<CallOutcome> {
  const name = call.kind === 'shell' ? '!' : call.name;
  const args = call.kind === 'shell' ? { command: call.command } : call.args;
  const started = d.clock();
  const finish = (o: CallOutcome): CallOutcome => {
    const max = d.maxResultChars ?? MAX_RESULT;
    let kept: string | undefined;
    if (o.content.length > max && d.keepWhole)
      try {
        kept = d.keepWhole(call.id, o.content);
      } catch {
        kept = undefined; // the cut result still goes back; only the copy is missing
      }
    if (kept) d.onKept?.();
    const out = { ...o, content: cutResult(o.content, max, kept) };
    d.emit({ type: 'tool_complete', callId: call.id, name, args, result: out.content, isError: out.isError, ...(out.refused ? { refused: true } : {}), durationMs: d.clock() - started });
    return out;
  };
  try {
    if (call.kind === 'shell') {
      if (!d.shell) return finish({ content: 'Shell commands (`!command`) are not available in this session.', isError: true });
      const blocked = await approve(d, await d.policy.decideCommand(call.command), 'command', call.id, name, args, `!${call.command}`);
      if (blocked) return finish(blocked);
      d.emit({ type: 'tool_running', callId: call.id, name, args });
      return finish(await d.shell(call.command, { signal: d.signal, cwd: d.cwd }));
    }
    if (call.name === OPEN_TOOLSET) {
      d.emit({ type: 'tool_running', callId: call.id, name, args });
      return finish(await d.openToolset(String(call.args.name ?? '')));
    }
    if (call.name === READ_OUTPUT && d.readKept) {
      d.emit({ type: 'tool_running', callId: call.id, name, args });
      return finish(readPage(d.readKept, call.args, d.maxResultChars ?? MAX_RESULT));
    }
    const tool = d.active.get(call.name);
    if (!tool) {
      const names = [...d.active.keys()].join(', ');
      // Where every toolset is open (a workflow step's), there is nothing more to open: said so, not "open a toolset to get more".
      const more =
        d.closedToolsets === undefined
          ? `Open a toolset with ${OPEN_TOOLSET} to get more.`
          : d.closedToolsets.length
            ? `Open one of these toolsets with ${OPEN_TOOLSET} for more: ${d.closedToolsets.join(', ')}.`
            : 'Every toolset is open: these are all the tools this session has.';
      return finish({ content: `Unknown tool "${call.name}". Available tools: ${names}. ${more}`, isError: true });
    }
    // A call this step may not make is refused before anyone is asked to approve it.
    const outOfScope = d.tools.refusal?.(tool, call.args);
    if (outOfScope) return finish({ content: outOfScope, isError: true });
    // A call whose arguments cannot match is answered before anyone is asked to approve it.
    const badArgs = 'sent' in call ? notAnObject(tool, call.sent) : argumentProblem(tool, call.args);
    if (badArgs) return finish({ content: badArgs, isError: true });
    const blocked = await approve(d, await d.policy.decideTool(tool, call.args), 'tool', call.id, name, args, tool.name);
    if (blocked) return finish(blocked);
    if (d.signal.aborted) return finish({ content: 'The session was stopped before this call ran.', isError: true });
    d.emit({ type: 'tool_running', callId: call.id, name, args });
    const result = await d.tools.call(tool, call.args, {
      signal: d.signal,
      onProgress: (p) => d.emit({ type: 'tool_progress', callId: call.id, progress: p.progress, ...(p.total !== undefined ? { total: p.total } : {}), ...(p.message ? { message: p.message } : {}) }),
    });
    return finish(result);
  } catch (err) {
    // Stopped while it ran (Stop, or Erasmus shut down: its servers' connections close): the model reads this when the
    // chat goes on, and the server's words alone ("Connection closed") would read as the call's own failure.
    // So is a server's connection that closed under the call (the server stopped, or Erasmus shut it down first).
    const why = (err as Error).message;
    const cut = d.signal.aborted ? CUT_OFF_BY_STOP : /\bConnection closed\b/.test(why) ? CUT_OFF_BY_CLOSE : undefined;
    if (cut) return finish({ content: `${cut} (${why}). It may not have taken effect: check before you call it again.`, isError: true });
    return finish({ content: `The call failed: ${why}`, isError: true });
  }
}

/** A call the session's stop cut off while it ran, as the model reads it. */
export const CUT_OFF_BY_STOP = 'Cut off: the session was stopped (by the user, or Erasmus shut down) while this call ran or waited for the user’s approval';
/** A call whose server's connection closed while it ran, as the model reads it. */
export const CUT_OFF_BY_CLOSE = 'Cut off: the tool’s server closed its connection (it stopped, or Erasmus shut down) while this call ran or waited for the user’s approval';
