// The core goes away under an open window (`erasmus serve` stopped): the page said nothing, kept showing
// a live state, and Servers showed its error next to "No MCP servers configured". Now the page says
// "disconnected — reconnecting…" with actions off, comes back on its own when the core returns on the
// same address, and says the connection is lost (how to get back) when it does not.
import { mkdirSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../support/browser';
import { startServe, type ServeHandle } from '../support/serve';
import { ARTIFACTS, openApp } from './ui-helpers';

describe('desktop UI: the connection to the core ends', () => {
  let serve: ServeHandle | undefined;
  let browser: Browser;
  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await serve?.stop();
  });

  it('reconnects by itself when `erasmus serve` is restarted on the same ERASMUS_HOME (its saved port and token); actions are off meanwhile', async () => {
    // The default path: no ERASMUS_SERVE_TOKEN, no --port.
    serve = await startServe();
    const { port, home, url } = serve;
    const app = await openApp(browser, serve.url);
    const { page } = app;
    await page.getByTestId('welcome').waitFor();
    // A shell runs when the core goes: its tab loads (hidden behind the welcome view). Its prompt is waited for, so
    // the stop never cuts its login profile short (a profile's lock left behind stalls later shells).
    const shell = await page.evaluate(async () => {
      const client = (globalThis as unknown as { __erasmus: { request(m: string, p: unknown): Promise<unknown> } }).__erasmus;
      const { id } = (await client.request('terminal.openShell', {})) as { id: string };
      for (let i = 0; i < 300; i++) {
        if (((await client.request('terminal.output', { id })) as { data: string }).data) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      return id;
    });
    expect(await page.getByTestId(`terminal-status-${shell}`).textContent()).toBe('running');
    await serve.stop();
    await page.getByTestId('reconnecting').waitFor({ timeout: 20_000 });
    expect(await page.getByTestId('reconnecting').textContent()).toContain('Disconnected — reconnecting…');
    expect(await page.getByTestId('status-bar').textContent()).toContain('reconnecting');
    expect(await page.getByTestId('app-shell').getAttribute('inert')).not.toBeNull();
    expect(await page.getByTestId('disconnected').count()).toBe(0);
    await app.shot('connection-reconnecting');
    serve = await startServe({ ERASMUS_HOME: home });
    // The same address as before (ERASMUS_HOME/serve.json): the open page's token is still good.
    expect(serve.url).toBe(url);
    expect(serve.port).toBe(port);
    await page.getByTestId('reconnecting').waitFor({ state: 'detached', timeout: 15_000 });
    expect(await page.getByTestId('app-shell').getAttribute('inert')).toBeNull();
    // The new core has no such shell: its tab says it ended (it said "running" for good), its output kept.
    await expect.poll(() => page.getByTestId(`terminal-status-${shell}`).textContent()).toBe('stopped');
    // Requests work again: the Servers view reads the (new) core.
    await page.getByTestId('nav-servers').click();
    await page.locator('[data-testid="app-shell"][data-view="servers"]').waitFor();
    await page.getByRole('heading', { name: /servers/i }).first().waitFor({ timeout: 20_000 });
    expect(await page.getByTestId('status-bar').textContent()).not.toContain('disconnected');
    await serve.stop();
    serve = undefined;
    await page.context().close();
  });

  it('after trying for a while, shows the connection lost, turns actions off, and shows no false empty state', async () => {
    serve = await startServe();
    const app = await openApp(browser, serve.url);
    const { page } = app;
    await page.getByTestId('welcome').waitFor();
    // Fake timers that run at the real pace until fast-forwarded (installed before the connection drops).
    await page.clock.install();
    expect(await page.getByTestId('disconnected').count()).toBe(0);
    await serve.stop();
    serve = undefined;
    // Reconnecting first, then (after 30 s of trying) lost: either may be what shows by now on a loaded machine.
    await page.locator('[data-testid="reconnecting"], [data-testid="disconnected"]').first().waitFor({ timeout: 20_000 });
    // The page's clock jumps past those 30 s (its pending timers fire) instead of the test waiting them out.
    await page.clock.fastForward('00:31');
    await page.getByTestId('disconnected').waitFor({ timeout: 45_000 });
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
