import { loadProtocols, type ProtocolName } from './protocols';

export interface PreflightInput {
  projectDir: string;
  /** The toolsets a step could open now (the hub's). */
  availableToolsets: string[];
  /** Resolves the model every step will use; throws with the reason when there is none. */
  provider: () => Promise<unknown>;
  /** The built-in protocols' folder (tests). */
  protocolsDir?: string;
}

/**
 * What a run with the agent loop needs before it starts: a model, and every toolset its protocols
 * (the project's overrides included) name. Returns one sentence per problem, each saying how to fix
 * it; empty when the run can start.
 */
export async function workflowPreflight(input: PreflightInput): Promise<string[]> {
  const problems: string[] = [];
  try {
    await input.provider();
  } catch (err) {
    problems.push(`no model to run the steps: ${(err as Error).message} (add a provider in Settings → Providers or config.yaml, or pass --base-url / --provider)`);
  }
  let protocols;
  try {
    protocols = await loadProtocols(input.projectDir, input.protocolsDir);
  } catch (err) {
    problems.push((err as Error).message);
    return problems;
  }
  const needers = new Map<string, ProtocolName[]>();
  for (const p of Object.values(protocols)) for (const t of p.toolsets) if (!input.availableToolsets.includes(t)) needers.set(t, [...(needers.get(t) ?? []), p.name]);
  for (const [toolset, names] of needers) {
    problems.push(
      `the toolset "${toolset}" (needed by the ${names.join(', ')} protocol${names.length > 1 ? 's' : ''}) is not available (available: ${input.availableToolsets.join(', ') || 'none'}): add and enable a server of that name in the Servers view (or mcp/config.json), or drop it from the protocol's \`toolsets:\` in a project override (.erasmus/protocols/<name>.md)`,
    );
  }
  return problems;
}
