import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { makeProviderFetch, PROVIDER_TIMEOUTS } from './fetch';

// A server that, like a local model reading a long prompt, sends its response headers only after a while.
let server: Server;
let url = '';
beforeAll(async () => {
  server = createServer((_req, res) => setTimeout(() => res.end('{"ok":true}'), 2_000));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/chat/completions`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

it('waits for late response headers as long as its timeout says, and no longer', async () => {
  await expect(makeProviderFetch({ headersTimeoutMs: 100, bodyTimeoutMs: 100 })(url)).rejects.toThrow();
  const res = await makeProviderFetch({ headersTimeoutMs: 5_000, bodyTimeoutMs: 5_000 })(url);
  expect(await res.json()).toEqual({ ok: true });
});

it("waits far longer than Node's 300 s default before giving up on a provider", () => {
  expect(PROVIDER_TIMEOUTS.headersTimeoutMs).toBeGreaterThan(300_000);
  expect(PROVIDER_TIMEOUTS.bodyTimeoutMs).toBeGreaterThan(300_000);
});
