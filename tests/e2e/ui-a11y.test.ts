// Every view in Chromium against `erasmus serve`, in both themes and at two window sizes (1280×800 and
// the small 1024×700): a screenshot of each under tests/e2e/artifacts/, and axe-core finds no critical
// or serious violation. The views hold real content: a completed workflow run, a session with an
// approval waiting, a terminal tab, the configured servers.
import { mkdirSync } from 'node:fs';
import { writeFinishedRun } from '../fixtures/workflow/finished-run';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../support/browser';
import { axeSerious, type AxeFinding } from './a11y';
import { ARTIFACTS, openApp, step, uiWorld, type UiWorld } from './ui-helpers';
import { adderClosingSteps } from './workflow-helpers';

const TASKS = '# Task list\n\n## Component: adder — adds two numbers\nTest: node --test test/\n- [ ] A1: Implement add(a, b) in src/adder.mjs\n';
const VIEWS = ['project', 'timeline', 'session', 'terminal', 'servers', 'settings'] as const;
const SIZES = [
  { name: '1280x800', width: 1280, height: 800 },
  { name: '1024x700', width: 1024, height: 700 },
];

async function setTheme(page: Page, theme: 'light' | 'dark') {
  await page.getByTestId('nav-settings').click();
  await page.getByTestId(`theme-${theme}`).check();
  await page.waitForFunction(`document.documentElement.classList.contains('dark') === ${theme === 'dark'}`);
}

describe('desktop UI: every view, both themes, two sizes — screenshots and axe-core', () => {
  let world: UiWorld;
  let browser: Browser;
  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    world = await uiWorld((project) => {
      const p = (rel: string) => join(project, rel);
      const test = "import { test } from 'node:test';\nimport assert from 'node:assert/strict';\nimport { add } from '../src/adder.mjs';\ntest('A1: adds two numbers', () => assert.equal(add(2, 3), 5));\ntest('A2: adds a negative number', () => assert.equal(add(-1, 1), 0));\n";
      return [
        ...step('Write the architecture document', 'architecture', [], '# Architecture\n\nOne component, **adder**.\n'),
        ...step('Break the architecture into a progress schedule', 'schedule', [], '# Schedule\n\n1. adder\n'),
        ...step('Turn the progress schedule into a task list', 'task list', [], TASKS),
        ...step('Implement the open tasks', 'development', [[p('src/adder.mjs'), 'export function add(a, b) {\n  return a + b;\n}\n']], 'Implemented. Done.'),
        ...step('Write the tests of this component', 'testing', [[p('test/adder.test.mjs'), test]], 'Tests written. Done.'),
        ...step('Review this component', 'review', [], '# Review: adder\n\nVerdict: good.\n'),
        ...step('Address every point of the review report', 'fixes', [], 'Nothing to fix. Done.'),
        ...adderClosingSteps(p('README.md')),
        { label: 'chat: open filesystem', match: { lastUser: 'Write notes.txt' }, toolCalls: [{ name: 'open_toolset', arguments: { name: 'filesystem' } }] },
        { label: 'chat: write', match: { lastTool: 'is open' }, toolCalls: [{ name: 'filesystem__write_file', arguments: { path: p('notes.txt'), content: 'remember the milk\n' } }] },
        { label: 'chat: done', match: { lastTool: 'Successfully wrote' }, text: 'Wrote **notes.txt**.' },
      ];
    });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await world?.cleanup();
  });

  it('has no critical or serious axe-core violation in any view', async () => {
    const app = await openApp(browser, world.serve.url);
    const { page } = app;
    const found: Record<string, AxeFinding[]> = {};
    const check = async (name: string) => {
      await page.waitForTimeout(150); // transitions settle (the app has none longer)
      await page.screenshot({ path: join(ARTIFACTS, `views-${name}.png`) });
      const v = await axeSerious(page);
      if (v.length) found[name] = v;
    };
    await page.getByTestId('welcome').waitFor();
    for (const theme of ['light', 'dark'] as const) {
      await setTheme(page, theme);
      await page.getByTestId('nav-project').click();
      for (const size of SIZES) {
        await page.setViewportSize(size);
        await check(`welcome-${theme}-${size.name}`);
      }
    }
    await setTheme(page, 'light');

    // A completed run, a chat session waiting for an approval, a terminal tab.
    await page.getByTestId('nav-project').click();
    await page.getByTestId('project-path').fill(world.project);
    await page.getByTestId('open-path').click();
    await page.getByTestId('unattended').check();
    await page.getByTestId('start-workflow').click();
    // The sample project's README introduction is offered as the goal (axe checks that view too); one click fills the box.
    expect(await page.getByTestId('goal-suggestion').textContent()).toContain('README.md describes this project:adder: A tiny sample project for the workflow tests');
    await check('goal-suggestion-light');
    await setTheme(page, 'dark');
    await page.getByTestId('nav-project').click();
    await page.getByTestId('goal-suggestion').waitFor();
    await check('goal-suggestion-dark');
    await setTheme(page, 'light');
    await page.getByTestId('nav-project').click();
    await page.getByTestId('goal-use-suggestion').click();
    expect(await page.getByTestId('goal-input').inputValue()).toContain('adder: A tiny sample project');
    await page.getByTestId('goal-input').fill('a function that adds two numbers');
    await page.getByTestId('goal-submit').click();
    await page.getByTestId('confirm-plan').click({ timeout: 60_000 });
    await page.getByTestId('nav-timeline').click();
    // The files server asks before it replaces a file (the README in the documentation step): answer it on the timeline.
    const deadline = Date.now() + 120_000;
    while (!(await page.locator('[data-testid="timeline"][data-status="COMPLETED"]').count()) && Date.now() < deadline) {
      const card = page.getByTestId('elicitation-card').first();
      if (await card.count()) await card.getByTestId('elicitation-accept').click().catch(() => {});
      await page.waitForTimeout(100);
    }
    await page.locator('[data-testid="timeline"][data-status="COMPLETED"]').waitFor({ timeout: 1_000 }).catch(async (e: Error) => {
      await app.shot('views-failed-run');
      throw e;
    });
    await page.getByTestId('nav-session').click();
    await page.getByRole('button', { name: '+ New session' }).click();
    await page.getByTestId('composer').fill('Write notes.txt');
    await page.getByTestId('composer').press('Enter');
    await page.locator('[data-testid="approval-card"][data-state="waiting"]').waitFor({ timeout: 30_000 });

    for (const theme of ['light', 'dark'] as const) {
      await setTheme(page, theme);
      for (const size of SIZES) {
        await page.setViewportSize(size);
        for (const view of VIEWS) {
          await page.getByTestId(`nav-${view}`).click();
          await page.locator(`[data-testid="app-shell"][data-view="${view}"]`).waitFor();
          if (view === 'timeline') await page.locator('[data-testid="timeline-block"]').first().click();
          if (view === 'servers') await page.locator('[data-testid="server-filesystem"][data-state="ready"]').waitFor({ timeout: 15_000 });
          await check(`${view}-${theme}-${size.name}`);
          if (view === 'timeline') {
            // The run drawn as its state machine, and the step details' prompt opened.
            await page.getByTestId('timeline-mode-machine').click();
            await page.getByTestId('state-machine').waitFor();
            await page.locator('[data-testid="machine-state"][data-state="prepare:architecture"]').click();
            await page.getByTestId('step-prompt-details').locator('summary').click();
            await page.getByTestId('step-prompt-text').waitFor();
            await check(`timeline-machine-${theme}-${size.name}`);
            await page.getByTestId('timeline-mode-order').click();
          }
        }
      }
    }
    await page.getByTestId('nav-session').click();
    await page.getByTestId('approve-once').click();
    await page.locator('[data-testid="assistant-message"]', { hasText: 'notes.txt' }).waitFor({ timeout: 30_000 });

    // After a run of six components (as the engine records one): every view at 1024×700, kept as
    // screenshots, axe-checked, and the timeline's step labels fit (the run scrolls sideways instead).
    const six = join(world.root, 'six-parts');
    mkdirSync(six);
    writeFinishedRun(join(world.root, 'home'), six, 6);
    await page.setViewportSize({ width: 1024, height: 700 });
    await setTheme(page, 'light');
    await page.getByTestId('nav-project').click();
    await page.getByTestId('close-project').click();
    await page.getByTestId('project-path').fill(six);
    await page.getByTestId('open-path').click();
    await page.getByTestId('run-summary').waitFor();
    for (const view of VIEWS) {
      await page.getByTestId(`nav-${view}`).click();
      await page.locator(`[data-testid="app-shell"][data-view="${view}"]`).waitFor();
      if (view === 'timeline') {
        expect(await page.getByTestId('part-cost').count()).toBe(8); // the preparation, six components, the final phase
        const cut = await page.locator('[data-testid="timeline-block"] > span:first-child').evaluateAll((els) => els.filter((e) => e.scrollWidth > e.clientWidth + 1).map((e) => e.textContent));
        expect(cut).toEqual([]);
        const laneCut = await page.locator('[data-testid^="lane-"] > span:first-child').evaluateAll((els) => els.filter((e) => e.scrollWidth > e.clientWidth + 1 && !e.getAttribute('title')).map((e) => e.textContent));
        expect(laneCut).toEqual([]);
      }
      await check(`six-components-${view}-1024x700`);
    }

    // Ten components still read at 1024 px: no label cut without its full text on hover or focus (a title),
    // in the views that grow with the plan.
    const ten = join(world.root, 'ten-parts');
    mkdirSync(ten);
    writeFinishedRun(join(world.root, 'home'), ten, 10);
    await page.getByTestId('nav-project').click();
    await page.getByTestId('close-project').click();
    await page.getByTestId('project-path').fill(ten);
    await page.getByTestId('open-path').click();
    await page.getByTestId('run-summary').waitFor();
    const cutWithoutFullText = () =>
      page.locator('body *').evaluateAll((els) =>
        els
          .filter((e) => e.children.length === 0 && e.textContent && e.scrollWidth > e.clientWidth + 1 && e.ownerDocument.defaultView!.getComputedStyle(e).textOverflow === 'ellipsis')
          // Each part of what is cut ("2.0 s · 1.5k · $0.0060") is in the tooltip (the title), in whatever words.
          .filter((e) => {
            const full = `${e.closest('[title]')?.getAttribute('title') ?? ''}\n${e.closest('[aria-label]')?.getAttribute('aria-label') ?? ''}`;
            return !e.textContent!.split(' · ').every((part: string) => full.includes(part.trim()));
          })
          .map((e) => e.textContent),
      );
    for (const view of ['project', 'timeline', 'session'] as const) {
      await page.getByTestId(`nav-${view}`).click();
      await page.locator(`[data-testid="app-shell"][data-view="${view}"]`).waitFor();
      if (view === 'timeline') {
        await expect.poll(() => page.getByTestId('part-cost').count()).toBe(12); // the preparation, ten components, the final phase
        // A lane's name is never cut: a long one ("report-formatter") takes a second line.
        const laneCut = await page.locator('[data-testid^="lane-"] > span:first-child').evaluateAll((els) => els.filter((e) => e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 1).map((e) => e.textContent));
        expect(laneCut).toEqual([]);
      }
      expect(await cutWithoutFullText()).toEqual([]);
      await check(`ten-components-${view}-1024x700`);
    }

    expect(found).toEqual({});
    expect(app.errors).toEqual([]);
    await page.context().close();
  }, 400_000);
});
