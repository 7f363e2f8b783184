import { z } from 'zod';
import { argv } from '../quote';
import { ADDITIVE, defineTool, operand } from '../tool';

export const uvTools = [
  defineTool({
    name: 'uv_run',
    toolset: 'uv',
    title: 'uv run',
    description: 'Run a command or a Python script in the project environment (`uv run ARGS`), e.g. ["pytest", "-q"] or ["script.py"].',
    input: { args: z.array(z.string().max(10_000)).min(1).max(200).meta({ examples: [['pytest', '-q']] }) },
    annotations: ADDITIVE,
    plan: ({ args }) => ({ command: `uv run ${argv(args)}` }),
  }),
  defineTool({
    name: 'uv_add',
    toolset: 'uv',
    title: 'uv add',
    description: 'Add Python dependencies to the project (`dev` for the dev group), or to a single-file `script`.',
    input: { packages: z.array(operand(300)).min(1).max(50).meta({ examples: [['requests']] }), dev: z.boolean().optional(), script: z.string().max(4_096).optional() },
    annotations: { ...ADDITIVE, openWorldHint: true },
    plan: ({ packages, dev, script }) => ({ command: `uv add ${dev ? '--dev ' : ''}${script ? `--script ${argv([script])} ` : ''}${argv(packages)}` }),
  }),
  defineTool({
    name: 'uv_sync',
    toolset: 'uv',
    title: 'uv sync',
    description: 'Create or update the project environment from pyproject.toml and uv.lock.',
    input: {},
    annotations: { ...ADDITIVE, idempotentHint: true, openWorldHint: true },
    plan: () => ({ command: 'uv sync' }),
  }),
];
