// The Erasmus MCP server over stdio (the built CLI), each figure against a baseline measured in the same run:
// 1. tools/call round trip of a registry tool (validate_task_list: zod check + parse) vs `ping` (protocol only)
// 2. a contract-backed tool (workflow_list: in-process core through the contract pipe) vs the same ping
// 3. the old dialect (tools/call with tool_name, rewritten in the transport) vs the current dialect
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CallToolResultSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { GroupStdioTransport } from '../electron/main/mcp/transport/stdio-group';

const N = 400;
const WARM = 100;
const ROUNDS = 5;
const TASKS = '# Task list\n\n## Component: a — one\nTest: true\n- [ ] A1: one\n- [ ] A2: two\n\n## Component: b\n- [ ] B1: three\n';

/** Best per-call time of each case, rounds interleaved so that warm-up and machine load hit all alike. */
async function timed(cases: Record<string, () => Promise<unknown>>): Promise<Record<string, number>> {
  const best: Record<string, number> = {};
  for (const [name, call] of Object.entries(cases)) {
    for (let i = 0; i < WARM; i++) await call();
    best[name] = Infinity;
  }
  for (let r = 0; r < ROUNDS; r++) {
    for (const [name, call] of Object.entries(cases)) {
      const t0 = performance.now();
      for (let i = 0; i < N; i++) await call();
      best[name] = Math.min(best[name]!, (performance.now() - t0) / N);
    }
  }
  return best;
}

const fmt = (ms: number) => `${(ms * 1000).toFixed(0)} µs`;

async function main(): Promise<void> {
  const home = mkdtempSync(join(tmpdir(), 'erasmus-mcp-bench-'));
  const transport = new GroupStdioTransport({ command: process.execPath, args: [join(process.cwd(), 'bin', 'erasmus.js'), 'mcp-server', 'erasmus'], env: { PATH: process.env.PATH ?? '', ERASMUS_HOME: home } });
  const client = new Client({ name: 'bench', version: '1' });
  try {
    await client.connect(transport);
    const t = await timed({
      ping: () => client.ping(),
      validate: () => client.callTool({ name: 'validate_task_list', arguments: { task_list: TASKS } }),
      list: () => client.callTool({ name: 'workflow_list', arguments: {} }),
      // The old dialect through the same request path, with the SDK's schema for the result.
      old: () => client.request({ method: 'tools/call', params: { tool_name: 'validate_task_list', arguments: { task_list: TASKS } } } as unknown as JSONRPCMessage & { method: 'tools/call'; params: { name: string } }, CallToolResultSchema),
    });
    const { ping, validate, list, old } = t as Record<'ping' | 'validate' | 'list' | 'old', number>;
    console.log(`ping (baseline)                 ${fmt(ping)} per call`);
    console.log(`validate_task_list              ${fmt(validate)} per call  ratio ${(validate / ping).toFixed(2)} vs ping`);
    console.log(`workflow_list (core contract)   ${fmt(list)} per call  ratio ${(list / ping).toFixed(2)} vs ping`);
    console.log(`tools/call with tool_name       ${fmt(old)} per call  ratio ${(old / validate).toFixed(2)} vs current dialect`);
  } finally {
    await client.close().catch(() => undefined);
    await transport.close();
    rmSync(home, { recursive: true, force: true });
  }
}

await main();
