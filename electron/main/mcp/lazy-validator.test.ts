import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { LazyJsonSchemaValidator } from './client';

/** A server with a tool whose output schema Ajv compiles, one whose schema it refuses, and a tool without one. */
async function connected(validator: LazyJsonSchemaValidator | undefined, answers: { count: unknown }) {
  const server = new Server({ name: 's', version: '1' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [
      { name: 'count', inputSchema: { type: 'object' }, outputSchema: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] } },
      { name: 'broken', inputSchema: { type: 'object' }, outputSchema: { type: 'object', properties: { n: { type: 'no-such-type' } } } },
      { name: 'plain', inputSchema: { type: 'object' } },
    ],
  }));
  server.setRequestHandler(CallToolRequestSchema, (req) =>
    req.params.name === 'plain' ? { content: [{ type: 'text', text: 'ok' }] } : { content: [{ type: 'text', text: 'x' }], structuredContent: req.params.name === 'count' ? answers.count : { n: 1 } },
  );
  const client = new Client({ name: 'c', version: '1' }, validator ? { jsonSchemaValidator: validator } : {});
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  await client.connect(b);
  return { client, close: () => Promise.all([client.close(), server.close()]) };
}

describe('tools’ output schemas, compiled when first used', () => {
  it('listing compiles nothing; a result is still checked against its schema; a schema Ajv refuses fails only its own tool', async () => {
    const answers = { count: { n: 3 } as unknown };
    // The SDK's own validator: one schema it cannot compile fails the whole list (what the lazy one avoids).
    const eager = await connected(undefined, answers);
    await expect(eager.client.listTools()).rejects.toThrow(/no-such-type/);
    await eager.close();

    const validator = new LazyJsonSchemaValidator();
    const { client, close } = await connected(validator, answers);
    try {
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['count', 'broken', 'plain']);
      expect(validator.compiled).toBe(0);
      expect(await client.callTool({ name: 'plain', arguments: {} })).toMatchObject({ content: [{ text: 'ok' }] });
      expect(validator.compiled).toBe(0);
      expect(await client.callTool({ name: 'count', arguments: {} })).toMatchObject({ structuredContent: { n: 3 } });
      expect(validator.compiled).toBe(1);
      answers.count = { n: 'three' };
      await expect(client.callTool({ name: 'count', arguments: {} })).rejects.toThrow(/does not match the tool's output schema/);
      expect(validator.compiled).toBe(1); // compiled once, kept
      await expect(client.callTool({ name: 'broken', arguments: {} })).rejects.toThrow(/no-such-type/);
    } finally {
      await close();
    }
  });
});
