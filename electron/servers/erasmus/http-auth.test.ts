import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveHttp } from './http';

// The HTTP face of `erasmus mcp-server erasmus --http`: no token, no session (any local process or
// web page could otherwise drive erasmus_chat). `make` counts the sessions that got through.
let made = 0;
let h: Awaited<ReturnType<typeof serveHttp>>;
const init = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } });
const post = (headers: Record<string, string>, path = '/mcp') =>
  fetch(`http://127.0.0.1:${new URL(h.url).port}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body: init });

beforeAll(async () => {
  h = await serveHttp(
    () => {
      made++;
      throw new Error('stop here');
    },
    0,
    () => {},
    'test-token-123',
  );
});
afterAll(() => h.close());

describe('mcp-server erasmus --http', () => {
  it('refuses a request without the token, with a wrong one, or from a foreign Origin; lets the token through', async () => {
    expect((await post({})).status).toBe(401);
    expect((await post({ authorization: 'Bearer wrong-token-12' })).status).toBe(401);
    expect((await post({ authorization: 'Bearer test-token-123', origin: 'https://evil.example' })).status).toBe(403);
    expect(made).toBe(0);
    expect((await post({ authorization: 'Bearer test-token-123' })).status).toBe(500); // reached the session factory
    expect((await post({}, '/mcp?token=test-token-123')).status).toBe(500);
    expect(made).toBe(2);
  });
});
