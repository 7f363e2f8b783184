// The Servers view's installs in Chromium against `erasmus serve`: search a local stand-in of the MCP
// Registry's API and add a result (disabled; its first enable shows the command to trust), page on to a
// .mcpb result the stand-in serves (downloaded and checked by the core), and install a .mcpb bundle built
// here with its API key (to the real keychain), trust it and see its tool.
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleSecretName } from '../../electron/main/mcp/mcpb';
import { Redactor, SecretStore } from '../../electron/main/secrets/index';
import { bundleEntry, REGISTRY_SERVERS, startRegistryFixture, type RegistryFixture } from '../fixtures/mcp-registry/server';
import { buildBundle } from '../fixtures/mcpb/build';
import { launchChromium } from '../support/browser';
import { axeSerious } from './a11y';
import { ARTIFACTS, openApp, uiWorld, type UiWorld } from './ui-helpers';

describe('desktop UI: installing from the MCP Registry and from a .mcpb bundle', () => {
  let world: UiWorld;
  let browser: Browser;
  let registry: RegistryFixture;
  const secrets = new SecretStore(new Redactor());
  const secret = bundleSecretName('echo-bundle', 'api_key');
  const registrySecret = bundleSecretName('weather-echo', 'api_key');
  const publishDir = mkdtempSync(join(tmpdir(), 'erasmus-published-'));
  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    const published = new Uint8Array(readFileSync(buildBundle(publishDir)));
    registry = await startRegistryFixture([...REGISTRY_SERVERS, bundleEntry('io.github.echo/weather-echo', 'echo.mcpb', published)], { bundles: { 'echo.mcpb': published } });
    world = await uiWorld(() => [], { ERASMUS_MCP_REGISTRY: registry.url });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await secrets.delete(secret).catch(() => undefined);
    await secrets.delete(registrySecret).catch(() => undefined);
    await browser?.close();
    await world?.cleanup();
    await registry?.close();
    rmSync(publishDir, { recursive: true, force: true });
  });

  it('adds a registry result and a bundle; each waits for trust before it first starts', async () => {
    const app = await openApp(browser, world.serve.url);
    const { page } = app;
    const home = join(world.root, 'home');
    const config = () => JSON.parse(readFileSync(join(home, 'mcp', 'config.json'), 'utf8')).mcpServers as Record<string, Record<string, unknown>>;
    await page.getByTestId('nav-servers').click();
    await page.locator('[data-testid="server-filesystem"][data-state="ready"]').waitFor({ timeout: 15_000 });

    // The registry: search, pick the npm package, add it; it arrives disabled and asks for trust first.
    await page.getByTestId('servers-registry').click();
    await page.keyboard.type('notes');
    await page.keyboard.press('Enter');
    await page.getByTestId('registry-result-notes').waitFor();
    expect(await axeSerious(page)).toEqual([]);
    await page.getByTestId('registry-option-notes-0').click();
    await app.shot('ui-installs-01-registry');
    await page.getByTestId('registry-install').click();
    await page.locator('[data-testid="server-notes"][data-state="disabled"]').waitFor({ timeout: 10_000 });
    expect(config().notes).toMatchObject({ command: 'npx', args: ['-y', 'notes-mcp@2.0.0'], disabled: true });
    await page.getByTestId('server-enable').click();
    expect(await page.getByTestId('trust-command').textContent()).toBe('npx -y notes-mcp@2.0.0');
    await page.getByTestId('server-trust-close').click();

    // Paging on to a .mcpb result: the core downloads it and checks its sha256, then it asks as a bundle does.
    await page.getByTestId('servers-registry').click();
    await page.getByTestId('registry-query').fill('weather');
    await page.keyboard.press('Enter');
    await page.getByTestId('registry-result-weather').waitFor();
    expect(await page.getByTestId('registry-result-weather-echo').count()).toBe(0);
    await page.getByTestId('registry-more').click();
    await page.getByTestId('registry-result-weather-echo').waitFor();
    expect(await page.getByTestId('registry-more').count()).toBe(0);
    await page.getByTestId('registry-option-weather-echo-0').click();
    expect(await page.getByTestId('registry-bundle-command').textContent()).toBe('node ${__dirname}/server/index.mjs ${user_config.folders}');
    await page.getByLabel(/API key/).fill('ek-registry-ui-3');
    expect(await axeSerious(page)).toEqual([]);
    await app.shot('ui-installs-01b-registry-bundle');
    await page.getByTestId('registry-install').click();
    await page.locator('[data-testid="server-weather-echo"][data-state="disabled"]').waitFor({ timeout: 10_000 });
    expect(config()['weather-echo']).toMatchObject({ command: 'node', args: [join(home, 'mcp', 'extensions', 'weather-echo', 'server', 'index.mjs')], disabled: true });
    expect(JSON.stringify(config()['weather-echo'])).not.toContain('ek-registry-ui-3');
    expect(await secrets.get(registrySecret)).toBe('ek-registry-ui-3');

    // A bundle: what it runs first, then its settings; the key goes to the keychain.
    const file = buildBundle(world.root);
    await page.getByTestId('servers-bundle').click();
    await page.getByLabel('Bundle file', { exact: true }).fill(file);
    await page.getByTestId('bundle-inspect').click();
    expect(await page.getByTestId('bundle-command').textContent()).toBe('node ${__dirname}/server/index.mjs ${user_config.folders}');
    await page.getByLabel(/API key/).fill('ek-from-the-ui-7');
    expect(await axeSerious(page)).toEqual([]);
    await app.shot('ui-installs-02-bundle');
    await page.getByTestId('bundle-submit').click();
    await page.locator('[data-testid="server-echo-bundle"][data-state="disabled"]').waitFor({ timeout: 10_000 });
    expect(JSON.stringify(config()['echo-bundle'])).not.toContain('ek-from-the-ui-7');
    expect(await secrets.get(secret)).toBe('ek-from-the-ui-7');
    await page.getByTestId('server-enable').click();
    const panel = page.getByTestId('server-trust-panel');
    expect(await panel.getByTestId('trust-command').textContent()).toBe(`node ${join(home, 'mcp', 'extensions', 'echo-bundle', 'server', 'index.mjs')}`);
    await panel.getByTestId('server-trust-confirm').click();
    await expect.poll(() => page.getByTestId('trust-tools').textContent(), { timeout: 20_000 }).toContain('whoami');
    await page.locator('[data-testid="server-echo-bundle"][data-state="ready"]').waitFor();
    await app.shot('ui-installs-03-trusted');
    expect(app.errors).toEqual([]);
    await page.context().close();
  });
});
