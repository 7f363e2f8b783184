// The desktop UI in Chromium against `erasmus serve`, on the default path a new user has: an
// ERASMUS_HOME holding one provider and nothing else, a fresh `git init` folder, the built-in
// toolsets only. Open the folder by path, answer the goal question, watch the documents arrive,
// confirm the plan, answer the files server's overwrite questions on the timeline, and follow the
// run to COMPLETED with a commit per component and a clean tree.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedLlm, type ScriptedLlm } from '../fixtures/scripted-llm/index';
import { launchChromium } from '../support/browser';
import { startServe, type ServeHandle } from '../support/serve';
import { ARTIFACTS, openApp, openProject } from './ui-helpers';
import { defaultPathScript, defaultWorld, gitState, type DefaultWorld } from './workflow-default';

describe('desktop UI: a fresh folder from goal to completed run, with the defaults only', () => {
  let world: DefaultWorld;
  let llm: ScriptedLlm;
  let serve: ServeHandle;
  let browser: Browser;
  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    llm = await startScriptedLlm(defaultPathScript('native'));
    world = await defaultWorld(llm.baseUrl, { nativeTools: true });
    serve = await startServe({ ERASMUS_HOME: world.home });
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await serve?.stop();
    await llm?.close();
    if (world) rmSync(world.root, { recursive: true, force: true });
  });

  it('opens by path, asks the goal, shows the documents and the plan, and runs to completion', async () => {
    const app = await openApp(browser, serve.url);
    const { page } = app;
    await page.getByTestId('welcome').waitFor();
    await app.shot('ui-01-welcome');

    await openProject(page, world.project);
    expect(await page.getByTestId('project-facts').textContent()).toContain('a git repository');
    expect(await page.getByTestId('project-runners').textContent()).toContain('bash');

    await page.getByTestId('unattended').check();
    await page.getByTestId('start-workflow').click();
    await page.getByTestId('goal-question').waitFor();
    // A fresh folder has no README to suggest a goal from: the box is empty and nothing is offered.
    expect(await page.getByTestId('goal-suggestion').count()).toBe(0);
    await app.shot('ui-02-goal-question');
    await page.getByTestId('goal-input').fill('a function that adds two numbers, with tests');
    await page.getByTestId('goal-submit').click();

    await page.getByTestId('plan-review').waitFor({ timeout: 60_000 });
    await page.getByTestId('plan-component-adder').waitFor();
    // A task edited in place on the plan card is saved into the task list, and the card shows it rendered (markdown).
    await page.getByTestId('plan-task-A2').getByTestId('task-edit').click();
    await page.getByTestId('task-title-input').fill('Test `add` with `-1  -2` (two spaces)');
    await page.getByTestId('task-title-save').click();
    await expect.poll(() => page.getByTestId('plan-task-A2').getByTestId('plan-task-title').innerHTML(), { timeout: 15_000 }).toContain('<code>add</code>');
    // Spaces in a task are shown as written (a browser collapses them unless told not to).
    expect(await page.getByTestId('plan-task-A2').getByTestId('plan-task-title').innerText()).toBe('Test add with -1  -2 (two spaces)');
    // The documents the preparation wrote, rendered as markdown.
    await expect.poll(() => page.getByTestId('doc-architecture').innerHTML()).toContain('<strong>adder</strong>');
    await app.shot('ui-03-plan');
    await page.getByTestId('confirm-plan').click();

    await page.getByTestId('nav-timeline').click();
    await page.getByTestId('timeline').waitFor();
    await page.locator('[data-testid="timeline-block"][data-status="current"], [data-testid="timeline-block"][data-status="waiting"], [data-testid="elicitation-card"], [data-testid="timeline"][data-status="COMPLETED"]').first().waitFor({ timeout: 30_000 });
    await app.shot('ui-04-timeline-running');
    // The files server asks before it replaces a file (debugging, fixes, final README): the question shows on the timeline.
    let answered = 0;
    const deadline = Date.now() + 150_000;
    while (!(await page.locator('[data-testid="timeline"][data-status="COMPLETED"]').count())) {
      if (Date.now() > deadline) throw new Error(`the run did not complete: ${await page.getByTestId('timeline').textContent()}`);
      const card = page.getByTestId('elicitation-card').first();
      if (await card.count()) {
        expect(await card.getByTestId('elicitation-message').textContent()).toMatch(/Overwrite the existing file/);
        if (answered === 0) await app.shot('ui-04b-overwrite-question');
        await card.getByTestId('elicitation-accept').click();
        answered++;
      }
      await page.waitForTimeout(100);
    }
    expect(answered).toBe(3);

    // Lanes per component, the failed test run shown as fixed (a later run passed), then the retry that passed.
    await page.getByTestId('lane-adder').waitFor();
    const blocks = await page.locator('[data-testid="lane-adder"] [data-testid="timeline-block"]').evaluateAll((els) => els.map((e) => `${e.getAttribute('data-state')}=${e.getAttribute('data-status')}`));
    expect(blocks).toContain('adder:testing=fixed');
    expect(blocks).toContain('adder:retesting=done');
    expect(blocks.some((b) => b.endsWith('=current') || b.endsWith('=waiting'))).toBe(false);
    // Steps in run order, one column each: no block overlaps another or spills past its lane.
    const boxes = await page.locator('[data-testid="timeline-block"]').evaluateAll((els) => els.map((e) => { const r = e.getBoundingClientRect(); const lane = e.parentElement!.getBoundingClientRect(); return { l: r.left, r: r.right, laneR: lane.right, laneL: lane.left }; }));
    const sorted = [...boxes].sort((a, b) => a.l - b.l);
    for (let i = 1; i < sorted.length; i++) expect(sorted[i]!.l).toBeGreaterThanOrEqual(sorted[i - 1]!.r - 0.5);
    for (const b of boxes) expect(b.r).toBeLessThanOrEqual(b.laneR + 0.5);

    // A block opens its step details: the files the step touched, its prompt, and its session link.
    await page.locator('[data-testid="timeline-block"][data-state="adder:development"]').click();
    await page.getByTestId('step-details').waitFor();
    expect(await page.getByTestId('step-files').textContent()).toContain('src/adder.mjs');
    await page.getByTestId('step-prompt-details').locator('summary').click();
    expect(await page.getByTestId('step-prompt-text').textContent()).toContain('Implement the open tasks of this component.');
    // The failed test run keeps the end of what the tests printed.
    await page.locator('[data-testid="timeline-block"][data-state="adder:testing"]').first().click();
    await page.getByTestId('step-test-output').locator('summary').click();
    expect((await page.getByTestId('step-test-output').textContent())!.length).toBeGreaterThan(40);
    // The plan as its state machine: a row per part, each protocol state with how it went.
    await page.getByTestId('timeline-mode-machine').click();
    await page.getByTestId('machine-row-adder').waitFor();
    const states = await page.locator('[data-testid="machine-row-adder"] [data-testid="machine-state"]').evaluateAll((els) => Object.fromEntries(els.map((e) => [e.getAttribute('data-state'), e.getAttribute('data-status')])));
    expect(states).toMatchObject({ 'adder:development': 'done', 'adder:testing': 'fixed', 'adder:commit': 'done', 'adder:redebugging': 'pending' });
    expect(await page.locator('[data-testid="machine-state"][data-status="current"]').count()).toBe(0);
    await app.shot('ui-05a-state-machine');
    await page.locator('[data-testid="machine-state"][data-state="adder:development"]').click();
    await page.getByTestId('timeline-mode-order').click();
    await page.locator('[data-testid="timeline-block"][data-state="adder:development"]').click();
    await page.getByTestId('open-step-session').click();
    await page.getByTestId('session-view').waitFor();
    await page.locator('[data-testid="tool-card"]').first().waitFor();
    await app.shot('ui-05-step-session');

    await page.getByTestId('nav-timeline').click();
    await expect.poll(() => page.getByTestId('status-state').textContent()).toBe('Completed');
    // The task edited on the plan card is the one the model was given.
    expect(llm.requests.some((r) => JSON.stringify(r.body).includes('A2: Test `add` with `-1  -2` (two spaces)'))).toBe(true);
    await expect.poll(async () => (await app.notifications()).map((n) => n.title)).toContain('Workflow complete');
    await page.getByTestId('toast').filter({ hasText: 'Workflow complete' }).first().waitFor();
    await app.shot('ui-06-completed');
    // The test runs' terminals are named by the step they ran in (with their time), not all "tests: …".
    await page.getByTestId('nav-terminal').click();
    // Grouped per step; those that do not fit beside the active one are in the "more" menu.
    await page.getByRole('tablist', { name: 'Terminals' }).getByRole('tab').first().waitFor();
    if (await page.getByTestId('terminal-more').count()) await page.getByTestId('terminal-more').click();
    const terminal = (step: RegExp) => page.locator('[role="tablist"][aria-label="Terminals"] [role="tab"], [data-testid="terminal-more-list"] button').filter({ hasText: step }).first();
    await terminal(/^adder · testing: /).waitFor();
    await terminal(/^adder · retesting: /).waitFor();
    await page.getByTestId('terminal-group').first().waitFor();
    await page.getByTestId('nav-timeline').click();

    // Dark theme, switched from the keyboard alone: Alt+6 opens Settings, Tab reaches the theme choice.
    await page.keyboard.press('Alt+6');
    await page.getByTestId('settings-view').waitFor();
    await page.getByTestId('theme-dark').focus();
    await page.keyboard.press('Space');
    await expect.poll(() => page.evaluate('document.documentElement.classList.contains("dark")')).toBe(true);
    await page.keyboard.press('Alt+2');
    await page.getByTestId('timeline').waitFor();
    await page.locator('[data-testid="timeline-block"]').first().focus();
    await app.shot('ui-07-timeline-dark');
    // The choice is kept by the core (browser mode gets a new origin on every port): a new window starts dark.
    const again = await openApp(browser, serve.url);
    await expect.poll(() => again.page.evaluate('document.documentElement.classList.contains("dark")')).toBe(true);
    // That window saw none of the run's sessions: its Sessions list reads them from the run, grouped
    // under the project and the run (titled by its goal), each step named, a repeated step by attempt.
    await openProject(again.page, world.project);
    await again.page.getByTestId('nav-session').click();
    const runGroup = again.page.getByRole('region', { name: 'Run: a function that adds two numbers, with tests' });
    await runGroup.waitFor();
    expect(await runGroup.getByTestId('session-run-toggle').getAttribute('aria-expanded')).toBe('true');
    expect(await runGroup.getByTestId('session-run-title').textContent()).toBe('a function that adds two numbers, with tests');
    const stepTitles = await runGroup.getByTestId('session-item-title').allTextContents();
    expect(stepTitles[0]).toBe('Preparation · architecture');
    expect(stepTitles).toContain('adder · development');
    expect(stepTitles).toContain('Final · review');
    await runGroup.getByRole('button', { name: /^adder · development/ }).click();
    await expect.poll(() => again.page.getByTestId('session-title').textContent()).toBe('adder · development');
    await again.page.locator('[data-testid="tool-card"]').first().waitFor();
    await again.shot('ui-06b-sessions-grouped');
    await again.page.context().close();

    expect(readFileSync(join(world.project, 'src/adder.mjs'), 'utf8')).toContain('a + b');
    expect(llm.remaining()).toBe(0);
    const git = gitState(world.project);
    expect(git.log).toEqual(['Add end-to-end tests and update the documentation', 'Add adder, which adds two numbers']);
    expect(git.dirty).toBe('');
    // A fresh repository's history starts on its own branch, a commit per component: nothing to squash or merge back.
    expect(execFileSync('git', ['branch', '--format=%(refname:short)'], { cwd: world.project, encoding: 'utf8' }).trim()).toBe('main');
    await page.getByTestId('nav-project').click();
    await page.getByTestId('run-summary').waitFor();
    expect(await page.getByTestId('finish-squash').count()).toBe(0);
    expect(app.errors).toEqual([]);
    await page.context().close();
  });
});
