// The session view in Chromium against `erasmus serve`: a task typed in the composer, the scripted
// model's streamed answer, an approval card for a file write through the real filesystem MCP server
// (with its diff), then a destructive command through the runners — confirmed to the runners server
// (MCP elicitation, one question) — whose output appears in the terminal tab.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openApp, openProject, showView, useUiWorld } from './ui-helpers';

describe('desktop UI: a session with an approval and a command in the terminal', () => {
  const ui = useUiWorld((project) => [
    { label: 'open filesystem', match: { lastUser: 'Create hello.txt' }, toolCalls: [{ name: 'open_toolset', arguments: { name: 'filesystem' } }] },
    { label: 'write', toolCalls: [{ name: 'filesystem__write_file', arguments: { path: join(project, 'hello.txt'), content: 'hello from erasmus\nsecond line\n' } }] },
    // Reached only when the message the user sent while the write waited arrived at the model's next turn.
    { label: 'open runners', match: { lastTool: 'Successfully wrote', lastUser: 'then show it in the terminal' }, toolCalls: [{ name: 'open_toolset', arguments: { name: 'runners' } }] },
    { label: 'run', toolCalls: [{ name: 'runners__bash_run', arguments: { command: 'node -e "0" && echo runner-says-hi && cat hello.txt' } }] },
    { label: 'run again', match: { lastTool: 'runner-says-hi' }, toolCalls: [{ name: 'runners__bash_run', arguments: { command: 'node -e "1" && echo second-ok' } }] },
    { label: 'answer', match: { lastTool: 'second-ok' }, text: 'I wrote **hello.txt** and printed it in the terminal.', chunkSize: 3, delayMs: 5 },
  ]);

  it('asks before a write, shows the diff, runs the command live in the terminal, and streams the answer', async () => {
    const app = await openApp(ui.browser, ui.world.serve.url);
    const { page } = app;
    await openProject(page, ui.world.project);

    await showView(page, 'Alt+3', 'session');
    await page.getByTestId('session-empty').waitFor();
    await page.getByTestId('composer').fill('Create hello.txt with a greeting, then show it');
    await page.getByTestId('composer').press('Enter');

    const card = page.locator('[data-testid="approval-card"][data-state="waiting"]');
    await card.waitFor({ timeout: 30_000 });
    expect(await card.getByTestId('approval-diff').textContent()).toContain('+ hello from erasmus');
    await expect.poll(() => page.getByTestId('status-approvals').textContent()).toContain('1 approval waiting');
    await app.shot('ui-10-approval');
    // Steering: while the agent waits on its call, a message is queued and shown as queued.
    await page.getByTestId('composer').fill('Good, then show it in the terminal');
    await page.getByTestId('composer').press('Enter');
    expect(await page.getByTestId('queued-message').textContent()).toContain('then show it in the terminal');
    await card.getByTestId('approve-once').click();
    await page.locator('[data-testid="approval-card"][data-state="allow_once"]').waitFor();
    // At the next turn the model reads it, after the write's result: the transcript shows it there.
    await page.locator('[data-testid="user-message"][data-steered="true"]', { hasText: 'then show it in the terminal' }).waitFor({ timeout: 15_000 });
    expect(await page.getByTestId('queued-message').count()).toBe(0);
    // The transcript can show the message a moment before the request that carries it reaches the model: poll.
    await expect.poll(() => ui.world.llm.requests.some((r) => r.body.messages?.at(-1)?.role === 'user' && String(r.body.messages.at(-1)!.content).includes('Good, then show it in the terminal'))).toBe(true);

    // A command that needs approval (inline code) through the runners: one question, asked by the runners server (MCP
    // elicitation) with the command as it will really run and why it asks.
    const question = page.getByTestId('elicitation-card');
    await question.waitFor({ timeout: 30_000 });
    const message = await question.getByTestId('elicitation-message').textContent();
    expect(message).toContain('node -e "0" && echo runner-says-hi && cat hello.txt');
    // Inline code: asked, and may be always allowed (a destructive command, such as a recursive delete, never may).
    expect(message).toContain('runs inline code');
    expect(await page.locator('[data-testid="approval-card"][data-state="waiting"]').count()).toBe(0);
    await app.shot('ui-11-command-approval');
    // "Always allow", its scope in words: no run drives the project, so it is kept for the project.
    expect(await question.getByTestId('elicitation-always-run').count()).toBe(0);
    const always = question.getByTestId('elicitation-always-project');
    expect(await always.textContent()).toBe('Always allow running commands in the sandbox in this project');
    await always.click();
    await question.waitFor({ state: 'detached' });
    // The next such command is not asked; the transcript says it was allowed, and by which answer.
    const auto = page.locator('[data-testid="question-answered"]', { hasText: 'Allowed without asking: Run node -e "1"' });
    await auto.waitFor({ timeout: 30_000 });
    expect(await auto.getByTestId('question-always').textContent()).toBe('you chose “Always allow running commands in the sandbox in this project”');
    expect(await page.getByTestId('elicitation-card').count()).toBe(0);
    expect(JSON.parse(readFileSync(join(ui.world.root, 'home', 'trust', 'approvals.json'), 'utf8'))).toEqual({ projects: { [ui.world.project]: ['commands.sandboxed'] } });

    await page.locator('[data-testid="assistant-message"]', { hasText: 'printed it in the terminal' }).waitFor({ timeout: 30_000 });
    expect(await page.locator('[data-testid="assistant-message"] strong').first().textContent()).toBe('hello.txt');
    const cards = await page.locator('[data-testid="tool-card"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-status')));
    expect(cards.filter((s) => s === 'done').length).toBeGreaterThanOrEqual(3);
    await app.shot('ui-12-session');
    expect(readFileSync(join(ui.world.project, 'hello.txt'), 'utf8')).toBe('hello from erasmus\nsecond line\n');

    await page.getByTestId('nav-terminal').click();
    const tab = page.getByRole('tab', { name: /runner-says-hi/ });
    await tab.waitFor({ timeout: 15_000 });
    await tab.click();
    await expect.poll(() => page.locator('[data-testid="terminal-pane"] .xterm-rows').first().innerText(), { timeout: 15_000 }).toContain('runner-says-hi');
    await expect.poll(() => page.locator('[data-testid="terminal-pane"] .xterm-rows').first().innerText()).toContain('hello from erasmus');
    await app.shot('ui-13-terminal');
    expect(await page.getByTestId('toast').filter({ hasText: 'Approval needed' }).count()).toBe(0); // settled approvals leave no toast

    // The project view lists what is always allowed there, and takes it back.
    await page.getByTestId('nav-project').click();
    expect(await page.getByTestId('always-allowed-kind').textContent()).toContain('Running commands in the sandbox, without asking');
    await page.getByTestId('revoke-commands.sandboxed').click();
    await page.getByTestId('always-allowed').waitFor({ state: 'detached' });
    expect(JSON.parse(readFileSync(join(ui.world.root, 'home', 'trust', 'approvals.json'), 'utf8'))).toEqual({ projects: {} });
    await page.getByTestId('nav-terminal').click();

    // A reload comes back to the view the user was in, and the chat stays listed (read from its log).
    await page.reload();
    await page.locator('[data-testid="app-shell"][data-view="terminal"]').waitFor();
    await showView(page, 'Alt+3', 'session');
    await expect.poll(() => page.getByTestId('session-item-title').allTextContents(), { timeout: 15_000 }).toContain('Create hello.txt with a greeting, then show it');

    // The servers behind it: the real filesystem server from mcp/config.json and the in-process runners.
    await page.keyboard.press('Alt+5');
    await page.locator('[data-testid="server-filesystem"][data-state="ready"]').waitFor({ timeout: 15_000 });
    await page.locator('[data-testid="server-runners"][data-state="ready"]').waitFor();
    await page.getByTestId('server-filesystem').click();
    await expect.poll(() => page.getByTestId('server-tools').textContent()).toContain('write_file');
    await page.getByRole('tab', { name: 'stderr' }).click();
    await page.getByTestId('server-log').waitFor();
    await app.shot('ui-14-servers');
    // A suggested server shows exactly what it would run before the user trusts it.
    await page.getByTestId('catalog-enable-memory').click();
    expect(await page.getByTestId('trust-preview').textContent()).toContain('@modelcontextprotocol/server-memory');
    await app.shot('ui-15-trust-preview');

    expect(app.errors).toEqual([]);
    await page.context().close();
  });
});
