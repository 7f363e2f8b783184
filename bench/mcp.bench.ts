// MCP hub benchmarks against server-everything's `echo` over stdio, each with a baseline measured in this run:
// 1. sequential tools/call round trip through the hub vs the raw SDK client (goal: ratio ≤ 1.10)
// 2. 2,000 concurrent calls through the hub
// 3. start of 10 stdio servers at once vs the slowest single start (goal: ≤ 1.5×)
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { EventBus } from '../electron/main/api/events';
import { McpHub } from '../electron/main/mcp/hub';
import { GroupStdioTransport } from '../electron/main/mcp/transport/stdio-group';
import { availableParallelism, loadavg } from 'node:os';
import { Paths } from '../electron/main/paths/index';
import { serverEntry, tempHome, writeMcpConfig } from '../tests/fixtures/mcp/servers';

const everything = { command: process.execPath, args: [serverEntry.everything, 'stdio'] };
const SEQ = 400;
const ROUNDS = 10;
const WARM = 300;
const CONCURRENT = 2_000;

async function hubWith(n: number): Promise<{ hub: McpHub; startMs: number }> {
  const home = tempHome('erasmus-bench-');
  const servers: Record<string, unknown> = {};
  for (let i = 0; i < n; i++) servers[`s${i}`] = everything;
  writeMcpConfig(home, servers);
  const hub = new McpHub({ paths: new Paths(home), bus: new EventBus() });
  const t0 = performance.now();
  await hub.start({ watch: false });
  const startMs = performance.now() - t0;
  const bad = hub.servers().filter((s) => s.state !== 'ready');
  if (bad.length) throw new Error(`servers not ready: ${bad.map((s) => `${s.name}: ${s.error}`).join('; ')}`);
  return { hub, startMs };
}

async function seq(call: (i: number) => Promise<unknown>, warm = 0): Promise<number> {
  for (let i = 0; i < warm; i++) await call(i);
  const t0 = performance.now();
  for (let i = 0; i < SEQ; i++) await call(i);
  return (performance.now() - t0) / SEQ;
}

const fmt = (ms: number) => `${ms.toFixed(3)} ms`;

// 1. sequential round trip, raw client and hub alternating (best of 3 each, to damp noise on a shared machine)
console.log(`machine: ${availableParallelism()} cores, load average ${loadavg()[0]!.toFixed(1)}`);
const raw = new Client({ name: 'bench-raw', version: '1' });
await raw.connect(new StdioClientTransport({ ...everything, stderr: 'ignore' }));
// The same SDK client over the hub's transport (child in its own session and process group).
const rawGroup = new Client({ name: 'bench-raw-group', version: '1' });
await rawGroup.connect(new GroupStdioTransport({ ...everything, env: {} }));
const { hub } = await hubWith(1);
const rawTimes: number[] = [];
const groupTimes: number[] = [];
const hubTimes: number[] = [];
const rawCall = (i: number) => raw.callTool({ name: 'echo', arguments: { message: `m${i}` } });
const groupCall = (i: number) => rawGroup.callTool({ name: 'echo', arguments: { message: `m${i}` } });
const hubCall = (i: number) => hub.callTool('s0', 'echo', { message: `m${i}` });
await seq(rawCall, WARM);
await seq(groupCall, WARM);
await seq(hubCall, WARM);
// Short rounds, alternating, best round of each: on a shared machine the best round is the one least disturbed.
for (let round = 0; round < ROUNDS; round++) {
  rawTimes.push(await seq(rawCall));
  groupTimes.push(await seq(groupCall));
  hubTimes.push(await seq(hubCall));
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const rawMs = Math.min(...rawTimes);
const groupMs = Math.min(...groupTimes);
const hubMs = Math.min(...hubTimes);
console.log(`sequential tools/call (${ROUNDS} alternating rounds of ${SEQ} calls; best round, median in brackets):`);
console.log(`  raw SDK client, SDK StdioClientTransport   ${fmt(rawMs)}/call [${fmt(median(rawTimes))}]`);
console.log(`  raw SDK client, hub's process-group stdio  ${fmt(groupMs)}/call [${fmt(median(groupTimes))}]  (ratio to SDK transport ${(groupMs / rawMs).toFixed(3)})`);
console.log(`  hub.callTool                               ${fmt(hubMs)}/call [${fmt(median(hubTimes))}]`);
console.log(`  ratio hub / raw SDK client: best ${(hubMs / rawMs).toFixed(3)}, median ${(median(hubTimes) / median(rawTimes)).toFixed(3)} (goal ≤ 1.10); hub / same transport: best ${(hubMs / groupMs).toFixed(3)}, median ${(median(hubTimes) / median(groupTimes)).toFixed(3)}`);
await rawGroup.close();

// 2. concurrent calls through the hub
{
  const t0 = performance.now();
  const results = await Promise.all(Array.from({ length: CONCURRENT }, (_, i) => hub.callTool('s0', 'echo', { message: `c${i}` })));
  const ms = performance.now() - t0;
  const ok = results.filter((r) => JSON.stringify(r.content).includes('Echo: c')).length;
  const t1 = performance.now();
  await Promise.all(Array.from({ length: CONCURRENT }, (_, i) => raw.callTool({ name: 'echo', arguments: { message: `c${i}` } })));
  const rawConc = performance.now() - t1;
  console.log(`${CONCURRENT} concurrent calls: hub ${ms.toFixed(0)} ms (${((CONCURRENT / ms) * 1000).toFixed(0)} calls/s, ${ok} ok), raw SDK client ${rawConc.toFixed(0)} ms, ratio ${(ms / rawConc).toFixed(3)}`);
}
await raw.close();
await hub.dispose();

// 3. parallel start
const singles: number[] = [];
for (let i = 0; i < 3; i++) {
  const h = await hubWith(1);
  singles.push(h.startMs);
  await h.hub.dispose();
}
const slowest = Math.max(...singles);
const ten = await hubWith(10);
await ten.hub.dispose();
// Baseline: 10 raw SDK clients connecting at once (what the machine allows, without the hub).
const t0 = performance.now();
const clients = await Promise.all(
  Array.from({ length: 10 }, async () => {
    const c = new Client({ name: 'bench-start', version: '1' });
    await c.connect(new StdioClientTransport({ ...everything, stderr: 'ignore' }));
    return c;
  }),
);
const rawTen = performance.now() - t0;
await Promise.all(clients.map((c) => c.close()));
console.log(`start: one server ${singles.map((s) => s.toFixed(0)).join(' / ')} ms (slowest ${slowest.toFixed(0)} ms); 10 servers at once: hub ${ten.startMs.toFixed(0)} ms, raw SDK clients ${rawTen.toFixed(0)} ms`);
console.log(`  ratio 10 at once / slowest single: ${(ten.startMs / slowest).toFixed(2)} (goal ≤ 1.5); hub / raw SDK clients: ${(ten.startMs / rawTen).toFixed(2)}`);
