import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Core } from '../api/core';
import { readServeAddress, saveServeAddress } from './address';
import { serve } from './server';

const base = mkdtempSync(join(tmpdir(), 'erasmus-serve-address-'));
const core = new Core({ face: 'browser', home: join(base, 'home') });
afterAll(async () => {
  await core.dispose();
  rmSync(base, { recursive: true, force: true });
});

describe('the address `erasmus serve` keeps across restarts', () => {
  it('is saved for its owner only and read back; a missing or damaged file reads as none', async () => {
    const file = join(base, 'serve.json');
    expect(await readServeAddress(file)).toBeUndefined();
    await saveServeAddress(file, { port: 4711, token: 'a'.repeat(32) });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(await readServeAddress(file)).toEqual({ port: 4711, token: 'a'.repeat(32) });
    writeFileSync(file, '{"port": 4711, "token": "short"}');
    expect(await readServeAddress(file)).toBeUndefined();
    writeFileSync(file, 'not json');
    expect(await readServeAddress(file)).toBeUndefined();
  });

  it('serves the preferred port while it is free, and a free one when it is taken', async () => {
    const first = await serve(core, {});
    const port = first.port;
    await first.close();
    const again = await serve(core, { preferredPort: port, token: first.token });
    expect(again.url).toBe(first.url);
    // Taken meanwhile (here by the server still on it): another port, the same token.
    const moved = await serve(core, { preferredPort: port, token: first.token });
    expect(moved.port).not.toBe(port);
    expect(moved.token).toBe(first.token);
    await moved.close();
    await again.close();
    // A port taken by another program is no error either.
    const other = createServer();
    await new Promise<void>((r) => other.listen(0, '127.0.0.1', () => r()));
    const taken = (other.address() as { port: number }).port;
    const beside = await serve(core, { preferredPort: taken });
    expect(beside.port).not.toBe(taken);
    await beside.close();
    await new Promise<void>((r) => other.close(() => r()));
  });
});
