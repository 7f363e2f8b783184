import type { WorkflowPreflightProblem } from '../../contract/methods/workflow';
import { ConfigFileError, loadAgentConfig } from '../agent/providers/config';
import type { ProjectTrust } from '../project/trust';
import { loadProtocols, type ProtocolName } from './protocols';

export type PreflightProblem = WorkflowPreflightProblem;

export interface PreflightInput {
  projectDir: string;
  /** The toolsets a step could open now (the hub's). */
  availableToolsets: string[];
  /** Resolves the model every step will use; throws with the reason when there is none. */
  provider: () => Promise<unknown>;
  /** The built-in protocols' folder (tests). */
  protocolsDir?: string;
  /** The gate project files are read through (default: ERASMUS_HOME's). */
  trust?: ProjectTrust;
}

/**
 * What a run with the agent loop needs before it starts: a model, and every toolset its protocols
 * (the project's trusted overrides included) name. Returns one problem per thing missing, each with
 * how to fix it; empty when the run can start. The app, the core's workflow.load/start and
 * `erasmus workflow start` all ask this one function.
 */
export async function workflowPreflight(input: PreflightInput): Promise<PreflightProblem[]> {
  const problems: PreflightProblem[] = [];
  try {
    await input.provider();
  } catch (err) {
    const unreadable = err instanceof ConfigFileError;
    problems.push({
      fix: 'providers',
      message: `No model to run the steps: ${(err as Error).message}`,
      how: unreadable ? 'Fix config.yaml where the message says (a key in the wrong place or misspelled, or broken YAML), then start again; nothing in it was changed.' : 'Add a provider (and its API key) in Settings → Providers, or in config.yaml.',
    });
  }
  let protocols;
  try {
    protocols = await loadProtocols(input.projectDir, input.protocolsDir, input.trust);
  } catch (err) {
    problems.push({ fix: 'protocols', message: (err as Error).message, how: 'Fix the protocol file it names (or delete a project override to use the built-in one).' });
    return problems;
  }
  const needers = new Map<string, ProtocolName[]>();
  for (const p of Object.values(protocols)) for (const t of p.toolsets) if (!input.availableToolsets.includes(t)) needers.set(t, [...(needers.get(t) ?? []), p.name]);
  for (const [toolset, names] of needers) {
    problems.push({
      fix: 'servers',
      message: `The toolset "${toolset}" (needed by the ${names.join(', ')} protocol${names.length > 1 ? 's' : ''}) is not available (available: ${input.availableToolsets.join(', ') || 'none'}).`,
      how: `Add and enable a server named "${toolset}" in the Servers view (or mcp/config.json), or drop it from the protocol's \`toolsets:\` in a project override (.erasmus/protocols/<name>.md).`,
    });
  }
  return problems;
}

/** The problems as one message: "the workflow cannot start:" and one line each. */
export function preflightMessage(problems: PreflightProblem[]): string {
  return `the workflow cannot start:\n  - ${problems.map((p) => `${p.message}${/[.!?]$/.test(p.message) ? '' : '.'} ${p.how}`).join('\n  - ')}`;
}

/**
 * Before a run is driven again (resume, retry, skip, approve): config.yaml must read as settings, or the next step's
 * session could not start and the run would block on what is the user's to fix. Refused with nothing changed.
 */
export async function assertConfigReadable(configYaml: string): Promise<void> {
  try {
    await loadAgentConfig(configYaml);
  } catch (err) {
    if (!(err instanceof ConfigFileError)) return; // no provider or a duplicate id: the step says so as before
    throw new ConfigFileError(`${err.message}. Fix config.yaml where the message says (a key misspelled or in the wrong place, or broken YAML), then run this again; the run was not changed.`);
  }
}
