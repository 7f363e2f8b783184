import { z } from 'zod';
import { argv } from '../quote';
import { ADDITIVE, defineTool, operand } from '../tool';

const extra = z.array(z.string().max(10_000)).max(200).optional().describe('More arguments, passed as they are.');
const tail = (args?: string[]) => (args?.length ? ` ${argv(args)}` : '');

export const cargoTools = [
  defineTool({
    name: 'cargo_check',
    toolset: 'cargo',
    title: 'cargo check',
    description: 'Type-check the crate (writes only to target/).',
    input: { args: extra },
    annotations: { ...ADDITIVE, idempotentHint: true },
    plan: ({ args }) => ({ command: `cargo check${tail(args)}` }),
  }),
  defineTool({
    name: 'cargo_build',
    toolset: 'cargo',
    title: 'cargo build',
    description: 'Build the crate (`release` for an optimized build).',
    input: { release: z.boolean().optional(), args: extra },
    annotations: { ...ADDITIVE, idempotentHint: true },
    plan: ({ release, args }) => ({ command: `cargo build${release ? ' --release' : ''}${tail(args)}` }),
  }),
  defineTool({
    name: 'cargo_test',
    toolset: 'cargo',
    title: 'cargo test',
    description: 'Run the tests, optionally only those matching `filter`.',
    input: { filter: operand(500).optional(), args: extra },
    annotations: { ...ADDITIVE, idempotentHint: true },
    plan: ({ filter, args }) => ({ command: `cargo test${filter ? ` ${argv([filter])}` : ''}${tail(args)}` }),
  }),
  defineTool({
    name: 'cargo_run',
    toolset: 'cargo',
    title: 'cargo run',
    description: 'Build and run the binary with `args`.',
    input: { args: extra },
    annotations: ADDITIVE,
    plan: ({ args }) => ({ command: `cargo run${args?.length ? ` -- ${argv(args)}` : ''}` }),
  }),
  defineTool({
    name: 'cargo_add',
    toolset: 'cargo',
    title: 'cargo add',
    description: 'Add dependencies to Cargo.toml.',
    input: { crates: z.array(operand(300)).min(1).max(50).meta({ examples: [['serde']] }) },
    annotations: { ...ADDITIVE, openWorldHint: true },
    plan: ({ crates }) => ({ command: `cargo add -- ${argv(crates)}` }),
  }),
];
