import type { AgentSessionOptions, SessionOutcome } from '../agent/session';
import { StepAbortedError, type StepExecutor, type StepRequest, type StepResult } from './executor';

/**
 * The context documents live in ERASMUS_HOME, outside the project the tools may touch, so the
 * model hands its update back in its final answer.
 */
export const CONTEXT_DOC_NOTE =
  'To update the context document, end your final answer with its complete new text between <context_document> and </context_document>.';

const BLOCK = /<context_document>\n?([\s\S]*?)\n?<\/context_document>\s*$/;

/** Splits a final answer into the answer and the context document update at its end, if any. */
export function splitContextDoc(answer: string): { output: string; contextDoc?: string } {
  const m = BLOCK.exec(answer);
  if (!m) return { output: answer };
  return { output: answer.slice(0, m.index).trim(), contextDoc: m[1]! };
}

export type RunAgentSession = (options: AgentSessionOptions) => Promise<SessionOutcome>;

export interface AgentExecutorOptions {
  /** Approve what the command policy does not refuse (unattended runs). */
  autoApprove?: boolean;
  /** Provider and model for every step (default: config.yaml's default provider). */
  provider?: AgentSessionOptions['provider'];
  toolMode?: AgentSessionOptions['toolMode'];
}

/**
 * Runs each step as one agent session (electron/main/agent): the protocol's prompt as the system
 * protocol, the assembled step prompt as the task, the protocol's toolsets open from the start,
 * its budget as the session's. "Done" is the model ending the session itself (endedReason
 * "complete"); a spent budget is "not done"; an error blocks the run.
 */
export class AgentExecutor implements StepExecutor {
  readonly kind = 'agent';

  constructor(
    private readonly runSession: RunAgentSession,
    private readonly options: AgentExecutorOptions = {},
  ) {}

  async run(step: StepRequest): Promise<StepResult> {
    const outcome = await this.runSession({
      task: `${step.prompt}\n\n${CONTEXT_DOC_NOTE}`,
      project: step.projectDir,
      protocolPrompt: step.protocolPrompt,
      toolsets: step.toolsets,
      openToolsets: step.toolsets,
      budgets: { maxTurns: step.budget.maxTurns, ...(step.budget.maxTokens ? { maxTokens: step.budget.maxTokens } : {}) },
      autoApprove: this.options.autoApprove ?? false,
      provider: this.options.provider,
      toolMode: this.options.toolMode,
      signal: step.signal,
    });
    if (outcome.endedReason === 'stopped' || step.signal.aborted) throw new StepAbortedError(step.state);
    if (outcome.endedReason === 'error') throw new Error(`agent session ${outcome.sessionId} failed in ${step.state}: ${outcome.error ?? 'unknown error'} (log: ${outcome.logPath})`);
    const u = outcome.usage;
    const { output, contextDoc } = splitContextDoc(outcome.finalAnswer ?? '');
    return {
      output,
      ...(contextDoc !== undefined ? { contextDoc } : {}),
      done: outcome.endedReason === 'complete',
      usage: { inputTokens: u.inputTokens, cacheReadTokens: u.cacheReadTokens ?? 0, cacheWriteTokens: u.cacheWriteTokens ?? 0, outputTokens: u.outputTokens, totalTokens: u.totalTokens, ...(u.costUsd !== null ? { costUsd: u.costUsd } : {}) },
      sessionLog: outcome.logPath,
    };
  }
}
