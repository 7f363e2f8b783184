// The terminal view in browser mode: a shell tab opens in the project folder, keystrokes reach the
// PTY, output comes back through terminal.* events into xterm.js, and stopping it ends the process.
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useServeAndBrowser } from '../support/browser';
import { axeSerious } from './a11y';
import { watchErrors } from './ui-helpers';

const artifacts = join(__dirname, 'artifacts');

/** In the page: the running shells that have printed nothing yet (their login profile still runs). */
async function startingShells(): Promise<string[]> {
  const client = (globalThis as unknown as { __erasmus: { request(m: string, p: unknown): Promise<unknown> } }).__erasmus;
  const { terminals } = (await client.request('terminal.list', {})) as { terminals: { id: string; kind: string; running: boolean }[] };
  const starting: string[] = [];
  for (const t of terminals.filter((t) => t.kind === 'shell' && t.running)) {
    const { data } = (await client.request('terminal.output', { id: t.id })) as { data: string };
    if (!data) starting.push(t.id);
  }
  return starting;
}

/** In the page: the running shell's size, as the core has it (what its PTY was last resized to). */
async function shellSize(): Promise<{ cols: number; rows: number } | undefined> {
  const client = (globalThis as unknown as { __erasmus: { request(m: string, p: unknown): Promise<unknown> } }).__erasmus;
  const { terminals } = (await client.request('terminal.list', {})) as { terminals: { kind: string; running: boolean; cols: number; rows: number }[] };
  const shell = terminals.find((t) => t.kind === 'shell' && t.running);
  return shell && { cols: shell.cols, rows: shell.rows };
}

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
    // Output placed by column, as a progress bar or a full-screen program places it: "Z" in column 100.
    await page.keyboard.type("printf 'edge\\033[100GZ\\n'");
    await page.keyboard.press('Enter');
    const placed = /(^|\n)edge[ \u00a0]{95}Z/;
    await expect.poll(() => page.locator('.xterm-rows').first().innerText(), { timeout: 15_000 }).toMatch(placed);
    await page.screenshot({ path: join(artifacts, 'terminal-shell.png') });
    // A reload while the shell still runs shows what it printed before (its backlog), once, and goes on live. It is
    // made from another view: the terminal view then loads hidden (a terminal exists), its xterm mounts there, and the
    // shell keeps its size. It used to be resized to about 10×6 (the fit read the hidden box's "100%" as 100 px), and
    // bash, back at full width, moved up over its prompt's former lines and cleared them: the pane showed only the
    // prompt (seen under load in whole runs, where the reload's view switch came after the xterm had mounted).
    const size = await page.evaluate(shellSize);
    await page.getByTestId('nav-project').click();
    await page.reload();
    await page.locator('[data-testid="terminal-pane"] .xterm-helper-textarea').first().waitFor({ state: 'attached' });
    expect(await page.getByTestId('terminal-pane').isVisible()).toBe(false);
    expect(await page.evaluate(shellSize)).toEqual(size);
    await page.getByTestId('nav-terminal').click();
    await page.getByRole('tab', { name: /shell/ }).first().waitFor();
    const rows = () => page.locator('[data-testid="terminal-pane"] .xterm-rows').first().innerText();
    // What the page holds if the backlog is not there (its tabs, each pane's rows, an error line) goes with the
    // failure, and a screenshot beside the others.
    await expect.poll(rows, { timeout: 15_000 }).toContain(`sum=42 in ${project}`).catch(async (err: Error) => {
      await page.screenshot({ path: join(artifacts, 'terminal-reload-failed.png') }).catch(() => {});
      const tabs = await page.getByRole('tab').allInnerTexts().catch(() => []);
      const panes = await page.locator('[data-testid="terminal-pane"] .xterm-rows').allInnerTexts().catch(() => []);
      const alerts = await page.getByRole('alert').allInnerTexts().catch(() => []);
      throw new Error(`${err.message}\ntabs: ${JSON.stringify(tabs)}\npanes: ${JSON.stringify(panes)}\nalerts: ${JSON.stringify(alerts)}`);
    });
    // The new xterm starts at the shell's size, so the backlog lays out as it did: "Z" is still in column 100 (it
    // was in column 80 when the backlog was replayed into an 80-column xterm and then widened).
    expect(await rows()).toMatch(placed);
    const again = page.locator('.xterm-helper-textarea').first();
    await again.focus();
    await page.keyboard.type('echo "after=$((6*8))"');
    await page.keyboard.press('Enter');
    await expect.poll(rows, { timeout: 15_000 }).toContain('after=48');
    expect((await rows()).split('sum=42 in').length - 1).toBe(1);
    // Many terminals at 1024 px: the strip shows the active one, the rest are a menu away.
    await page.setViewportSize({ width: 1024, height: 700 });
    const strip = page.getByRole('tablist', { name: 'Terminals' });
    const shown = strip.locator('[aria-selected="true"][role="tab"]');
    // Every terminal, in the strip or in the menu ("N more ▾").
    const total = async () => (await strip.getByRole('tab').count()) + ((await page.getByTestId('terminal-more').count()) ? Number((await page.getByTestId('terminal-more').textContent())!.split(' ')[0]) : 0);
    for (let i = 0; i < 8; i++) {
      const before = await total();
      await page.getByRole('button', { name: /New shell/ }).click();
      await expect.poll(total).toBe(before + 1);
    }
    // Each shell's login profile has run (its prompt is out) before the test stops them: login shells killed
    // mid-startup can leave their profile's lock behind (pyenv rehash's .pyenv-shim), and every later login shell on
    // the machine then waits a minute for it, printing nothing (how "sum=42 never shown" was reproduced).
    await expect.poll(() => page.evaluate(startingShells), { timeout: 30_000 }).toEqual([]);
    await page.getByTestId('terminal-more').waitFor();
    const activeBox = await shown.boundingBox();
    expect(activeBox && activeBox.x >= 0 && activeBox.x + activeBox.width <= 1024).toBe(true);
    await page.getByTestId('terminal-more').click();
    // Tabs grouped, the menu open: axe finds nothing critical or serious.
    expect(await axeSerious(page)).toEqual([]);
    await page.getByTestId('terminal-more-list').getByRole('button').first().click();
    const firstBox = await shown.boundingBox();
    expect(firstBox && firstBox.x >= 0 && firstBox.x + firstBox.width <= 1024).toBe(true);
    await page.screenshot({ path: join(artifacts, 'terminal-many-tabs-1024x700.png') });
    expect(await shown.getAttribute('data-tab')).toBe(await strip.getByRole('tab').first().getAttribute('data-tab'));
    await page.getByRole('button', { name: /Stop shell/ }).click();
    await expect.poll(() => page.locator('[data-testid^="terminal-status-"]').first().textContent()).not.toBe('running');
    expect(errors).toEqual([]);
    await page.close();
    rmSync(project, { recursive: true, force: true });
  });
});
