import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildBundle } from '../../../tests/fixtures/mcpb/build';
import { bundleEntry, REGISTRY_SERVERS, startRegistryFixture, type RegistryFixture } from '../../../tests/fixtures/mcp-registry/server';
import { freePort } from '../../../tests/fixtures/mcp/servers';
import { downloadBundle, fetchRegistryBundle, registryLoopbackOrigin, RegistryBundles } from './bundle-download';
import { MAX_PAGES, searchRegistry } from './registry';

// Registry paging and `.mcpb` results against a local stand-in of the registry's API v0, which also
// serves a bundle built here.
const root = mkdtempSync(join(tmpdir(), 'erasmus-regbundle-'));
const bytes = new Uint8Array(readFileSync(buildBundle(root)));
const sha = createHash('sha256').update(bytes).digest('hex');
let registry: RegistryFixture;
let loopbackOrigin: string;

beforeAll(async () => {
  registry = await startRegistryFixture([...REGISTRY_SERVERS, bundleEntry('io.github.echo/weather-echo', 'echo.mcpb', bytes)], { bundles: { 'echo.mcpb': bytes } });
  loopbackOrigin = registryLoopbackOrigin(registry.url)!;
});
afterAll(async () => {
  await registry.close();
  rmSync(root, { recursive: true, force: true });
});

describe('registry paging', () => {
  it('gives one page and its nextCursor; the cursor gives the page after it', async () => {
    const first = await searchRegistry('weather', { baseUrl: registry.url });
    expect(first.servers.map((s) => s.name)).toEqual(['io.github.acme/weather', 'io.github.other/weather-lite']);
    expect(first.nextCursor).toBe('io.github.other/weather-lite');
    const second = await searchRegistry('weather', { baseUrl: registry.url, cursor: first.nextCursor });
    expect(registry.requests.at(-1)).toBe('/v0/servers?search=weather&version=latest&limit=30&cursor=io.github.other%2Fweather-lite');
    expect(second.servers.map((s) => s.name)).toEqual(['io.github.sky/weather-radar', 'io.github.echo/weather-echo']);
    expect(second.nextCursor).toBeUndefined();
  });

  it('follows the cursors for several pages, and stops at the bound with the cursor to go on', async () => {
    const all = await searchRegistry('weather', { baseUrl: registry.url, pages: MAX_PAGES });
    expect(all.servers.map((s) => s.name)).toEqual(['io.github.acme/weather', 'io.github.other/weather-lite', 'io.github.sky/weather-radar', 'io.github.echo/weather-echo']);
    expect(all.nextCursor).toBeUndefined();

    const many = Array.from({ length: 25 }, (_, i) => ({ server: { name: `io.example/s${String(i).padStart(2, '0')}`, description: '' } }));
    const big = await startRegistryFixture(many, { pageSize: 2 });
    try {
      const r = await searchRegistry('', { baseUrl: big.url, pages: 50 });
      expect(big.requests.length).toBe(MAX_PAGES);
      expect(r.servers.length).toBe(MAX_PAGES * 2);
      expect(r.nextCursor).toBe('io.example/s19');
    } finally {
      await big.close();
    }
  });

  it('offers a .mcpb package with its URL and sha256', async () => {
    const { servers } = await searchRegistry('weather-echo', { baseUrl: registry.url });
    expect(servers[0]!.options).toEqual([{ kind: 'mcpb', label: 'mcpb echo.mcpb (1.2.0)', bundle: { url: `${registry.url}/bundles/echo.mcpb`, sha256: sha }, inputs: [] }]);
  });
});

describe('registry bundles', () => {
  const url = () => `${registry.url}/bundles/echo.mcpb`;

  it('downloads a bundle whose sha256 matches and reads it as a bundle', async () => {
    const b = await fetchRegistryBundle({ url: url(), sha256: sha.toUpperCase() }, { loopbackOrigin });
    expect(b.manifest.name).toBe('echo-bundle');
    expect(b.file).toBe(url());
    expect(Object.keys(b.files).sort()).toEqual(['manifest.json', 'server/index.mjs']);
  });

  it('refuses a bundle whose sha256 differs, naming both', async () => {
    const wrong = 'f'.repeat(64);
    await expect(downloadBundle({ url: url(), sha256: wrong }, { loopbackOrigin })).rejects.toThrow(`refused the bundle at ${url()}: it does not match the MCP Registry's sha256 (expected ${wrong}, actual ${sha})`);
  });

  it('refuses a bundle without a sha256 before downloading it', async () => {
    const before = registry.requests.length;
    await expect(downloadBundle({ url: url() }, { loopbackOrigin })).rejects.toThrow(/gives no sha256 \(fileSha256\) for it.*expected sha256: none given; actual: not downloaded/);
    await expect(downloadBundle({ url: url(), sha256: 'abc' }, { loopbackOrigin })).rejects.toThrow(/"abc", is not 64 hexadecimal digits/);
    expect(registry.requests.length).toBe(before);
  });

  it('downloads over https only, besides the configured registry on loopback', async () => {
    expect(registryLoopbackOrigin('https://registry.modelcontextprotocol.io')).toBeUndefined();
    expect(registryLoopbackOrigin('http://10.0.0.5:8080')).toBeUndefined();
    await expect(downloadBundle({ url: url(), sha256: sha })).rejects.toThrow(`refused the bundle at ${url()}: bundles are downloaded over https only`);
    await expect(downloadBundle({ url: 'http://127.0.0.1:1/echo.mcpb', sha256: sha }, { loopbackOrigin })).rejects.toThrow(/over https only/);
    await expect(downloadBundle({ url: 'file:///etc/passwd', sha256: sha }, { loopbackOrigin })).rejects.toThrow(/over https only/);
    // An https URL goes through the (injected) fetch; a redirect is checked like the URL itself.
    let asked = '';
    const fake = (async (u: URL) => {
      asked = u.href;
      return new Response(bytes, { status: 200 });
    }) as unknown as typeof fetch;
    expect((await downloadBundle({ url: 'https://cdn.example/echo.mcpb', sha256: sha }, { fetch: fake })).byteLength).toBe(bytes.byteLength);
    expect(asked).toBe('https://cdn.example/echo.mcpb');
  });

  it('refuses a download larger than the cap, and says plainly when the host cannot be reached or answers an error', async () => {
    await expect(downloadBundle({ url: url(), sha256: sha }, { loopbackOrigin, maxBytes: 100 })).rejects.toThrow(/it is larger than the 0 MB a bundle download may be/);
    // Without a content-length, the cap holds while reading.
    const stream = (async () => new Response(new ReadableStream({ start: (c) => (c.enqueue(bytes), c.enqueue(bytes), c.close()) }))) as unknown as typeof fetch;
    await expect(downloadBundle({ url: 'https://cdn.example/x.mcpb', sha256: sha }, { fetch: stream, maxBytes: bytes.byteLength + 1 })).rejects.toThrow(/larger than/);
    const port = await freePort();
    await expect(downloadBundle({ url: `http://127.0.0.1:${port}/echo.mcpb`, sha256: sha }, { loopbackOrigin: `http://127.0.0.1:${port}` })).rejects.toThrow(
      `cannot download the bundle from http://127.0.0.1:${port}/echo.mcpb (ECONNREFUSED). Check the network connection and try again.`,
    );
    await expect(downloadBundle({ url: `${registry.url}/bundles/absent.mcpb`, sha256: sha }, { loopbackOrigin })).rejects.toThrow(`answered 404 Not Found for the bundle at ${registry.url}/bundles/absent.mcpb`);
  });

  it('downloads a bundle once for showing it and installing it; a failed one is tried again', async () => {
    const cache = new RegistryBundles({ loopbackOrigin });
    const before = registry.requests.filter((r) => r.startsWith('/bundles/')).length;
    const a = await cache.get({ url: url(), sha256: sha });
    expect(await cache.get({ url: url(), sha256: sha })).toBe(a);
    expect(registry.requests.filter((r) => r.startsWith('/bundles/')).length).toBe(before + 1);
    await expect(cache.get({ url: url(), sha256: '0'.repeat(64) })).rejects.toThrow(/does not match/);
    await expect(cache.get({ url: url(), sha256: '0'.repeat(64) })).rejects.toThrow(/does not match/);
    expect(registry.requests.filter((r) => r.startsWith('/bundles/')).length).toBe(before + 3);
    cache.forget({ url: url(), sha256: sha });
    expect(await cache.get({ url: url(), sha256: sha })).not.toBe(a);
  });
});
