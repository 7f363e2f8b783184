// The check before Start, in the app (Chromium against `erasmus serve`): a fresh ERASMUS_HOME with no
// provider. Start says what is missing (only the model: the built-in files and runners toolsets are
// there) with a way to Settings, creates no run, and starts once a provider is configured.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../support/browser';
import { startServe, type ServeHandle } from '../support/serve';
import { openApp } from './ui-helpers';

describe('desktop UI: Start checks the provider and the toolsets first', () => {
  let root: string;
  let serve: ServeHandle;
  let browser: Browser;
  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'erasmus-ui-preflight-'));
    mkdirSync(join(root, 'home'));
    mkdirSync(join(root, 'project'));
    execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: join(root, 'project') });
    serve = await startServe({ ERASMUS_HOME: join(root, 'home') });
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await serve?.stop();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('with no provider: names it, leads to Settings, creates no run; with one, starts', async () => {
    const app = await openApp(browser, serve.url);
    const { page } = app;
    await page.getByTestId('project-path').fill(join(root, 'project'));
    await page.getByTestId('open-path').click();
    await page.getByTestId('start-workflow').click();
    const box = page.getByTestId('preflight-problems');
    await box.waitFor();
    const text = (await box.textContent()) ?? '';
    expect(text).toContain('The workflow cannot start yet: one thing is missing.');
    expect(text).toContain('No model to run the steps');
    expect(text).toContain('Settings → Providers');
    expect(text).not.toMatch(/--base-url|--model/); // the CLI's flags mean nothing in the app
    expect(text).not.toContain('toolset'); // files and runners come with the app
    expect(await page.getByTestId('start-run').count()).toBe(1); // no run was created
    await page.getByTestId('preflight-fix-providers').click();
    await page.getByTestId('settings-view').waitFor();

    writeFileSync(join(root, 'home', 'config.yaml'), 'defaultProvider: local\nproviders:\n  - id: local\n    kind: openai-compatible\n    model: m\n    baseUrl: http://127.0.0.1:9/v1\n');
    await page.getByTestId('nav-project').click();
    await page.getByTestId('start-workflow').click();
    await page.getByTestId('goal-question').waitFor();
    expect(await page.getByTestId('preflight-problems').count()).toBe(0);
    expect(app.errors).toEqual([]);
  }, 60_000);
});
