import type { Document } from 'yaml';
import { AgentDefaults, ApprovalsPolicy, ToolMode } from '../../contract/index';
import { editConfigYaml, readConfigDocument } from './config-yaml';

/** What the agent uses when a session does not say: config.yaml `toolMode:` and `approvals:`. */
function defaultsOf(doc: Document): AgentDefaults {
  const mode = ToolMode.safeParse(doc.get('toolMode'));
  const approvals = ApprovalsPolicy.safeParse(doc.get('approvals'));
  return { toolMode: mode.success ? mode.data : 'auto', approvals: approvals.success ? approvals.data : 'non-destructive' };
}

export async function getAgentDefaults(file: string): Promise<AgentDefaults> {
  return defaultsOf(await readConfigDocument(file));
}

export async function setAgentDefaults(file: string, changes: Partial<AgentDefaults>): Promise<AgentDefaults> {
  const valid = AgentDefaults.partial().parse(changes);
  return editConfigYaml(file, (doc) => {
    if (valid.toolMode) doc.set('toolMode', valid.toolMode);
    if (valid.approvals) doc.set('approvals', valid.approvals);
    return defaultsOf(doc);
  });
}
