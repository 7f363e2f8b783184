import { z } from 'zod';
import { defineTool, DESTRUCTIVE } from '../tool';

export const bashTools = [
  defineTool({
    name: 'bash_run',
    toolset: 'bash',
    title: 'Run a shell command',
    description:
      'Run one bash command line in a terminal in the project folder. The result shows the command that ran: changed only where the project\'s lockfile names another tool (npm → pnpm with pnpm-lock.yaml, python → uv run with uv.lock). Destructive commands ask the user first.',
    input: { command: z.string().min(1).max(100_000).describe('The command line.') },
    annotations: DESTRUCTIVE,
    plan: ({ command }) => (command.includes('\n') ? { command, review: { kind: 'bash', script: command } } : { command }),
  }),
  defineTool({
    name: 'bash_script',
    toolset: 'bash',
    title: 'Run a bash script',
    description: 'Run a multi-line bash script in the project folder. A reviewer reads the script and its purpose before it runs.',
    input: {
      script: z.string().min(1).max(200_000).describe('The script (bash).').meta({ examples: ['set -e\nmkdir -p build\ncp config.example.toml build/config.toml\n'] }),
      purpose: z.string().min(1).max(2_000).describe('What the script is for; the reviewer checks the script does that and nothing more.').meta({ examples: ['Prepare the build folder with a default config'] }),
    },
    annotations: DESTRUCTIVE,
    plan: ({ script }) => ({ command: script, review: { kind: 'bash', script } }),
  }),
];
