// The terminal view in browser mode: a shell tab opens in the project folder, keystrokes reach the
// PTY, output comes back through terminal.* events into xterm.js, and stopping it ends the process.
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useServeAndBrowser } from '../support/browser';
import { watchErrors } from './ui-helpers';

const artifacts = join(__dirname, 'artifacts');

describe('terminal view in the browser', () => {
  const world = useServeAndBrowser(artifacts);

  it('opens a shell tab in the project, types into it, shows the output and stops it', async () => {
    const project = realpathSync(mkdtempSync(join(tmpdir(), 'erasmus-e2e-term-')));
    const page = await world.browser.newPage();
    const errors = watchErrors(page);
    await page.goto(world.serve.url);
    // The page's client (window.__erasmus) exists once the socket is open, after 'load': the shell renders then.
    await page.getByTestId('app-shell').waitFor();
    await page.evaluate(async (path) => {
      const client = (globalThis as unknown as { __erasmus: { request(m: string, p: unknown): Promise<unknown> } }).__erasmus;
      await client.request('project.open', { path });
    }, project);
    await page.getByTestId('nav-terminal').click();
    await page.getByTestId('terminal-pane').waitFor();
    await page.getByRole("button", { name: /New shell/ }).click();
    await page.getByRole('tablist', { name: 'Terminals' }).waitFor();
    const tab = page.getByRole('tab', { name: /shell/ });
    await tab.waitFor();
    const textarea = page.locator('.xterm-helper-textarea').first();
    await textarea.waitFor({ state: 'attached' });
    await textarea.focus();
    await page.keyboard.type('echo "sum=$((6*7)) in $PWD"');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('.xterm-rows').first().textContent(), { timeout: 15_000 }).toContain(`sum=42 in ${project}`);
    await page.screenshot({ path: join(artifacts, 'terminal-shell.png') });
    await page.getByRole('button', { name: /Stop shell/ }).click();
    await expect.poll(() => page.locator('[data-testid^="terminal-status-"]').first().textContent()).not.toBe('running');
    expect(errors).toEqual([]);
    await page.close();
    rmSync(project, { recursive: true, force: true });
  });
});
