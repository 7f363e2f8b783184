// Approvals in Chromium against `erasmus serve`, the bugs a user met: the second session's approval
// kept its buttons disabled (the card of the first one was reused), an overwrite showed the whole file
// as added lines, the "Approval needed" toast vanished while the approval still waited and could not be
// clicked, "Always allow" did not say what it covers, a server's question took no focus and left no
// trace, and the session's own task was never shown.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openApp, openProject, showView, useUiWorld } from './ui-helpers';

describe('desktop UI: approvals that are right every time and findable', () => {
  const ui = useUiWorld((project) => [
    { label: 'A: open filesystem', match: { lastUser: 'Update the README' }, toolCalls: [{ name: 'open_toolset', arguments: { name: 'filesystem' } }] },
    { label: 'A: overwrite', toolCalls: [{ name: 'filesystem__write_file', arguments: { path: join(project, 'README.md'), content: '# adder\n\nAdds two numbers.\n' } }] },
    { label: 'A: done', match: { lastTool: 'Successfully wrote' }, text: 'README updated.' },
    { label: 'B: open filesystem', match: { lastUser: 'Write notes.txt' }, toolCalls: [{ name: 'open_toolset', arguments: { name: 'filesystem' } }] },
    { label: 'B: write', toolCalls: [{ name: 'filesystem__write_file', arguments: { path: join(project, 'notes.txt'), content: 'remember the milk\n' } }] },
    { label: 'B: open runners', match: { lastTool: 'Successfully wrote' }, toolCalls: [{ name: 'open_toolset', arguments: { name: 'runners' } }] },
    { label: 'B: run', toolCalls: [{ name: 'runners__bash_run', arguments: { command: 'rm -rf build && cat notes.txt' } }] },
    { label: 'B: done', match: { lastTool: 'remember the milk' }, text: 'Notes written and shown.' },
  ]);

  it('answers a second session’s approval, diffs against the file on disk, keeps the toast and the question', async () => {
    const app = await openApp(ui.browser, ui.world.serve.url);
    const { page } = app;
    await openProject(page, ui.world.project);

    // Session A overwrites README.md: the diff is against the file as it is, not the whole file as new.
    await showView(page, 'Alt+3', 'session');
    await page.getByTestId('session-empty').waitFor();
    await page.getByTestId('composer').fill('Update the README');
    await page.getByTestId('composer').press('Enter');
    await expect.poll(() => page.getByTestId('user-message').first().textContent(), { timeout: 30_000 }).toBe('Update the README');
    const first = page.locator('[data-testid="approval-card"][data-state="waiting"]');
    await first.waitFor({ timeout: 30_000 });
    await page.locator('[data-testid="approval-diff"][data-ready="true"]').waitFor();
    const diff = await first.getByTestId('approval-diff').innerText();
    expect(diff).toContain('- A tiny sample project');
    expect(diff).toContain('+ Adds two numbers.');
    expect(diff).toContain('  # adder');
    expect(diff).not.toContain('+ # adder');
    expect(await first.getByTestId('approve-always').textContent()).toBe('Always allow the filesystem tool “write file” for the rest of this session');
    await app.shot('approvals-01-overwrite-diff');
    await first.getByTestId('approve-once').click();
    await page.locator('[data-testid="approval-card"][data-state="allow_once"]').waitFor();
    await page.locator('[data-testid="assistant-message"]', { hasText: 'README updated.' }).waitFor({ timeout: 30_000 });

    // Session B: its first approval has the same request id as A's; its buttons must be live.
    await page.getByRole('button', { name: '+ New session' }).click();
    await page.getByTestId('composer').fill('Write notes.txt');
    await page.getByTestId('composer').press('Enter');
    const second = page.locator('[data-testid="approval-card"][data-state="waiting"]');
    await second.waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('user-message').first().textContent()).toBe('Write notes.txt');
    expect(await second.getByTestId('approve-once').isEnabled()).toBe(true);
    // The note reads "reading the current file…" until the core answers project.fileText.
    await expect.poll(() => second.getByTestId('approval-diff-note').textContent()).toContain('a new file');

    // The toast stays while the approval waits, and its button leads back to it from another view.
    await page.keyboard.press('Alt+1');
    // Longer than any fading toast lasts (8 s); Playwright's fake clock would also stall the terminal's output.
    await page.waitForTimeout(9000);
    const toast = page.getByTestId('toast').filter({ hasText: 'Approval needed' });
    expect(await toast.count()).toBe(1);
    await app.shot('approvals-02-toast');
    await toast.getByTestId('toast-action').click();
    await second.waitFor();
    await second.getByTestId('approve-once').click();
    await expect.poll(() => toast.count()).toBe(0);

    // The runners' question appears in the transcript, takes the focus, and stays there answered.
    const question = page.getByTestId('transcript').getByTestId('elicitation-card');
    await question.waitFor({ timeout: 30_000 });
    await expect.poll(() => page.evaluate("document.activeElement?.getAttribute('data-testid')")).toBe('elicitation-accept');
    await app.shot('approvals-03-question');
    await page.keyboard.press('Enter');
    await page.locator('[data-testid="question-answered"][data-state="accept"]').waitFor();
    expect(await page.getByTestId('question-answered').textContent()).toContain('rm -rf build && cat notes.txt');
    await page.locator('[data-testid="assistant-message"]', { hasText: 'Notes written and shown.' }).waitFor({ timeout: 30_000 }).catch(async (e: Error) => {
      await app.shot('approvals-fail');
      throw new Error(`${e.message}\n${await page.getByTestId('transcript').innerText()}`);
    });

    expect(readFileSync(join(ui.world.project, 'README.md'), 'utf8')).toBe('# adder\n\nAdds two numbers.\n');
    expect(app.errors).toEqual([]);
    await page.context().close();
  });
});
