// The Settings view in Chromium against `erasmus serve`: a provider refused beside the core's message
// (config.yaml untouched, its comment kept), then added and made the default; the approvals policy
// and tool-call mode written where the agent reads them; limits, reasoning and dollar budgets saved; a
// prompt section overridden and reset.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../support/browser';
import { ARTIFACTS, openApp, uiWorld, type UiWorld } from './ui-helpers';

describe('desktop UI: settings', () => {
  let world: UiWorld;
  let browser: Browser;
  let configFile: string;
  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    world = await uiWorld(() => []);
    configFile = join(world.root, 'home', 'config.yaml');
    writeFileSync(configFile, `# written by hand: keep me\n${readFileSync(configFile, 'utf8')}extensions:\n  developer: { enabled: true }\n`);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await world?.cleanup();
  });

  it('edits providers, agent defaults and prompt sections, keeping config.yaml’s other content', async () => {
    const app = await openApp(browser, world.serve.url);
    const { page } = app;
    await page.getByTestId('nav-settings').click();
    await page.getByTestId('provider-scripted').waitFor();

    // By keyboard: focus the "Add a provider" button and press Enter.
    await page.getByTestId('provider-add').focus();
    await page.keyboard.press('Enter');
    await page.getByTestId('provider-id').fill('box');
    await page.getByTestId('provider-kind').selectOption('ollama');
    await page.getByTestId('provider-model').fill('llama3');
    await page.getByTestId('provider-baseUrl').fill('not a url');
    const before = readFileSync(configFile, 'utf8');
    await page.getByTestId('provider-model').press('Enter');
    await expect.poll(() => page.getByTestId('provider-form').getByRole('alert').textContent()).toContain('baseUrl');
    expect(await page.getByTestId('provider-baseUrl').getAttribute('aria-invalid')).toBe('true');
    await app.shot('ui-settings-01-refused');
    expect(readFileSync(configFile, 'utf8')).toBe(before);

    await page.getByTestId('provider-baseUrl').fill('http://127.0.0.1:11434');
    // Limits and reasoning as the kind takes them (ollama: a thinking budget of 0 turns thinking off).
    expect(await page.getByTestId('provider-reasoningEffort').count()).toBe(0);
    await page.getByTestId('provider-maxOutputTokens').fill('4096');
    await page.getByTestId('provider-thinkingBudget').fill('0');
    await page.getByTestId('provider-save').click();
    await page.getByTestId('provider-box').waitFor();
    await page.getByLabel('Make box the default').click();
    await expect.poll(() => parse(readFileSync(configFile, 'utf8')).defaultProvider).toBe('box');

    await page.getByTestId('approvals-ask').click();
    await page.getByTestId('tool-mode-xml').click();
    await expect.poll(() => parse(readFileSync(configFile, 'utf8')).toolMode).toBe('xml');
    const config = parse(readFileSync(configFile, 'utf8'));
    expect(config).toMatchObject({ approvals: 'ask', extensions: { developer: { enabled: true } } });
    expect(config.providers.map((p: { id: string }) => p.id)).toEqual(['scripted', 'box']);
    expect(config.providers[1]).toMatchObject({ maxOutputTokens: 4096, reasoning: { budgetTokens: 0 } });

    // Dollar budgets: a bad one is refused in place, good ones land in config.yaml, an empty one is removed.
    await page.getByTestId('budget-sessionBudgetUsd').fill('free');
    await page.getByTestId('budget-sessionBudgetUsd').press('Enter');
    await expect.poll(() => page.getByTestId('budget-sessionBudgetUsd').getAttribute('aria-invalid')).toBe('true');
    await page.getByTestId('budget-sessionBudgetUsd').fill('1.5');
    await page.getByTestId('budget-sessionBudgetUsd').press('Enter');
    await page.getByTestId('budget-runBudgetUsd').fill('10');
    await page.getByTestId('budget-runBudgetUsd-save').click();
    await expect.poll(() => parse(readFileSync(configFile, 'utf8')).runBudgetUsd).toBe(10);
    expect(parse(readFileSync(configFile, 'utf8')).sessionBudgetUsd).toBe(1.5);
    await page.getByTestId('budget-sessionBudgetUsd').fill('');
    await page.getByTestId('budget-sessionBudgetUsd-save').click();
    await expect.poll(() => parse(readFileSync(configFile, 'utf8')).sessionBudgetUsd).toBeUndefined();
    expect(readFileSync(configFile, 'utf8')).toContain('# written by hand: keep me');
    await page.getByTestId('rules-empty').waitFor();

    await page.getByTestId('section-RULES').click();
    await expect.poll(() => page.getByTestId('section-text').inputValue()).not.toBe('');
    await page.getByTestId('section-text').fill('Only ever add numbers.');
    await page.getByTestId('section-save').click();
    await page.getByTestId('prompt-sections').getByRole('status').waitFor();
    const override = join(world.root, 'home', 'prompts', 'RULES.md');
    expect(readFileSync(override, 'utf8')).toBe('Only ever add numbers.');
    await app.shot('ui-settings-02-saved');
    await page.getByTestId('section-reset').click();
    await expect.poll(() => existsSync(override)).toBe(false);
    expect(app.errors).toEqual([]);
  }, 60_000);
});
