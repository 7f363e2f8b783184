// Characters a model sends to change 3 lines of a 5 kB file: `files__edit_file` (the lines to replace and
// their replacement) against the baseline `files__write_file` (the whole file again), each written as the
// call a model sends in xml mode (the tags in its text) and in native mode (the arguments as JSON). Both
// calls go through the real files server, and the bench fails unless they leave the same file.
// Target (issue #28): the edit ≤ 10 % of the rewrite.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ElicitRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createFilesServer } from '../electron/servers/files/server';

const TARGET = 0.1;

/** A 5 kB module in a maintainer's style: forty small functions with doc comments. */
function library(): string {
  const parts = ["'use strict';", ''];
  for (let i = 0; parts.join('\n').length < 5_000; i++) {
    parts.push(`/** Formats entry ${i} of a list for display. */`, `export function entry${i}(item, options = {}) {`, `  const label = options.label ?? 'item ${i}';`, '  return `${label}: ${String(item)}`;', '}', '');
  }
  return parts.join('\n');
}

const original = library();
// The change: three lines of entry7 (a default, a trim, the template).
const oldText = "  const label = options.label ?? 'item 7';\n  return `${label}: ${String(item)}`;\n}";
const newText = "  const label = (options.label ?? 'item 7').trim();\n  return `${label} — ${String(item).trim()}`;\n}";
const changed = original.replace(oldText, newText);
if (changed === original || original.split(oldText).length !== 2) throw new Error('the bench change must match once');

const xml = (tool: string, params: Record<string, string>) =>
  `<${tool}>\n${Object.entries(params).map(([k, v]) => (v.includes('\n') ? `<${k}>\n${v}\n</${k}>` : `<${k}>${v}</${k}>`)).join('\n')}\n</${tool}>`;
const edit = { path: 'src/format.js', oldText, newText };
const rewrite = { path: 'src/format.js', content: changed };
const sent = {
  xml: { edit: xml('files__edit_file', edit).length, rewrite: xml('files__write_file', rewrite).length },
  native: { edit: JSON.stringify(edit).length, rewrite: JSON.stringify(rewrite).length },
};

/** Runs one call against the real files server (confirmations accepted) and returns the file after it. */
async function through(name: string, args: Record<string, unknown>): Promise<string> {
  const root = mkdtempSync(join(tmpdir(), 'erasmus-edit-bench-'));
  try {
    writeFileSync(join(root, 'format.js'), original);
    const server = createFilesServer({ root });
    const client = new Client({ name: 'bench', version: '1' }, { capabilities: { elicitation: { form: {} } } });
    client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: { confirm: true } }));
    const [a, b] = InMemoryTransport.createLinkedPair();
    await Promise.all([server.connect(a), client.connect(b)]);
    const r = (await client.callTool({ name, arguments: { ...args, path: 'format.js' } })) as CallToolResult;
    await client.close();
    if (r.isError) throw new Error(`${name} failed: ${JSON.stringify(r.content)}`);
    return readFileSync(join(root, 'format.js'), 'utf8');
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

const [afterEdit, afterRewrite] = [await through('edit_file', edit), await through('write_file', rewrite)];
if (afterEdit !== changed || afterRewrite !== changed) throw new Error('edit_file and write_file must leave the same file');

let ok = true;
console.log(`changing 3 lines of a ${original.length}-character file (both calls leave the same file):`);
for (const mode of ['xml', 'native'] as const) {
  const { edit: e, rewrite: w } = sent[mode];
  const ratio = e / w;
  ok &&= ratio <= TARGET;
  console.log(`  ${mode.padEnd(6)} edit_file ${e} chars; write_file (baseline) ${w} chars; ratio ${(ratio * 100).toFixed(1)}% (target ≤ ${TARGET * 100}%)`);
}
if (!ok) {
  console.error('edit_file sends more than the target share of a rewrite');
  process.exit(1);
}
