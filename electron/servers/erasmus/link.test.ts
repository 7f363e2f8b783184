import { createServer, type Server, type Socket } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { connectLink, normalizeConnectUrl, redactUrl } from './link';
import { loadServerSettings } from './settings';

let server: Server | undefined;
const sockets: Socket[] = [];
afterEach(async () => {
  sockets.splice(0).forEach((s) => s.destroy());
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  server = undefined;
});

describe('connectLink', () => {
  it('times out each attempt against a server that never answers, and says so for every attempt', async () => {
    server = createServer((s) => void sockets.push(s));
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', () => r()));
    const port = (server.address() as { port: number }).port;
    const started = Date.now();
    const err = await connectLink(`ws://127.0.0.1:${port}?token=secret-abc`, { timeoutMs: 300, retries: 2, backoffMs: 50 }).catch((e: Error) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toBe(
      `cannot connect to Erasmus at ws://127.0.0.1:${port}/rpc?token=… after 3 attempt(s): attempt 1: timed out after 300 ms; attempt 2: timed out after 300 ms; attempt 3: timed out after 300 ms`,
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('normalizes and checks the URL', () => {
    expect(normalizeConnectUrl('ws://127.0.0.1:5000?token=t').href).toBe('ws://127.0.0.1:5000/rpc?token=t');
    expect(normalizeConnectUrl('ws://127.0.0.1:5000/rpc?token=t').pathname).toBe('/rpc');
    expect(() => normalizeConnectUrl('ws://127.0.0.1:5000/')).toThrow(/no \?token=/);
    expect(() => normalizeConnectUrl('nonsense')).toThrow(/not a URL/);
    expect(redactUrl(new URL('ws://h:1/rpc?token=abc&x=1'))).toBe('ws://h:1/rpc?token=…&x=1');
  });
});

describe('server settings', () => {
  it('flags, then environment, then config.yaml, then defaults; bad values are named', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'erasmus-settings-'));
    try {
      const file = join(dir, 'config.yaml');
      expect(await loadServerSettings(file, {}, {})).toEqual({ connectTimeoutMs: 30_000, connectRetries: 3, autoApprove: false });
      writeFileSync(file, 'providers: []\nerasmusServer:\n  connectTimeoutMs: 5000\n  connectRetries: 1\n');
      expect(await loadServerSettings(file, {}, {})).toMatchObject({ connectTimeoutMs: 5000, connectRetries: 1 });
      expect(await loadServerSettings(file, { ERASMUS_CONNECT_TIMEOUT_MS: '700', ERASMUS_AUTO_APPROVE: '1' }, {})).toEqual({ connectTimeoutMs: 700, connectRetries: 1, autoApprove: true });
      expect(await loadServerSettings(file, { ERASMUS_CONNECT_TIMEOUT_MS: '700' }, { connectTimeoutMs: 900 })).toMatchObject({ connectTimeoutMs: 900 });
      await expect(loadServerSettings(file, { ERASMUS_CONNECT_RETRIES: 'lots' }, {})).rejects.toThrow('ERASMUS_CONNECT_RETRIES must be an integer from 0 to 20, got "lots"');
      writeFileSync(file, 'erasmusServer:\n  connectRetries: -1\n');
      await expect(loadServerSettings(file, {}, {})).rejects.toThrow(/erasmusServer: connectRetries/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
