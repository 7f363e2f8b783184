// The core goes away under an open window (`erasmus serve` stopped): the page said nothing, kept showing
// a live state, and Servers showed its error next to "No MCP servers configured". Now a banner says
// so, actions are off, and no false empty state shows.
import { mkdirSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../support/browser';
import { startServe, type ServeHandle } from '../support/serve';
import { ARTIFACTS, openApp } from './ui-helpers';

describe('desktop UI: the connection to the core ends', () => {
  let serve: ServeHandle;
  let browser: Browser;
  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    serve = await startServe();
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await serve?.stop();
  });

  it('shows a banner, turns actions off, and shows no false empty state', async () => {
    const app = await openApp(browser, serve.url);
    const { page } = app;
    await page.getByTestId('welcome').waitFor();
    expect(await page.getByTestId('disconnected').count()).toBe(0);
    await serve.stop();
    await page.getByTestId('disconnected').waitFor({ timeout: 10_000 });
    expect(await page.getByTestId('disconnected').textContent()).toContain('erasmus serve');
    expect(await page.getByTestId('status-bar').textContent()).toContain('disconnected');
    // The views cannot be used: the main area is inert.
    expect(await page.getByTestId('app-shell').getAttribute('inert')).not.toBeNull();
    await page.getByTestId('nav-servers').click();
    await page.locator('[data-testid="app-shell"][data-view="servers"]').waitFor();
    await page.waitForTimeout(300);
    expect(await page.getByTestId('servers-empty').count()).toBe(0);
    await app.shot('connection-lost');
    await page.context().close();
  });
});
