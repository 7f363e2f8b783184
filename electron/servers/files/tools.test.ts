import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, describe, expect, it } from 'vitest';
import { formatTools } from '../../main/agent/xml';
import type { ToolMap } from '../../main/agent/xml/types';
import { createFilesServer } from './server';

const root = mkdtempSync(join(tmpdir(), 'erasmus-files-tools-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('the files toolset as a model reads it', () => {
  it('offers edit_file right after read_file, before write_file, with an example that changes something', async () => {
    const server = createFilesServer({ root });
    const client = new Client({ name: 't', version: '1' });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await Promise.all([server.connect(a), client.connect(b)]);
    const { tools } = await client.listTools();
    await client.close();
    expect(tools.map((t) => t.name).slice(0, 3)).toEqual(['read_file', 'edit_file', 'write_file']);
    const map: ToolMap = new Map(tools.map((t) => [`files__${t.name}`, { description: t.description, inputSchema: t.inputSchema as never }]));
    const text = formatTools(map);
    expect(text).toContain("## files__edit_file\nChange part of a file: oldText (exact, whitespace too, found once) becomes newText");
    expect(text).toContain("Example:\n<files__edit_file>\n<path>src/greet.js</path>\n<oldText>return 'Hello, ' + name;</oldText>\n<newText>return `Hello, ${name}!`;</newText>\n</files__edit_file>");
    // write_file says what it is for, so the two are not confused.
    expect(text).toMatch(/## files__write_file\nCreate a text file .*\(to change part of one, use edit_file\)/);
  });
});
