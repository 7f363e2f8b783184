import { z } from 'zod';
import { argv } from '../quote';
import { ADDITIVE, defineTool, operand } from '../tool';

const extra = z.array(z.string().max(10_000)).max(200).optional().describe('More arguments, passed as they are.');
const pkg = operand(300);

export const pnpmTools = [
  defineTool({
    name: 'pnpm_install',
    toolset: 'pnpm',
    title: 'pnpm install / add',
    description: 'Install the dependencies (no `packages`), or add `packages` (as dev dependencies with `dev`).',
    input: { packages: z.array(pkg).max(100).optional(), dev: z.boolean().optional() },
    annotations: { ...ADDITIVE, openWorldHint: true },
    plan: ({ packages, dev }) => ({ command: packages?.length ? `pnpm add ${dev ? '-D ' : ''}${argv(packages)}` : 'pnpm install' }),
  }),
  defineTool({
    name: 'pnpm_run',
    toolset: 'pnpm',
    title: 'pnpm run',
    description: 'Run a package.json script.',
    input: { script: operand(300).meta({ examples: ['test'] }), args: extra },
    annotations: ADDITIVE,
    plan: ({ script, args }) => ({ command: `pnpm run ${argv([script])}${args?.length ? ` -- ${argv(args)}` : ''}` }),
  }),
  defineTool({
    name: 'pnpm_test',
    toolset: 'pnpm',
    title: 'pnpm test',
    description: 'Run the project tests (`pnpm test`).',
    input: { args: extra },
    annotations: ADDITIVE,
    plan: ({ args }) => ({ command: `pnpm test${args?.length ? ` -- ${argv(args)}` : ''}` }),
  }),
];
