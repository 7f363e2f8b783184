import { Command } from 'commander';
import { NoProviderError } from '../main/agent/providers/config';
import { appVersion, Paths } from '../main/paths/index';
import { registerServe } from './commands/serve';
import { registerSecrets } from './commands/secrets';
import { registerChat } from './commands/chat';
import { registerSessions } from './commands/sessions';
import { registerImportServers, registerMcp } from './commands/mcp';
import { registerMcpServer } from './commands/mcp-server';
import { registerWorkflow } from './commands/workflow';
import { registerTrust } from './commands/trust';
import { registerDoctor } from './commands/doctor';
import { registerWorker } from './commands/worker';

/**
 * The `erasmus` command. Each command lives in its own file under commands/ and registers itself
 * here; every one has --help.
 */
export function buildProgram(): Command {
  const program = new Command('erasmus')
    .description('Erasmus: an LLM that builds software the way a disciplined team does, through MCP')
    .version(appVersion())
    // A bad option says so, then where the options are: the whole help after it pushed the error off the screen.
    .showHelpAfterError('(add --help to see the options)')
    .configureHelp({ sortSubcommands: true });
  registerServe(program);
  registerSecrets(program);
  registerChat(program);
  registerSessions(program);
  registerMcp(program);
  registerImportServers(program);
  registerMcpServer(program);
  registerWorkflow(program);
  registerTrust(program);
  registerDoctor(program);
  registerWorker(program);
  return program;
}

export async function main(argv: string[] = process.argv): Promise<void> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv);
  } catch (err) {
    process.stderr.write(`erasmus: ${(err as Error).message}${err instanceof NoProviderError ? `: add one under providers: in ${new Paths().configYaml}, or pass --base-url URL --model NAME for an OpenAI-compatible endpoint` : ''}\n`);
    process.exitCode = process.exitCode || 1;
  }
}

// Run when executed directly (bin/erasmus.js imports this file and calls main()).
