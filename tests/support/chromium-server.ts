// Vitest globalSetup of the e2e project: one headless Chromium for every end-to-end file. Each file
// connects to it (launchChromium) instead of starting a browser of its own; closing that connection
// closes the file's contexts and pages, and the browser goes at the end of the run.
import { chromium } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { CHROMIUM_ARGS, chromiumPath } from './chromium-options';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  try {
    const server = await chromium.launchServer({ executablePath: chromiumPath(), headless: true, args: CHROMIUM_ARGS });
    project.provide('chromiumWsEndpoint', server.wsEndpoint());
    return () => server.close();
  } catch (err) {
    console.warn(`warning: the shared Chromium did not start (${(err as Error).message.split('\n')[0]}); each end-to-end file launches its own`);
    project.provide('chromiumWsEndpoint', '');
    return async () => {};
  }
}
