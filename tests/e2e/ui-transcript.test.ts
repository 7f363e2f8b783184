// The transcript in Chromium against `erasmus serve`: the provider's own error (a 429 "retry in 20s",
// not the SDK's "Failed after 2 attempts") ends a chat with a Retry that goes on; every message has its
// time; the search finds what was said.
import { mkdirSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../support/browser';
import { ARTIFACTS, openApp, showView, uiWorld, type UiWorld } from './ui-helpers';

const LIMIT = 'Rate limit reached for scripted. Please retry in 20s.';

describe('desktop UI: the transcript', () => {
  let world: UiWorld;
  let browser: Browser;
  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    world = await uiWorld(() => [
      // The request and the SDK's one retry both meet the rate limit.
      { label: 'limited', match: { lastUser: 'Say hello' }, error: { status: 429, message: LIMIT } },
      { label: 'limited again', match: { lastUser: 'Say hello' }, error: { status: 429, message: LIMIT } },
      { label: 'after retry', match: { lastUser: 'Your last reply did not arrive' }, text: 'Hello again, after the wait.' },
    ]);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await world?.cleanup();
  });

  it('shows the provider’s error verbatim with a Retry that goes on, stamps messages with their time, and searches them', async () => {
    const app = await openApp(browser, world.serve.url);
    const { page } = app;
    await page.getByTestId('project-path').fill(world.project);
    await page.getByTestId('open-path').click();
    await page.getByTestId('project-facts').waitFor();
    await showView(page, 'Alt+3', 'session');
    await page.getByTestId('composer').fill('Say hello');
    await page.getByTestId('composer').press('Enter');
    const error = page.getByTestId('transcript').getByRole('alert');
    await error.waitFor({ timeout: 30_000 });
    expect(await error.textContent()).toContain('Please retry in 20s.');
    expect(await error.textContent()).not.toContain('Failed after');
    await app.shot('transcript-provider-error');
    await page.getByTestId('retry-session').click();
    await page.locator('[data-testid="assistant-message"]', { hasText: 'Hello again, after the wait.' }).waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('retry-session').count()).toBe(0);
    // Each item carries its time.
    const times = await page.getByTestId('item-time').evaluateAll((els) => els.map((e) => e.getAttribute('datetime') ?? ''));
    expect(times.length).toBeGreaterThanOrEqual(4);
    for (const t of times) expect(Date.now() - Date.parse(t)).toBeLessThan(600_000);
    // Search keeps only what matches.
    await page.getByTestId('transcript-search').fill('after the wait');
    const kinds = await page.getByTestId('transcript-item').evaluateAll((els) => els.map((e) => e.getAttribute('data-kind')));
    expect(kinds).toEqual(['assistant']);
    await app.shot('transcript-search');
    await page.getByTestId('transcript-search').fill('');
    expect(world.llm.remaining()).toBe(0);
    expect(app.errors).toEqual([]);
    await page.context().close();
  });
});
