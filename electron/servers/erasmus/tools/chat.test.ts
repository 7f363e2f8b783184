import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../../contract/index';
import { Paths } from '../../../main/paths/index';
import type { ChatBackend } from '../chat';
import { createErasmusServer } from '../server';

// erasmus_chat through the real MCP server and the SDK's client, with a backend that streams a session's events.
const cleanups: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function serverWith(chat: ChatBackend): Promise<Client> {
  const dir = mkdtempSync(join(tmpdir(), 'erasmus-chat-tool-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const made = createErasmusServer({
    paths: new Paths(join(dir, 'home')),
    version: 'test',
    link: () => Promise.reject(new Error('no core in this test')),
    chat: () => chat,
    provider: () => Promise.reject(new Error('no provider in this test')),
    autoApprove: false,
    log: () => undefined,
  });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await made.server.connect(a);
  const client = new Client({ name: 'test', version: '1' });
  await client.connect(b);
  cleanups.push(async () => {
    await client.close();
    made.dispose();
  });
  return client;
}

describe('erasmus_chat', () => {
  it('sends every streamed piece as progress before the result (none arrives after the call has ended)', async () => {
    const pieces = Array.from({ length: 40 }, (_, i) => `p${i} `);
    const ev = (e: Record<string, unknown>) => ({ sessionId: 's1', at: 0, ...e }) as AgentEvent;
    const client = await serverWith({
      async chat(req) {
        // A session whose events all arrive at once, as they do from a running Erasmus under load.
        for (const text of pieces) req.onEvent(ev({ type: 'sentence', text }));
        req.onEvent(ev({ type: 'complete', answer: pieces.join('') }));
        return { answer: pieces.join(''), endedReason: 'complete', sessionId: 's1' };
      },
    });
    const progress: string[] = [];
    const r = await client.callTool({ name: 'erasmus_chat', arguments: { user_input: 'hello' } }, undefined, { onprogress: (p) => void progress.push(p.message ?? '') });
    expect((r.content as { text: string }[])[0]!.text).toBe(pieces.join(''));
    expect(progress.join('')).toBe(pieces.join(''));
  });
});
