import type { Usage, WorkflowUsage } from '../../contract/index';
import { readSessionLog } from '../sessions/read';

/** An agent session's usage as a run counts it (no reasoning split; a cost only when the model's prices are known). */
export function workflowUsage(u: Usage): WorkflowUsage {
  return { inputTokens: u.inputTokens, cacheReadTokens: u.cacheReadTokens ?? 0, cacheWriteTokens: u.cacheWriteTokens ?? 0, outputTokens: u.outputTokens, totalTokens: u.totalTokens, ...(u.costUsd !== null ? { costUsd: u.costUsd } : {}) };
}

/**
 * What a step's session spent before it ended without an answer (its process killed, the run stopped, a fault):
 * the last usage its log holds, so the run's totals keep what was spent. Undefined when the log has none or
 * cannot be read.
 */
export function sessionLogUsage(logPath: string): WorkflowUsage | undefined {
  let entries;
  try {
    entries = readSessionLog(logPath).entries;
  } catch {
    return undefined;
  }
  for (let i = entries.length - 1; i >= 0; i--) {
    const e = entries[i]!;
    if (e.type !== 'event') continue;
    if (e.event.type === 'usage') return workflowUsage(e.event.session);
    if (e.event.type === 'session_ended') return workflowUsage(e.event.usage);
  }
  return undefined;
}
