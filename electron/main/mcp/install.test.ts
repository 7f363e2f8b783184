import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildBundle, echoManifest } from '../../../tests/fixtures/mcpb/build';
import { bundleEntry, REGISTRY_SERVERS, startRegistryFixture, type RegistryFixture } from '../../../tests/fixtures/mcp-registry/server';
import { freePort } from '../../../tests/fixtures/mcp/servers';
import { createPipePair, RpcClient, RpcError, type McpRegistryOption, type McpRegistryServer } from '../../contract/index';
import { Core } from '../api/core';
import { bundleSecretName } from './mcpb';

// Installs as a user meets them, over the contract the Servers view uses: a search of a local stand-in
// of the MCP Registry's API v0, and a .mcpb bundle built here from a fixture server. The real keychain
// (gnome-keyring under dbus-run-session in `npm test`) holds the secrets.
const root = mkdtempSync(join(tmpdir(), 'erasmus-install-'));
const home = join(root, 'home');
let registry: RegistryFixture;
let core: Core;
let client: RpcClient;
const used: string[] = [];

// A bundle the registry stand-in serves, listed with its sha256, with a wrong one, and with none.
mkdirSync(join(root, 'published'), { recursive: true });
const published = new Uint8Array(readFileSync(buildBundle(join(root, 'published'))));
const publishedSha = createHash('sha256').update(published).digest('hex');

beforeAll(async () => {
  registry = await startRegistryFixture(
    [...REGISTRY_SERVERS, bundleEntry('io.github.echo/weather-echo', 'echo.mcpb', published), bundleEntry('io.github.echo/tampered-echo', 'echo.mcpb', published, 'e'.repeat(64)), bundleEntry('io.github.echo/unsigned-echo', 'echo.mcpb', published, null)],
    { bundles: { 'echo.mcpb': published } },
  );
  core = new Core({ face: 'browser', home, env: { ...process.env, ERASMUS_MCP_REGISTRY: registry.url } });
  const [a, b] = createPipePair();
  core.connect(a);
  client = new RpcClient(b);
  await core.hub.start({ watch: false });
});
afterAll(async () => {
  for (const n of used) await core.secrets.delete(n).catch(() => undefined);
  client.close();
  await core.dispose();
  await registry.close();
  rmSync(root, { recursive: true, force: true });
});

const configText = () => (existsSync(join(home, 'mcp', 'config.json')) ? readFileSync(join(home, 'mcp', 'config.json'), 'utf8') : '');
/** A package option (npm, PyPI, OCI, remote), not a bundle. */
const pkg = (o: McpRegistryOption | undefined) => {
  if (!o || o.kind === 'mcpb') throw new Error(`not a package option: ${o?.label}`);
  return o;
};
const failure = (p: Promise<unknown>) => p.then(() => expect.unreachable('should have failed'), (e: unknown) => e as RpcError);

describe('MCP Registry search and install', () => {
  let weather: McpRegistryServer;

  it('searches the registry and offers each package and remote as a way to run it', async () => {
    const { servers, registry: url } = await client.request('mcp.registry.search', { query: 'weather' });
    expect(url).toBe(registry.url);
    expect(registry.requests.at(-1)).toBe('/v0/servers?search=weather&version=latest&limit=30');
    expect(servers.map((s) => s.name)).toEqual(['io.github.acme/weather', 'io.github.other/weather-lite']);
    weather = servers[0]!;
    expect(weather).toMatchObject({ suggestedName: 'weather', title: 'Acme Weather', version: '1.4.2', repository: 'https://github.com/acme/weather-mcp' });
    expect(weather.options.map((o) => o.label)).toEqual(['npm @acme/weather-mcp@1.4.2', 'pypi acme-weather-mcp@1.4.2', 'HTTP https://mcp.acme.example/weather']);
    expect(pkg(weather.options[0]).server).toEqual({ transport: 'stdio', command: 'npx', args: ['-y', '@acme/weather-mcp@1.4.2', '--units', 'metric'] });
    expect(weather.options[0]!.inputs).toEqual([
      { key: 'WEATHER_API_KEY', where: 'env', description: 'Your Acme API key', required: true, secret: true, secretName: 'WEATHER_WEATHER_API_KEY' },
      { key: 'WEATHER_REGION', where: 'env', description: 'Default region', required: false, secret: false, default: 'eu' },
    ]);
    expect(pkg(servers[1]!.options[0]).server).toMatchObject({ command: 'docker', args: ['run', '-i', '--rm', 'ghcr.io/other/weather-lite:0.1.0'] });
  });

  it('installs a chosen result disabled, with its secret in the keychain and only a reference in the config', async () => {
    const missing = await failure(client.request('mcp.registry.install', { name: 'weather', option: weather.options[0]! }));
    expect(missing.message).toMatch(/needs a value for WEATHER_API_KEY \(Your Acme API key\)/);
    expect(configText()).not.toContain('weather');

    used.push('WEATHER_WEATHER_API_KEY');
    const entry = await client.request('mcp.registry.install', { name: 'weather', option: weather.options[0]!, values: { WEATHER_API_KEY: 'wk-secret-value-1' }, description: weather.description });
    expect(entry).toMatchObject({ name: 'weather', command: 'npx', args: ['-y', '@acme/weather-mcp@1.4.2', '--units', 'metric'], envKeys: ['WEATHER_API_KEY', 'WEATHER_REGION'], disabled: true, trusted: false, package: 'npm:@acme/weather-mcp@1.4.2' });
    const cfg = JSON.parse(configText()).mcpServers.weather;
    expect(cfg.env).toEqual({ WEATHER_API_KEY: '${secret:WEATHER_WEATHER_API_KEY}', WEATHER_REGION: 'eu' });
    expect(configText()).not.toContain('wk-secret-value-1');
    expect(await core.secrets.get('WEATHER_WEATHER_API_KEY')).toBe('wk-secret-value-1');
    // Its first enable shows what it would run and asks for trust.
    expect(await client.request('mcp.server.enable', { server: 'weather' })).toMatchObject({ enabled: false, preview: { command: 'npx', package: 'npm:@acme/weather-mcp@1.4.2', trusted: false } });
  });

  it('installs a remote with its header secret', async () => {
    used.push('WEATHER_AUTHORIZATION');
    const entry = await client.request('mcp.registry.install', { name: 'weather-remote', option: weather.options[2]!, values: { Authorization: 'Bearer t0ken' } });
    expect(entry).toMatchObject({ transport: 'http', url: 'https://mcp.acme.example/weather', headerKeys: ['Authorization'], disabled: true });
    expect(JSON.parse(configText()).mcpServers['weather-remote'].headers).toEqual({ Authorization: '${secret:WEATHER_AUTHORIZATION}' });
  });

  it('pages: a search says where the next page starts, and the cursor gives it', async () => {
    const first = await client.request('mcp.registry.search', { query: 'weather' });
    expect(first.nextCursor).toBe('io.github.other/weather-lite');
    const second = await client.request('mcp.registry.search', { query: 'weather', cursor: first.nextCursor });
    expect(second.servers.map((s) => s.name)).toEqual(['io.github.sky/weather-radar', 'io.github.echo/weather-echo']);
    expect(second.nextCursor).toBeUndefined();
    // The params are checked at the boundary.
    expect((await failure(client.request('mcp.registry.search', { query: 'weather', cursor: '' }))).code).toBe(-32602);
    expect((await failure(client.request('mcp.registry.search', { query: 'weather', cursor: 'x'.repeat(1001) }))).code).toBe(-32602);
    expect((await failure(client.request('mcp.registry.search', { query: 'weather', cursor: 'c', all: true } as never))).code).toBe(-32602);
  });

  it('installs a .mcpb result: downloaded, its sha256 checked, asked for as a bundle, disabled until trusted', async () => {
    const { servers } = await client.request('mcp.registry.search', { query: 'weather-echo' });
    const option = servers[0]!.options[0]!;
    expect(option).toEqual({ kind: 'mcpb', label: 'mcpb echo.mcpb (1.2.0)', bundle: { url: `${registry.url}/bundles/echo.mcpb`, sha256: publishedSha }, inputs: [] });
    if (option.kind !== 'mcpb') throw new Error('not a bundle');
    const downloads = () => registry.requests.filter((r) => r === '/bundles/echo.mcpb').length;
    const before = downloads();
    const info = await client.request('mcp.registry.bundle', { option });
    expect(info).toMatchObject({ file: option.bundle.url, name: 'echo-bundle', displayName: 'Echo Bundle', command: 'node', tools: ['whoami'] });
    expect(info.userConfig.map((f) => f.key)).toEqual(['api_key', 'folders', 'units']);
    expect(existsSync(join(core.paths.extensionsDir, 'weather-echo'))).toBe(false);
    // The bundle's own questions: a missing answer is refused, nothing written.
    expect((await failure(client.request('mcp.registry.install', { name: 'weather-echo', option }))).message).toBe('the bundle needs "API key" (api_key)');
    expect(configText()).not.toContain('weather-echo');

    const secretName = bundleSecretName('weather-echo', 'api_key');
    used.push(secretName);
    const entry = await client.request('mcp.registry.install', { name: 'weather-echo', option, values: { api_key: 'ek-from-registry-1' } });
    expect(downloads()).toBe(before + 1);
    const unpacked = join(core.paths.extensionsDir, 'weather-echo');
    expect(entry).toMatchObject({ name: 'weather-echo', command: 'node', args: [join(unpacked, 'server', 'index.mjs')], disabled: true, trusted: false });
    expect(configText()).not.toContain('ek-from-registry-1');
    expect(await core.secrets.get(secretName)).toBe('ek-from-registry-1');
    expect(await client.request('mcp.server.enable', { server: 'weather-echo' })).toMatchObject({ enabled: false, preview: { command: 'node', trusted: false } });
  });

  it('refuses a .mcpb result whose sha256 differs or is missing, naming expected and actual, writing nothing', async () => {
    const bundleOf = async (q: string) => {
      const o = (await client.request('mcp.registry.search', { query: q })).servers[0]!.options[0]!;
      if (o.kind !== 'mcpb') throw new Error('not a bundle');
      return o;
    };
    const tampered = await bundleOf('tampered-echo');
    const msg = `refused the bundle at ${registry.url}/bundles/echo.mcpb: it does not match the MCP Registry's sha256 (expected ${'e'.repeat(64)}, actual ${publishedSha}).`;
    expect((await failure(client.request('mcp.registry.bundle', { option: tampered }))).message).toContain(msg);
    expect((await failure(client.request('mcp.registry.install', { name: 'tampered', option: tampered, values: { api_key: 'x' } }))).message).toContain(msg);
    const unsigned = await bundleOf('unsigned-echo');
    expect(unsigned.bundle.sha256).toBeUndefined();
    expect((await failure(client.request('mcp.registry.install', { name: 'unsigned', option: unsigned, values: { api_key: 'x' } }))).message).toMatch(/gives no sha256 \(fileSha256\) for it/);
    expect(configText()).not.toMatch(/tampered|unsigned/);
    expect(existsSync(join(core.paths.extensionsDir, 'tampered'))).toBe(false);
    // Only https (or the configured registry's own loopback origin).
    const elsewhere = { ...tampered, bundle: { url: 'http://example.com/echo.mcpb', sha256: publishedSha } };
    expect((await failure(client.request('mcp.registry.bundle', { option: elsewhere }))).message).toBe('refused the bundle at http://example.com/echo.mcpb: bundles are downloaded over https only');
  });

  it('says plainly when the registry cannot be reached', async () => {
    const port = await freePort();
    const offline = new Core({ face: 'browser', home: join(root, 'offline'), env: { ...process.env, ERASMUS_MCP_REGISTRY: `http://127.0.0.1:${port}` } });
    const [a, b] = createPipePair();
    offline.connect(a);
    const c = new RpcClient(b);
    try {
      const err = await failure(c.request('mcp.registry.search', { query: 'weather' }));
      expect(err.message).toBe(`cannot reach the MCP Registry at http://127.0.0.1:${port} (ECONNREFUSED). Check the network connection and try again, or add the server by hand.`);
      // A bundle download that cannot reach its host says so too.
      const gone = await failure(c.request('mcp.registry.bundle', { option: { kind: 'mcpb', label: 'x', bundle: { url: `http://127.0.0.1:${port}/echo.mcpb`, sha256: publishedSha }, inputs: [] } }));
      expect(gone.message).toBe(`cannot download the bundle from http://127.0.0.1:${port}/echo.mcpb (ECONNREFUSED). Check the network connection and try again.`);
    } finally {
      c.close();
      await offline.dispose();
    }
  });
});

describe('.mcpb bundles', () => {
  const dir = join(root, 'bundles');
  mkdirSync(dir, { recursive: true });
  const secretName = bundleSecretName('echo-bundle', 'api_key');

  it('shows what a bundle is and asks for, before anything is written', async () => {
    const info = await client.request('mcp.bundle.inspect', { file: buildBundle(dir) });
    expect(info).toMatchObject({ name: 'echo-bundle', displayName: 'Echo Bundle', version: '1.2.0', author: 'Test Author', serverType: 'node', command: 'node', tools: ['whoami'] });
    expect(info.userConfig).toEqual([
      { key: 'api_key', type: 'string', title: 'API key', description: 'Your Echo API key', required: true, sensitive: true, multiple: false },
      { key: 'folders', type: 'directory', title: 'Folders', description: 'Folders it may read', required: false, sensitive: false, multiple: true },
      { key: 'units', type: 'string', title: 'Units', description: 'metric or imperial', required: false, sensitive: false, multiple: false, default: 'metric' },
    ]);
    expect(existsSync(join(core.paths.extensionsDir, 'echo-bundle'))).toBe(false);
  });

  it('refuses a missing answer, a zip without a manifest, and an entry leaving the bundle, writing nothing', async () => {
    const file = buildBundle(dir);
    expect((await failure(client.request('mcp.bundle.install', { file }))).message).toBe('the bundle needs "API key" (api_key)');
    expect((await failure(client.request('mcp.bundle.inspect', { file: buildBundle(dir, null, {}, 'bare.mcpb') }))).message).toMatch(/has no manifest\.json at its top level/);
    expect((await failure(client.request('mcp.bundle.inspect', { file: buildBundle(dir, echoManifest(), { '../evil.txt': 'x' }, 'slip.mcpb') }))).message).toMatch(/its entry "\.\.\/evil\.txt" would be written outside/);
    expect((await failure(client.request('mcp.bundle.inspect', { file: buildBundle(dir, echoManifest({ server: { type: 'node', entry_point: 'nope.js', mcp_config: { command: 'node' } } }), {}, 'noentry.mcpb') }))).message).toMatch(/entry_point "nope\.js" is not in the bundle/);
    expect((await failure(client.request('mcp.bundle.inspect', { file: join(dir, 'absent.mcpb') }))).message).toMatch(/no such file/);
    expect(existsSync(join(core.paths.extensionsDir, 'echo-bundle'))).toBe(false);
    expect(configText()).not.toContain('echo-bundle');
  });

  it('installs a bundle: unpacked, disabled until trusted, the key in the keychain; then it runs with its configuration', async () => {
    used.push(secretName);
    const folders = `${join(root, 'a')}\n${join(root, 'b')}`;
    const { entry, preview } = await client.request('mcp.bundle.install', { file: buildBundle(dir), values: { api_key: 'ek-1234567890', folders } });
    const unpacked = join(core.paths.extensionsDir, 'echo-bundle');
    expect(existsSync(join(unpacked, 'server', 'index.mjs'))).toBe(true);
    expect(entry).toMatchObject({ name: 'echo-bundle', command: 'node', args: [join(unpacked, 'server', 'index.mjs'), join(root, 'a'), join(root, 'b')], disabled: true, trusted: false, description: 'Echo Bundle 1.2.0 by Test Author (.mcpb bundle)' });
    // Trust is shown before the first start: what it runs, exactly.
    expect(preview).toMatchObject({ command: 'node', args: entry.args, envKeys: ['ECHO_API_KEY', 'ECHO_UNITS'], trusted: false });
    expect(JSON.parse(configText()).mcpServers['echo-bundle'].env).toEqual({ ECHO_API_KEY: `\${secret:${secretName}}`, ECHO_UNITS: 'metric' });
    expect(configText()).not.toContain('ek-1234567890');
    expect(await core.secrets.get(secretName)).toBe('ek-1234567890');
    expect(await client.request('mcp.server.enable', { server: 'echo-bundle' })).toMatchObject({ enabled: false });
    expect(await client.request('mcp.server.enable', { server: 'echo-bundle', trust: true })).toMatchObject({ enabled: true });
    await core.hub.whenReady('echo-bundle');
    const r = await client.request('mcp.call', { server: 'echo-bundle', tool: 'whoami' });
    expect(JSON.parse((r.content as { text: string }[])[0]!.text)).toEqual({ key: 'ek-… (13)', units: 'metric', args: [join(root, 'a'), join(root, 'b')] });
    // Installing it again under the same name is refused; the installed one stays.
    expect((await failure(client.request('mcp.bundle.install', { file: buildBundle(dir), values: { api_key: 'x' } }))).message).toMatch(/a server named "echo-bundle" is configured already/);
    expect(existsSync(join(unpacked, 'server', 'index.mjs'))).toBe(true);
  });
});
