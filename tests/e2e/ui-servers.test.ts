// The Servers view in Chromium against `erasmus serve`: add the real memory server by the form (a bad
// entry first, refused beside its field), see it ready with its tools, disable it (its process ends);
// import a server from a Claude Desktop config, enable it through the trust preview, then remove it.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processesMatching, serverEntry } from '../fixtures/mcp/servers';
import { launchChromium } from '../support/browser';
import { ARTIFACTS, openApp, uiWorld, type UiWorld } from './ui-helpers';

/** An argument the memory server ignores, to find its process and no other test's. */
const MARK = `--e2e-ui-servers-${process.pid}`;

describe('desktop UI: adding, importing, trusting, disabling and removing MCP servers', () => {
  let world: UiWorld;
  let browser: Browser;
  let user: string;
  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    // A fake user home holding Claude Desktop's config (the import looks there).
    user = mkdtempSync(join(tmpdir(), 'erasmus-ui-user-'));
    mkdirSync(join(user, '.config', 'Claude'), { recursive: true });
    writeFileSync(join(user, '.config', 'Claude', 'claude_desktop_config.json'), JSON.stringify({ mcpServers: { thinking: { command: process.execPath, args: [serverEntry.sequentialThinking, '--from-claude'] } } }));
    world = await uiWorld(() => [], { HOME: user, XDG_CONFIG_HOME: join(user, '.config') });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await world?.cleanup();
    if (user) rmSync(user, { recursive: true, force: true });
  });

  it('adds server-memory by the form, sees its tools, disables it; imports and trusts another', async () => {
    const app = await openApp(browser, world.serve.url);
    const { page } = app;
    const home = join(world.root, 'home');
    await page.getByTestId('nav-servers').click();
    await page.locator('[data-testid="server-filesystem"][data-state="ready"]').waitFor({ timeout: 15_000 });

    // The form, by keyboard: the name field has focus; a bad entry is refused beside its field.
    await page.getByTestId('servers-add').click();
    await page.getByTestId('add-server-form').waitFor();
    await page.keyboard.type('memory');
    await page.getByLabel('Command', { exact: true }).fill(process.execPath);
    await page.getByLabel('Arguments', { exact: true }).fill(`${serverEntry.memory}\n${MARK}`);
    await page.getByTestId('server-env-add').click();
    await page.getByLabel('Environment variables 1 name', { exact: true }).fill('MEMORY_API_KEY');
    await page.getByLabel('Environment variables 1 value', { exact: true }).fill('plain-secret-value');
    await page.getByLabel('Name', { exact: true }).press('Enter');
    await expect.poll(() => page.getByTestId('server-env-error').textContent()).toContain('${secret:MEMORY_API_KEY}');
    await app.shot('ui-servers-01-refused');
    const before = readFileSync(join(home, 'mcp', 'config.json'), 'utf8');
    expect(before).not.toContain('plain-secret-value');
    await page.getByLabel('Environment variables 1 name', { exact: true }).fill('MEMORY_FILE_PATH');
    await page.getByLabel('Environment variables 1 value', { exact: true }).fill(join(world.root, 'memory.jsonl'));
    await app.shot('ui-servers-02-form');
    await page.getByTestId('server-add-submit').click();

    await page.locator('[data-testid="server-memory"][data-state="ready"]').waitFor({ timeout: 20_000 });
    await expect.poll(() => page.getByTestId('server-tools').textContent(), { timeout: 10_000 }).toContain('create_entities');
    expect(await page.getByTestId('server-memory').textContent()).toMatch(/ready · stdio · \d+ tools/);
    const config = JSON.parse(readFileSync(join(home, 'mcp', 'config.json'), 'utf8'));
    expect(config.mcpServers.memory).toEqual({ command: process.execPath, args: [serverEntry.memory, MARK], env: { MEMORY_FILE_PATH: join(world.root, 'memory.jsonl') } });
    expect(config.mcpServers.filesystem).toBeDefined();
    expect(processesMatching(MARK).length).toBeGreaterThan(0);
    await app.shot('ui-servers-03-ready');

    await page.getByTestId('server-disable').click();
    await page.locator('[data-testid="server-memory"][data-state="disabled"]').waitFor({ timeout: 10_000 });
    await expect.poll(() => processesMatching(MARK), { timeout: 10_000 }).toEqual([]);
    expect(JSON.parse(readFileSync(join(home, 'mcp', 'config.json'), 'utf8')).mcpServers.memory.disabled).toBe(true);
    await page.getByTestId('server-enable').waitFor();
    await app.shot('ui-servers-04-disabled');

    // Import from Claude Desktop: it arrives disabled; the first enable shows what it runs.
    await page.getByTestId('servers-import').click();
    const pick = page.getByTestId('import-pick-thinking');
    await pick.waitFor();
    await pick.check();
    await app.shot('ui-servers-05-import');
    await page.getByTestId('import-submit').click();
    await expect.poll(() => page.getByTestId('import-result').textContent()).toContain('Added thinking');
    await page.locator('[data-testid="server-thinking"][data-state="disabled"]').click();
    await page.getByTestId('server-enable').click();
    const panel = page.getByTestId('server-trust-panel');
    expect(await panel.getByTestId('trust-command').textContent()).toBe(`${process.execPath} ${serverEntry.sequentialThinking} --from-claude`);
    await app.shot('ui-servers-06-trust');
    await panel.getByTestId('server-trust-confirm').click();
    await expect.poll(() => page.getByTestId('trust-tools').textContent(), { timeout: 20_000 }).toContain('sequentialthinking');
    await page.locator('[data-testid="server-thinking"][data-state="ready"]').waitFor();
    await app.shot('ui-servers-07-trusted');

    await page.getByTestId('server-remove').click();
    await page.getByTestId('server-remove-confirm').click();
    await page.getByTestId('server-thinking').waitFor({ state: 'detached', timeout: 10_000 });
    expect(Object.keys(JSON.parse(readFileSync(join(home, 'mcp', 'config.json'), 'utf8')).mcpServers).sort()).toEqual(['filesystem', 'memory']);
    expect(app.errors).toEqual([]);
    await page.context().close();
  });
});
