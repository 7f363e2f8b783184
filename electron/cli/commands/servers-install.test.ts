import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildBundle } from '../../../tests/fixtures/mcpb/build';
import { bundleEntry, REGISTRY_SERVERS, startRegistryFixture, type RegistryFixture } from '../../../tests/fixtures/mcp-registry/server';
import { freePort, repoRoot, tempHome } from '../../../tests/fixtures/mcp/servers';
import { Redactor, SecretStore } from '../../main/secrets/index';
import { bundleSecretName } from '../../main/mcp/mcpb';

// `erasmus servers search` against a local stand-in of the MCP Registry's API, and `erasmus servers
// install` of a .mcpb built here; the real keychain (dbus-run-session in `npm test`) holds the secrets.
const run = promisify(execFile);
const home = tempHome('erasmus-cli-install-');
let registry: RegistryFixture;
const secrets = new SecretStore(new Redactor());
const used = [bundleSecretName('echo-bundle', 'api_key'), bundleSecretName('weather-echo', 'api_key')];
// A bundle published in the registry stand-in (served by it, with its sha256), and one listed with a wrong sha256.
mkdirSync(join(home, 'published'), { recursive: true });
const published = new Uint8Array(readFileSync(buildBundle(join(home, 'published'))));
const publishedSha = createHash('sha256').update(published).digest('hex');

async function erasmus(env: Record<string, string>, ...args: string[]): Promise<{ stdout: string; stderr: string; code: number }> {
  try {
    const r = await run(process.execPath, [join(repoRoot, 'bin', 'erasmus.js'), ...args], { env: { ...process.env, ERASMUS_HOME: home, ...env }, cwd: home, timeout: 60_000 });
    return { ...r, code: 0 };
  } catch (err) {
    const e = err as { stdout: string; stderr: string; code: number };
    return { stdout: e.stdout, stderr: e.stderr, code: e.code };
  }
}
const config = () => JSON.parse(readFileSync(join(home, 'mcp', 'config.json'), 'utf8')).mcpServers as Record<string, Record<string, unknown>>;

beforeAll(async () => {
  registry = await startRegistryFixture([...REGISTRY_SERVERS, bundleEntry('io.github.echo/weather-echo', 'echo.mcpb', published), bundleEntry('io.github.echo/weather-tampered', 'echo.mcpb', published, 'e'.repeat(64))], {
    bundles: { 'echo.mcpb': published },
  });
});
afterAll(async () => {
  for (const n of used) await secrets.delete(n).catch(() => undefined);
  await registry.close();
  rmSync(home, { recursive: true, force: true });
});

describe('erasmus servers search', () => {
  it('lists matching registry servers with how each runs, and installs one by number', async () => {
    const env = { ERASMUS_MCP_REGISTRY: registry.url };
    const list = await erasmus(env, 'servers', 'search', 'weather');
    expect(list.code).toBe(0);
    expect(list.stdout).toContain(' 1. io.github.acme/weather 1.4.2 (Acme Weather)');
    expect(list.stdout).toContain('    [1] npm @acme/weather-mcp@1.4.2  needs WEATHER_API_KEY');
    expect(list.stdout).toContain(' 2. io.github.other/weather-lite 0.1.0');
    const json = await erasmus(env, 'servers', 'search', 'notes', '--json');
    expect(JSON.parse(json.stdout).servers.map((s: { name: string }) => s.name)).toEqual(['io.github.tools/notes']);

    // No terminal to ask on: a required value must come with --set, and the error says so.
    const refused = await erasmus(env, 'servers', 'search', 'weather', '--install', '1');
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/WEATHER_API_KEY \(WEATHER_API_KEY\) is required: pass --set WEATHER_API_KEY=VALUE \(it goes to the keychain, never into the config\)/);

    const ok = await erasmus(env, 'servers', 'search', 'notes', '--install', '1', '--as', 'notes');
    expect(ok.stdout).toContain('added "notes" (npm notes-mcp@2.0.0)');
    expect(ok.stdout).toContain('It runs: npx -y notes-mcp@2.0.0');
    expect(config().notes).toMatchObject({ command: 'npx', args: ['-y', 'notes-mcp@2.0.0'], disabled: true });
  });

  it('pages: prints how to get the next page; --cursor gives it, --all follows every page', async () => {
    const env = { ERASMUS_MCP_REGISTRY: registry.url };
    const first = await erasmus(env, 'servers', 'search', 'weather');
    expect(first.stdout).not.toContain('weather-radar');
    expect(first.stdout).toContain('More results: erasmus servers search weather --cursor io.github.other/weather-lite  (or add --all for up to 10 pages)');
    const second = await erasmus(env, 'servers', 'search', 'weather', '--cursor', 'io.github.other/weather-lite');
    expect(second.code).toBe(0);
    expect(second.stdout).toContain(' 1. io.github.sky/weather-radar 0.3.0');
    expect(second.stdout).toContain(' 2. io.github.echo/weather-echo 1.2.0 (Echo Weather (bundle))');
    expect(second.stdout).toContain('    [1] mcpb echo.mcpb (1.2.0)');
    expect(second.stdout).toContain('More results: erasmus servers search weather --cursor io.github.echo/weather-echo');
    expect(second.stdout).toContain('Install one: erasmus servers search weather --cursor io.github.other/weather-lite --install <number>');
    const all = await erasmus(env, 'servers', 'search', 'weather', '--all', '--json');
    const listed = JSON.parse(all.stdout) as { servers: { name: string }[]; nextCursor?: string };
    expect(listed.servers.map((s) => s.name)).toEqual(['io.github.acme/weather', 'io.github.other/weather-lite', 'io.github.sky/weather-radar', 'io.github.echo/weather-echo', 'io.github.echo/weather-tampered']);
    expect(listed.nextCursor).toBeUndefined();
    const text = await erasmus(env, 'servers', 'search', 'weather', '--all');
    expect(text.stdout).toContain(' 5. io.github.echo/weather-tampered');
    expect(text.stdout).not.toContain('More results');
  });

  it('installs a .mcpb result with --all: downloaded, sha256 checked, its settings from --set; a wrong sha256 is refused', async () => {
    const env = { ERASMUS_MCP_REGISTRY: registry.url };
    const bad = await erasmus(env, 'servers', 'search', 'weather', '--all', '--install', 'io.github.echo/weather-tampered', '--set', 'api_key=x');
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain(`refused the bundle at ${registry.url}/bundles/echo.mcpb: it does not match the MCP Registry's sha256 (expected ${'e'.repeat(64)}, actual ${publishedSha}).`);
    expect(existsSync(join(home, 'mcp', 'extensions', 'weather-tampered'))).toBe(false);

    const missing = await erasmus(env, 'servers', 'search', 'weather', '--all', '--install', '4');
    expect(missing.stderr).toContain('API key (api_key) is required: pass --set api_key=VALUE (it goes to the keychain, never into the config) (erasmus servers search weather --all --install 4 --set KEY=VALUE)');
    const ok = await erasmus(env, 'servers', 'search', 'weather', '--all', '--install', '4', '--set', 'api_key=ek-registry-cli-5', '--yes');
    expect(ok.stderr).toBe('');
    expect(ok.stdout).toContain('Echo Bundle 1.2.0 by Test Author — a node server');
    expect(ok.stdout).toContain(`installed "weather-echo" (mcpb echo.mcpb (1.2.0), sha256 checked) in ${join(home, 'mcp', 'extensions')}/weather-echo`);
    expect(ok.stdout).toContain('"weather-echo" is trusted and enabled');
    expect(JSON.stringify(config()['weather-echo'])).not.toContain('ek-registry-cli-5');
    expect(await secrets.get(bundleSecretName('weather-echo', 'api_key'))).toBe('ek-registry-cli-5');
  });

  it('says plainly when the registry cannot be reached', async () => {
    const port = await freePort();
    const r = await erasmus({ ERASMUS_MCP_REGISTRY: `http://127.0.0.1:${port}` }, 'servers', 'search', 'weather');
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain(`cannot reach the MCP Registry at http://127.0.0.1:${port} (ECONNREFUSED). Check the network connection and try again, or add the server by hand.`);
  });
});

describe('erasmus servers install <file.mcpb>', () => {
  it('installs a bundle with its settings from --set, the key in the keychain, trusted and enabled with --yes; then it runs', async () => {
    const dir = join(home, 'bundles');
    mkdirSync(dir, { recursive: true });
    const file = buildBundle(dir);
    const missing = await erasmus({}, 'servers', 'install', file);
    expect(missing.stderr).toContain(`API key (api_key) is required: pass --set api_key=VALUE (it goes to the keychain, never into the config) (erasmus servers install ${file} --set KEY=VALUE)`);
    expect(existsSync(join(home, 'mcp', 'extensions', 'echo-bundle'))).toBe(false);

    const r = await erasmus({}, 'servers', 'install', file, '--set', 'api_key=ek-from-cli-42', '--yes');
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain('Echo Bundle 1.2.0 by Test Author — a node server');
    expect(r.stdout).toContain('tools: whoami');
    expect(r.stdout).toContain(`It runs: node ${join(home, 'mcp', 'extensions', 'echo-bundle', 'server', 'index.mjs')}`);
    expect(r.stdout).toContain('"echo-bundle" is trusted and enabled');
    expect(JSON.stringify(config()['echo-bundle'])).not.toContain('ek-from-cli-42');
    expect(await secrets.get(bundleSecretName('echo-bundle', 'api_key'))).toBe('ek-from-cli-42');

    const call = await erasmus({}, 'call', 'echo-bundle', 'whoami');
    expect(JSON.parse(call.stdout)).toEqual({ key: 'ek-… (14)', units: 'metric', args: [] });
  });
});
