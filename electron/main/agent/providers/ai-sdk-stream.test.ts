import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveProvider } from './config';
import type { StreamPart } from './types';

let server: Server | undefined;
afterEach(async () => {
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  server = undefined;
});

/** An OpenAI-compatible endpoint that answers every request 429 with the provider's own words. */
async function rateLimited(): Promise<{ url: string; hits: () => number }> {
  let hits = 0;
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      hits += 1;
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after-ms': '5' });
      res.end(JSON.stringify({ error: { message: 'Rate limit reached for gpt-x. Please retry in 20s.', type: 'rate_limit_exceeded' } }));
    });
  });
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', () => r()));
  return { url: `http://127.0.0.1:${(server!.address() as AddressInfo).port}/v1`, hits: () => hits };
}

describe('provider errors', () => {
  it("carry the provider's own message after the retries, not the SDK's \"Failed after 2 attempts\"", async () => {
    const srv = await rateLimited();
    const provider = await resolveProvider({ providers: [{ id: 'p', kind: 'openai-compatible', model: 'gpt-x', baseUrl: srv.url }] }, {}, { env: {} });
    const parts: StreamPart[] = [];
    for await (const p of provider.stream({ messages: [{ role: 'user', content: 'hi' }], signal: new AbortController().signal } as never)) parts.push(p);
    const errors = parts.filter((p) => p.type === 'error').map((p) => (p as { message: string }).message);
    expect(srv.hits()).toBe(2);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain('Please retry in 20s.');
    expect(errors[0]).not.toContain('Failed after');
    expect(errors[0]).toContain('(after 2 attempts)');
  });
});
