// A whole first goal in Chromium against `erasmus serve` on the default path, where the app must earn
// the user's trust (issue 25): every approval answered in the UI, naming its step and showing the
// change, one of them denied (the transcript says so); a reload mid-run comes back to the run and its view; a final review that asks for a fix leads to a
// final fixes step; the completion lists the point left open instead of a plain green; and no view of
// the whole run shows a `server__tool` id or an `a:b` state name. Then the project's next goal, given on the
// Project view: its plan review shows the tasks kept done and the ones it adds.
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedLlm, type ScriptedLlm, type ScriptTurn } from '../fixtures/scripted-llm/index';
import { launchChromium } from '../support/browser';
import { startServe, type ServeHandle } from '../support/serve';
import { ARTIFACTS, openApp, openProject } from './ui-helpers';
import { defaultPathScript, defaultWorld, gitState, secondGoalScript, type DefaultWorld } from './workflow-default';

const FINAL_REVIEW = '# Final review\n\nVerdict: one small fix needed\n\n1. README.md does not say how to run the end-to-end test.\n';
const LEFT_OPEN = 'README.md does not say how to run the end-to-end test: the overwrite was denied.';

/** The default run, with a final review that asks for a fix and a final fixes step whose README write the user denies. */
function script(): ScriptTurn[] {
  const base = defaultPathScript('native');
  const at = base.findIndex((t) => t.label === 'final review');
  return [
    ...base.slice(0, at),
    { label: 'final review', match: { lastUser: 'Review the whole product' }, text: FINAL_REVIEW },
    {
      label: 'final fixes',
      match: { lastUser: 'The final review asked for changes' },
      toolCalls: [{ name: 'files__write_file', arguments: { path: 'README.md', content: '# adder\n\nAdds two numbers.\n\nTests (unit and end-to-end): `node --test test/`.\n' } }],
    },
    { label: 'final fixes denied', match: { last: 'declined by the user' }, text: `The README write was denied, so it is unchanged.\n\n## Left open\n- ${LEFT_OPEN}\n` },
    // The project's next goal, given on the Project view: its preparation, up to the plan review.
    ...secondGoalScript('native').slice(0, 3),
  ];
}

/** What a person reads on the page now: rendered text only (tooltips and closed disclosures hold the raw names). */
const visibleText = (page: Page) => page.evaluate<string>('document.body.innerText');
const TOOL_ID = /\b[A-Za-z0-9-]+__[A-Za-z0-9_]+\b/;
/** Internal words that read as ids: a server "asks" by its config name, a lane named `prepare`. */
const RAW_WORDS = /\b(?:files|runners) asks\b|^prepare$/m;
const STATE_NAME = /\b(?:prepare|final|orchestration|adder):[a-z_-]+\b/;

/** No view shows an internal id where words belong. */
async function expectWords(page: Page): Promise<void> {
  const text = await visibleText(page);
  expect(text.match(TOOL_ID)?.[0]).toBeUndefined();
  expect(text.match(STATE_NAME)?.[0]).toBeUndefined();
  expect(text.match(RAW_WORDS)?.[0]).toBeUndefined();
}

describe('desktop UI: a run the user can trust — approvals, the final review acted on, words instead of ids', () => {
  let world: DefaultWorld;
  let llm: ScriptedLlm;
  let serve: ServeHandle;
  let browser: Browser;
  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    llm = await startScriptedLlm(script());
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

  it('answers every approval in the UI (one denied), runs the final fixes, and lists what was left open', async () => {
    const app = await openApp(browser, serve.url);
    const { page } = app;
    await page.getByTestId('welcome').waitFor();
    await openProject(page, world.project);
    await page.getByTestId('unattended').check();
    await page.getByTestId('start-workflow').click();
    await page.getByTestId('goal-input').fill('a function that adds two numbers, with tests');
    await page.getByTestId('goal-submit').click();
    await page.getByTestId('confirm-plan').click({ timeout: 60_000 });
    await page.getByTestId('nav-timeline').click();
    await page.getByTestId('timeline').waitFor();
    // A reload mid-run comes back as it was: the project, its run, the view.
    await page.reload();
    await page.locator('[data-testid="app-shell"][data-view="timeline"]').waitFor();
    await page.locator('[data-testid="timeline"]').waitFor();
    expect(await page.getByTestId('timeline-empty').count()).toBe(0);
    expect(await page.locator('header').getByTitle(world.project).textContent()).toBe('project');

    // Every question of the files server is an approval card: the step it belongs to, the change, Allow / Deny.
    const seen: string[] = [];
    const deadline = Date.now() + 150_000;
    while (!(await page.locator('[data-testid="timeline"][data-status="COMPLETED"]').count())) {
      if (Date.now() > deadline) throw new Error(`the run did not complete: ${await page.getByTestId('timeline').textContent()}`);
      const card = page.getByTestId('elicitation-card').first();
      if (await card.count()) {
        expect(await card.getByTestId('elicitation-accept').textContent()).toBe('Allow');
        expect(await card.locator('input[type="checkbox"]').count()).toBe(0);
        await card.getByTestId('approval-diff').waitFor();
        const step = (await card.getByTestId('approval-step').textContent()) ?? '?';
        seen.push(step);
        if (step === 'adder · debugging') {
          // The overwrite's diff: the old line out, the new one in.
          const diff = (await card.getByTestId('approval-diff').textContent()) ?? '';
          expect(diff).toContain('-   return a - b;');
          expect(diff).toContain('+   return a + b;');
          // While a run drives the project, "always allow" may hold for the run or the project, said in words.
          expect(await card.getByTestId('elicitation-always-run').textContent()).toBe('Always allow writing files in this project for this run');
          expect(await card.getByTestId('elicitation-always-project').textContent()).toBe('Always allow writing files in this project');
          await expectWords(page); // the toast too: "Approval needed", not "files asks"
          await app.shot('trust-01-overwrite-approval');
        }
        if (step === 'Final · review fixes') {
          await app.shot('trust-02-final-fixes-approval');
          await card.getByTestId('elicitation-decline').focus();
          await page.keyboard.press('Escape');
        } else await card.getByTestId('elicitation-accept').click();
        await card.waitFor({ state: 'detached' }).catch(() => undefined);
      }
      await page.waitForTimeout(100);
    }
    expect(seen).toEqual(['adder · debugging', 'adder · review fixes', 'Final · documentation', 'Final · review fixes']);

    // The final review asked for a fix: a final fixes step ran, and the end-to-end gate after it passed.
    const states = await page.locator('[data-testid="timeline-block"]').evaluateAll((els) => els.map((e) => `${e.getAttribute('data-state')}=${e.getAttribute('data-status')}`));
    expect(states).toContain('final:fixes=done');
    expect(states.indexOf('final:fixes=done')).toBeLessThan(states.indexOf('final:commit=done'));
    await expectWords(page);
    await app.shot('trust-03-timeline-completed');

    // The completion is not a plain green: it lists the review point left open.
    await page.getByTestId('nav-project').click();
    const summary = page.getByTestId('run-summary');
    await summary.waitFor();
    expect(await summary.getByRole('heading').textContent()).toBe('The run is complete, with review points left open');
    expect(await summary.getByTestId('summary-review-final').textContent()).toContain('The final review (Verdict: one small fix needed): fixed, 1 point left open');
    expect(await summary.getByTestId('summary-open-point').allTextContents()).toEqual([LEFT_OPEN]);
    await expectWords(page);
    await app.shot('trust-04-completion');

    // The final fixes step's transcript records the denial as a denial, with what it would have done.
    await page.getByTestId('nav-timeline').click();
    await page.getByTestId('timeline-mode-machine').click();
    await expectWords(page);
    await page.getByTestId('timeline-mode-order').click();
    await page.locator('[data-testid="timeline-block"][data-state="final:fixes"]').click();
    expect(await page.getByTestId('step-details').getByRole('heading').textContent()).toBe('Final · review fixes');
    await expectWords(page);
    await page.getByTestId('open-step-session').click();
    const denied = page.locator('[data-testid="question-answered"][data-state="decline"]');
    await denied.waitFor();
    expect(await denied.textContent()).toContain('Denied: Overwrite the existing file README.md');
    await page.locator('[data-testid="tool-card"]').first().waitFor();
    await expectWords(page);
    await app.shot('trust-05-denied-in-transcript');
    await page.getByTestId('nav-terminal').click();
    await page.getByRole('tab').first().waitFor();
    await expectWords(page);
    // The views left: every view of the whole run is in words.
    for (const view of ['servers', 'settings'] as const) {
      await page.getByTestId(`nav-${view}`).click();
      await page.locator(`[data-testid="app-shell"][data-view="${view}"]`).waitFor();
      await expectWords(page);
    }

    // The denied write changed nothing; the rest of the run is committed and the tree is clean.
    expect(readFileSync(join(world.project, 'README.md'), 'utf8')).not.toContain('end-to-end');
    expect(readFileSync(join(world.project, 'docs/reviews/final.md'), 'utf8')).toBe(FINAL_REVIEW);
    const git = gitState(world.project);
    expect(git.log[0]).toBe('Add end-to-end tests and update the documentation'); // in the style the log shows
    expect(git.dirty).toBe('');

    // The next goal, on the Project view as `start --goal` asks it: the plan review shows what it keeps done and what it adds.
    await page.getByTestId('nav-project').click();
    await page.getByTestId('new-goal-input').fill('subtract two numbers too');
    await page.getByTestId('new-goal-unattended').check();
    await page.getByTestId('new-goal-start').click();
    await page.getByTestId('plan-review').waitFor({ timeout: 60_000 });
    expect(await page.getByTestId('plan-delta-added').textContent()).toBe('New for this goal, to be developed: 2 tasks (S1, S2).');
    expect(await page.getByTestId('plan-delta-kept').textContent()).toBe('Kept as done from earlier goals: 2 tasks (A1, A2), not developed again.');
    expect(await page.getByTestId('plan-task-A1').getByTestId('plan-task-done').count()).toBe(1);
    expect(await page.getByTestId('plan-task-S1').getByTestId('plan-task-done').count()).toBe(0);
    expect(await page.getByTestId('run-panel').textContent()).toContain('Goal: subtract two numbers too');
    // The new goal's design step saw the architecture as built.
    expect(JSON.stringify(llm.requests.find((q) => JSON.stringify(q.body).includes('The project already has an architecture'))?.body)).toContain('As built: unit tests in test/adder.test.mjs');
    await expectWords(page);
    await app.shot('trust-06-new-goal-plan-delta');
    expect(llm.remaining()).toBe(0);
    expect(app.errors).toEqual([]);
    await page.context().close();
  });
});
