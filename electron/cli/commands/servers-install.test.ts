import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildBundle } from '../../../tests/fixtures/mcpb/build';
import { startRegistryFixture, type RegistryFixture } from '../../../tests/fixtures/mcp-registry/server';
import { freePort, repoRoot, tempHome } from '../../../tests/fixtures/mcp/servers';
import { Redactor, SecretStore } from '../../main/secrets/index';
import { bundleSecretName } from '../../main/mcp/mcpb';

// `erasmus servers search` against a local stand-in of the MCP Registry's API, and `erasmus servers
// install` of a .mcpb built here; the real keychain (dbus-run-session in `npm test`) holds the secrets.
const run = promisify(execFile);
const home = tempHome('erasmus-cli-install-');
let registry: RegistryFixture;
const secrets = new SecretStore(new Redactor());
const used = [bundleSecretName('echo-bundle', 'api_key')];

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
  registry = await startRegistryFixture();
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
