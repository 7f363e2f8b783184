import type { Usage, WorkflowUsage } from '../../contract/index';
import { statSync } from 'node:fs';
import type { WorkflowTimelineEntry } from '../../contract/methods/workflow';
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

/**
 * When a step cut off by its process's end last did something, as the record shows it: its session log's last write,
 * or the run file's last save by that process (`savedAt`), never before it began nor after now. A step closed
 * `interrupted` on resume ends there, so its duration leaves out the time nothing ran.
 */
export function cutOffAt(entry: Pick<WorkflowTimelineEntry, 'enteredAt' | 'sessionLog'>, savedAt: string | undefined): string {
  const began = Date.parse(entry.enteredAt);
  // A save from before the step began is not of the process that ran it: only its log can tell.
  let last = savedAt && Date.parse(savedAt) >= began ? Date.parse(savedAt) : NaN;
  if (entry.sessionLog) {
    try {
      last = Math.max(Number.isNaN(last) ? 0 : last, statSync(entry.sessionLog).mtimeMs);
    } catch {
      // no log: the run file's save alone
    }
  }
  if (Number.isNaN(last)) return new Date().toISOString();
  return new Date(Math.min(Date.now(), Math.max(began, last))).toISOString();
}
