import type { Document } from 'yaml';
import { AgentDefaultsChange, ApprovalsPolicy, ToolMode, type AgentDefaults } from '../../contract/index';
import { deleteTopLevel, editConfigYaml, readConfigDocument } from './config-yaml';

const budget = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : undefined);

/**
 * What the agent uses when a session or run does not say: config.yaml `toolMode:`, `approvals:`,
 * `sessionBudgetUsd:` and `runBudgetUsd:`.
 */
function defaultsOf(doc: Document): AgentDefaults {
  const mode = ToolMode.safeParse(doc.get('toolMode'));
  const approvals = ApprovalsPolicy.safeParse(doc.get('approvals'));
  const session = budget(doc.get('sessionBudgetUsd'));
  const run = budget(doc.get('runBudgetUsd'));
  return {
    toolMode: mode.success ? mode.data : 'auto',
    approvals: approvals.success ? approvals.data : 'non-destructive',
    ...(session !== undefined ? { sessionBudgetUsd: session } : {}),
    ...(run !== undefined ? { runBudgetUsd: run } : {}),
  };
}

export async function getAgentDefaults(file: string): Promise<AgentDefaults> {
  return defaultsOf(await readConfigDocument(file));
}

export async function setAgentDefaults(file: string, changes: AgentDefaultsChange): Promise<AgentDefaults> {
  const valid = AgentDefaultsChange.parse(changes);
  return editConfigYaml(file, (doc) => {
    if (valid.toolMode) doc.set('toolMode', valid.toolMode);
    if (valid.approvals) doc.set('approvals', valid.approvals);
    for (const key of ['sessionBudgetUsd', 'runBudgetUsd'] as const) {
      if (valid[key] === null) deleteTopLevel(doc, key);
      else if (valid[key] !== undefined) doc.set(key, valid[key]);
    }
    return defaultsOf(doc);
  });
}
