// The desktop UI in Chromium against `erasmus serve`: open the sample project by path, answer the goal
// question, watch the documents arrive, confirm the plan, and follow the timeline to completion with
// the scripted model doing every step through the real filesystem MCP server.
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../support/browser';
import { ARTIFACTS, openApp, step, uiWorld, type UiWorld } from './ui-helpers';

const TASKS = '# Task list\n\n## Component: adder — adds two numbers\nTest: node --test test/\n- [ ] A1: Implement add(a, b) in src/adder.mjs\n- [ ] A2: Test add\n';

describe('desktop UI: a project from goal to completed run', () => {
  let world: UiWorld;
  let browser: Browser;
  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    world = await uiWorld((project) => {
      const p = (rel: string) => join(project, rel);
      return [
        ...step('Write the architecture document', 'architecture', [], '# Architecture\n\nOne component, **adder**: `add(a, b)`.\n'),
        ...step('Break the architecture into a progress schedule', 'schedule', [], '# Schedule\n\n1. adder\n'),
        ...step('Turn the progress schedule into a task list', 'task list', [], TASKS),
        ...step('Implement the open tasks', 'development', [[p('src/adder.mjs'), 'export function add(a, b) {\n  return a - b;\n}\n']], 'Implemented. Done.'),
        ...step('Write the tests of this component', 'testing', [[p('test/adder.test.mjs'), "import { test } from 'node:test';\nimport assert from 'node:assert/strict';\nimport { add } from '../src/adder.mjs';\ntest('adds', () => assert.equal(add(2, 3), 5));\n"]], 'Tests written. Done.'),
        ...step('The tests fail (output below)', 'debugging', [[p('src/adder.mjs'), 'export function add(a, b) {\n  return a + b;\n}\n']], 'Fixed the operator. Done.'),
        ...step('Review this component', 'review', [], '# Review: adder\n\nVerdict: good.\n'),
        ...step('Address every point of the review report', 'fixes', [], 'Nothing to fix. Done.'),
        ...step('Document this component', 'documentation', [[p('README.md'), '# adder\n\nadd(a, b) returns a + b.\n']], 'Documented. Done.'),
        ...step('Run the component tests again', 'retesting', [], 'They pass. Done.'),
        ...step('Test the product end to end', 'e2e', [], 'End to end: fine. Done.'),
        ...step('Write the final documentation', 'final docs', [], 'The README is complete. Done.'),
        ...step('Review the whole product', 'final review', [], '# Final review\n\nGood.\n'),
      ];
    });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await world?.cleanup();
  });

  it('opens by path, asks the goal, shows the documents and the plan, and runs to completion', async () => {
    const app = await openApp(browser, world.serve.url);
    const { page } = app;
    await page.getByTestId('welcome').waitFor();
    await app.shot('ui-01-welcome');

    await page.getByTestId('project-path').fill(world.project);
    await page.getByTestId('open-path').click();
    await page.getByTestId('project-facts').waitFor();
    expect(await page.getByTestId('project-facts').textContent()).toContain('a git repository');
    expect(await page.getByTestId('project-runners').textContent()).toContain('bash');

    await page.getByTestId('unattended').check();
    await page.getByTestId('start-workflow').click();
    await page.getByTestId('goal-question').waitFor();
    await app.shot('ui-02-goal-question');
    await page.getByTestId('goal-input').fill('a function that adds two numbers, with tests');
    await page.getByTestId('goal-submit').click();

    await page.getByTestId('plan-review').waitFor({ timeout: 60_000 });
    await page.getByTestId('plan-component-adder').waitFor();
    // The documents the preparation wrote, rendered as markdown.
    await expect.poll(() => page.getByTestId('doc-architecture').innerHTML()).toContain('<strong>adder</strong>');
    await app.shot('ui-03-plan');
    await page.getByTestId('confirm-plan').click();

    await page.getByTestId('nav-timeline').click();
    await page.getByTestId('timeline').waitFor();
    await page.locator('[data-testid="timeline-block"][data-status="current"], [data-testid="timeline"][data-status="COMPLETED"]').first().waitFor({ timeout: 30_000 });
    await app.shot('ui-04-timeline-running');
    await page.locator('[data-testid="timeline"][data-status="COMPLETED"]').waitFor({ timeout: 120_000 });

    // Lanes per component, the failed test run shown as fixed (a later run passed), then the retry that passed.
    await page.getByTestId('lane-adder').waitFor();
    const blocks = await page.locator('[data-testid="lane-adder"] [data-testid="timeline-block"]').evaluateAll((els) => els.map((e) => `${e.getAttribute('data-state')}=${e.getAttribute('data-status')}`));
    expect(blocks).toContain('adder:testing=fixed');
    expect(blocks).toContain('adder:retesting=done');
    expect(blocks.some((b) => b.endsWith('=current'))).toBe(false);
    // Steps in run order, one column each: no block overlaps another or spills past its lane.
    const boxes = await page.locator('[data-testid="timeline-block"]').evaluateAll((els) => els.map((e) => { const r = e.getBoundingClientRect(); const lane = e.parentElement!.getBoundingClientRect(); return { l: r.left, r: r.right, laneR: lane.right, laneL: lane.left }; }));
    const sorted = [...boxes].sort((a, b) => a.l - b.l);
    for (let i = 1; i < sorted.length; i++) expect(sorted[i]!.l).toBeGreaterThanOrEqual(sorted[i - 1]!.r - 0.5);
    for (const b of boxes) expect(b.r).toBeLessThanOrEqual(b.laneR + 0.5);

    // A block opens its step details and the step's session link.
    await page.locator('[data-testid="timeline-block"][data-state="adder:development"]').click();
    await page.getByTestId('step-details').waitFor();
    await page.getByTestId('open-step-session').click();
    await page.getByTestId('session-view').waitFor();
    await page.locator('[data-testid="tool-card"]').first().waitFor();
    await app.shot('ui-05-step-session');

    await page.getByTestId('nav-timeline').click();
    await expect.poll(() => page.getByTestId('status-state').textContent()).toBe('Completed');
    await expect.poll(async () => (await app.notifications()).map((n) => n.title)).toContain('Workflow complete');
    await page.getByTestId('toast').filter({ hasText: 'Workflow complete' }).first().waitFor();
    await app.shot('ui-06-completed');

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
    const again = await openApp(browser, world.serve.url);
    await expect.poll(() => again.page.evaluate('document.documentElement.classList.contains("dark")')).toBe(true);
    await again.page.context().close();

    expect(readFileSync(join(world.project, 'src/adder.mjs'), 'utf8')).toContain('a + b');
    expect(app.errors).toEqual([]);
    await page.context().close();
  });
});
